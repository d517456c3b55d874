package sched

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// Spinning: a waiting goroutine polls for spinPure iterations, then yields
// its processor every spinYield iterations, and parks once spinTime has
// passed since it began to yield. spinTime is about what parking costs
// when the pool is next asked: waking 15 parked workers took 150 µs on the
// 16-core host (the Go scheduler starts one idle thread after another),
// as long as spawning 16 goroutines. Spinning that long, and no longer,
// never costs more than twice the better of spinning and parking. A
// spinning goroutine holds a processor, and goroutines of the program's
// own that wait in another processor's queue are not stolen while every
// processor spins: a pool that spun for 2 ms after each region halved the
// speed of plain goroutine loops run between its regions on 16 cores.
const (
	spinPure  = 1 << 10
	spinYield = 1 << 6
	spinTime  = 200 * time.Microsecond
)

// spinUntil polls done until it returns true, and reports true, or until
// the spin time has passed, and reports false. The clock is read only once
// the goroutine begins to yield, so that a short wait does not pay for it.
func spinUntil(done func() bool) bool {
	var start time.Duration
	for i := 0; ; i++ {
		if done() {
			return true
		}
		if i >= spinPure && i%spinYield == 0 {
			now := monoNow()
			if i == spinPure {
				start = now
			} else if now-start >= spinTime {
				return false
			}
			runtime.Gosched()
		}
	}
}

// smallBudget is the time a region of no more chunks than participants runs
// on its caller alone before it asks workers for the rest, once the last
// smallRuns such regions each ran within it: about the cost of asking a
// worker and waiting for it (0.5–1 µs between the cores of the virtual
// machines we measure on), so that a region of cheap chunks is not slowed
// by cross-core hand-offs that cost more than its work. Asking only after
// the budget costs a region of expensive chunks up to one chunk's time (a
// two-chunk region then runs on the caller alone); waiting for a run of
// cheap regions keeps that from happening to a region that alternates
// with cheap ones.
const (
	smallBudget = time.Microsecond
	smallRuns   = 8
)

// epoch is the origin of monoNow: time.Since reads the monotonic clock
// alone, at half the cost of time.Now.
var epoch = time.Now()

func monoNow() time.Duration { return time.Since(epoch) }

const (
	stateRunning int32 = iota
	stateParked
)

// cacheLine separates fields written by different goroutines.
type cacheLine [64]byte

// A Pool runs one region at a time on the calling goroutine and on the
// workers that join it. A region is a range of units [begin, end) handed out
// in chunks through an atomic counter.
//
// A region of fewer chunks than there are participants asks that many
// workers, each through a word of its own (worker.sig), so that the idle
// workers it does not need see nothing of it: a region of two chunks
// touches the cache lines of the caller and one worker only. A region of
// as many chunks as participants, or more, asks every worker at once
// through gen. Workers join a region through the joined counter; once the
// caller has run out of chunks it closes the region (adds closedRegion), so
// a worker that arrives late, or was descheduled, neither delays the caller
// nor touches the region. The caller waits only for the workers that
// joined.
//
// When the last smallRuns regions of no more chunks than participants each
// ran within smallBudget, the next such region starts on the caller alone
// and asks workers for the chunks left only once its chunks have taken
// smallBudget.
type Pool struct {
	n       int // participants: the caller plus len(workers)
	workers []*worker
	mu      sync.Mutex    // held by the goroutine running the current region
	done    chan struct{} // wakes a parked caller
	seq     uint64        // the number of the last region, written under mu
	// cheapRuns counts the last regions of no more chunks than
	// participants that would have run within smallBudget on their caller
	// alone (under mu; up to smallRuns). A region whose chunks all ran on
	// workers leaves it as it was.
	cheapRuns int
	budget    time.Duration // smallBudget (tests change it)

	// gen has a cache line of its own: every idle worker polls it, and a
	// line shared by all of them would be invalidated in all of them at
	// each write of the region's counters.
	_   cacheLine
	gen atomic.Uint64 // bumped to ask every worker (or to stop)

	// The current region, written by the caller before it asks workers,
	// and the counters a joining worker touches, together in one or two
	// cache lines: a worker joins in about two cache-line transfers.
	_    cacheLine
	next atomic.Int64 // the next unit to hand out
	// endA is end, readable by workers that have not joined: a worker
	// skips a region whose chunks are all taken.
	endA   atomic.Int64
	joined atomic.Int64 // workers in the region, plus closedRegion once closed
	end    int
	chunk  int
	body   func(lo, hi int)
	index  func(i int)
	owner  *Queue // the asynchronous queue whose work the region is
	stop   atomic.Bool
	bound  bool // the workers are bound to places (see pool_bound.go)

	_           cacheLine
	callerState atomic.Int32
	panicked    atomic.Pointer[Panic]
	_           cacheLine
}

const closedRegion = -1 << 40

// A worker's fields share a cache line with nothing another worker writes.
type worker struct {
	_     cacheLine
	sig   atomic.Uint64 // the number of the last region asked of this worker alone
	state atomic.Int32
	gid   atomic.Uint64 // the worker goroutine's id
	wake  chan struct{}
	bind  *binding // the worker's place in a bound pool, or nil
	_     cacheLine
}

// A Panic is a panic recovered in a region or a task.
type Panic struct {
	Value any
	Stack []byte // the panicking goroutine's stack
	Where string // see PanicSite
}

// recovered records a panic value r; it is called by the deferred function
// that recovered it, while the panicking stack is still there. A *Panic
// value, one recorded on another goroutine (by Recovered) and panicked
// again, is kept as it is.
func recovered(r any) *Panic {
	if p, ok := r.(*Panic); ok {
		return p
	}
	return &Panic{Value: r, Stack: debug.Stack(), Where: PanicSite()}
}

// Recovered records a panic value r recovered on a goroutine of the
// caller's own, where it happened; panicking with the result in a region
// reports it as that panic.
func Recovered(r any) *Panic { return recovered(r) }

// NewPool starts a pool of n participants: the caller of a region and n-1
// worker goroutines. The workers hold the pool; Close stops them.
func NewPool(n int) *Pool {
	p := &Pool{n: n, done: make(chan struct{}, 1), budget: smallBudget}
	p.joined.Store(closedRegion)
	for i := 1; i < n; i++ {
		w := &worker{wake: make(chan struct{}, 1)}
		p.workers = append(p.workers, w)
		go p.work(w)
	}
	return p
}

// Size returns the number of participants: the caller plus the workers.
func (p *Pool) Size() int { return p.n }

// Closed reports whether Close has been called.
func (p *Pool) Closed() bool { return p.stop.Load() }

// Close stops the workers. It does not wait: a region in progress ends
// normally, its workers leaving when it is done, and a region started
// afterwards runs on its caller alone (the kokkos package refuses work for
// a closed pool before it gets here). Closing twice does nothing.
func (p *Pool) Close() {
	if p.stop.Swap(true) {
		return
	}
	p.gen.Add(1)
	for _, w := range p.workers {
		w.wakeIfParked()
	}
}

// run executes the region on the caller and the workers and returns its
// first panic. When the pool is busy or has no workers, or the region is a
// single chunk, the caller runs it alone. owner is the queue whose work the
// region is (nil for a synchronous instance); a worker inside the region
// reports it as the queue it runs work of.
func (p *Pool) run(begin, end, chunk int, body func(lo, hi int), index func(int), owner *Queue) (pv *Panic) {
	if len(p.workers) == 0 || end-begin <= chunk || !p.mu.TryLock() {
		return runSerial(begin, end, chunk, body, index)
	}
	// finish runs even when a body calls runtime.Goexit on this goroutine,
	// so the pool is left whole.
	defer p.finish(&pv)
	// panicked is nil: finish cleared it.
	p.end, p.chunk, p.body, p.index, p.owner = end, chunk, body, index, owner
	chunks := (end - begin + chunk - 1) / chunk
	p.next.Store(int64(begin))
	p.endA.Store(int64(end))
	// Open by adding, not storing: a late worker's failed join may be
	// in flight, and its undo must balance.
	p.joined.Add(-closedRegion)
	p.seq++
	if chunks > p.n {
		p.ask(len(p.workers))
		p.participate(nil)
		return nil
	}
	// No more chunks than participants: ask no more workers than there
	// are chunks beyond the caller's first, and none before the chunks
	// have taken smallBudget if the last such region did not.
	c := callerRun{ask: chunks - 1}
	if p.cheapRuns < smallRuns {
		p.ask(c.ask)
		c.asked = true
	} else {
		c.start = monoNow()
	}
	p.participate(&c)
	if !c.asked {
		c.busy = monoNow() - c.start
	}
	switch {
	case c.ran == 0:
		// Workers still awake from an earlier region took every chunk:
		// the region says nothing of what its chunks cost.
	case c.busy*time.Duration(chunks) < p.budget*time.Duration(c.ran):
		p.cheapRuns = min(p.cheapRuns+1, smallRuns)
	default:
		p.cheapRuns = 0
	}
	return nil
}

// A callerRun is what the caller of a region of few chunks keeps while it
// runs them: the chunks it ran and the time they took, and the workers it
// has yet to ask.
type callerRun struct {
	start time.Duration // monoNow when the caller began, if it did not ask at once
	busy  time.Duration // the time of the caller's chunks
	ran   int
	ask   int  // workers to ask once the chunks have taken the budget
	asked bool // whether the caller has asked workers (it then times each chunk alone)
}

// ask asks the first n workers for the current region: each through its
// own word if they are fewer than all, else all at once through gen.
func (p *Pool) ask(n int) {
	asked := p.workers[:n]
	if n == len(p.workers) {
		p.gen.Add(1)
	} else {
		for _, w := range asked {
			w.sig.Store(p.seq)
		}
	}
	woke := false
	for _, w := range asked {
		woke = w.wakeIfParked() || woke
	}
	if woke {
		// A woken worker waits in this processor's next slot, which
		// other processors steal from only after a pause (3 µs, and
		// 0.2-3 ms on the virtual machines we measure on): yielding runs
		// it here at once and this goroutine where a processor is free.
		runtime.Gosched()
	}
}

// finish closes the region, waits for the workers that joined it and
// returns its first panic in *pv.
func (p *Pool) finish(pv **Panic) {
	if p.joined.Add(closedRegion) != closedRegion {
		p.waitWorkers()
	}
	*pv = p.panicked.Load()
	if *pv != nil {
		p.panicked.Store(nil)
	}
	// Drop the region's references: the pool outlives its users (every
	// *kokkos.Threads), and what it holds stays reachable.
	p.body, p.index, p.owner = nil, nil, nil
	p.mu.Unlock()
}

// wakeIfParked wakes w if it is parked. Whoever moves a parked worker's
// state back to running sends its wake-up.
func (w *worker) wakeIfParked() bool {
	if w.state.Load() == stateParked && w.state.CompareAndSwap(stateParked, stateRunning) {
		w.wake <- struct{}{}
		return true
	}
	return false
}

// participate takes chunks until none are left. It loads the counter
// before adding to it, so that participants that find no work leave the
// counter's cache line shared. A panic stops the region: the counter jumps
// to the end, so no participant takes another chunk. c is the caller's
// state in a region of few chunks (nil otherwise): after each chunk, if
// workers are yet to be asked and the chunks have taken the budget, it
// asks one for each chunk left, up to c.ask.
func (p *Pool) participate(c *callerRun) {
	defer func() {
		if r := recover(); r != nil {
			p.next.Store(int64(p.end))
			p.panicked.CompareAndSwap(nil, recovered(r))
		}
	}()
	chunk, end := p.chunk, p.end
	body, index := p.body, p.index
	for p.next.Load() < int64(end) {
		hi := int(p.next.Add(int64(chunk)))
		lo := hi - chunk
		if lo >= end {
			return
		}
		hi = min(hi, end)
		var t0 time.Duration
		if c != nil && c.asked {
			t0 = monoNow()
		}
		if index == nil {
			body(lo, hi)
		} else {
			runIndex(index, lo, hi)
		}
		if c == nil {
			continue
		}
		c.ran++
		if c.asked {
			c.busy += monoNow() - t0
		} else if left := (end - int(p.next.Load()) + chunk - 1) / chunk; left > 0 {
			if now := monoNow(); now-c.start >= p.budget {
				c.busy = now - c.start
				p.ask(min(c.ask, left))
				c.asked = true
			}
		}
	}
}

func (p *Pool) work(w *worker) {
	w.gid.Store(goid())
	if w.bind != nil && !w.bind.lock() {
		return
	}
	var last signals
	for {
		last = p.waitRegion(w, last)
		if p.stop.Load() {
			return
		}
		p.join(w, &last)
	}
}

// signals are the two words an idle worker polls: its own and the pool's.
type signals struct{ sig, gen uint64 }

func (p *Pool) signals(w *worker) signals { return signals{w.sig.Load(), p.gen.Load()} }

// join runs the current region on a worker if it is still open.
func (p *Pool) join(w *worker, last *signals) {
	if p.next.Load() >= p.endA.Load() {
		// Every chunk is taken: joining would only make the caller wait.
		return
	}
	goexit := true
	defer func() {
		if goexit {
			// A body called runtime.Goexit, which ends this goroutine:
			// report it and put a new goroutine in its place.
			p.next.Store(int64(p.end))
			p.panicked.CompareAndSwap(nil, &Panic{Value: GoexitValue})
			go p.work(w)
		}
		if p.joined.Add(-1) == closedRegion {
			if p.callerState.Load() == stateParked && p.callerState.CompareAndSwap(stateParked, stateRunning) {
				p.done <- struct{}{}
			}
		}
	}()
	if p.joined.Add(1) > 0 {
		// Joined: the region cannot change until this worker leaves, and
		// a signal seen from now on is of this region or a later one.
		*last = p.signals(w)
		p.participate(nil)
	}
	goexit = false
}

// waitRegion returns the signals once they differ from last.
func (p *Pool) waitRegion(w *worker, last signals) signals {
	var s signals
	if spinUntil(func() bool { s = p.signals(w); return s != last }) {
		return s
	}
	w.state.Store(stateParked)
	if s := p.signals(w); s != last && w.state.CompareAndSwap(stateParked, stateRunning) {
		return s
	}
	// Whoever moved the state back to running sends a wake-up.
	<-w.wake
	return p.signals(w)
}

// waitWorkers waits until the workers that joined the closed region have
// left it.
func (p *Pool) waitWorkers() {
	if spinUntil(func() bool { return p.joined.Load() == closedRegion }) {
		return
	}
	p.callerState.Store(stateParked)
	if p.joined.Load() == closedRegion && p.callerState.CompareAndSwap(stateParked, stateRunning) {
		return
	}
	<-p.done
}

// runSerial runs a region on the calling goroutine, chunk by chunk.
func runSerial(begin, end, chunk int, body func(lo, hi int), index func(int)) (pv *Panic) {
	defer func() {
		if r := recover(); r != nil {
			pv = recovered(r)
		}
	}()
	if index != nil {
		runIndex(index, begin, end)
		return nil
	}
	for lo := begin; lo < end; lo += chunk {
		body(lo, min(lo+chunk, end))
	}
	return nil
}

// runIndex calls index(i) for i from lo to hi-1: the loop of a region run
// index by index. It is a function of its own, not inlined, so that after
// each call only its three values are loaded again: inlined into
// participate, the loop reloaded nine (everything live across the
// region's chunks).
//
//go:noinline
func runIndex(index func(int), lo, hi int) {
	for i := lo; i < hi; i++ {
		index(i)
	}
}
