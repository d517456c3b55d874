package kokkos

import "github.com/gokkos/kokkos/backend"

// A MemorySpace says where a view's elements live and who may touch them:
// InSpace takes one, and a view's Space returns one.
//
// HostSpace is ordinary Go memory, managed by the garbage collector. Other
// spaces (CUDA device, pinned and unified memory, in package
// github.com/gokkos/kokkos/cuda) hold memory outside the Go heap; what
// such a space implements, and the rules it keeps, are in package
// github.com/gokkos/kokkos/backend.
type MemorySpace = backend.MemorySpace

// hostSpace is HostSpace's type. It is a small integer so that HostSpace
// can be a constant, which no importer can reassign; its one meaningful
// value is HostSpace.
type hostSpace uint8

func (hostSpace) Name() string         { return "HostSpace" }
func (hostSpace) HostAccessible() bool { return true }
func (hostSpace) String() string       { return "HostSpace" }

// HostSpace is ordinary Go memory, the default memory space. It is a
// constant: kokkos.HostSpace cannot be reassigned, and it compares equal
// to the Space of every view in Go memory.
const HostSpace hostSpace = 0
