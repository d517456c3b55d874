package kokkos

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Lifecycles of Threads pools: unreachable pools stop their workers, closed
// pools refuse work, Close leaves the default pool alone.

// TestUnclosedPoolsStopWorkers: a pool that becomes unreachable without
// Close stops its workers.
func TestUnclosedPoolsStopWorkers(t *testing.T) {
	runtime.GC()
	base := runtime.NumGoroutine()
	rng := rand.New(rand.NewPCG(81, 82))
	x := randFloats(rng, 1000)
	func() {
		for range 10 {
			th := NewThreads(4)
			inst := th.NewInstance()
			y := make([]float64, len(x))
			ParallelFor("use", Range(0, len(x)).On(th), func(i int) { y[i] = 2 * x[i] })
			ParallelFor("use async", Range(0, len(x)).On(inst), func(i int) { y[i] += x[i] })
			if err := inst.Fence(); err != nil {
				t.Fatal(err)
			}
			if y[17] != 3*x[17] {
				t.Fatal("pool did not run the pattern")
			}
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		n := runtime.NumGoroutine()
		if n <= base {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines left over from 10 unreachable pools of 4", n-base)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestClosedPoolPanics: work given to a closed pool, or to an instance of
// it, panics with a message naming the label, instead of running.
func TestClosedPoolPanics(t *testing.T) {
	th := NewThreads(3)
	inst := th.NewInstance()
	if err := th.Close(); err != nil {
		t.Fatal(err)
	}
	ran := false
	for name, f := range map[string]func(){
		"for": func() { ParallelFor("after close", Range(0, 100).On(th), func(int) { ran = true }) },
		"reduce": func() {
			ParallelReduce("after close", Range(0, 100).On(th), Sum[int](), func(i int, a *int) { ran = true })
		},
		"async for":    func() { ParallelFor("after close", Range(0, 100).On(inst), func(int) { ran = true }) },
		"async submit": func() { inst.Submit("after close", func() { ran = true }) },
		"async reduce": func() {
			ParallelReduce("after close", Range(0, 100).On(inst), Sum[int](), func(i int, a *int) { ran = true })
		},
	} {
		var r any
		within(t, name, func() { r = catchPanic(f) })
		msg := fmt.Sprint(r)
		if r == nil || !strings.Contains(msg, `"after close"`) || !strings.Contains(msg, "pool closed") {
			t.Errorf("%s on a closed pool: panic %v, want one naming the label and \"pool closed\"", name, r)
		}
	}
	if err := inst.Fence(); err != nil || ran {
		t.Errorf("work ran on a closed pool: %v, %v", ran, err)
	}
}

// TestCloseLeavesDefaultPoolAlone: closing a pool does not start the
// default pool (checked in a fresh process, where nothing else has).
func TestCloseLeavesDefaultPoolAlone(t *testing.T) {
	if os.Getenv("GOKKOS_TEST_CLOSE_CHILD") == "1" {
		runtime.GC()
		base := runtime.NumGoroutine()
		th := NewThreads(2)
		ParallelFor("use", Range(0, 100).On(th), func(int) {})
		if err := th.Close(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > base {
			t.Fatalf("%d goroutines more after Close: Close started the default pool", n-base)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestCloseLeavesDefaultPoolAlone$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOKKOS_TEST_CLOSE_CHILD=1", "KOKKOS_NUM_THREADS=6")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
