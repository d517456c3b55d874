package kokkos

import (
	"runtime"
	"unsafe"
)

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
// (such as CUDA device memory) and that copies and fills it on request.
// DeepCopy and Fill go through it whenever one side of the operation is not
// host-accessible; everything else (layout changes, strided subviews) is
// done on the host around these calls, through host staging buffers.
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
// the rows of a non-contiguous view without one call per row.
type Copy2DSpace interface {
	CopySpace
	CopyBytes2D(dst Endpoint, dpitch int, src Endpoint, spitch int, width, height int) error
}

// An AsyncCopySpace is a CopySpace that can queue a contiguous copy on an
// execution-space instance (a stream) instead of waiting for it. DeepCopyOn
// uses it when it is given an instance and both sides are contiguous with
// the same strides. The copy must run after the work already queued on exec
// and before the work queued after it. A host Endpoint is valid only until
// CopyBytesAsync returns: the backend copies pageable host memory before
// returning, or stages it through its own pinned buffers. It returns
// false, nil when it does not know exec; DeepCopyOn then orders a
// synchronous copy through exec's queue instead.
type AsyncCopySpace interface {
	CopySpace
	CopyBytesAsync(exec any, dst, src Endpoint, n int) (queued bool, err error)
}

// A WorkQueue is the minimal execution-space instance that DeepCopyOn and
// FillOn need: Submit runs work after everything submitted before it,
// possibly on another goroutine, and reports work's error at the
// instance's next fence. Execution-space instances implement it.
type WorkQueue interface {
	Submit(work func() error)
}

// submitOn is the one place where DeepCopyOn and FillOn hand work to an
// execution-space instance (a nil one, which means the fenced copy, is
// handled before). Synchronous host instances run it now and return its
// error; an asynchronous host instance queues it, and its error, as it
// is, comes back from the instance's Fence; a WorkQueue (a device
// instance) queues it.
func submitOn(exec ExecutionSpace, label string, work func() error) error {
	switch e := exec.(type) {
	case *Threads:
		if e.Async() {
			launch(e, dispatch{label: label, kind: kindTask, work: work}, false)
			return nil
		}
		return work()
	case WorkQueue:
		e.Submit(work)
		return nil
	}
	return work()
}

// hostEndpoint returns the Endpoint of n elements of host memory starting
// at s[0], pinning it in p for a backend that hands it to foreign code.
func hostEndpoint[T any](p *runtime.Pinner, s []T) Endpoint {
	ptr := unsafe.Pointer(unsafe.SliceData(s))
	p.Pin(ptr)
	return Endpoint{Host: ptr}
}

// devEndpoint returns the Endpoint of the element off elements past d's
// origin, in d's space.
func devEndpoint[T any](d *desc[T], off int) Endpoint {
	return Endpoint{Space: d.rec.Space(), Addr: d.rec.Addr() + uintptr((d.off+off)*sizeOf[T]())}
}
