package algorithms

import (
	"github.com/gokkos/kokkos"
)

// hostPool runs the tasks of a host sort on a host execution space.
type hostPool struct {
	exec kokkos.HostExecutionSpace
}

// asyncSpace is a host instance that may run work after its patterns
// return (Threads.NewInstance's).
type asyncSpace interface{ Async() bool }

// workers is the number of tasks worth making.
func (h *hostPool) workers() int { return max(1, h.exec.Concurrency()) }

// each runs f(c) for c in [0, tasks) on the space's workers and returns
// when all have run: the error is the space's Fence's on an asynchronous
// instance (a panic in f among them); on a synchronous one a panic in f
// reaches the caller.
func (h *hostPool) each(label string, tasks int, f func(c int)) error {
	if tasks == 1 {
		f(0)
		return nil
	}
	kokkos.ParallelForChunks(label, kokkos.Range(0, tasks).WithChunk(1).On(h.exec), func(lo, hi int) {
		for c := lo; c < hi; c++ {
			f(c)
		}
	})
	if a, ok := h.exec.(asyncSpace); ok && a.Async() {
		return h.exec.Fence()
	}
	return nil
}
