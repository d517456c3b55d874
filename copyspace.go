package kokkos

import (
	"runtime"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

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
			launch(e, dispatch{Label: label, Kind: kindTask, Work: work}, false)
			return nil
		}
		return work()
	case backend.WorkQueue:
		e.Submit(work)
		return nil
	}
	return work()
}

// hostEndpoint returns the Endpoint of n elements of host memory starting
// at s[0], pinning it in p for a backend that hands it to foreign code.
func hostEndpoint[T any](p *runtime.Pinner, s []T) backend.Endpoint {
	ptr := unsafe.Pointer(unsafe.SliceData(s))
	p.Pin(ptr)
	return backend.Endpoint{Host: ptr}
}

// devEndpoint returns the Endpoint of the element off elements past d's
// origin, in d's space.
func devEndpoint[T any](d *desc[T], off int) backend.Endpoint {
	return backend.Endpoint{Space: d.rec.Space(), Addr: d.rec.Addr() + uintptr((d.off+off)*sizeOf[T]())}
}
