package kokkos_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gokkos/kokkos"
)

// tokenSpaces are the host spaces a token is tested on, by name; each
// call makes new instances, which the cleanup closes.
func tokenSpaces(t *testing.T) map[string]kokkos.HostExecutionSpace {
	t2 := kokkos.NewThreads(2)
	t4 := kokkos.NewThreads(4)
	async := t4.NewInstance()
	parts, err := kokkos.PartitionSpace(kokkos.NewThreads(4), 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = async.Close()
		_ = t2.Close()
		_ = t4.Close()
		for _, p := range parts {
			_ = p.Close()
		}
	})
	return map[string]kokkos.HostExecutionSpace{
		"Serial":    kokkos.Serial{},
		"Default":   kokkos.DefaultExecutionSpace(),
		"Threads2":  t2,
		"Threads4":  t4,
		"Async":     async,
		"Partition": parts[0],
	}
}

// holders checks, over n indices of a ParallelFor on space, that every id
// tok hands out is in [0, Size()) and held by one holder at a time (a
// per-id in-use flag, set and cleared with atomics), and returns how many
// times each id was handed out and the most ids held at once.
func holders(t *testing.T, space kokkos.HostExecutionSpace, tok kokkos.UniqueToken, n int) (counts []int64, most int64) {
	t.Helper()
	size := tok.Size()
	inUse := make([]atomic.Int32, size)
	count := make([]atomic.Int64, size)
	var held, peak atomic.Int64
	var bad atomic.Value
	kokkos.ParallelFor("token", kokkos.Range(0, n).On(space), func(i int) {
		id := tok.Acquire()
		if id < 0 || id >= size {
			bad.CompareAndSwap(nil, fmt.Sprintf("index %d: id %d outside [0, %d)", i, id, size))
			return
		}
		if !inUse[id].CompareAndSwap(0, 1) {
			bad.CompareAndSwap(nil, fmt.Sprintf("index %d: id %d handed out while held", i, id))
		}
		h := held.Add(1)
		for p := peak.Load(); h > p && !peak.CompareAndSwap(p, h); p = peak.Load() {
		}
		count[id].Add(1)
		// Some work while holding it, so that holders overlap.
		x := uint64(i)
		for range i % 64 {
			x = x*6364136223846793005 + 1442695040888963407
		}
		if x == 42 {
			count[id].Add(0)
		}
		held.Add(-1)
		if !inUse[id].CompareAndSwap(1, 0) {
			bad.CompareAndSwap(nil, fmt.Sprintf("index %d: id %d released by another holder", i, id))
		}
		tok.Release(id)
	})
	if err := space.Fence(); err != nil {
		t.Fatal(err)
	}
	if b := bad.Load(); b != nil {
		t.Fatal(b)
	}
	counts = make([]int64, size)
	total := int64(0)
	for id := range count {
		counts[id] = count[id].Load()
		total += counts[id]
	}
	if total != int64(n) {
		t.Fatalf("%d acquires counted, want %d", total, n)
	}
	return counts, peak.Load()
}

func TestUniqueTokenContention(t *testing.T) {
	const n = 20000
	for name, space := range tokenSpaces(t) {
		t.Run(name, func(t *testing.T) {
			tok := kokkos.NewUniqueToken(space)
			if tok.Size() != space.Concurrency() {
				t.Fatalf("Size %d, want the concurrency %d", tok.Size(), space.Concurrency())
			}
			if tok.Space() != kokkos.ExecutionSpace(space) {
				t.Fatalf("Space %v, want %v", tok.Space(), space)
			}
			_, most := holders(t, space, tok, n)
			if most > int64(tok.Size()) {
				t.Fatalf("%d ids held at once, Size %d", most, tok.Size())
			}
			// Tokens smaller than the concurrency make holders wait;
			// larger ones let them spread.
			for _, size := range []int{1, 2, 3, 70, 1000} {
				tok := kokkos.NewUniqueTokenSize(space, size)
				if tok.Size() != size {
					t.Fatalf("Size %d, want %d", tok.Size(), size)
				}
				_, most := holders(t, space, tok, n/4)
				if most > int64(size) {
					t.Fatalf("size %d: %d ids held at once", size, most)
				}
			}
		})
	}
}

// TestUniqueTokenNested holds ids of two tokens at once, one inside the
// other, and ids of one token held by several goroutines outside any
// pattern.
func TestUniqueTokenNested(t *testing.T) {
	outer := kokkos.NewUniqueTokenSize(nil, 3)
	inner := kokkos.NewUniqueTokenSize(nil, 2)
	var inUse [3][2]atomic.Int32
	var bad atomic.Bool
	kokkos.ParallelFor("nested", kokkos.Range(0, 5000), func(int) {
		a := outer.Acquire()
		b := inner.Acquire()
		if !inUse[a][b].CompareAndSwap(0, 1) {
			bad.Store(true)
		}
		inUse[a][b].Store(0)
		inner.Release(b)
		outer.Release(a)
	})
	if bad.Load() {
		t.Fatal("a pair of ids held twice")
	}
	tok := kokkos.NewUniqueTokenSize(kokkos.Serial{}, 4)
	flags := make([]atomic.Int32, 4)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for range 2000 {
				id := tok.Acquire()
				if !flags[id].CompareAndSwap(0, 1) {
					bad.Store(true)
				}
				flags[id].Store(0)
				tok.Release(id)
			}
			_ = g
		})
	}
	wg.Wait()
	if bad.Load() {
		t.Fatal("an id held twice by goroutines")
	}
}

// TestUniqueTokenIDs acquires every id of tokens of several sizes: each id
// once, a released id handed out again.
func TestUniqueTokenIDs(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{1, 2, 5, 63, 64, 65, 129, 1000, 4097, 100000} {
		tok := kokkos.NewUniqueTokenSize(kokkos.Serial{}, size)
		ids := make([]int, size)
		for k := range ids {
			ids[k] = tok.Acquire()
		}
		got := slices.Sorted(slices.Values(ids))
		for k, id := range got {
			if id != k {
				t.Fatalf("size %d: the ids acquired are not 0..%d: %d at %d", size, size-1, id, k)
			}
		}
		// Release a random few; they, and only they, come back.
		r.Shuffle(len(ids), func(a, b int) { ids[a], ids[b] = ids[b], ids[a] })
		back := ids[:min(len(ids), 1+r.IntN(7))]
		for _, id := range back {
			tok.Release(id)
		}
		var again []int
		for range back {
			again = append(again, tok.Acquire())
		}
		slices.Sort(again)
		if want := slices.Sorted(slices.Values(back)); !slices.Equal(again, want) {
			t.Fatalf("size %d: released %v, acquired %v again", size, want, again)
		}
		for k := range size {
			tok.Release(k)
		}
	}
}

// TestUniqueTokenWaits holds every id and checks that an Acquire waits,
// parked, until one is released, and then gets that one.
func TestUniqueTokenWaits(t *testing.T) {
	for _, size := range []int{1, 3, 80} {
		tok := kokkos.NewUniqueTokenSize(kokkos.Serial{}, size)
		for range size {
			tok.Acquire()
		}
		got := make(chan int, 3)
		for range 3 {
			go func() { got <- tok.Acquire() }()
		}
		select {
		case id := <-got:
			t.Fatalf("size %d: Acquire returned %d while every id was held", size, id)
		case <-time.After(20 * time.Millisecond):
		}
		want := []int{size - 1, 0, size / 2}
		var ids []int
		for _, id := range want {
			tok.Release(id)
			select {
			case g := <-got:
				ids = append(ids, g)
			case <-time.After(10 * time.Second):
				t.Fatalf("size %d: Acquire still waits after Release(%d)", size, id)
			}
		}
		if !slices.Equal(ids, want) {
			t.Fatalf("size %d: released %v, the waiters got %v", size, want, ids)
		}
	}
}

// deviceSpace is an execution space that is not a host space.
type deviceSpace struct{}

func (deviceSpace) Name() string                    { return "Device" }
func (deviceSpace) Concurrency() int                { return 4096 }
func (deviceSpace) Fence() error                    { return nil }
func (deviceSpace) MemorySpace() kokkos.MemorySpace { return kokkos.HostSpace }

func TestUniqueTokenErrors(t *testing.T) {
	panics := func(name, want string, f func()) {
		t.Helper()
		defer func() {
			t.Helper()
			r := recover()
			if s, _ := r.(string); !strings.Contains(s, want) {
				t.Errorf("%s: panic %v, want one containing %q", name, r, want)
			}
		}()
		f()
	}
	tok := kokkos.NewUniqueTokenSize(kokkos.Serial{}, 3)
	id := tok.Acquire()
	tok.Release(id)
	panics("double release", fmt.Sprintf("UniqueToken.Release(%d): id %d is not held (released twice, or never acquired)", id, id), func() { tok.Release(id) })
	panics("never acquired", "UniqueToken.Release(2): id 2 is not held", func() { tok.Release(2) })
	panics("negative", "UniqueToken.Release(-1): id outside [0, 3)", func() { tok.Release(-1) })
	panics("too large", "UniqueToken.Release(3): id outside [0, 3)", func() { tok.Release(3) })
	panics("size 0", "NewUniqueTokenSize(Serial, 0): a token needs at least one id", func() { kokkos.NewUniqueTokenSize(kokkos.Serial{}, 0) })
	var zero kokkos.UniqueToken
	panics("zero Acquire", "UniqueToken.Acquire of the zero UniqueToken", func() { zero.Acquire() })
	panics("zero Size", "UniqueToken.Size of the zero UniqueToken", func() { zero.Size() })
	dev := kokkos.NewUniqueToken(deviceSpace{})
	if dev.Size() != 4096 || dev.Space() != (deviceSpace{}) {
		t.Fatalf("device token: Size %d, Space %v", dev.Size(), dev.Space())
	}
	panics("device Acquire", "UniqueToken.Acquire on the host for a token of Device", func() { dev.Acquire() })
	panics("device Release", "UniqueToken.Release on the host for a token of Device", func() { dev.Release(0) })
	// A panic in a body reaches the caller as a *PanicError.
	func() {
		defer func() {
			pe, ok := recover().(*kokkos.PanicError)
			if !ok || !strings.Contains(fmt.Sprint(pe.Value), "is not held") {
				t.Errorf("panic in a body: %v", pe)
			}
		}()
		kokkos.ParallelFor("bad release", kokkos.Range(0, 10).On(kokkos.Serial{}), func(i int) { tok.Release(i % 3) })
	}()
	if d := kokkos.NewUniqueToken(nil); d.Size() != kokkos.DefaultExecutionSpace().Concurrency() || d.Space() != kokkos.ExecutionSpace(kokkos.DefaultExecutionSpace()) {
		t.Fatalf("NewUniqueToken(nil): Size %d, Space %v", d.Size(), d.Space())
	}
}

// BenchmarkUniqueToken times an Acquire and Release pair per index of a
// per-index ParallelFor on a pool of two, against the same loop without
// the token.
func BenchmarkUniqueToken(b *testing.B) {
	pool := kokkos.NewThreads(2)
	defer pool.Close()
	const n = 1 << 16
	sums := make([]float64, 64*8)
	x := make([]float64, n)
	for _, c := range []struct {
		name string
		tok  bool
		size int
	}{{"none", false, 0}, {"concurrency", true, 0}, {"size1", true, 1}, {"size64", true, 64}} {
		tok := kokkos.NewUniqueToken(pool)
		if c.size > 0 {
			tok = kokkos.NewUniqueTokenSize(pool, c.size)
		}
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if c.tok {
					kokkos.ParallelFor("token", kokkos.Range(0, n).On(pool), func(i int) {
						id := tok.Acquire()
						sums[id*8]++
						tok.Release(id)
					})
				} else {
					kokkos.ParallelFor("token", kokkos.Range(0, n).On(pool), func(i int) {
						x[i]++
					})
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/index")
		})
	}
}

// A token gives each holder a histogram of its own: no two goroutines
// add to the same one at the same time, and there are only as many as
// the pool runs at once.
func ExampleUniqueToken() {
	tok := kokkos.NewUniqueToken(kokkos.DefaultExecutionSpace())
	hist := make([][4]int, tok.Size())
	kokkos.ParallelFor("histogram", kokkos.Range(0, 1000), func(i int) {
		id := tok.Acquire()
		hist[id][i%4]++
		tok.Release(id)
	})
	var total [4]int
	for _, h := range hist {
		for b, c := range h {
			total[b] += c
		}
	}
	fmt.Println(total)
	// Output: [250 250 250 250]
}

// A token gives each holder a random generator of its own: no two
// goroutines draw from the same state at the same time.
func ExampleUniqueToken_random() {
	tok := kokkos.NewUniqueToken(kokkos.DefaultExecutionSpace())
	gens := make([]*rand.Rand, tok.Size())
	for id := range gens {
		gens[id] = rand.New(rand.NewPCG(uint64(id), 1))
	}
	const n = 100000
	inside := kokkos.ParallelReduce("pi", kokkos.Range(0, n), kokkos.Sum[int](), func(i int, acc *int) {
		id := tok.Acquire()
		x, y := gens[id].Float64(), gens[id].Float64()
		tok.Release(id)
		if x*x+y*y < 1 {
			*acc++
		}
	})
	fmt.Printf("%.1f\n", 4*float64(inside)/n)
	// Output: 3.1
}
