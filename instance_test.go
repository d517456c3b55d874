package kokkos

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// Asynchronous instances: waits issued from their own work, wait cycles
// between instances, and how their errors reach the fences. A call that
// used to hang runs under within, so that a regression fails the test
// instead of hanging the suite.

// TestNestedWaitOnSameInstanceRunsInline: a reduction or scan on an
// asynchronous instance, called from work running on that instance, runs
// inline and returns its result instead of waiting for itself.
func TestNestedWaitOnSameInstanceRunsInline(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	const n = 10000
	x := randFloats(rng, n)
	wantSum := ParallelReduce("want", Range(0, n).On(Serial{}), Sum[float64](), func(i int, a *float64) { *a += x[i] })
	wantScan := make([]float64, n)
	wantTotal := InclusiveScan("want", Range(0, n).On(Serial{}), wantScan, x)
	want2 := ParallelReduceMD("want", MDRange([]int{0, 0}, []int{100, 100}).On(Serial{}), Max[float64](), func(i, j int, a *float64) { *a = max(*a, x[100*i+j]) })

	pool := NewThreads(3)
	defer pool.Close()
	inst := pool.NewInstance()
	nested := func(check func(string, bool)) {
		s := ParallelReduce("inner", Range(0, n).On(inst), Sum[float64](), func(i int, a *float64) { *a += x[i] })
		check("ParallelReduce", s == wantSum)
		s = ParallelReduceChunks("inner", Range(0, n).On(inst), Sum[float64](), func(lo, hi int, a *float64) {
			for i := lo; i < hi; i++ {
				*a += x[i]
			}
		})
		check("ParallelReduceChunks", s == wantSum)
		out := make([]float64, n)
		tot := InclusiveScan("inner", Range(0, n).On(inst), out, x)
		check("InclusiveScan", tot == wantTotal && slices.Equal(out, wantScan))
		m := ParallelReduceMD("inner", MDRange([]int{0, 0}, []int{100, 100}).On(inst), Max[float64](), func(i, j int, a *float64) { *a = max(*a, x[100*i+j]) })
		check("ParallelReduceMD", m == want2)
	}
	var bad atomic.Int32
	check := func(what string, ok bool) {
		if !ok {
			bad.Add(1)
			t.Errorf("nested %s gave a wrong result", what)
		}
	}
	within(t, "reductions from a task", func() {
		inst.Submit("outer", func() { nested(check) })
		if err := inst.Fence(); err != nil {
			t.Error(err)
		}
	})
	// From bodies, which run on the instance's goroutine and on the pool's
	// workers.
	within(t, "reductions from bodies", func() {
		ParallelFor("outer", Range(0, 6).WithChunk(1).On(inst), func(int) {
			time.Sleep(time.Millisecond)
			nested(check)
		})
		if err := inst.Fence(); err != nil {
			t.Error(err)
		}
	})
	// A reduction from inside a reduction's body on the same instance.
	var outer float64
	within(t, "a reduction inside a reduction", func() {
		outer = ParallelReduce("outer", Range(0, 4).WithChunk(1).On(inst), Sum[float64](), func(i int, a *float64) {
			*a += ParallelReduce("inner", Range(0, n).On(inst), Sum[float64](), func(i int, a *float64) { *a += x[i] })
		})
	})
	if outer != 4*wantSum && bad.Load() == 0 {
		t.Errorf("nested reductions: %v, want %v", outer, 4*wantSum)
	}
}

// TestNestedFenceWouldDeadlock: an instance's Fence (and Close) from work
// running on that instance returns ErrWouldDeadlock instead of hanging.
func TestNestedFenceWouldDeadlock(t *testing.T) {
	pool := NewThreads(3)
	defer pool.Close()
	inst := pool.NewInstance()
	var fenceErr, closeErr error
	ran := false
	within(t, "Fence from a task", func() {
		inst.Submit("outer", func() {
			fenceErr = inst.Fence()
			closeErr = inst.Close()
		})
		inst.Submit("after", func() { ran = true })
		if err := inst.Fence(); err != nil {
			t.Error(err)
		}
	})
	for op, err := range map[string]error{"Threads.Fence": fenceErr, "Threads.Close": closeErr} {
		if !errors.Is(err, ErrWouldDeadlock) || !strings.Contains(err.Error(), op) {
			t.Errorf("%s from the instance's own work: %v, want an error wrapping ErrWouldDeadlock", op, err)
		}
	}
	if !ran {
		t.Error("work queued after the nested Fence did not run")
	}
	errs := make([]error, 6)
	within(t, "Fence from a body", func() {
		ParallelFor("outer", Range(0, len(errs)).WithChunk(1).On(inst), func(i int) {
			time.Sleep(time.Millisecond)
			errs[i] = inst.Fence()
		})
		if err := inst.Fence(); err != nil {
			t.Error(err)
		}
	})
	for i, err := range errs {
		if !errors.Is(err, ErrWouldDeadlock) {
			t.Errorf("Fence from a body (index %d): %v", i, err)
		}
	}
	// Work on another instance may fence this one: it waits.
	other := pool.NewInstance()
	var otherErr error
	done := false
	within(t, "Fence of another instance", func() {
		inst.Submit("slow", func() { time.Sleep(10 * time.Millisecond); done = true })
		other.Submit("fence inst", func() { otherErr = inst.Fence() })
		if err := other.Fence(); err != nil {
			t.Error(err)
		}
	})
	if otherErr != nil || !done {
		t.Errorf("Fence of another instance from work: %v, waited: %v", otherErr, done)
	}
}

// TestWaitCycleBetweenInstances: work on A waits for B while B's work
// waits for A. One of the two waits fails with ErrWouldDeadlock, and both
// instances finish.
func TestWaitCycleBetweenInstances(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	x := randFloats(rng, 3000)
	pool := NewThreads(2)
	defer pool.Close()
	want := ParallelReduce("want", Range(0, len(x)).On(Serial{}), Sum[float64](), func(i int, acc *float64) { *acc += x[i] })
	for round := range 10 {
		a, b := pool.NewInstance(), pool.NewInstance()
		startA, startB := make(chan struct{}), make(chan struct{})
		var sumA float64
		var errA, errB error
		a.Submit("a", func() {
			close(startA)
			<-startB
			if round%2 == 0 {
				time.Sleep(time.Millisecond)
			}
			errA, _ = catchPanic(func() {
				sumA = ParallelReduce("a waits for b", Range(0, len(x)).On(b), Sum[float64](), func(i int, acc *float64) { *acc += x[i] })
			}).(error)
		})
		b.Submit("b", func() {
			close(startB)
			<-startA
			if round%2 == 1 {
				time.Sleep(time.Millisecond)
			}
			errB = a.Fence()
		})
		within(t, "a wait cycle", func() {
			if err := a.Fence(); err != nil {
				t.Error(err)
			}
			if err := b.Fence(); err != nil {
				t.Error(err)
			}
		})
		if errors.Is(errA, ErrWouldDeadlock) == errors.Is(errB, ErrWouldDeadlock) {
			t.Fatalf("round %d: a's reduction: %v, b's wait: %v: want one ErrWouldDeadlock", round, errA, errB)
		}
		if errA == nil && sumA != want {
			t.Fatalf("round %d: a's reduction gave %v, want %v", round, sumA, want)
		}
	}
}

// TestPackageFenceKeepsInstanceErrors: the package Fence reports an
// instance's error without taking it from the instance: each of the two
// fences reports it once.
func TestPackageFenceKeepsInstanceErrors(t *testing.T) {
	_ = Fence()
	pool := NewThreads(2)
	defer pool.Close()
	a := pool.NewInstance()
	a.Submit("a", func() { panic(errors.ErrUnsupported) })
	if err := Fence(); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("Fence() = %v", err)
	}
	if err := Fence(); err != nil {
		t.Fatalf("second Fence() = %v", err)
	}
	if err := a.Fence(); !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), `"a"`) {
		t.Fatalf("the instance's Fence after the package Fence = %v, want its panic", err)
	}
	if err := a.Fence(); err != nil {
		t.Fatalf("second a.Fence() = %v", err)
	}
	// The other order.
	a.Submit("b", func() { panic(errors.ErrUnsupported) })
	if err := a.Fence(); !errors.Is(err, errors.ErrUnsupported) {
		t.Fatalf("a.Fence() = %v", err)
	}
	if err := Fence(); !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), `"b"`) {
		t.Fatalf("the package Fence after the instance's = %v", err)
	}
}

// failSpace is a device-like space whose copies and fills fail.
type failSpace struct{ *backendtest.Fake }

var errDeviceBroken = errors.New("device broken")

func (failSpace) Name() string                                     { return "FailSpace" }
func (failSpace) CopyBytes(dst, src backend.Endpoint, n int) error { return errDeviceBroken }
func (failSpace) FillBytes(dst uintptr, p []byte, count int) error { return errDeviceBroken }

// TestAsyncCopyErrorFromFence: a queued DeepCopyOn or FillOn that fails
// makes the instance's Fence return the copy's error itself, not a
// *PanicError.
func TestAsyncCopyErrorFromFence(t *testing.T) {
	rng := rand.New(rand.NewPCG(71, 72))
	const n = 100
	pool := NewThreads(2)
	defer pool.Close()
	inst := pool.NewInstance()
	host := Must(NewView1[float64]("host", n))
	copy(host.Data(), randFloats(rng, n))
	dev := Must(NewView1[float64]("dev", n, InSpace(failSpace{newFakeSpace(false)})))
	for name, submit := range map[string]func() error{
		"DeepCopyOn": func() error { return DeepCopyOn[float64](inst, dev, host) },
		"FillOn":     func() error { return FillOn[float64](inst, dev, 2) },
	} {
		if err := submit(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		err := inst.Fence()
		var pe *PanicError
		if !errors.Is(err, errDeviceBroken) || errors.As(err, &pe) || !strings.Contains(err.Error(), `"dev"`) {
			t.Errorf("%s: Fence() = %v (%T), want the copy's error wrapping errDeviceBroken, not a *PanicError", name, err, err)
		}
		if err := inst.Fence(); err != nil {
			t.Errorf("%s: error reported twice: %v", name, err)
		}
	}
	var err error
	within(t, "Fence", func() { err = Fence() })
	if !errors.Is(err, errDeviceBroken) {
		t.Errorf("package Fence() = %v, want the copy errors too", err)
	}
}

// BenchmarkAsyncDispatch is a ParallelFor over 2 indices on an
// asynchronous instance followed by the instance's Fence.
func BenchmarkAsyncDispatch(b *testing.B) {
	inst := DefaultHostExecutionSpace().NewInstance()
	var x [2]cacheLine
	for b.Loop() {
		ParallelFor("async", Range(0, 2).On(inst), func(i int) { x[i][0]++ })
		if err := inst.Fence(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAsyncReduce is a ParallelReduce over 2 indices on an
// asynchronous instance (which waits for its result).
func BenchmarkAsyncReduce(b *testing.B) {
	inst := DefaultHostExecutionSpace().NewInstance()
	s := 0
	for b.Loop() {
		s += ParallelReduce("async", Range(0, 2).On(inst), Sum[int](), func(i int, acc *int) { *acc += i })
	}
	runtime.KeepAlive(s)
}
