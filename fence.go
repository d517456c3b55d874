package kokkos

import (
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/devfence"
)

// fenceDevices runs every device fence registered with
// backend.RegisterFence and returns their errors, joined.
func fenceDevices() error { return devfence.Run() }

// outsideGoHeap reports whether d's memory belongs to a backend.BlockSpace.
func outsideGoHeap[T any](d *desc[T]) bool {
	if d.rec == nil {
		return false
	}
	_, ok := d.rec.Space().(backend.BlockSpace)
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
