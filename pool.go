package kokkos

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Spinning: a waiting goroutine polls for spinPure iterations, then yields
// its processor every spinYield iterations, and parks after spinIters.
// About 30-60 µs in all: long enough that back-to-back patterns never
// park, short enough that an idle pool costs nothing.
const (
	spinIters = 1 << 14
	spinPure  = 1 << 10
	spinYield = 1 << 6
)

const (
	stateRunning int32 = iota
	stateParked
)

// cacheLine separates fields written by different goroutines.
type cacheLine [64]byte

// A pool runs one region at a time on the calling goroutine and its
// workers. A region is a range of units [begin, end) handed out in chunks
// through an atomic counter.
type pool struct {
	n       int // participants: the caller plus len(workers)
	workers []*worker
	mu      sync.Mutex    // held by the goroutine running the current region
	done    chan struct{} // wakes a parked caller

	// The current region, written by the caller before it bumps gen, on
	// one cache line so that a worker fetches it in one transfer.
	_     cacheLine
	gen   atomic.Uint64 // bumped to start a region (or to stop)
	end   int
	chunk int
	body  func(lo, hi int)
	index func(i int)
	stop  bool
	// Participant k first runs chunk k; the chunks from first on are
	// handed out through next.
	begin, first int
	_            cacheLine
	next         atomic.Int64
	_            cacheLine
	pending      atomic.Int32 // workers still in the current region
	callerState  atomic.Int32
	_            cacheLine
	panicked     atomic.Pointer[panicked]
}

type worker struct {
	id    int // participant number; the caller is 0
	state atomic.Int32
	wake  chan struct{}
	_     cacheLine
}

type panicked struct {
	value any
	stack []byte
}

func newPool(n int) *pool {
	p := &pool{n: n, done: make(chan struct{}, 1)}
	for i := 1; i < n; i++ {
		w := &worker{wake: make(chan struct{}, 1), id: i}
		p.workers = append(p.workers, w)
		go p.work(w)
	}
	return p
}

func (p *pool) close() {
	p.mu.Lock()
	p.stop = true
	p.gen.Add(1)
	p.wakeWorkers()
	p.mu.Unlock()
}

// run executes the region on the caller and the workers and returns its
// first panic. When the pool is busy or has no workers, the caller runs the
// region alone.
func (p *pool) run(begin, end, chunk int, body func(lo, hi int), index func(int)) *panicked {
	if len(p.workers) == 0 || end-begin <= chunk || !p.mu.TryLock() {
		return runSerial(begin, end, chunk, body, index)
	}
	p.begin, p.end, p.chunk, p.body, p.index = begin, end, chunk, body, index
	p.first = begin + p.n*chunk
	p.panicked.Store(nil)
	p.next.Store(int64(p.first))
	p.pending.Store(int32(len(p.workers)))
	p.gen.Add(1)
	p.wakeWorkers()
	p.participate(0)
	p.waitWorkers()
	pv := p.panicked.Load()
	p.body, p.index = nil, nil
	p.mu.Unlock()
	return pv
}

func (p *pool) wakeWorkers() {
	for _, w := range p.workers {
		if w.state.Load() == stateParked && w.state.CompareAndSwap(stateParked, stateRunning) {
			w.wake <- struct{}{}
		}
	}
}

// participate runs its own first chunk, then takes chunks from next until
// none are left. Chunks are fetched with a load before the add so that a
// region with no more chunks than participants touches no shared line. A
// panic stops the region: next jumps to the end, so no participant takes
// another chunk.
func (p *pool) participate(id int) {
	defer func() {
		if r := recover(); r != nil {
			p.next.Store(int64(p.end))
			p.panicked.CompareAndSwap(nil, &panicked{r, debug.Stack()})
		}
	}()
	chunk, end := p.chunk, p.end
	body, index := p.body, p.index
	lo := p.begin + id*chunk
	if lo < end {
		runChunk(lo, min(lo+chunk, end), body, index)
	}
	if p.first >= end {
		return
	}
	for p.next.Load() < int64(end) {
		hi := int(p.next.Add(int64(chunk)))
		lo := hi - chunk
		if lo >= end {
			return
		}
		runChunk(lo, min(hi, end), body, index)
	}
}

func runChunk(lo, hi int, body func(lo, hi int), index func(int)) {
	if index == nil {
		body(lo, hi)
		return
	}
	for i := lo; i < hi; i++ {
		index(i)
	}
}

func (p *pool) work(w *worker) {
	var last uint64
	for {
		last = p.waitRegion(w, last)
		if p.stop {
			return
		}
		p.participate(w.id)
		if p.pending.Add(-1) == 0 {
			if p.callerState.Load() == stateParked && p.callerState.CompareAndSwap(stateParked, stateRunning) {
				p.done <- struct{}{}
			}
		}
	}
}

// waitRegion returns the generation of the next region after last.
func (p *pool) waitRegion(w *worker, last uint64) uint64 {
	for i := range spinIters {
		if g := p.gen.Load(); g != last {
			return g
		}
		if i >= spinPure && i%spinYield == 0 {
			runtime.Gosched()
		}
	}
	w.state.Store(stateParked)
	if g := p.gen.Load(); g != last && w.state.CompareAndSwap(stateParked, stateRunning) {
		return g
	}
	// Whoever moved the state back to running sends a wake-up; the
	// generation cannot move again before this worker finishes the region.
	<-w.wake
	return p.gen.Load()
}

func (p *pool) waitWorkers() {
	for i := range spinIters {
		if p.pending.Load() == 0 {
			return
		}
		if i >= spinPure && i%spinYield == 0 {
			runtime.Gosched()
		}
	}
	p.callerState.Store(stateParked)
	if p.pending.Load() == 0 && p.callerState.CompareAndSwap(stateParked, stateRunning) {
		return
	}
	<-p.done
}

// runSerial runs a region on the calling goroutine, chunk by chunk.
func runSerial(begin, end, chunk int, body func(lo, hi int), index func(int)) (pv *panicked) {
	defer func() {
		if r := recover(); r != nil {
			pv = &panicked{r, debug.Stack()}
		}
	}()
	if index != nil {
		for i := begin; i < end; i++ {
			index(i)
		}
		return nil
	}
	for lo := begin; lo < end; lo += chunk {
		body(lo, min(lo+chunk, end))
	}
	return nil
}
