package backend

import "unsafe"

// An Endpoint is one side of a byte copy that a CopySpace performs: either
// host memory (Host is not nil) or memory of a space at address Addr.
type Endpoint struct {
	// Space is the memory space of Addr; it is nil for host memory.
	Space MemorySpace
	// Addr is the address in Space, as Block.Addr gives it.
	Addr uintptr
	// Host is host memory: Go memory pinned for the duration of the call,
	// or host-accessible memory of a space. The backend must not keep it
	// after the call returns (the asynchronous variant excepted, see
	// AsyncCopySpace).
	Host unsafe.Pointer
}

// A CopySpace is a BlockSpace whose memory the host cannot access directly
// (such as CUDA device memory), or whose memory the backend copies better
// than the host does, and that copies and fills it on request.
// kokkos.DeepCopy and kokkos.Fill go through it whenever one side of the
// operation is not host-accessible; everything else (layout changes,
// strided subviews) is done on the host around these calls, through host
// staging buffers, unless the space is also a StridedCopySpace.
//
// A backend implements:
//   - CopyBytes for every pair in which at least one Endpoint is memory of
//     the backend's own spaces (the other may be host memory or memory of
//     another of its spaces, such as CUDA device and unified memory);
//   - FillBytes for its own memory.
//
// Sizes are in bytes, never zero; addresses are those of Block.Addr plus a
// byte offset. The calls are synchronous: the bytes are in place when they
// return.
type CopySpace interface {
	BlockSpace
	// CopyBytes copies n bytes from src to dst. The ranges do not overlap.
	CopyBytes(dst, src Endpoint, n int) error
	// FillBytes writes count copies of pattern (one element's bytes) to
	// consecutive memory of this space starting at dst.
	FillBytes(dst uintptr, pattern []byte, count int) error
}

// A Copy2DSpace is a CopySpace that also copies 2-D strided blocks in one
// call, as cudaMemcpy2D: height rows of width bytes, the rows dpitch bytes
// apart in dst and spitch bytes apart in src. The planner uses it to write
// the rows of a non-contiguous view without one call per row. The ranges
// do not overlap.
type Copy2DSpace interface {
	CopySpace
	CopyBytes2D(dst Endpoint, dpitch int, src Endpoint, spitch int, width, height int) error
}

// An Exec is an execution-space instance as a backend sees it: every
// kokkos.ExecutionSpace is one. A backend recognises its own instances
// (such as *cuda.Stream) by a type assertion.
type Exec interface {
	// Name is the space's name as Kokkos spells it ("Serial", "Threads",
	// "Cuda").
	Name() string
	// Fence waits until all work submitted to the instance has finished.
	Fence() error
}

// An AsyncCopySpace is a CopySpace that can queue a contiguous copy on an
// execution-space instance (a stream) instead of waiting for it.
// kokkos.DeepCopyOn uses it when it is given an instance and both sides
// are contiguous with the same strides. The copy must run after the work
// already queued on exec and before the work queued after it. A host
// Endpoint is valid only until CopyBytesAsync returns: the backend copies
// pageable host memory before returning, or stages it through its own
// pinned buffers. It returns false, nil when it does not know exec;
// DeepCopyOn then orders a synchronous copy through exec's queue instead.
type AsyncCopySpace interface {
	CopySpace
	CopyBytesAsync(exec Exec, dst, src Endpoint, n int) (queued bool, err error)
}

// A WorkQueue is the minimal execution-space instance that
// kokkos.DeepCopyOn and kokkos.FillOn need: Submit runs work after
// everything submitted before it, possibly on another goroutine, and
// reports work's error at the instance's next fence. Device execution-space
// instances (such as *cuda.Stream) implement it.
type WorkQueue interface {
	Submit(work func() error)
}

// A Strided is one side of a StridedCopySpace operation: Rank dimensions
// of Extents[:Rank] elements of ElemSize bytes, the element at index
// (i0, i1, ...) at Addr + ElemSize*(i0*Strides[0] + i1*Strides[1] + ...)
// in the space's memory (strides in elements, not negative). Addr is
// Block.Addr plus a byte offset, as for an Endpoint.
type Strided struct {
	Addr     uintptr
	ElemSize int
	Rank     int
	Extents  [8]int
	Strides  [8]int
}

// A StridedCopySpace is a CopySpace that copies and fills strided views
// of its memory on its own device in one operation (a kernel), without
// host staging: layout changes, subviews, fills of any stride.
// kokkos.DeepCopy and DeepCopyOn use it when both views are in
// StridedCopySpaces, one of them not host-accessible, and the copy is not
// one contiguous run; kokkos.Fill and FillOn use it for every view that is
// not host-accessible.
//
// exec nil asks for a synchronous operation: the elements are in place
// when the call returns, after the work queued earlier on the device. An
// exec the backend knows (such as *cuda.Stream) queues the operation on it
// after its earlier work and returns at once; fence exec before using the
// elements, and keep both views' memory until then.
//
// Both methods return done false and no error, doing nothing, when they
// cannot take the operation: an exec they do not know, memory of another
// space family or another device, an element size or alignment they do
// not handle. The caller then copies another way (for an unknown exec,
// through its WorkQueue). The ranges of dst and src do not overlap; the
// extents of dst and src are equal.
type StridedCopySpace interface {
	CopySpace
	// CopyStrided copies every element of src to the element of dst at
	// the same index.
	CopyStrided(exec Exec, dst, src Strided) (done bool, err error)
	// FillStrided stores pattern (one element's bytes, len(pattern) ==
	// dst.ElemSize) in every element of dst.
	FillStrided(exec Exec, dst Strided, pattern []byte) (done bool, err error)
}
