package sched

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/gokkos/kokkos/internal/affinity"
	"github.com/gokkos/kokkos/internal/errkind"
)

// A bound pool runs each worker on an OS thread of its own, locked to the
// worker's goroutine and bound to the worker's place (a set of CPUs), as
// OMP_PROC_BIND binds OpenMP threads. The caller of a region, a goroutine
// of the program's own, is not bound.
//
// Regions are handed out through the pool's one counter, bound or not.
// A static split (participant k owning the k-th contiguous block of
// chunks, so that a loop over the same range runs the same indices on the
// same worker, on the pages it first touched) is not kept: on the 2-core
// development machine (one NUMA node) it ran the STREAM Triad of
// BenchmarkTriadPool at 0.98 times the speed of the shared counter on the
// same bound pool (median of 46 alternating rounds, quartiles 0.73 and
// 1.18), and on the 16-core host within the counter's spread; see
// docs/internals/performance.md.

// A binding is a worker's place in a bound pool.
type binding struct {
	place affinity.CPUSet
	// started receives the result of the worker's first binding; the
	// worker clears it then.
	started chan<- error
	tid     atomic.Int64 // the bound thread's id, for tests
}

// lock locks the calling goroutine to its OS thread and binds the thread to
// the place, and reports whether it could. The thread is never unlocked:
// it ends with the goroutine (when the pool closes, or a body calls
// runtime.Goexit and a new goroutine, bound again, replaces it), so no
// other goroutine ever runs on a bound thread.
func (b *binding) lock() bool {
	runtime.LockOSThread()
	err := affinity.Bind(b.place)
	b.tid.Store(int64(affinity.ThreadID()))
	if b.started != nil {
		b.started <- err
		b.started = nil
	}
	return err == nil
}

// NewBoundPool starts a pool of len(places) participants whose worker i
// (participant i, from 1) runs on an OS thread bound to places[i];
// places[0] is the caller's place, which is not bound. It returns once
// every worker has bound its thread, or, if one could not, closes the pool
// and returns the error (wrapping affinity.ErrUnsupported).
func NewBoundPool(places []affinity.CPUSet) (*Pool, error) {
	n := len(places)
	p := &Pool{n: n, done: make(chan struct{}, 1), budget: smallBudget, bound: true}
	p.joined.Store(closedRegion)
	started := make(chan error, n)
	for i := 1; i < n; i++ {
		w := &worker{wake: make(chan struct{}, 1), bind: &binding{place: places[i], started: started}}
		p.workers = append(p.workers, w)
		go p.work(w)
	}
	var errs []error
	for i := 1; i < n; i++ {
		if err := <-started; err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		p.Close()
		return nil, errs[0]
	}
	return p, nil
}

// Bound reports whether p's workers are bound to places.
func (p *Pool) Bound() bool { return p.bound }

// BoundPoolFromEnv returns a pool of n participants bound as the settings
// read through getenv ask (affinity.FromEnv), on the machine that machine
// returns (affinity.ReadMachine). It returns nil and:
//   - no error when the settings ask for no binding;
//   - an error wrapping affinity.ErrSetting, naming the variable, for an
//     invalid value;
//   - an error wrapping affinity.ErrUnsupported, naming the variables and
//     saying why, when the binding cannot be made (not Linux, fewer places
//     than participants, a refused system call).
func BoundPoolFromEnv(n int, getenv func(string) string, machine func() (affinity.Machine, error)) (*Pool, error) {
	s, err := affinity.FromEnv(getenv)
	if err != nil || !s.Bound() {
		return nil, err
	}
	p, err := func() (*Pool, error) {
		m, err := machine()
		if err != nil {
			return nil, err
		}
		places, err := affinity.Assign(s, m, n)
		if err != nil {
			return nil, err
		}
		return NewBoundPool(places)
	}()
	if err != nil {
		return nil, errkind.Wrap(affinity.ErrUnsupported, fmt.Errorf("%s is ignored: %w", s.Variables(), err))
	}
	return p, nil
}
