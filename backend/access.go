package backend

// An ExecAccess is an execution-space instance that says which memory
// spaces its work can read and write, as Kokkos's
// SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible. Package
// kokkos asks it when a view is allocated with an instance
// (kokkos.WithExec): the instance must reach the view's space. Instances
// that do not implement it reach host-accessible spaces when they are host
// instances (or their MemorySpace is host-accessible), and their own
// MemorySpace otherwise.
type ExecAccess interface {
	Exec
	// CanAccess reports whether work on the instance can read and write
	// memory of s.
	CanAccess(s MemorySpace) bool
}

// A SpaceExec is a memory space that names the default instance of its
// execution space, as Kokkos's MemorySpace::execution_space (CUDA device
// and unified memory: the device's default stream). A view's
// ExecutionSpace method returns it; the instance must implement
// kokkos.ExecutionSpace, or ExecutionSpace return nil where the backend
// cannot make one. Spaces that do not implement it have the default host
// execution space when the host can access them, and none otherwise.
type SpaceExec interface {
	MemorySpace
	ExecutionSpace() Exec
}
