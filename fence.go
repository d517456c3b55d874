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
// The package-level Fence runs every registered fence, and the copies
// without an execution space (DeepCopy, Fill, DeepCopyToScalar,
// DeepCopyConvert) run them before and after a copy that touches memory
// outside the Go heap, as Kokkos's deep_copy without an execution space
// fences.
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

// fenced runs op, a copy or fill into d (from s, unless nil) without an
// execution space; see fencedCopy.
func fenced[T any](op string, d, s *desc[T], work func() error) error {
	return fencedCopy(op, outsideGoHeap(d) || s != nil && outsideGoHeap(s), work)
}

// fencedCopy is the one fence path of the copies without an execution
// space, as Kokkos's deep_copy(dst, src) fences all outstanding work
// before the copy and completes the copy before it returns:
//
//  1. wait for the work submitted to every asynchronous host instance
//     (their errors stay for their fences);
//  2. when the copy touches memory outside the Go heap (device), run the
//     device fences before and after it.
//
// Called from work running on an asynchronous instance, it returns an error
// wrapping ErrWouldDeadlock and does not copy.
func fencedCopy(op string, device bool, work func() error) error {
	if err := waitQueues(op, nil); err != nil {
		return err
	}
	if !device {
		return work()
	}
	if err := fenceDevices(); err != nil {
		return err
	}
	if err := work(); err != nil {
		return err
	}
	return fenceDevices()
}
