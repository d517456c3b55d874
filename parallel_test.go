package kokkos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testSpaces returns the spaces every pattern is checked on, with a
// cleanup that closes the pools.
func testSpaces(t testing.TB) []HostExecutionSpace {
	spaces := []HostExecutionSpace{Serial{}, DefaultExecutionSpace()}
	for _, n := range []int{1, 2, 3, 7} {
		th := NewThreads(n)
		t.Cleanup(func() { th.Close() })
		spaces = append(spaces, th, th.NewInstance())
	}
	return spaces
}

func spaceName(s HostExecutionSpace) string {
	if th, ok := s.(*Threads); ok {
		if th.Async() {
			return fmt.Sprintf("Threads%d-async", th.Concurrency())
		}
		return fmt.Sprintf("Threads%d", th.Concurrency())
	}
	return s.Name()
}

// cacheLine keeps values written by different goroutines apart.
type cacheLine [64]byte

func randFloats(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = r.Float64()*2 - 1 + 1e-3
	}
	return x
}

func TestParallelFor(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range testSpaces(t) {
		for _, n := range []int{0, 1, 2, 5, 100, 10007} {
			for _, chunk := range []int{0, 1, 3, 64, 100000} {
				x := randFloats(r, n)
				got := make([]float64, n)
				want := make([]float64, n)
				for i := 3; i < n; i++ {
					want[i] = 2 * x[i]
				}
				ParallelFor("double", Range(min(3, n), n).WithChunk(chunk).On(s), func(i int) { got[i] = 2 * x[i] })
				if err := s.Fence(); err != nil {
					t.Fatal(err)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%s n=%d chunk=%d: got[%d] = %v, want %v", spaceName(s), n, chunk, i, got[i], want[i])
					}
				}
				clear(got)
				var calls atomic.Int64
				ParallelForChunks("double", Range(min(3, n), n).WithChunk(chunk).On(s), func(lo, hi int) {
					calls.Add(1)
					if lo >= hi {
						t.Errorf("empty chunk [%d, %d)", lo, hi)
					}
					if chunk > 0 && hi-lo > chunk {
						t.Errorf("chunk [%d, %d) longer than %d", lo, hi, chunk)
					}
					for i := lo; i < hi; i++ {
						got[i] = 2 * x[i]
					}
				})
				if err := s.Fence(); err != nil {
					t.Fatal(err)
				}
				// Every index once, in non-empty chunks of at most chunk
				// indices: at least ceil(m/chunk) of them, at most m.
				m := int64(n - min(3, n))
				if c := calls.Load(); c > m || chunk > 0 && c < (m+int64(chunk)-1)/int64(chunk) || m > 0 && c == 0 {
					t.Fatalf("%s chunks n=%d chunk=%d: %d chunks for %d indices", spaceName(s), n, chunk, c, m)
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%s chunks n=%d chunk=%d: got[%d] = %v, want %v", spaceName(s), n, chunk, i, got[i], want[i])
					}
				}
			}
		}
	}
}

func TestAsyncInstancesInOrder(t *testing.T) {
	th := NewThreads(3)
	defer th.Close()
	const ninst, nwork, n = 4, 50, 1000
	insts := make([]*Threads, ninst)
	data := make([][]int, ninst)
	for k := range insts {
		insts[k] = th.NewInstance()
		data[k] = make([]int, n)
	}
	for w := range nwork {
		for k, inst := range insts {
			d := data[k]
			ParallelFor("step", Range(0, n).On(inst), func(i int) {
				if d[i] != w {
					panic(fmt.Sprintf("out of order: step %d saw %d", w, d[i]))
				}
				d[i] = w + 1
			})
			inst.Submit("check", func() {
				if d[0] != w+1 {
					panic("submit out of order")
				}
			})
		}
	}
	// A reduction waits for the instance's earlier work.
	sum := ParallelReduce("sum", Range(0, n).On(insts[0]), Sum[int](), func(i int, acc *int) { *acc += data[0][i] })
	if sum != nwork*n {
		t.Errorf("sum = %d, want %d", sum, nwork*n)
	}
	if err := Fence(); err != nil {
		t.Fatal(err)
	}
	for k := range insts {
		for i, v := range data[k] {
			if v != nwork {
				t.Fatalf("instance %d: data[%d] = %d after Fence, want %d", k, i, v, nwork)
			}
		}
	}
}

func TestAsyncReturnsEarly(t *testing.T) {
	inst := DefaultHostExecutionSpace().NewInstance()
	release := make(chan struct{})
	var done atomic.Bool
	inst.Submit("wait", func() { <-release; done.Store(true) })
	ParallelFor("after", Range(0, 4).On(inst), func(int) {})
	if done.Load() {
		t.Fatal("Submit on an asynchronous instance waited for its work")
	}
	close(release)
	if err := inst.Fence(); err != nil {
		t.Fatal(err)
	}
	if !done.Load() {
		t.Fatal("Fence returned before the work finished")
	}
}

// dropFenceErrors takes the errors of asynchronous work that a test's
// instance fences reported from the package Fence too, which reports each
// of them once more, so that later tests see a clean package Fence.
func dropFenceErrors() { _ = Fence() }

func catchPanic(f func()) (r any) {
	defer func() { r = recover() }()
	f()
	return nil
}

func TestPanicPropagates(t *testing.T) {
	t.Cleanup(dropFenceErrors)
	for _, s := range testSpaces(t) {
		th, async := s.(*Threads)
		async = async && th.Async()
		r := catchPanic(func() {
			ParallelFor("boom", Range(0, 1000).On(s), func(i int) {
				if i == 517 {
					panic("bad index")
				}
			})
		})
		var err error
		if async {
			if r != nil {
				t.Fatalf("%s: asynchronous ParallelFor panicked in the caller: %v", spaceName(s), r)
			}
			err = s.Fence()
		} else {
			err, _ = r.(error)
		}
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Label != "boom" || pe.Value != "bad index" {
			t.Fatalf("%s: got %v (%T), want a *PanicError for \"boom\"", spaceName(s), err, err)
		}
		if !strings.Contains(err.Error(), `"boom"`) || !strings.Contains(err.Error(), "bad index") {
			t.Errorf("message %q lacks the label or the value", err.Error())
		}
		if err := s.Fence(); err != nil {
			t.Errorf("%s: error reported twice: %v", spaceName(s), err)
		}
		// The space keeps working.
		got := make([]int, 100)
		ParallelFor("after", Range(0, 100).On(s), func(i int) { got[i] = i + 1 })
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		for i, v := range got {
			if v != i+1 {
				t.Fatalf("%s: after a panic got[%d] = %d", spaceName(s), i, v)
			}
		}
		// Submit panics too.
		r = catchPanic(func() { s.Submit("task", func() { panic(errors.ErrUnsupported) }) })
		if async {
			err = s.Fence()
		} else {
			err, _ = r.(error)
		}
		if !errors.Is(err, errors.ErrUnsupported) || !strings.Contains(err.Error(), `"task"`) {
			t.Errorf("%s: Submit panic gave %v", spaceName(s), err)
		}
	}
}

func TestPackageFenceJoinsErrors(t *testing.T) {
	a, b := DefaultHostExecutionSpace().NewInstance(), DefaultHostExecutionSpace().NewInstance()
	a.Submit("a", func() { panic(1) })
	b.Submit("b", func() { panic(2) })
	err := Fence()
	if err == nil || !strings.Contains(err.Error(), `"a"`) || !strings.Contains(err.Error(), `"b"`) {
		t.Fatalf("Fence() = %v, want both labels", err)
	}
	if err := Fence(); err != nil {
		t.Fatalf("second Fence() = %v", err)
	}
}

func TestConcurrentCallers(t *testing.T) {
	th := NewThreads(2)
	defer th.Close()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			x := make([]int, 5000)
			for range 20 {
				ParallelFor("concurrent", Range(0, len(x)).On(th), func(i int) { x[i] += g })
			}
			for i, v := range x {
				if v != 20*g {
					t.Errorf("x[%d] = %d, want %d", i, v, 20*g)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestNestedParallelFor(t *testing.T) {
	const n = 50
	var got [n][n]int
	ParallelFor("outer", Range(0, n), func(i int) {
		ParallelFor("inner", Range(0, n), func(j int) { got[i][j] = i * j })
	})
	for i := range n {
		for j := range n {
			if got[i][j] != i*j {
				t.Fatalf("got[%d][%d] = %d", i, j, got[i][j])
			}
		}
	}
}

func TestRangePolicyErrors(t *testing.T) {
	for _, c := range []struct {
		p    RangePolicy
		want string
	}{
		{Range(5, 3), `kokkos: ParallelFor "bad": RangePolicy(5, 3): begin 5 > end 3`},
		{Range(0, 3).WithChunk(-2), `kokkos: ParallelFor "bad": RangePolicy(0, 3).WithChunk(-2): negative chunk size -2`},
	} {
		r := catchPanic(func() { ParallelFor("bad", c.p, func(int) {}) })
		if r != c.want {
			t.Errorf("panic %q, want %q", r, c.want)
		}
	}
}

func TestEnvThreads(t *testing.T) {
	t.Setenv("KOKKOS_NUM_THREADS", "3")
	th := NewThreads(0)
	defer th.Close()
	if th.Concurrency() != 3 {
		t.Errorf("Concurrency() = %d with KOKKOS_NUM_THREADS=3", th.Concurrency())
	}
}

// benchVs times lib against the plain-Go baseline base, interleaved in
// batches so both see the same machine state. It reports lib's time as
// ns/op, the baseline's as base-ns/op, and speedup = base time / lib time
// (above 1: the library is faster).
func benchVs(b *testing.B, batch int, lib, base func()) {
	b.Helper()
	lib()
	base()
	var tl, tb time.Duration
	b.ResetTimer()
	for done := 0; done < b.N; done += batch {
		k := min(batch, b.N-done)
		t0 := time.Now()
		for range k {
			lib()
		}
		t1 := time.Now()
		for range k {
			base()
		}
		tl += t1.Sub(t0)
		tb += time.Since(t1)
	}
	b.ReportMetric(float64(tl.Nanoseconds())/float64(b.N), "ns/op")
	b.ReportMetric(float64(tb.Nanoseconds())/float64(b.N), "base-ns/op")
	b.ReportMetric(float64(tb)/float64(tl), "speedup")
}

// goParallel is the hand-written baseline: one goroutine per processor,
// each running body over an equal share of [0, n), joined by a WaitGroup.
func goParallel(n int, body func(lo, hi int)) {
	nt := runtime.GOMAXPROCS(0)
	per := (n + nt - 1) / nt
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += per {
		wg.Go(func() { body(lo, min(lo+per, n)) })
	}
	wg.Wait()
}

func triad(z, x, y []float64, s float64) {
	x, y = x[:len(z)], y[:len(z)]
	for i := range z {
		z[i] = x[i] + s*y[i]
	}
}

const triadN = 1 << 25

func triadData() (x, y, z []float64) {
	r := rand.New(rand.NewPCG(7, 8))
	return randFloats(r, triadN), randFloats(r, triadN), make([]float64, triadN)
}

func BenchmarkTriadChunks(b *testing.B) {
	x, y, z := triadData()
	const s = 1.5
	body := func(lo, hi int) { triad(z[lo:hi], x[lo:hi], y[lo:hi], s) }
	benchVs(b, 1, func() { ParallelForChunks("triad", Range(0, triadN), body) }, func() { goParallel(triadN, body) })
	b.SetBytes(3 * 8 * triadN)
}

func BenchmarkTriadIndex(b *testing.B) {
	x, y, z := triadData()
	const s = 1.5
	benchVs(b, 1, func() {
		ParallelFor("triad", Range(0, triadN), func(i int) { z[i] = x[i] + s*y[i] })
	}, func() { goParallel(triadN, func(lo, hi int) { triad(z[lo:hi], x[lo:hi], y[lo:hi], s) }) })
	b.SetBytes(3 * 8 * triadN)
}

// BenchmarkDispatch is the latency of a fenced ParallelFor over 2 indices
// on the default pool, against starting two goroutines and waiting.
func BenchmarkDispatch(b *testing.B) {
	var out [2]cacheLine
	exec := DefaultExecutionSpace()
	benchVs(b, 256, func() {
		ParallelFor("tiny", Range(0, 2), func(i int) { out[i][0]++ })
		exec.Fence()
	}, func() {
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() { out[i][0]++ })
		}
		wg.Wait()
	})
}

type parFakeSpace struct{}

func (parFakeSpace) Name() string             { return "Fake" }
func (parFakeSpace) Concurrency() int         { return 1 }
func (parFakeSpace) Fence() error             { return nil }
func (parFakeSpace) MemorySpace() MemorySpace { return HostSpace }

func TestGoexitInBody(t *testing.T) {
	th := NewThreads(2)
	defer th.Close()
	for range 20 {
		done := make(chan any)
		go func() {
			defer func() { done <- recover() }()
			// Whichever goroutine takes index 1 exits; the pattern must
			// still end, on the worker or on this goroutine.
			ParallelFor("goexit", Range(0, 2).On(th), func(i int) {
				if i == 1 {
					time.Sleep(time.Millisecond)
					runtime.Goexit()
				}
			})
		}()
		select {
		case r := <-done:
			if pe, ok := r.(*PanicError); r != nil && (!ok || pe.Label != "goexit") {
				t.Fatalf("recovered %v", r)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("ParallelFor hung after runtime.Goexit in a body")
		}
	}
	got := ParallelReduce("after", Range(0, 100000).On(th), Sum[int](), func(i int, acc *int) { *acc += 2 })
	if got != 200000 {
		t.Fatalf("after Goexit: %d", got)
	}
}

func TestGoexitInTask(t *testing.T) {
	t.Cleanup(dropFenceErrors)
	inst := DefaultHostExecutionSpace().NewInstance()
	ran := false
	inst.Submit("exit", func() { runtime.Goexit() })
	inst.Submit("next", func() { ran = true })
	err := inst.Fence()
	if pe, ok := err.(*PanicError); !ok || pe.Label != "exit" || !ran {
		t.Fatalf("Fence() = %v, later task ran: %v", err, ran)
	}
}

// spinWork is about a microsecond of arithmetic that the compiler keeps.
func spinWork(seed float64) float64 {
	x := seed
	for range 300 {
		x = x*1.0000001 + 1e-9
	}
	return x
}

// BenchmarkDispatchWork is BenchmarkDispatch with a body long enough
// (about 1 µs per index) that both goroutines take part.
func BenchmarkDispatchWork(b *testing.B) {
	var out [2]cacheLine
	var res [2]float64
	benchVs(b, 64, func() {
		ParallelFor("work", Range(0, 2), func(i int) { res[i] = spinWork(float64(out[i][0])) })
	}, func() {
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() { res[i] = spinWork(float64(out[i][0])) })
		}
		wg.Wait()
	})
}

// TestPanicErrorNamesBodyLine: a *PanicError names the file and line of the
// panic in the body first, on every space, also when the panic comes from
// package code the body called (an out-of-bounds At).
func TestPanicErrorNamesBodyLine(t *testing.T) {
	t.Cleanup(dropFenceErrors)
	_, file, _, _ := runtime.Caller(0)
	var line atomic.Int64
	body := func(i int) {
		if i == 777 {
			_, _, l, _ := runtime.Caller(0)
			line.Store(int64(l) + 2)
			panic("where")
		}
	}
	v := Must(NewView1[float64]("v", 10))
	var atLine atomic.Int64
	bodyAt := func(i int) {
		if i == 777 {
			_, _, l, _ := runtime.Caller(0)
			atLine.Store(int64(l) + 2)
			_ = v.At(i)
		}
	}
	for _, s := range testSpaces(t) {
		for _, c := range []struct {
			body func(int)
			line *atomic.Int64
		}{{body, &line}, {bodyAt, &atLine}} {
			var err error
			r := catchPanic(func() { ParallelFor("where", Range(0, 1000).On(s), c.body) })
			if th, ok := s.(*Threads); ok && th.Async() {
				err = s.Fence()
			} else {
				err, _ = r.(error)
			}
			var pe *PanicError
			if !errors.As(err, &pe) {
				t.Fatalf("%s: %v (%T), want a *PanicError", spaceName(s), err, err)
			}
			want := fmt.Sprintf("%s:%d", filepath.Base(file), c.line.Load())
			if pe.Where != want {
				t.Errorf("%s: Where = %q, want %q", spaceName(s), pe.Where, want)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, `kokkos: panic in kernel "where" at `+want+": ") {
				t.Errorf("%s: message %q does not start with the label and %s", spaceName(s), msg, want)
			}
		}
	}
}

// TestParallelForSmallRangeSpreads checks that ParallelFor over a short
// range runs on more than one goroutine, with the chunk given or chosen.
func TestParallelForSmallRangeSpreads(t *testing.T) {
	th := NewThreads(2)
	defer th.Close()
	for _, chunk := range []int{0, 1} {
		const n = 64
		ParallelFor("spread", Range(0, n).WithChunk(chunk).On(th), waitForLast(n))
	}
}

// waitForLast returns a body over [0, n) whose index 0 waits (up to 10 s,
// then panics) for index n-1 to run: it returns only when the range runs
// on more than one goroutine.
func waitForLast(n int) func(i int) {
	last := make(chan struct{})
	return func(i int) {
		switch i {
		case 0:
			select {
			case <-last:
			case <-time.After(10 * time.Second):
				panic("the last index did not run concurrently with the first")
			}
		case n - 1:
			close(last)
		}
	}
}
