package sched

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gokkos/kokkos/internal/errs"
)

// The queues of asynchronous instances, the fences that wait for them, and
// the detection of waits that could never end.
//
// A wait on a queue (an instance's Fence, the result of a reduction or
// scan on an instance, the package Fence, a copy without an instance: see
// Queue.Fence, Queue.Push with wait, WaitQueues)
// parks at once. If it is still parked after waitTick (50 us), a watchdog
// goroutine wakes it, and it finds out which queue's work the calling
// goroutine runs, if any. Only a queue's drain goroutine (running a
// submitted function, a body, or a pattern nested in them that runs on
// the calling goroutine) and a worker of the queue's pool inside the
// region of a pattern issued on the queue's instance run its work. A walk
// of the caller's stack (runtime.Callers) tells those goroutines from all
// others by the function they started in; only they then compute their
// goroutine id (goid, a stack trace) and look it up among the ids that
// drain goroutines and workers recorded when they started. Short waits,
// and the synchronous path, pay none of this.
//
//   - Waiting for its own queue, it would wait for itself. A reduction or
//     scan (Push with wait) runs inline instead; the other waits return
//     an error wrapping errs.ErrWouldDeadlock (see wouldDeadlock).
//   - Waiting for another queue, it records an edge of a wait graph. A
//     wait whose queue's work already waits, directly or through other
//     queues, for the caller's is refused with that error (a
//     reduction panics with it). Of two waits that close a cycle, the
//     second to look is refused, so the first goes on.
//
//   - Waiting for its own queue from a goroutine that the queue's work
//     started, while that work stays blocked: see started.go.
//
// Not detected: waits from the workers of a pattern that the work issues
// on a synchronous instance (such a region records no queue).

// registry holds the queues that have work (running) or an error that the
// package Fence has not reported. busy counts the running queues and size
// all of them, for the fast paths.
var registry struct {
	mu   sync.Mutex
	m    map[*Queue]struct{}
	busy atomic.Int64
	size atomic.Int64
}

// register adds q to the registry; q.mu is held.
func (q *Queue) register() {
	registry.mu.Lock()
	if registry.m == nil {
		registry.m = make(map[*Queue]struct{})
	}
	if _, ok := registry.m[q]; !ok {
		registry.m[q] = struct{}{}
		registry.size.Add(1)
	}
	registry.mu.Unlock()
}

// unregister removes q from the registry unless it still has work or an
// unreported error; q.mu is held.
func (q *Queue) unregister() {
	if q.running || q.gerr != nil {
		return
	}
	registry.mu.Lock()
	if _, ok := registry.m[q]; ok {
		delete(registry.m, q)
		registry.size.Add(-1)
	}
	registry.mu.Unlock()
}

func registered() []*Queue {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	qs := make([]*Queue, 0, len(registry.m))
	for q := range registry.m {
		qs = append(qs, q)
	}
	return qs
}

// WaitQueues waits for the work submitted before the call to every queue
// (of pool p, or of every pool when p is nil). It returns an error
// wrapping errs.ErrWouldDeadlock when that would never end.
func WaitQueues(op string, p *Pool) error {
	if registry.busy.Load() == 0 {
		return nil
	}
	var w waiter
	for _, q := range registered() {
		if p != nil && q.pool != p {
			continue
		}
		q.mu.Lock()
		seq := q.submitted
		q.mu.Unlock()
		if r := q.wait(seq, &w); r != waited {
			return wouldDeadlock(op, r)
		}
	}
	return nil
}

// TakeErrors returns the errors of queued work not yet taken by TakeErrors
// (the package Fence) and forgets them there; a queue's Fence reports them
// independently.
func TakeErrors() []error {
	if registry.size.Load() == 0 {
		return nil
	}
	var errs []error
	for _, q := range registered() {
		q.mu.Lock()
		if q.gerr != nil {
			errs = append(errs, q.gerr)
			q.gerr = nil
		}
		q.unregister()
		q.mu.Unlock()
	}
	return errs
}

// A Queue runs an asynchronous instance's work in order on one goroutine,
// started when work first arrives and parked while there is none. It ends
// on Stop: when the instance is closed (a later Push starts a new one), or
// unreachable.
type Queue struct {
	pool *Pool
	hold any // what Push was given to keep alive while the queue has work; under mu

	mu        sync.Mutex
	cond      sync.Cond // broadcast when completed grows
	work      sync.Cond // signalled when an idle drain goroutine has work
	tasks     []*task
	running   bool // tasks submitted and not completed
	alive     bool // the drain goroutine exists
	idle      bool // the drain goroutine waits on work
	quit      bool // the drain goroutine ends once idle
	unchecked int  // parked waits that have not looked for a deadlock
	ticks     uint // the watchdog's visits while there were such waits
	submitted uint64
	completed atomic.Uint64 // written under mu; read without it by the wait graph
	err       error         // first error since the instance's last Fence
	gerr      error         // first error since the last package Fence

	drainer atomic.Uint64 // the drain goroutine's id
}

type task struct {
	d    Dispatch
	wait bool
	seq  uint64
	err  error
	// started: the drain goroutine took the task; skip: it must not run
	// it (run inline by its waiter, or withdrawn). Both under q.mu.
	started, skip bool
}

// NewQueue returns an idle queue whose work runs its regions on p.
func NewQueue(p *Pool) *Queue {
	q := &Queue{pool: p}
	q.cond.L = &q.mu
	q.work.L = &q.mu
	return q
}

// Push queues d; with wait it returns when d has run and panics with its
// error. Called from the queue's own work, a wait dispatch runs inline
// on the calling goroutine; one that would wait in a cycle of queues
// panics with an error wrapping errs.ErrWouldDeadlock. hold is kept reachable while
// the queue has work (the kokkos package passes the pool's synchronous
// instance, whose cleanup closes the pool).
func (q *Queue) Push(d *Dispatch, wait bool, hold any) {
	t := &task{d: *d, wait: wait}
	q.mu.Lock()
	q.submitted++
	t.seq = q.submitted
	q.tasks = append(q.tasks, t)
	if !q.running {
		q.running = true
		q.hold = hold
		registry.busy.Add(1)
		q.register()
	}
	q.quit = false
	switch {
	case !q.alive:
		q.alive = true
		go q.drain()
	case q.idle:
		q.work.Signal()
	}
	q.mu.Unlock()
	if !wait {
		return
	}
	if r := q.wait(t.seq, &waiter{}); r != waited {
		// The queue is blocked by the work the caller is part of, so the
		// task has not started: take it back.
		q.mu.Lock()
		t.skip = !t.started
		q.mu.Unlock()
		if !t.skip {
			q.waitPlain(t.seq)
		} else if r == WaitsForItself {
			// The caller runs the queue's work, which needs the result
			// before it can finish: run the dispatch here, as part of
			// that work.
			if err := Execute(&t.d, q.pool, q); err != nil {
				panic(err)
			}
			return
		} else {
			panic(wouldDeadlock(fmt.Sprintf("%s %q", d.Kind, d.Label), r))
		}
	}
	if t.err != nil {
		panic(t.err)
	}
}

// drain runs the queue's tasks in order, and parks when there are none.
// It computes its goroutine's id once, for runningQueue.
func (q *Queue) drain() {
	q.drainer.Store(goid())
	q.mu.Lock()
	for {
		for len(q.tasks) > 0 {
			t := q.tasks[0]
			q.tasks[0] = nil
			q.tasks = q.tasks[1:]
			if t.skip {
				q.completeLocked(t, nil)
				continue
			}
			t.started = true
			q.mu.Unlock()
			q.run(t)
			q.mu.Lock()
		}
		q.tasks = nil
		if q.running {
			q.running, q.hold = false, nil
			registry.busy.Add(-1)
			q.unregister()
		}
		if q.quit {
			q.alive = false
			q.mu.Unlock()
			return
		}
		q.idle = true
		q.work.Wait()
		q.idle = false
	}
}

// Stop ends the queue's goroutine once it has run the work submitted so
// far; work submitted later starts a new one.
func (q *Queue) Stop() {
	q.mu.Lock()
	q.quit = true
	if q.idle {
		q.work.Signal()
	}
	q.mu.Unlock()
}

// run executes t and records its outcome. If t calls runtime.Goexit, which
// ends the queue's goroutine, it records that as t's panic and starts a new
// goroutine for the rest of the queue.
func (q *Queue) run(t *task) {
	goexit := true
	defer func() {
		if goexit {
			q.done(t, panicError(&t.d, &Panic{Value: GoexitValue}))
			go q.drain()
		}
	}()
	err := Execute(&t.d, q.pool, q)
	goexit = false
	q.done(t, err)
}

func (q *Queue) done(t *task, err error) {
	q.mu.Lock()
	q.completeLocked(t, err)
	q.mu.Unlock()
}

func (q *Queue) completeLocked(t *task, err error) {
	if err != nil {
		if t.wait {
			t.err = err
		} else {
			if q.err == nil {
				q.err = err
			}
			if q.gerr == nil {
				q.gerr = err
			}
		}
	}
	q.completed.Store(t.seq)
	q.cond.Broadcast()
}

// Fence waits for the tasks submitted before the call and returns the
// first error since the queue's last Fence, or an error wrapping
// errs.ErrWouldDeadlock, for op, when that wait would never end.
func (q *Queue) Fence(op string) error {
	q.mu.Lock()
	if seq := q.submitted; q.completed.Load() < seq {
		q.mu.Unlock()
		if r := q.wait(seq, &waiter{}); r != waited {
			return wouldDeadlock(op, r)
		}
		q.mu.Lock()
	}
	err := q.err
	q.err = nil
	q.mu.Unlock()
	return err
}

// A Refusal is why a wait was refused: wouldDeadlock says it in words.
type Refusal int

// The outcomes of queue.wait: waited, or a Refusal.
const (
	waited          Refusal = iota
	WaitsForItself          // the caller runs the queue's work
	WaitsInCycle            // the queue's work waits for the caller's
	WaitsForStarter         // the caller was started by the queue's work, which waits
)

// wait returns waited when q has completed task seq, or the reason why it
// did not wait because that cannot happen while the caller waits.
//
// A wait parks at once. Finding out which queue's work the caller runs
// costs a stack walk, so a parked wait does that only once it has lasted
// waitTick, when the watchdog wakes it: short waits, the usual ones, pay
// nothing. A waiter whose identity is known checks before it parks.
func (q *Queue) wait(seq uint64, w *waiter) Refusal {
	if q.completed.Load() >= seq {
		return waited
	}
	if w.known {
		return q.waitChecked(seq, w)
	}
	q.mu.Lock()
	// The watchdog counts its visits in q.ticks: two of them since the
	// wait parked mean a whole waitTick.
	start := q.ticks
	for q.completed.Load() < seq {
		if q.ticks-start >= 2 {
			q.mu.Unlock()
			return q.waitChecked(seq, w)
		}
		q.unchecked++
		startWatchdog()
		q.cond.Wait()
		q.unchecked--
	}
	q.mu.Unlock()
	return waited
}

// waitChecked is wait once the caller's queue is to be known.
func (q *Queue) waitChecked(seq uint64, w *waiter) Refusal {
	mine := w.in()
	if mine == q {
		return WaitsForItself
	}
	if mine == nil {
		return q.waitAsStarted(seq)
	}
	if !waits.add(mine, q, seq) {
		return WaitsInCycle
	}
	defer waits.remove(mine, q, seq)
	q.waitPlain(seq)
	return waited
}

// waitTick is how long a wait parks before it looks for a deadlock, and
// the period of the watchdog that wakes it for that; the watchdog ends
// after watchIdle periods without such waits.
const (
	waitTick  = 50 * time.Microsecond
	watchIdle = 20
)

var watchdogRunning atomic.Bool

// startWatchdog starts the watchdog unless it runs. A waiter calls it
// after counting itself in q.unchecked, under q.mu.
func startWatchdog() {
	if !watchdogRunning.Load() && watchdogRunning.CompareAndSwap(false, true) {
		go watchdog()
	}
}

// watchdog wakes, every waitTick, the parked waits that have not looked
// for a deadlock yet.
func watchdog() {
	for idle := 0; ; {
		time.Sleep(waitTick)
		if wakeUnchecked() {
			idle = 0
			continue
		}
		if idle++; idle < watchIdle {
			continue
		}
		watchdogRunning.Store(false)
		// A waiter that saw the watchdog running before the store is
		// counted already: look once more.
		if !wakeUnchecked() || !watchdogRunning.CompareAndSwap(false, true) {
			return
		}
		idle = 0
	}
}

// wakeUnchecked wakes the queues' unchecked waits and reports whether
// there were any.
func wakeUnchecked() bool {
	if registry.busy.Load() == 0 {
		return false
	}
	any := false
	for _, q := range registered() {
		q.mu.Lock()
		if q.unchecked > 0 {
			any = true
			q.ticks++
			q.cond.Broadcast()
		}
		q.mu.Unlock()
	}
	return any
}

// waitPlain waits until q has completed task seq.
func (q *Queue) waitPlain(seq uint64) {
	q.mu.Lock()
	for q.completed.Load() < seq {
		q.cond.Wait()
	}
	q.mu.Unlock()
}

// wouldDeadlock is the error of op, a wait that Queue.wait refused for the
// reason why, as the kokkos package's users read it: op is the kokkos
// call that waited (or the kind and label of a dispatch).
func wouldDeadlock(op string, why Refusal) error {
	switch why {
	case WaitsForItself:
		return fmt.Errorf("kokkos: %s called from work running on the asynchronous Threads instance it waits for, which cannot finish first: %w; %s", op, errs.ErrWouldDeadlock, advice(op))
	case WaitsForStarter:
		return fmt.Errorf("kokkos: %s called from a goroutine started by work running on the asynchronous Threads instance it waits for, while that work has stayed blocked (on a channel or a sync primitive) for %v: if the work waits for this goroutine, neither can finish: %w; wait for the instance outside its work and the goroutines that work starts", op, StarterBound, errs.ErrWouldDeadlock)
	}
	return fmt.Errorf("kokkos: %s called from work running on an asynchronous Threads instance waits for another instance whose work waits, directly or through other instances, for the caller's: %w", op, errs.ErrWouldDeadlock)
}

// advice says what to do instead of op, a wait refused because the caller
// runs the work it would wait for.
func advice(op string) string {
	switch op {
	case "Fence":
		return "the package Fence waits for every instance: call it from outside asynchronous work"
	case "Threads.Fence", "Threads.Close":
		return "fence the instance from outside its own work"
	case "DeepCopy", "DeepCopyOn", "Fill", "FillOn", "DeepCopyToScalar", "DeepCopyConvert", "CreateMirrorViewAndCopy":
		return "a copy without an execution space waits for every instance: order it on the instance with DeepCopyOn or FillOn(inst, ...), or run it at once, without fences, with DeepCopyOn or FillOn(Serial{}, ...)"
	}
	return "wait from outside the instance's work"
}

// A waiter finds, once, the queue whose work the calling goroutine runs.
type waiter struct {
	known bool
	mine  *Queue
}

func (w *waiter) in() *Queue {
	if !w.known {
		w.known = true
		if onPoolGoroutine() {
			w.mine = runningQueue(goid())
		}
	}
	return w.mine
}

// The functions that the goroutines able to run a queue's work start in.
var (
	drainFunc = ownPrefix + "(*Queue).drain"
	workFunc  = ownPrefix + "(*Pool).work"
)

// onPoolGoroutine reports whether the calling goroutine started in
// queue.drain or pool.work, or has a stack too deep to tell. It walks the
// stack without symbolizing it but for the last frames.
func onPoolGoroutine() bool {
	var pcs [64]uintptr
	n := runtime.Callers(2, pcs[:])
	if n == len(pcs) {
		return true
	}
	for _, pc := range pcs[max(n-4, 0):n] {
		if f := runtime.FuncForPC(pc - 1); f != nil && (f.Name() == drainFunc || f.Name() == workFunc) {
			return true
		}
	}
	return false
}

// runningQueue returns the queue whose work goroutine g runs: the queue g
// drains, or the owner of the region that g, a worker of a queue's pool,
// is in. It returns nil for other goroutines.
func runningQueue(g uint64) *Queue {
	if g == 0 {
		return nil // goid failed
	}
	qs := registered()
	for _, q := range qs {
		if q.drainer.Load() == g {
			return q
		}
	}
	for _, q := range qs {
		for _, w := range q.pool.workers {
			if w.gid.Load() == g {
				// g is this worker, inside a region (its only user code):
				// the region's owner is stable until g leaves it.
				return q.pool.owner
			}
		}
	}
	return nil
}

// waits is the wait graph: an edge from a queue to another says that
// work of the first waits for the second to complete task seq. An edge is
// live while that task has not completed.
var waits waitGraph

type waitGraph struct {
	mu    sync.Mutex
	edges map[*Queue][]waitEdge
}

type waitEdge struct {
	to  *Queue
	seq uint64
}

// add records that work of from waits for to's task seq, and reports
// false, recording nothing, when to's work already waits, directly or
// through other queues, for from's.
func (g *waitGraph) add(from, to *Queue, seq uint64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.reaches(to, from, map[*Queue]bool{}) {
		return false
	}
	if g.edges == nil {
		g.edges = make(map[*Queue][]waitEdge)
	}
	g.edges[from] = append(g.edges[from], waitEdge{to, seq})
	return true
}

// reaches reports whether a path of live edges leads from a to b.
func (g *waitGraph) reaches(a, b *Queue, seen map[*Queue]bool) bool {
	if a == b {
		return true
	}
	seen[a] = true
	for _, e := range g.edges[a] {
		if e.to.completed.Load() < e.seq && !seen[e.to] && g.reaches(e.to, b, seen) {
			return true
		}
	}
	return false
}

func (g *waitGraph) remove(from, to *Queue, seq uint64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	es := g.edges[from]
	for i, e := range es {
		if e.to == to && e.seq == seq {
			es[i] = es[len(es)-1]
			es = es[:len(es)-1]
			break
		}
	}
	if len(es) == 0 {
		delete(g.edges, from)
	} else {
		g.edges[from] = es
	}
}

// goid returns the calling goroutine's id, from the first line of its
// stack trace ("goroutine 123 [running]:"). It costs a stack walk.
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if len(b) < len(prefix) {
		return 0
	}
	var id uint64
	for _, c := range b[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}
