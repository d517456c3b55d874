package kokkos

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	"github.com/gokkos/kokkos/backend"
)

func TestReduceReproducible(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	spaces := testSpaces(t)
	for _, n := range []int{1, 7, 64, 100, reduceBlock - 1, reduceBlock + 1, 5*reduceBlock + 17, 100003} {
		x, y := randFloats(r, n), randFloats(r, n)
		var ref float64
		for i := range x {
			ref += x[i] * y[i]
		}
		var first float64
		for k, s := range spaces {
			for _, chunk := range []int{0, 1, 100, reduceBlock, 3*reduceBlock + 5, 1 << 30} {
				p := Range(0, n).WithChunk(chunk).On(s)
				got := ParallelReduce("dot", p, Sum[float64](), func(i int, acc *float64) { *acc += x[i] * y[i] })
				gotc := ParallelReduceChunks("dot", p, Sum[float64](), func(lo, hi int, acc *float64) {
					a := *acc
					for i := lo; i < hi; i++ {
						a += x[i] * y[i]
					}
					*acc = a
				})
				if k == 0 && chunk == 0 {
					first = got
					if math.Abs(got-ref) > 1e-9*float64(n) {
						t.Fatalf("n=%d: sum %v, serial loop %v", n, got, ref)
					}
				}
				if math.Float64bits(got) != math.Float64bits(first) || math.Float64bits(gotc) != math.Float64bits(first) {
					t.Fatalf("n=%d %s chunk=%d: %v and %v, want %v bit for bit", n, spaceName(s), chunk, got, gotc, first)
				}
			}
		}
	}
}

func TestBuiltinReducers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 10000
	x := randFloats(r, n)
	ints := make([]int64, n)
	for i := range ints {
		ints[i] = r.Int64N(1<<40) - 1<<39
	}
	x[4321], x[8765] = -5, 7 // unique extremes
	x[9000] = -5             // a tie: the lower index wins
	for _, s := range testSpaces(t) {
		p := Range(0, n).On(s).WithChunk(3000)
		var wsum, wprod int64 = 0, 1
		wmin, wmax := int64(math.MaxInt64), int64(math.MinInt64)
		var wand, wor int64 = -1, 0
		for _, v := range ints {
			wsum += v
			wprod *= v | 1
			wmin, wmax = min(wmin, v), max(wmax, v)
			wand &= v | 0x55
			wor |= v & 0x0f0f
		}
		check := func(name string, got, want int64) {
			t.Helper()
			if got != want {
				t.Errorf("%s %s = %d, want %d", spaceName(s), name, got, want)
			}
		}
		check("Sum", ParallelReduce("sum", p, Sum[int64](), func(i int, a *int64) { *a += ints[i] }), wsum)
		check("Prod", ParallelReduce("prod", p, Prod[int64](), func(i int, a *int64) { *a *= ints[i] | 1 }), wprod)
		check("Min", ParallelReduce("min", p, Min[int64](), func(i int, a *int64) { *a = min(*a, ints[i]) }), wmin)
		check("Max", ParallelReduce("max", p, Max[int64](), func(i int, a *int64) { *a = max(*a, ints[i]) }), wmax)
		check("BAnd", ParallelReduce("band", p, BAnd[int64](), func(i int, a *int64) { *a &= ints[i] | 0x55 }), wand)
		check("BOr", ParallelReduce("bor", p, BOr[int64](), func(i int, a *int64) { *a |= ints[i] & 0x0f0f }), wor)

		mn := ParallelReduce("minloc", p, MinLoc[float64, int](), func(i int, a *ValLoc[float64, int]) {
			if x[i] < a.Val {
				*a = ValLoc[float64, int]{x[i], i}
			}
		})
		if mn != (ValLoc[float64, int]{-5, 4321}) {
			t.Errorf("%s MinLoc = %v", spaceName(s), mn)
		}
		mx := ParallelReduce("maxloc", p, MaxLoc[float64, int](), func(i int, a *ValLoc[float64, int]) {
			if x[i] > a.Val {
				*a = ValLoc[float64, int]{x[i], i}
			}
		})
		if mx != (ValLoc[float64, int]{7, 8765}) {
			t.Errorf("%s MaxLoc = %v", spaceName(s), mx)
		}
		pos := ParallelReduce("land", p, LAnd(), func(i int, a *bool) { *a = *a && x[i] > -6 })
		neg := ParallelReduce("land", p, LAnd(), func(i int, a *bool) { *a = *a && x[i] > -1 })
		any7 := ParallelReduce("lor", p, LOr(), func(i int, a *bool) { *a = *a || x[i] == 7 })
		none := ParallelReduce("lor", p, LOr(), func(i int, a *bool) { *a = *a || x[i] > 8 })
		if !pos || neg || !any7 || none {
			t.Errorf("%s LAnd/LOr = %v %v %v %v", spaceName(s), pos, neg, any7, none)
		}
		// A custom reducer: the sum of squares and the count, in a struct.
		type stats struct {
			n  int
			ss float64
		}
		st := ParallelReduce("custom", p, Reducer[stats]{
			Identity: func() stats { return stats{} },
			Join:     func(a, b stats) stats { return stats{a.n + b.n, a.ss + b.ss} },
		}, func(i int, a *stats) { a.n++; a.ss += x[i] * x[i] })
		if st.n != n || st.ss <= 0 {
			t.Errorf("%s custom = %+v", spaceName(s), st)
		}
	}
	if got := ParallelReduce("empty", Range(4, 4), Min[float32](), func(int, *float32) { t.Error("body called") }); !math.IsInf(float64(got), 1) {
		t.Errorf("empty Min = %v, want +Inf", got)
	}
}

func TestIdentities(t *testing.T) {
	if greatest[int8]() != math.MaxInt8 || least[int8]() != math.MinInt8 || greatest[uint16]() != math.MaxUint16 ||
		least[uint]() != 0 || greatest[int64]() != math.MaxInt64 || greatest[uint64]() != math.MaxUint64 ||
		!math.IsInf(float64(least[float32]()), -1) || BAnd[uint8]().Identity() != 0xff {
		t.Error("wrong identity")
	}
}

func TestReducePanic(t *testing.T) {
	for _, s := range testSpaces(t) {
		r := catchPanic(func() {
			ParallelReduce("red", Range(0, 50000).On(s), Sum[int](), func(i int, a *int) {
				if i == 40000 {
					panic("oops")
				}
			})
		})
		pe, ok := r.(*PanicError)
		if !ok || pe.Label != "red" {
			t.Fatalf("%s: recovered %v", spaceName(s), r)
		}
		if got := ParallelReduce("ok", Range(0, 50000).On(s), Sum[int](), func(i int, a *int) { *a += 1 }); got != 50000 {
			t.Fatalf("%s: after a panic got %d", spaceName(s), got)
		}
	}
}

func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s float64
	for i := range x {
		s += x[i] * y[i]
	}
	return s
}

func BenchmarkDotChunks(b *testing.B) {
	x, y, _ := triadData()
	var sink float64
	benchVs(b, 1, func() {
		sink += ParallelReduceChunks("dot", Range(0, triadN), Sum[float64](), func(lo, hi int, acc *float64) {
			*acc += dot(x[lo:hi], y[lo:hi])
		})
	}, func() {
		nt := runtime.GOMAXPROCS(0)
		part := make([]float64, nt)
		per := (triadN + nt - 1) / nt
		var wg sync.WaitGroup
		for k := range nt {
			wg.Go(func() {
				lo := k * per
				part[k] = dot(x[lo:min(lo+per, triadN)], y[lo:min(lo+per, triadN)])
			})
		}
		wg.Wait()
		var s float64
		for _, v := range part {
			s += v
		}
		sink += s
	})
	b.SetBytes(2 * 8 * triadN)
}

func BenchmarkDotIndex(b *testing.B) {
	x, y, _ := triadData()
	var sink float64
	benchVs(b, 1, func() {
		sink += ParallelReduce("dot", Range(0, triadN), Sum[float64](), func(i int, acc *float64) { *acc += x[i] * y[i] })
	}, func() {
		nt := runtime.GOMAXPROCS(0)
		part := make([]float64, nt)
		per := (triadN + nt - 1) / nt
		var wg sync.WaitGroup
		for k := range nt {
			wg.Go(func() {
				lo := k * per
				part[k] = dot(x[lo:min(lo+per, triadN)], y[lo:min(lo+per, triadN)])
			})
		}
		wg.Wait()
		sink += part[0] + part[1%nt]
	})
}

// TestReduceSmallRangeSpreads checks that a reduction over a short range
// runs on more than one goroutine, with the chunk size given (smaller
// than the range) or chosen:
// the body at the first index waits for the body at the last one, which
// only another goroutine can run.
func TestReduceSmallRangeSpreads(t *testing.T) {
	for _, workers := range []int{2, 3} {
		th := NewThreads(workers)
		defer th.Close()
		for _, chunk := range []int{0, 1, 4} {
			for _, n := range []int{2, 64, 1000} {
				if chunk >= n {
					continue // one chunk: one goroutine
				}
				wait := waitForLast(n)
				got := ParallelReduce("spread", Range(0, n).WithChunk(chunk).On(th), Sum[int](), func(i int, acc *int) {
					wait(i)
					*acc += i
				})
				if got != n*(n-1)/2 {
					t.Fatalf("n=%d chunk=%d: sum %d", n, chunk, got)
				}
			}
		}
	}
}

func TestReduceBlockSize(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 1}, {1, 1}, {64, 1}, {65, 2}, {2048, 32}, {64 * reduceBlock, reduceBlock}, {1 << 30, reduceBlock}} {
		if got := reduceBlockSize(c.n); got != c.want {
			t.Errorf("reduceBlockSize(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

func TestReducerBuiltin(t *testing.T) {
	for _, c := range []struct {
		got, want backend.ReduceOp
	}{
		{Sum[float64]().Builtin(), backend.ReduceSum}, {Prod[int32]().Builtin(), backend.ReduceProd},
		{Min[uint8]().Builtin(), backend.ReduceMin}, {Max[float32]().Builtin(), backend.ReduceMax},
		{LAnd().Builtin(), backend.ReduceLAnd}, {LOr().Builtin(), backend.ReduceLOr},
		{BAnd[int64]().Builtin(), backend.ReduceBAnd}, {BOr[uint16]().Builtin(), backend.ReduceBOr},
		{MinLoc[float64, int]().Builtin(), 0},
		{Reducer[int]{Identity: func() int { return 0 }, Join: func(a, b int) int { return a + b }}.Builtin(), 0},
	} {
		if c.got != c.want {
			t.Errorf("Builtin() = %v, want %v", c.got, c.want)
		}
	}
}
