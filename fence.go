package kokkos

import (
	"errors"
	"slices"
	"sync"
	"sync/atomic"
)

// deviceFences are the fences that backends register with AddDeviceFence:
// an immutable list, replaced under mu, so that fencing takes no lock.
var deviceFences struct {
	mu   sync.Mutex
	list atomic.Pointer[[]*deviceFence]
}

type deviceFence struct{ f func() error }

// AddDeviceFence registers f, a backend's wait for all of its outstanding
// device work (the CUDA backend registers cuda.Synchronize when it loads).
// The package-level Fence runs every registered fence, and DeepCopy and
// Fill run them before and after a copy that touches memory outside the Go
// heap, as Kokkos's deep_copy without an execution space fences.
//
// The returned function removes f again, like the stop function of
// context.AfterFunc; calling it more than once does nothing.
func AddDeviceFence(f func() error) (remove func()) {
	e := &deviceFence{f}
	setDeviceFences(func(l []*deviceFence) []*deviceFence { return append(l, e) })
	return sync.OnceFunc(func() {
		setDeviceFences(func(l []*deviceFence) []*deviceFence {
			return slices.DeleteFunc(l, func(x *deviceFence) bool { return x == e })
		})
	})
}

// setDeviceFences replaces the list with edit of a copy of it.
func setDeviceFences(edit func([]*deviceFence) []*deviceFence) {
	deviceFences.mu.Lock()
	defer deviceFences.mu.Unlock()
	var l []*deviceFence
	if old := deviceFences.list.Load(); old != nil {
		l = slices.Clone(*old)
	}
	l = edit(l)
	deviceFences.list.Store(&l)
}

// fenceDevices runs every registered device fence and returns their
// errors, joined.
func fenceDevices() error {
	l := deviceFences.list.Load()
	if l == nil || len(*l) == 0 {
		return nil
	}
	var errs []error
	for _, e := range *l {
		if err := e.f(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// outsideGoHeap reports whether d's memory belongs to a BlockSpace.
func outsideGoHeap[T any](d *desc[T]) bool {
	if d.rec == nil {
		return false
	}
	_, ok := d.rec.Space().(BlockSpace)
	return ok
}

// fenced runs op between two device fences when either view lives outside
// the Go heap.
func fenced[T any](d, s *desc[T], op func() error) error {
	if !outsideGoHeap(d) && (s == nil || !outsideGoHeap(s)) {
		return op()
	}
	if err := fenceDevices(); err != nil {
		return err
	}
	if err := op(); err != nil {
		return err
	}
	return fenceDevices()
}
