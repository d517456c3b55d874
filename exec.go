package kokkos

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"

	"github.com/gokkos/kokkos/internal/errs"
	"github.com/gokkos/kokkos/internal/prof"
	"github.com/gokkos/kokkos/internal/sched"
)

// The pool, the queues of asynchronous instances and the dispatch of work
// to them are in internal/sched; this file is the user API over them.

// Fence waits for the work submitted, before the call, to every
// asynchronous instance, and for the device work of every backend (see
// backend.RegisterFence). It returns the errors of asynchronous work that finished
// since the previous package-level Fence (panics as *PanicError, failed
// asynchronous copies as their errors) and the device fences' errors,
// joined with errors.Join, or nil. It is Kokkos::fence().
//
// Each error of asynchronous work is reported once by the package-level
// Fence and once by its instance's Fence, in either order: neither takes it
// from the other.
//
// Called from work running on an asynchronous instance, Fence returns an
// error wrapping ErrWouldDeadlock, and nothing else, instead of waiting for
// that instance.
func Fence() error {
	if prof.On() {
		defer prof.EndFence(prof.BeginFence("Kokkos::fence: Unnamed Global Fence", fenceID))
	}
	if err := waitQueues("Fence", nil); err != nil {
		return err
	}
	failed := sched.TakeErrors()
	if err := fenceDevices(); err != nil {
		failed = append(failed, err)
	}
	return errors.Join(failed...)
}

// waitQueues waits for the work submitted before the call to every
// asynchronous instance (of pool p, or of every pool when p is nil). It
// returns an error wrapping ErrWouldDeadlock when that would never end.
func waitQueues(op string, p *sched.Pool) error {
	return sched.WaitQueues(op, p)
}

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
	// Fence waits until all work submitted to the instance before the
	// call has finished. It returns the first error of that asynchronous
	// work since the instance's previous Fence (a panic as a *PanicError
	// naming the kernel's label, a failed DeepCopyOn or FillOn as the
	// copy's error), or nil. A host instance's Fence called from work
	// running on that instance returns an error wrapping ErrWouldDeadlock
	// instead of waiting.
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
// returns it for asynchronous work. Its fields are the kernel's label
// (Label), the value passed to panic (Value), the panicking goroutine's
// stack (Stack), and the place of the panic in the caller's code (Where):
// "file.go:line", the file's base name as the testing package prints it,
// of the first frame of that stack outside this package, its internal
// packages and the runtime (this package's own _test.go files count as
// the caller's). A panic inside this package called from a body, such as
// an out-of-bounds At, names the body's line; Where is empty when no such
// frame exists. Its Error returns "kokkos: panic in kernel LABEL at WHERE:
// VALUE", and its Unwrap the panic value when that is an error.
type PanicError struct {
	Label string
	Value any
	Where string
	Stack []byte
}

// Error returns "kokkos: panic in kernel LABEL at WHERE: VALUE".
func (e *PanicError) Error() string { return errs.PanicMessage(e.Label, e.Where, e.Value) }

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// newPanicError is the constructor of every dispatch's panic error.
func newPanicError(label string, value any, where string, stack []byte) error {
	return &PanicError{Label: label, Value: value, Where: where, Stack: stack}
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
	launch(s, dispatch{Label: label, Kind: kindTask, Task: fn}, false)
}

func (Serial) launch(d dispatch, wait bool) {
	if err := sched.Execute(&d, nil, nil); err != nil {
		panic(err)
	}
}

// Threads is the goroutine-pool execution space, the default host space.
//
// A pool has Concurrency() participants: the goroutine that starts a
// pattern plus Concurrency()-1 worker goroutines. Idle workers spin for
// 200 µs waiting for the next pattern, yielding their processors, then
// park, so an idle pool uses no CPU.
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
	pool      *sched.Pool
	q         *sched.Queue // nil for the synchronous instance
	root      *Threads     // an asynchronous instance's synchronous instance
	isDefault bool         // the default pool's, which cannot be closed
	ownsPool  bool         // a PartitionSpace instance, whose Close closes its pool
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
	t := &Threads{pool: sched.NewPool(n)}
	// The workers hold the pool, never t; every asynchronous instance holds
	// t, and so does its queue while it has work. So t becomes unreachable
	// only when nothing can give the pool work any more.
	runtime.AddCleanup(t, (*sched.Pool).Close, t.pool)
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
	t := newDefaultThreads(defaultThreads())
	t.isDefault = true
	return t
})

// DefaultExecutionSpace returns the default execution space: the
// synchronous instance of a process-wide Threads pool, sized from
// KOKKOS_NUM_THREADS or GOMAXPROCS when first used. Policies that name no
// space run on it. Its workers are bound to CPUs when KOKKOS_PROC_BIND or
// KOKKOS_PLACES is set (else OMP_PROC_BIND or OMP_PLACES), with OpenMP's
// values: see docs/guide/parallel.md; an invalid value panics with an
// error wrapping ErrOption.
func DefaultExecutionSpace() HostExecutionSpace { return defaultThreadsSpace() }

// DefaultHostExecutionSpace returns the same pool as DefaultExecutionSpace,
// as a *Threads, for NewInstance.
func DefaultHostExecutionSpace() *Threads { return defaultThreadsSpace() }

// Name returns "Threads".
func (t *Threads) Name() string { return "Threads" }

// Concurrency returns the number of goroutines that run a pattern.
func (t *Threads) Concurrency() int { return t.pool.Size() }

// MemorySpace returns HostSpace.
func (t *Threads) MemorySpace() MemorySpace { return HostSpace }

// Async reports whether t is an asynchronous instance.
func (t *Threads) Async() bool { return t.q != nil }

// NewInstance returns a new asynchronous instance on t's pool. Work
// submitted to it runs in submission order on a goroutine of its own,
// concurrently with the caller and with other instances: ParallelFor and
// Submit return at once, Fence waits. ParallelReduce and ParallelScan wait
// for their own result (and so for the instance's earlier work); called
// from work running on the instance itself, they run at once, inline, as
// part of that work.
func (t *Threads) NewInstance() *Threads {
	root := t
	if t.root != nil {
		root = t.root
	}
	inst := &Threads{pool: t.pool, q: sched.NewQueue(t.pool), root: root}
	// The queue's goroutine, parked between bursts of work, ends when the
	// instance is unreachable; the queue never holds inst.
	runtime.AddCleanup(inst, (*sched.Queue).Stop, inst.q)
	return inst
}

// Fence waits for all work submitted to the instance before the call and
// returns the first error among the work that finished since the
// instance's previous Fence: a panic as a *PanicError, a failed DeepCopyOn
// or FillOn as the copy's error. The package-level Fence reports the same
// errors independently (see Fence). On the synchronous instance it returns
// nil at once.
//
// Called from work running on the instance (a submitted function, or a
// body of a pattern the instance runs), Fence cannot wait, because that
// work finishes only after Fence returns: it returns an error wrapping
// ErrWouldDeadlock. So it does when the instance's work waits, through
// other instances, for the work that calls Fence.
func (t *Threads) Fence() error {
	if t.q == nil {
		return nil
	}
	if prof.On() {
		defer prof.EndFence(prof.BeginFence("Kokkos::Threads::fence: Unnamed Instance Fence", t.q.DeviceID()))
	}
	return t.q.Fence("Threads.Fence")
}

// Submit runs fn on the instance after the work submitted before it; see
// HostExecutionSpace.
func (t *Threads) Submit(label string, fn func()) {
	launch(t, dispatch{Label: label, Kind: kindTask, Task: fn}, false)
}

func (t *Threads) launch(d dispatch, wait bool) {
	if t.pool.Closed() {
		panic(fmt.Sprintf("kokkos: %s %q: Threads pool closed; give work to a pool that is open (NewThreads)", d.Kind, d.Label))
	}
	if t.q == nil {
		if err := sched.Execute(&d, t.pool, nil); err != nil {
			panic(err)
		}
		return
	}
	t.q.Push(&d, wait, t.root)
}

// Close on an asynchronous instance fences it (see Fence) and ends the
// goroutine that runs its work; work given to it later starts a new one
// (an unreachable instance ends it too). On an instance of PartitionSpace,
// which has a pool of its own, Close also stops that pool's workers, as
// Close of a synchronous instance does below.
//
// On a pool's synchronous instance, Close waits for the work submitted to
// the pool's asynchronous instances (their errors stay for their fences),
// then stops the pool's workers, without waiting for a pattern that is
// running. Work given to the pool or its instances afterwards panics with
// a message naming its label and "pool closed". Closing a closed pool does
// nothing; closing the default pool panics.
func (t *Threads) Close() error {
	if t.q != nil {
		err := t.q.Fence("Threads.Close")
		if errors.Is(err, ErrWouldDeadlock) {
			return err
		}
		t.q.Stop()
		if t.ownsPool {
			return errors.Join(err, t.root.Close())
		}
		return err
	}
	if t.isDefault {
		panic("kokkos: Close of the default execution space")
	}
	if err := waitQueues("Threads.Close", t.pool); err != nil {
		return err
	}
	t.pool.Close()
	return nil
}

var (
	_ HostExecutionSpace = Serial{}
	_ HostExecutionSpace = (*Threads)(nil)
)
