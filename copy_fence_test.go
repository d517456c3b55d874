package kokkos

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gokkos/kokkos/backend"
)

// The fences of the copies without an execution space: they wait for
// asynchronous instances and run the device fences, and refuse to wait
// from inside instance work.

// gated returns an asynchronous instance of a fresh pool whose queue is
// held by a task until the returned function is called.
func gated(t *testing.T) (*Threads, func()) {
	pool := NewThreads(3)
	inst := pool.NewInstance()
	t.Cleanup(func() { pool.Close() })
	gate := make(chan struct{})
	inst.Submit("gate", func() { <-gate })
	return inst, sync1(func() { close(gate) })
}

// sync1 returns a function that calls f the first time only.
func sync1(f func()) func() {
	var done atomic.Bool
	return func() {
		if done.CompareAndSwap(false, true) {
			f()
		}
	}
}

// openLater calls open after a short delay, on another goroutine, so that
// the caller has entered whatever waits for it.
func openLater(open func()) {
	go func() {
		time.Sleep(20 * time.Millisecond)
		open()
	}()
}

// TestDeepCopyWaitsForAsyncInstances: a DeepCopy, Fill, DeepCopyToScalar,
// DeepCopyConvert or the copy of a Resize without an execution space, issued while a kernel
// that writes its source or destination is queued on an asynchronous
// instance, copies after that kernel, as Kokkos's deep_copy without an
// instance fences everything.
func TestDeepCopyWaitsForAsyncInstances(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	const n = 5000
	old, want := randFloats(rng, n), randFloats(rng, n)

	t.Run("DeepCopy", func(t *testing.T) {
		inst, open := gated(t)
		defer open()
		src := Must(NewView1[float64]("src", n))
		dst := Must(NewView1[float64]("dst", n))
		copy(src.Data(), old)
		ParallelFor("write src", Range(0, n).On(inst), func(i int) { src.Data()[i] = want[i] })
		openLater(open)
		within(t, "DeepCopy", func() {
			if err := DeepCopy[float64](dst, src); err != nil {
				t.Error(err)
			}
		})
		if !slices.Equal(dst.Data(), want) {
			t.Fatalf("DeepCopy read stale data: dst[0] = %v, want %v (the value before the queued kernel: %v)", dst.Data()[0], want[0], old[0])
		}
	})
	t.Run("DeepCopyOnNil", func(t *testing.T) {
		inst, open := gated(t)
		defer open()
		src := Must(NewView1[float64]("src", n))
		dst := Must(NewView1[float64]("dst", n))
		copy(src.Data(), old)
		ParallelFor("write src", Range(0, n).On(inst), func(i int) { src.Data()[i] = want[i] })
		openLater(open)
		within(t, "DeepCopyOn(nil)", func() {
			if err := DeepCopyOn[float64](nil, dst, src); err != nil {
				t.Error(err)
			}
		})
		if !slices.Equal(dst.Data(), want) {
			t.Fatalf("DeepCopyOn(nil) read stale data: dst[0] = %v, want %v", dst.Data()[0], want[0])
		}
	})
	t.Run("Fill", func(t *testing.T) {
		inst, open := gated(t)
		defer open()
		dst := Must(NewView1[float64]("dst", n))
		ParallelFor("write dst", Range(0, n).On(inst), func(i int) { dst.Data()[i] = want[i] })
		openLater(open)
		x := rng.Float64() + 1
		within(t, "Fill", func() {
			if err := Fill[float64](dst, x); err != nil {
				t.Error(err)
			}
		})
		for i, v := range dst.Data() {
			if v != x {
				t.Fatalf("Fill ran before the queued kernel: dst[%d] = %v, want %v", i, v, x)
			}
		}
	})
	t.Run("DeepCopyToScalar", func(t *testing.T) {
		inst, open := gated(t)
		defer open()
		v := Must(NewView0[float64]("v"))
		v.Set(old[0])
		inst.Submit("write v", func() { v.Set(want[0]) })
		openLater(open)
		var got float64
		within(t, "DeepCopyToScalar", func() {
			if err := DeepCopyToScalar[float64](&got, v); err != nil {
				t.Error(err)
			}
		})
		if got != want[0] {
			t.Fatalf("DeepCopyToScalar read stale data: %v, want %v", got, want[0])
		}
	})
	t.Run("Resize", func(t *testing.T) {
		inst, open := gated(t)
		defer open()
		v := Must(NewView1[float64]("v", n))
		d := Must(NewDynRankView[float64]("d", []int{n}))
		copy(v.Data(), old)
		copy(d.Data(), old)
		ParallelFor("write v and d", Range(0, n).On(inst), func(i int) { v.Data()[i], d.Data()[i] = want[i], want[i] })
		openLater(open)
		within(t, "Resize", func() {
			if err := Resize(&v, [1]int{n + 3}); err != nil {
				t.Error(err)
			}
			if err := d.Resize([]int{n + 3}); err != nil {
				t.Error(err)
			}
		})
		if !slices.Equal(v.Data()[:n], want) || !slices.Equal(d.Data()[:n], want) {
			t.Fatalf("Resize copied stale data: v[0] = %v, d[0] = %v, want %v", v.Data()[0], d.Data()[0], want[0])
		}
	})
	t.Run("DeepCopyConvert", func(t *testing.T) {
		inst, open := gated(t)
		defer open()
		src := Must(NewView1[float64]("src", n))
		dst := Must(NewView1[float32]("dst", n))
		copy(src.Data(), old)
		ParallelFor("write src", Range(0, n).On(inst), func(i int) { src.Data()[i] = want[i] })
		openLater(open)
		within(t, "DeepCopyConvert", func() {
			if err := DeepCopyConvert[float32, float64](dst, src); err != nil {
				t.Error(err)
			}
		})
		for i, v := range dst.Data() {
			if v != float32(want[i]) {
				t.Fatalf("DeepCopyConvert read stale data: dst[%d] = %v, want %v", i, v, float32(want[i]))
			}
		}
	})
}

// TestCopyInsideInstanceWorkWouldDeadlock: DeepCopy, Fill and the package
// Fence wait for every asynchronous instance, so called from work running
// on one they would wait for themselves. They return ErrWouldDeadlock
// instead of hanging or skipping the fence.
func TestCopyInsideInstanceWorkWouldDeadlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	const n = 64
	pool := NewThreads(3)
	defer pool.Close()
	inst := pool.NewInstance()
	src := Must(NewView1[float64]("src", n))
	dst := Must(NewView1[float64]("dst", n))
	copy(src.Data(), randFloats(rng, n))
	calls := map[string]func() error{
		"DeepCopy":         func() error { return DeepCopy[float64](dst, src) },
		"Fill":             func() error { return Fill[float64](dst, 3) },
		"DeepCopyToScalar": func() error { var x float64; return DeepCopyToScalar(&x, Must(NewView0[float64]("s"))) },
		"DeepCopyConvert":  func() error { return DeepCopyConvert[float32, float64](Must(NewView1[float32]("f", n)), src) },
		"Fence":            Fence,
	}
	for name, call := range calls {
		// from a submitted task, on the instance's goroutine
		var err error
		within(t, name+" from a task", func() {
			inst.Submit(name, func() { err = call() })
			if ferr := inst.Fence(); ferr != nil {
				t.Error(ferr)
			}
		})
		if !errors.Is(err, ErrWouldDeadlock) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s from instance work: %v, want an error wrapping ErrWouldDeadlock", name, err)
		}
		// from a body on the pool's workers and the instance's goroutine
		errs := make([]error, 6)
		within(t, name+" from a body", func() {
			ParallelFor(name, Range(0, len(errs)).WithChunk(1).On(inst), func(i int) {
				time.Sleep(time.Millisecond)
				errs[i] = call()
			})
			if ferr := inst.Fence(); ferr != nil {
				t.Error(ferr)
			}
		})
		for i, err := range errs {
			if !errors.Is(err, ErrWouldDeadlock) {
				t.Errorf("%s from a body of instance work (index %d): %v, want ErrWouldDeadlock", name, i, err)
			}
		}
	}
	// Outside the instance's work the copy works.
	if err := DeepCopy[float64](dst, src); err != nil || !slices.Equal(dst.Data(), src.Data()) {
		t.Fatalf("DeepCopy after: %v", err)
	}
}

// TestScalarAndConvertCopiesFenceDevices: DeepCopyToScalar and
// DeepCopyConvert run the device fences around a copy touching device
// memory, as DeepCopy does.
func TestScalarAndConvertCopiesFenceDevices(t *testing.T) {
	rng := rand.New(rand.NewPCG(91, 92))
	var n atomic.Int32
	remove := backend.RegisterFence(func() error { n.Add(1); return nil })
	defer remove()
	space := newFakeSpace(false)
	d0 := Must(NewView0[float64]("d0", InSpace(space)))
	x := rng.Float64() + 1
	if err := Fill[float64](d0, x); err != nil {
		t.Fatal(err)
	}
	n.Store(0)
	var got float64
	if err := DeepCopyToScalar(&got, d0); err != nil || got != x || n.Load() != 2 {
		t.Fatalf("DeepCopyToScalar: %v, got %v want %v, %d device fences, want 2", err, got, x, n.Load())
	}
	d1 := Must(NewView1[float64]("d1", 50, InSpace(space)))
	src := randFloats(rng, 50)
	if err := DeepCopy[float64](d1, Must(WrapView1(src, len(src)))); err != nil {
		t.Fatal(err)
	}
	h := Must(NewView1[float32]("h", 50))
	n.Store(0)
	if err := DeepCopyConvert[float32, float64](h, d1); err != nil || n.Load() != 2 {
		t.Fatalf("DeepCopyConvert: %v, %d device fences, want 2", err, n.Load())
	}
	for i, v := range h.Data() {
		if v != float32(src[i]) {
			t.Fatalf("h[%d] = %v, want %v", i, v, float32(src[i]))
		}
	}
}
