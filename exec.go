package kokkos

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// An ExecutionSpace is a place where parallel work runs, and an instance of
// it: work submitted to one instance runs in the order it was submitted.
//
// The host spaces are Serial and Threads (a goroutine pool, the default).
// Package github.com/gokkos/kokkos/cuda implements ExecutionSpace for CUDA
// streams; Go functions run only on host spaces (HostExecutionSpace).
type ExecutionSpace interface {
	// Name is the space's name as Kokkos spells it: "Serial", "Threads"
	// or "Cuda".
	Name() string
	// Concurrency is the number of units of work the instance runs at
	// once (goroutines for Threads, 1 for Serial).
	Concurrency() int
	// Fence waits until all work submitted to the instance has finished.
	// It returns the first panic of that asynchronous work, as a
	// *PanicError naming the kernel's label, or nil; the error is reported
	// once.
	Fence() error
	// MemorySpace is the space's default memory space.
	MemorySpace() MemorySpace
}

// A HostExecutionSpace is an execution space that runs Go functions. Serial
// and *Threads implement it; only this package can.
type HostExecutionSpace interface {
	ExecutionSpace
	// Submit runs fn on the instance after all work submitted to it
	// before, on one goroutine. On a synchronous instance (Serial, the
	// default Threads instance) fn has run when Submit returns, and a
	// panic in fn reaches the caller as a *PanicError. On an asynchronous
	// instance (Threads.NewInstance) Submit returns at once; Fence waits
	// for fn and reports its panic. The label names the work in errors
	// and profiles.
	Submit(label string, fn func())
	// launch runs or queues one dispatch; wait makes the caller wait for
	// it even on an asynchronous instance.
	launch(d dispatch, wait bool)
}

// A PanicError reports a panic inside a kernel body or a submitted
// function. Patterns rethrow it (panic(*PanicError)) in their caller; Fence
// returns it for asynchronous work.
type PanicError struct {
	Label string // the kernel's label
	Value any    // the value passed to panic
	// Where is "file.go:line" (the file's base name, as the testing
	// package prints it) of the panic in the caller's code: the first
	// frame of the panicking goroutine's stack outside this package and
	// the runtime (this package's own _test.go files count as the
	// caller's). A panic inside the package called from a body, such as
	// an out-of-bounds At, names the body's line. Empty when no such frame
	// exists; Stack has the full paths.
	Where string
	Stack []byte // the panicking goroutine's stack
}

// Error returns "kokkos: panic in kernel LABEL at WHERE: VALUE".
func (e *PanicError) Error() string {
	if e.Where == "" {
		return fmt.Sprintf("kokkos: panic in kernel %q: %v", e.Label, e.Value)
	}
	return fmt.Sprintf("kokkos: panic in kernel %q at %s: %v", e.Label, e.Where, e.Value)
}

// pkgPrefix begins the names of this package's functions.
var pkgPrefix = reflect.TypeFor[pool]().PkgPath() + "."

// panicSite returns "file.go:line" of the first frame of the calling
// goroutine's stack outside this package (its _test.go files excepted) and
// the runtime. Called from a deferred function during a panic, that is
// where the caller's code panicked, or called the package code that did.
func panicSite() string {
	var pcs [64]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs[:])])
	for {
		f, more := frames.Next()
		internal := strings.HasPrefix(f.Function, "runtime.") ||
			strings.HasPrefix(f.Function, pkgPrefix) && !strings.HasSuffix(f.File, "_test.go")
		if !internal && f.File != "" {
			return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return ""
		}
	}
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Serial is the execution space that runs everything on the calling
// goroutine, in order. Every pattern and every Submit has finished when it
// returns; Fence has nothing to wait for and returns nil. Its zero value is
// ready to use: kokkos.Range(0, n).On(kokkos.Serial{}).
type Serial struct{}

// Name returns "Serial".
func (Serial) Name() string { return "Serial" }

// Concurrency returns 1.
func (Serial) Concurrency() int { return 1 }

// Fence returns nil: Serial work finishes before the call that submits it
// returns.
func (Serial) Fence() error { return nil }

// MemorySpace returns HostSpace.
func (Serial) MemorySpace() MemorySpace { return HostSpace }

// Submit runs fn now, on the calling goroutine; a panic in fn reaches the
// caller as a *PanicError with the label.
func (s Serial) Submit(label string, fn func()) {
	launch(s, dispatch{label: label, kind: kindTask, task: fn}, false)
}

func (Serial) launch(d dispatch, wait bool) {
	if err := execute(&d, nil); err != nil {
		panic(err)
	}
}

// Threads is the goroutine-pool execution space, the default host space.
//
// A pool has Concurrency() participants: the goroutine that starts a
// pattern plus Concurrency()-1 worker goroutines. Idle workers spin for a
// few tens of microseconds waiting for the next pattern, then park, so an
// idle pool uses no CPU.
//
// The *Threads returned by NewThreads and DefaultExecutionSpace is the
// pool's synchronous instance: a pattern run on it has finished when it
// returns. NewInstance returns asynchronous instances sharing the workers.
// One pattern runs on the pool's workers at a time; a pattern started while
// the pool is busy (from another goroutine, or from inside a body) runs on
// its calling goroutine alone, with the same results.
//
// A pool stops its workers on Close, or once its synchronous instance and
// all its asynchronous instances are unreachable. Work given to a closed
// pool panics.
type Threads struct {
	pool *pool
	q    *queue   // nil for the synchronous instance
	root *Threads // an asynchronous instance's synchronous instance
}

// NewThreads starts a pool of n participants (the caller and n-1 worker
// goroutines). With n <= 0 the size comes from the KOKKOS_NUM_THREADS
// environment variable if it is set to a positive integer, and from
// runtime.GOMAXPROCS(0) otherwise. Close stops the workers; so does the
// garbage collector when the pool and its instances become unreachable.
func NewThreads(n int) *Threads {
	if n <= 0 {
		n = defaultThreads()
	}
	t := &Threads{pool: newPool(n)}
	// The workers hold the pool, never t; every asynchronous instance
	// holds t. So t becomes unreachable only when nothing can give the
	// pool work any more.
	runtime.AddCleanup(t, (*pool).close, t.pool)
	return t
}

func defaultThreads() int {
	if s := os.Getenv("KOKKOS_NUM_THREADS"); s != "" {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n
		}
	}
	return runtime.GOMAXPROCS(0)
}

var defaultThreadsSpace = sync.OnceValue(func() *Threads {
	t := NewThreads(0)
	t.pool.isDefault = true
	return t
})

// DefaultExecutionSpace returns the default execution space: the
// synchronous instance of a process-wide Threads pool, sized from
// KOKKOS_NUM_THREADS or GOMAXPROCS when first used. Policies that name no
// space run on it.
func DefaultExecutionSpace() HostExecutionSpace { return defaultThreadsSpace() }

// DefaultHostExecutionSpace returns the same pool as DefaultExecutionSpace,
// as a *Threads, for NewInstance.
func DefaultHostExecutionSpace() *Threads { return defaultThreadsSpace() }

// Name returns "Threads".
func (t *Threads) Name() string { return "Threads" }

// Concurrency returns the number of goroutines that run a pattern.
func (t *Threads) Concurrency() int { return t.pool.n }

// MemorySpace returns HostSpace.
func (t *Threads) MemorySpace() MemorySpace { return HostSpace }

// Async reports whether t is an asynchronous instance.
func (t *Threads) Async() bool { return t.q != nil }

// NewInstance returns a new asynchronous instance on t's pool. Work
// submitted to it runs in submission order on a goroutine of its own,
// concurrently with the caller and with other instances: ParallelFor and
// Submit return at once, Fence waits. ParallelReduce and ParallelScan wait
// for their own result (and so for the instance's earlier work).
func (t *Threads) NewInstance() *Threads {
	root := t
	if t.root != nil {
		root = t.root
	}
	return &Threads{pool: t.pool, q: newQueue(), root: root}
}

// Fence waits for all work submitted to the instance and returns the first
// panic among it as a *PanicError, once. On the synchronous instance it
// returns nil at once.
func (t *Threads) Fence() error {
	if t.q == nil {
		return nil
	}
	return t.q.fence()
}

// Submit runs fn on the instance after the work submitted before it; see
// HostExecutionSpace.
func (t *Threads) Submit(label string, fn func()) {
	launch(t, dispatch{label: label, kind: kindTask, task: fn}, false)
}

func (t *Threads) launch(d dispatch, wait bool) {
	if t.pool.stop.Load() {
		panic(fmt.Sprintf("kokkos: %s %q: Threads pool closed; give work to a pool that is open (NewThreads)", d.kind, d.label))
	}
	if t.q == nil {
		if err := execute(&d, t.pool); err != nil {
			panic(err)
		}
		return
	}
	t.q.push(&d, t.pool, wait)
}

// Close fences the instance. On a pool's synchronous instance it then
// stops the pool's workers, without waiting for a pattern that is running.
// Work given to the pool or its instances afterwards panics with a message
// naming its label and "pool closed". Closing a closed pool does nothing;
// closing the default pool panics.
func (t *Threads) Close() error {
	err := t.Fence()
	if t.q == nil {
		if t.pool.isDefault {
			panic("kokkos: Close of the default execution space")
		}
		t.pool.close()
	}
	return err
}

// Fence waits for all work submitted to every asynchronous instance and
// for the device work of every backend (see AddDeviceFence), and returns
// their first errors, joined, or nil. It is Kokkos::fence().
func Fence() error {
	registry.mu.Lock()
	if len(registry.m) == 0 {
		registry.mu.Unlock()
		return fenceDevices()
	}
	qs := make([]*queue, 0, len(registry.m))
	for q := range registry.m {
		qs = append(qs, q)
	}
	registry.mu.Unlock()
	var errs []error
	for _, q := range qs {
		if err := q.fence(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := fenceDevices(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// registry holds the asynchronous instances that have work or an
// unreported error, for the package-level Fence.
var registry struct {
	mu sync.Mutex
	m  map[*queue]struct{}
}

// A queue runs an asynchronous instance's work in order on one goroutine,
// started when work arrives and ended when the queue drains.
type queue struct {
	mu        sync.Mutex
	cond      sync.Cond
	tasks     []*task
	running   bool
	submitted uint64
	completed uint64
	err       error
}

type task struct {
	d    dispatch
	pool *pool
	wait bool
	seq  uint64
	err  error
}

func newQueue() *queue {
	q := &queue{}
	q.cond.L = &q.mu
	return q
}

// push queues d; with wait it returns when d has run and rethrows its panic.
func (q *queue) push(d *dispatch, p *pool, wait bool) {
	t := &task{d: *d, pool: p, wait: wait}
	q.mu.Lock()
	q.submitted++
	t.seq = q.submitted
	q.tasks = append(q.tasks, t)
	if !q.running {
		q.running = true
		registry.mu.Lock()
		if registry.m == nil {
			registry.m = make(map[*queue]struct{})
		}
		registry.m[q] = struct{}{}
		registry.mu.Unlock()
		go q.drain()
	}
	if !wait {
		q.mu.Unlock()
		return
	}
	for q.completed < t.seq {
		q.cond.Wait()
	}
	q.mu.Unlock()
	if t.err != nil {
		panic(t.err)
	}
}

func (q *queue) drain() {
	q.mu.Lock()
	for len(q.tasks) > 0 {
		t := q.tasks[0]
		q.tasks[0] = nil
		q.tasks = q.tasks[1:]
		q.mu.Unlock()
		q.run(t)
		q.mu.Lock()
	}
	q.tasks = nil
	q.running = false
	if q.err == nil {
		registry.mu.Lock()
		delete(registry.m, q)
		registry.mu.Unlock()
	}
	q.mu.Unlock()
}

// run executes t and records its outcome. If t calls runtime.Goexit, which
// ends the queue's goroutine, it records that as t's panic and starts a new
// goroutine for the rest of the queue.
func (q *queue) run(t *task) {
	goexit := true
	defer func() {
		if goexit {
			q.done(t, &PanicError{Label: t.d.label, Value: "runtime.Goexit called in a kernel body"})
			go q.drain()
		}
	}()
	err := execute(&t.d, t.pool)
	goexit = false
	q.done(t, err)
}

func (q *queue) done(t *task, err error) {
	q.mu.Lock()
	if err != nil {
		if t.wait {
			t.err = err
		} else if q.err == nil {
			q.err = err
		}
	}
	q.completed = t.seq
	q.cond.Broadcast()
	q.mu.Unlock()
}

func (q *queue) fence() error {
	q.mu.Lock()
	for q.completed < q.submitted {
		q.cond.Wait()
	}
	err := q.err
	q.err = nil
	if !q.running {
		registry.mu.Lock()
		delete(registry.m, q)
		registry.mu.Unlock()
	}
	q.mu.Unlock()
	return err
}

var (
	_ HostExecutionSpace = Serial{}
	_ HostExecutionSpace = (*Threads)(nil)
)
