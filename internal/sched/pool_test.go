package sched

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gokkos/kokkos/internal/errs"
)

// run executes a region on p through Execute, as the kokkos package does.
func run(p *Pool, begin, end, chunk int, body func(lo, hi int)) error {
	return Execute(&Dispatch{Label: "test", Kind: KindFor, Begin: begin, End: end, Chunk: chunk, Body: body}, p, nil)
}

// TestPoolCoversRegion: every unit of a region runs once, in chunks of the
// given size, on pools of every size and without one.
func TestPoolCoversRegion(t *testing.T) {
	for _, n := range []int{1, 2, 4} {
		p := NewPool(n)
		for _, pool := range []*Pool{p, nil} {
			for _, r := range [][3]int{{0, 0, 1}, {0, 1, 1}, {3, 1000, 7}, {0, 10000, 1}, {5, 6, 100}} {
				begin, end, chunk := r[0], r[1], r[2]
				seen := make([]atomic.Int32, end)
				err := run(pool, begin, end, chunk, func(lo, hi int) {
					if (lo-begin)%chunk != 0 || hi-lo > chunk || hi > end {
						t.Errorf("chunk [%d, %d) of region %v", lo, hi, r)
					}
					for i := lo; i < hi; i++ {
						seen[i].Add(1)
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				for i := range seen {
					if want := int32(max(0, min(1, i-begin+1))); seen[i].Load() != want {
						t.Fatalf("pool %d, region %v: unit %d ran %d times", n, r, i, seen[i].Load())
					}
				}
			}
		}
		p.Close()
	}
}

// TestPoolIndex: a region with an index function calls it once per unit.
func TestPoolIndex(t *testing.T) {
	p := NewPool(3)
	defer p.Close()
	seen := make([]atomic.Int32, 5000)
	err := Execute(&Dispatch{Label: "index", End: len(seen), Chunk: 16, Index: func(i int) { seen[i].Add(1) }}, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range seen {
		if seen[i].Load() != 1 {
			t.Fatalf("unit %d ran %d times", i, seen[i].Load())
		}
	}
}

// TestPoolPanic: a panic stops the region and comes back through
// a *errs.PanicError with the label, the value and the site; the pool runs the
// next region.
func TestPoolPanic(t *testing.T) {
	p := NewPool(4)
	defer p.Close()
	for _, pool := range []*Pool{p, nil} {
		err := run(pool, 0, 100000, 10, func(lo, hi int) {
			if lo == 500 {
				panic("boom")
			}
		})
		var pe *errs.PanicError
		if !errors.As(err, &pe) || pe.Label != "test" || pe.Value != "boom" || !strings.HasPrefix(pe.Where, "pool_test.go:") || len(pe.Stack) == 0 {
			t.Fatalf("error %#v", err)
		}
	}
	if err := run(p, 0, 1000, 10, func(lo, hi int) {}); err != nil {
		t.Fatal(err)
	}
}

// TestPoolGoexit: a body that calls runtime.Goexit on a worker is reported
// as a panic, and the worker is replaced.
func TestPoolGoexit(t *testing.T) {
	p := NewPool(2)
	defer p.Close()
	workerExits := 0
	for range 20 {
		var err error
		returned := false
		exited := make(chan struct{})
		go func() {
			// On the calling goroutine, Goexit ends it: run does not return.
			defer close(exited)
			err = run(p, 0, 2, 1, func(lo, hi int) {
				if lo == 1 {
					time.Sleep(time.Millisecond)
					runtime.Goexit()
				}
			})
			returned = true
		}()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			t.Fatal("region with Goexit did not finish")
		}
		if returned {
			workerExits++
			var pe *errs.PanicError
			if !errors.As(err, &pe) || pe.Value != GoexitValue {
				t.Fatalf("error %v", err)
			}
		}
	}
	t.Logf("%d of 20 Goexits on a worker", workerExits)
	if err := run(p, 0, 1000, 1, func(lo, hi int) {}); err != nil {
		t.Fatal(err)
	}
}

// TestPoolBusy: a region started while the pool runs another, from the
// body or from another goroutine, runs on its caller alone.
func TestPoolBusy(t *testing.T) {
	p := NewPool(3)
	defer p.Close()
	var total atomic.Int64
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			err := run(p, 0, 64, 1, func(lo, hi int) {
				if err := run(p, 0, 100, 3, func(lo, hi int) { total.Add(int64(hi - lo)) }); err != nil {
					t.Error(err)
				}
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if total.Load() != 4*64*100 {
		t.Fatalf("ran %d units", total.Load())
	}
}

// TestPoolClose: a closed pool runs regions on their callers alone, and
// closing twice does nothing.
func TestPoolClose(t *testing.T) {
	p := NewPool(4)
	p.Close()
	p.Close()
	if !p.Closed() || p.Size() != 4 {
		t.Fatalf("Closed %v, Size %d", p.Closed(), p.Size())
	}
	var n atomic.Int64
	if err := run(p, 0, 100, 1, func(lo, hi int) { n.Add(1) }); err != nil || n.Load() != 100 {
		t.Fatalf("%v, %d chunks", err, n.Load())
	}
}

// TestIdlePoolParks: idle workers park, and wake for the next region.
func TestIdlePoolParks(t *testing.T) {
	p := NewPool(3)
	defer p.Close()
	if err := run(p, 0, 1000, 1, func(lo, hi int) {}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		parked := 0
		for _, w := range p.workers {
			if w.state.Load() == stateParked {
				parked++
			}
		}
		if parked == len(p.workers) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d workers parked after 5s idle", parked, len(p.workers))
		}
		time.Sleep(time.Millisecond)
	}
	// A parked pool wakes up for the next region.
	x := make([]int, 10000)
	if err := run(p, 0, len(x), 10, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x[i] = i
		}
	}); err != nil {
		t.Fatal(err)
	}
	for i, v := range x {
		if v != i {
			t.Fatalf("x[%d] = %d", i, v)
		}
	}
}

// TestPanicSite: the site skips this package's frames but not its tests'.
func TestPanicSite(t *testing.T) {
	var where string
	func() {
		defer func() {
			recover()
			where = PanicSite()
		}()
		_ = runSerial(0, 1, 1, func(int, int) {}, nil)
		panic("here")
	}()
	if !strings.HasPrefix(where, "pool_test.go:") {
		t.Fatalf("site %q", where)
	}
}

func TestGoid(t *testing.T) {
	a := goid()
	var b uint64
	done := make(chan struct{})
	go func() { b = goid(); close(done) }()
	<-done
	if a == 0 || b == 0 || a == b {
		t.Fatalf("goids %d and %d", a, b)
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{KindFor: "parallel_for", KindReduce: "parallel_reduce", KindScan: "parallel_scan", KindTask: "task"} {
		if k.String() != want {
			t.Errorf("%d: %q", k, k.String())
		}
	}
}

// BenchmarkPoolSizes: a region of two units on pools of 2 to 16
// participants (up to GOMAXPROCS), against spawning two goroutines.
func BenchmarkPoolSizes(b *testing.B) {
	for _, n := range []int{2, 4, 8, 16} {
		if n > runtime.GOMAXPROCS(0) {
			continue
		}
		b.Run(fmt.Sprint("pool", n), func(b *testing.B) {
			p := NewPool(n)
			defer p.Close()
			var out [2][64]byte
			d := Dispatch{End: 2, Chunk: 1, Index: func(i int) { out[i][0]++ }}
			for b.Loop() {
				if err := Execute(&d, p, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("spawn", func(b *testing.B) {
		var out [2][64]byte
		for b.Loop() {
			var wg sync.WaitGroup
			for i := range 2 {
				wg.Go(func() { out[i][0]++ })
			}
			wg.Wait()
		}
	})
}

// waitParked waits until every worker of p is parked.
func waitParked(t *testing.T, p *Pool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, w := range p.workers {
		for w.state.Load() != stateParked {
			if time.Now().After(deadline) {
				t.Fatal("workers did not park after 5s idle")
			}
			time.Sleep(time.Millisecond)
		}
	}
}

// TestPoolAsksFewWorkers: a region of k chunks, fewer than the
// participants, wakes k-1 workers and leaves the others parked; regions
// of every size, alternating, run each unit once.
func TestPoolAsksFewWorkers(t *testing.T) {
	p := NewPool(5)
	defer p.Close()
	waitParked(t, p)
	// Two chunks: the caller's chunk waits for a second goroutine to take
	// the other, which only an asked worker can do.
	var started atomic.Int32
	if err := run(p, 0, 2, 1, func(lo, hi int) {
		started.Add(1)
		deadline := time.Now().Add(5 * time.Second)
		for started.Load() < 2 && time.Now().Before(deadline) {
			runtime.Gosched()
		}
	}); err != nil {
		t.Fatal(err)
	}
	if started.Load() != 2 {
		t.Fatal("no worker took the second chunk of a two-chunk region")
	}
	for i, w := range p.workers[1:] {
		if w.state.Load() != stateParked {
			t.Errorf("worker %d woke for a two-chunk region", i+1)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		chunks := 1 + rng.IntN(9)
		chunk := 1 + rng.IntN(5)
		end := chunks*chunk - rng.IntN(chunk)
		seen := make([]atomic.Int32, end)
		var gids sync.Map
		if err := run(p, 0, end, chunk, func(lo, hi int) {
			gids.Store(goid(), true)
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		}); err != nil {
			t.Fatal(err)
		}
		for i := range seen {
			if seen[i].Load() != 1 {
				t.Fatalf("region of %d chunks of %d: unit %d ran %d times", chunks, chunk, i, seen[i].Load())
			}
		}
		n := 0
		gids.Range(func(any, any) bool { n++; return true })
		if n > chunks {
			t.Fatalf("region of %d chunks ran on %d goroutines", chunks, n)
		}
	}
}

// TestPoolSmallBudget: after smallRuns cheap regions of no more chunks than
// participants (in which the caller ran a chunk), the next ones run on
// their caller without asking any worker; one whose chunks outlast the
// budget asks workers for the chunks left (and one takes some when there
// are), and the region after it asks at once again. The budget is set long for the cheap regions and short
// for the expensive one, so that neither the race detector nor the
// machine's hiccups change what the test sees.
func TestPoolSmallBudget(t *testing.T) {
	for _, n := range []int{2, 4} {
		p := NewPool(n)
		asked := func() bool {
			for _, w := range p.workers {
				if w.sig.Load() == p.seq {
					return true
				}
			}
			return false
		}
		cheap := func() {
			var x [16]atomic.Int32
			if err := run(p, 0, n, 1, func(lo, hi int) { x[lo].Add(1) }); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if x[i].Load() != 1 {
					t.Fatalf("pool %d: unit %d ran %d times", n, i, x[i].Load())
				}
			}
		}
		// Every region asks until smallRuns of them ran a chunk on their
		// caller; one whose chunks all went to the workers it woke (the
		// caller yields after waking them) counts for nothing.
		p.budget = time.Second
		for i := 0; p.cheapRuns < smallRuns; i++ {
			if i == 100*smallRuns {
				t.Fatalf("pool %d: %d cheap runs after %d cheap regions", n, p.cheapRuns, i)
			}
			gen, runs := p.gen.Load(), p.cheapRuns
			cheap()
			if !asked() && p.gen.Load() == gen {
				t.Fatalf("pool %d: cheap region %d asked no worker after %d cheap runs", n, i, runs)
			}
		}
		gen := p.gen.Load()
		for range 100 {
			cheap()
			if asked() || p.gen.Load() != gen {
				t.Fatalf("pool %d: a cheap region asked a worker", n)
			}
		}
		// Chunks of 2 ms, the workers parked (so that none joins
		// unasked): the caller asks after its first chunk, and with more
		// than two participants workers take chunks while the caller runs
		// its second.
		waitParked(t, p)
		p.budget = 100 * time.Microsecond
		var gids sync.Map
		if err := run(p, 0, n, 1, func(lo, hi int) {
			gids.Store(goid(), true)
			time.Sleep(2 * time.Millisecond)
		}); err != nil {
			t.Fatal(err)
		}
		k := 0
		gids.Range(func(any, any) bool { k++; return true })
		if !asked() && p.gen.Load() == gen {
			t.Fatalf("pool %d: an expensive region asked no worker", n)
		}
		if n > 2 && k < 2 {
			t.Errorf("pool %d: an expensive region ran on the caller alone", n)
		}
		if p.cheapRuns != 0 {
			t.Fatalf("pool %d: cheap runs %d after an expensive region", n, p.cheapRuns)
		}
		gen = p.gen.Load()
		cheap()
		if !asked() && p.gen.Load() == gen {
			t.Fatalf("pool %d: the region after an expensive one did not ask at once", n)
		}
		p.Close()
	}
}
