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
// A pool made with split set cuts a region of more chunks than
// participants statically: participant k (the caller 0, worker i participant i+1) owns
// the k-th of as many contiguous blocks of chunks as there are
// participants, runs its own block's chunks first, and then takes chunks
// left in the blocks of the others, in turn from the next participant's.
// So a loop over the same range with the same chunk size runs the same
// indices on the same worker, on the same CPUs, from one launch to the
// next, unless a participant late to a region has its chunks taken by the
// others: pages first written by a worker are read by it again, from its
// own caches and, on a machine of several NUMA nodes, from its own node's
// memory. Regions of no more chunks than participants are handed out as
// in an unbound pool.
//
// BoundPoolFromEnv does not split (splitBound): on the 2-core
// development machine (one NUMA node) the static blocks ran the STREAM
// Triad of BenchmarkTriadPool at 0.98 times the speed of the shared
// counter on the same bound pool (median of 46 alternating rounds,
// quartiles 0.73 and 1.18); see docs/internals/performance.md.
const splitBound = false

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

// A block is a participant's share of a statically split region, in
// chunks: [next, end) are the chunks left in it.
type block struct {
	next atomic.Int64
	end  int64
	_    [48]byte
}

// NewBoundPool starts a pool of len(places) participants whose worker i
// (participant i, from 1) runs on an OS thread bound to places[i];
// places[0] is the caller's place, which is not bound. With split, regions
// of more chunks than participants are split into static blocks. It
// returns once
// every worker has bound its thread, or, if one could not, closes the pool
// and returns the error (wrapping affinity.ErrUnsupported).
func NewBoundPool(places []affinity.CPUSet, split bool) (*Pool, error) {
	n := len(places)
	p := &Pool{n: n, done: make(chan struct{}, 1), budget: smallBudget, bound: true}
	if split {
		p.blocks = make([]block, n)
	}
	p.joined.Store(closedRegion)
	started := make(chan error, n)
	for i := 1; i < n; i++ {
		w := &worker{wake: make(chan struct{}, 1), id: i, bind: &binding{place: places[i], started: started}}
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

// split divides the chunks of the region that begins at begin among the
// participants' blocks, participant k owning [k*chunks/n, (k+1)*chunks/n).
func (p *Pool) split(begin, chunks int) {
	p.begin = begin
	n := len(p.blocks)
	for k := range p.blocks {
		b := &p.blocks[k]
		b.end = int64((k + 1) * chunks / n)
		b.next.Store(int64(k * chunks / n))
	}
}

// stopChunks makes every chunk of the current region taken, so that no
// participant starts another (after a panic or a Goexit).
func (p *Pool) stopChunks() {
	p.next.Store(int64(p.end))
	if p.static {
		for k := range p.blocks {
			b := &p.blocks[k]
			b.next.Store(b.end)
		}
	}
}

// participateStatic runs the chunks of participant k's block, then those
// left in the other blocks, from participant k+1's on. Like participate, it
// loads a block's counter before adding to it, and a panic stops the
// region.
func (p *Pool) participateStatic(k int) {
	defer func() {
		if r := recover(); r != nil {
			p.stopChunks()
			p.panicked.CompareAndSwap(nil, recovered(r))
		}
	}()
	begin, chunk, end := p.begin, p.chunk, p.end
	body, index := p.body, p.index
	blocks := p.blocks
	for i := range blocks {
		b := &blocks[(k+i)%len(blocks)]
		for b.next.Load() < b.end {
			c := b.next.Add(1) - 1
			if c >= b.end {
				break
			}
			lo := begin + int(c)*chunk
			hi := min(lo+chunk, end)
			if index == nil {
				body(lo, hi)
			} else {
				for j := lo; j < hi; j++ {
					index(j)
				}
			}
		}
	}
}

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
		return NewBoundPool(places, splitBound)
	}()
	if err != nil {
		return nil, errkind.Wrap(affinity.ErrUnsupported, fmt.Errorf("%s is ignored: %w", s.Variables(), err))
	}
	return p, nil
}
