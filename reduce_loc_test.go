//go:build longtest

package kokkos

import (
	"math"
	"math/rand/v2"
	"testing"
)

// tiedFloats returns n random values from a small set, so that the
// extremes repeat, with a NaN at about one index in nan (none for 0).
func tiedFloats(rng *rand.Rand, n, nan int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(rng.IntN(9) - 4)
		if nan > 0 && rng.IntN(nan) == 0 {
			x[i] = math.NaN()
		}
	}
	return x
}

// naiveLoc returns the value of x that comes first in the order before
// (NaNs skipped) and its least and greatest index, or ok false when there
// is none.
func naiveLoc(x []float64, before func(a, b float64) bool) (val float64, firstLoc, lastLoc int, ok bool) {
	for i, v := range x {
		switch {
		case math.IsNaN(v):
		case !ok || before(v, val):
			val, firstLoc, lastLoc, ok = v, i, i, true
		case !before(val, v):
			lastLoc = i
		}
	}
	return
}

// TestLocReducersReference runs MinLoc, MaxLoc, MinMax, MinMaxLoc,
// MinFirstLoc, MaxFirstLoc, MinMaxFirstLastLoc and the comparator forms
// (ordering by halves, so that pairs of values tie) through ParallelReduce and
// ParallelReduceChunks on every test space, on random data full of ties
// and with NaNs the bodies skip, against naive loops; the results must
// also be the same on every space.
func TestLocReducersReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	lt := func(a, b float64) bool { return a < b }
	gt := func(a, b float64) bool { return a > b }
	// a coarser order than <, in which pairs of values tie; it keeps the
	// infinities of the identities at the ends, as the comparator forms
	// require
	absLess := func(a, b float64) bool { return math.Floor(a/2) < math.Floor(b/2) }
	type VL = ValLoc[float64, int]
	type MM = MinMaxValLoc[float64, int]
	for _, n := range []int{1, 2, 7, 130, 5000, 150000} {
		x := tiedFloats(rng, n, 50)
		minV, minFirst, _, _ := naiveLoc(x, lt)
		maxV, maxFirst, maxLast, _ := naiveLoc(x, gt)
		absV, absFirst, _, _ := naiveLoc(x, absLess)
		absMaxV, absMaxFirst, absMaxLast, _ := naiveLoc(x, func(a, b float64) bool { return absLess(b, a) })
		var prev []any
		for _, s := range testSpaces(t) {
			p := Range(0, n).On(s).WithChunk(1 + rng.IntN(3000))
			// bodies that take a value only when it is better, or equal at a
			// lesser (greater, for the last location) index; NaNs never are
			firstBody := func(before func(a, b float64) bool) func(i int, a *VL) {
				return func(i int, a *VL) {
					if before(x[i], a.Val) || !before(a.Val, x[i]) && !math.IsNaN(x[i]) && i < a.Loc {
						*a = VL{x[i], i}
					}
				}
			}
			got := []any{
				ParallelReduce("minloc", p, MinLoc[float64, int](), func(i int, a *VL) {
					if x[i] < a.Val {
						*a = VL{x[i], i}
					}
				}),
				ParallelReduce("maxloc", p, MaxLoc[float64, int](), func(i int, a *VL) {
					if x[i] > a.Val {
						*a = VL{x[i], i}
					}
				}),
				ParallelReduce("minmax", p, MinMax[float64](), func(i int, a *MinMaxVal[float64]) {
					if x[i] < a.MinVal {
						a.MinVal = x[i]
					}
					if x[i] > a.MaxVal {
						a.MaxVal = x[i]
					}
				}),
				ParallelReduce("minmaxloc", p, MinMaxLoc[float64, int](), func(i int, a *MM) {
					if x[i] < a.MinVal {
						a.MinVal, a.MinLoc = x[i], i
					}
					if x[i] > a.MaxVal {
						a.MaxVal, a.MaxLoc = x[i], i
					}
				}),
				ParallelReduce("minfirstloc", p, MinFirstLoc[float64, int](), firstBody(lt)),
				ParallelReduceChunks("maxfirstloc", p, MaxFirstLoc[float64, int](), func(lo, hi int, a *VL) {
					for i := lo; i < hi; i++ {
						firstBody(gt)(i, a)
					}
				}),
				ParallelReduce("minfirstloc-abs", p, MinFirstLocCustomComparator[float64, int](absLess), firstBody(absLess)),
				ParallelReduce("maxfirstloc-abs", p, MaxFirstLocCustomComparator[float64, int](absLess),
					firstBody(func(a, b float64) bool { return absLess(b, a) })),
				ParallelReduce("minmaxfirstlast", p, MinMaxFirstLastLoc[float64, int](), func(i int, a *MM) {
					if x[i] < a.MinVal || x[i] == a.MinVal && i < a.MinLoc {
						a.MinVal, a.MinLoc = x[i], i
					}
					if x[i] > a.MaxVal || x[i] == a.MaxVal && i > a.MaxLoc {
						a.MaxVal, a.MaxLoc = x[i], i
					}
				}),
				ParallelReduce("minmaxfirstlast-abs", p, MinMaxFirstLastLocCustomComparator[float64, int](absLess), func(i int, a *MM) {
					if math.IsNaN(x[i]) {
						return
					}
					if absLess(x[i], a.MinVal) || !absLess(a.MinVal, x[i]) && i < a.MinLoc {
						a.MinVal, a.MinLoc = x[i], i
					}
					if absLess(a.MaxVal, x[i]) || !absLess(x[i], a.MaxVal) && i > a.MaxLoc {
						a.MaxVal, a.MaxLoc = x[i], i
					}
				}),
			}
			want := []any{
				VL{minV, minFirst}, VL{maxV, maxFirst}, MinMaxVal[float64]{minV, maxV},
				MM{minV, maxV, minFirst, maxFirst}, VL{minV, minFirst}, VL{maxV, maxFirst},
				VL{absV, absFirst}, VL{absMaxV, absMaxFirst},
				MM{minV, maxV, minFirst, maxLast}, MM{absV, absMaxV, absFirst, absMaxLast},
			}
			for k := range want {
				if got[k] != want[k] {
					t.Errorf("n=%d %s: reducer %d gives %+v, want %+v", n, spaceName(s), k, got[k], want[k])
				}
			}
			if prev != nil {
				for k := range got {
					if got[k] != prev[k] {
						t.Errorf("n=%d %s: reducer %d gives %+v, another space %+v", n, spaceName(s), k, got[k], prev[k])
					}
				}
			}
			prev = got
		}
	}
}

// TestLocReducerJoins checks the identities and the joins of the location
// reducers on ties, NaNs and identity locations, case by case, against
// Kokkos's rules: MinLoc takes a tied value's location only while the kept
// one is the identity's; the First reducers take the lesser location of
// tied values (and a NaN ties with everything); MinMaxFirstLastLoc takes
// the greater location for the maximum.
func TestLocReducerJoins(t *testing.T) {
	type VL = ValLoc[float64, int32]
	nan := math.NaN()
	const maxI = math.MaxInt32
	mn, mx := MinLoc[float64, int32](), MaxLoc[float64, int32]()
	mf, xf := MinFirstLoc[float64, int32](), MaxFirstLoc[float64, int32]()
	if mn.Identity() != (VL{math.Inf(1), maxI}) || mx.Identity() != (VL{math.Inf(-1), maxI}) ||
		mf.Identity() != (VL{math.Inf(1), maxI}) || xf.Identity() != (VL{math.Inf(-1), maxI}) {
		t.Errorf("identities %v %v %v %v", mn.Identity(), mx.Identity(), mf.Identity(), xf.Identity())
	}
	if id := MinLoc[int8, [2]int]().Identity(); id != (ValLoc[int8, [2]int]{127, [2]int{}}) {
		t.Errorf("MinLoc with an array location: identity %v", id)
	}
	if id := MinMaxFirstLastLoc[uint8, int8]().Identity(); id != (MinMaxValLoc[uint8, int8]{255, 0, 127, -128}) {
		t.Errorf("MinMaxFirstLastLoc identity %v", id)
	}
	same := func(a, b VL) bool {
		return a.Loc == b.Loc && (a.Val == b.Val || math.IsNaN(a.Val) && math.IsNaN(b.Val))
	}
	for _, c := range []struct {
		name      string
		r         Reducer[VL]
		a, b, out VL
	}{
		{"MinLoc less", mn, VL{2, 5}, VL{1, 9}, VL{1, 9}},
		{"MinLoc tie keeps", mn, VL{1, 5}, VL{1, 3}, VL{1, 5}},
		{"MinLoc tie fills identity loc", mn, VL{1, maxI}, VL{1, 3}, VL{1, 3}},
		{"MinLoc NaN kept", mn, VL{nan, 5}, VL{1, 3}, VL{nan, 5}},
		{"MinLoc NaN dropped", mn, VL{1, 5}, VL{nan, 3}, VL{1, 5}},
		{"MaxLoc greater", mx, VL{2, 5}, VL{3, 9}, VL{3, 9}},
		{"MaxLoc tie fills identity loc", mx, VL{math.Inf(-1), maxI}, VL{math.Inf(-1), 3}, VL{math.Inf(-1), 3}},
		{"MinFirstLoc tie", mf, VL{1, 5}, VL{1, 3}, VL{1, 3}},
		{"MinFirstLoc less", mf, VL{1, 5}, VL{0, 7}, VL{0, 7}},
		{"MinFirstLoc NaN ties", mf, VL{nan, 5}, VL{1, 3}, VL{nan, 3}},
		{"MaxFirstLoc tie", xf, VL{4, 8}, VL{4, 2}, VL{4, 2}},
		{"MaxFirstLoc greater", xf, VL{4, 8}, VL{5, 9}, VL{5, 9}},
	} {
		if got := c.r.Join(c.a, c.b); !same(got, c.out) {
			t.Errorf("%s: Join(%v, %v) = %v, want %v", c.name, c.a, c.b, got, c.out)
		}
	}
	fl := MinMaxFirstLastLoc[int, int]()
	got := fl.Join(MinMaxValLoc[int, int]{1, 9, 4, 4}, MinMaxValLoc[int, int]{1, 9, 2, 6})
	if got != (MinMaxValLoc[int, int]{1, 9, 2, 6}) {
		t.Errorf("MinMaxFirstLastLoc tie: %v", got)
	}
}

// TestLocReducersMDRangeScan uses the location reducers in a rank-2
// MDRange reduction (with [2]int and flat locations) and in a ParallelScan
// (a running arg-min), against naive loops.
func TestLocReducersMDRangeScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const n0, n1 = 37, 53
	x := tiedFloats(rng, n0*n1, 0)
	for _, s := range testSpaces(t) {
		p := MDRange([]int{0, 0}, []int{n0, n1}).On(s)
		mn := ParallelReduceMD("minloc2", p, MinLoc[float64, [2]int](), func(i, j int, a *ValLoc[float64, [2]int]) {
			if v := x[i*n1+j]; v < a.Val {
				*a = ValLoc[float64, [2]int]{v, [2]int{i, j}}
			}
		})
		mf := ParallelReduceMD("maxfirstloc2", p, MaxFirstLoc[float64, int](), func(i, j int, a *ValLoc[float64, int]) {
			if k := i*n1 + j; x[k] > a.Val || x[k] == a.Val && k < a.Loc {
				*a = ValLoc[float64, int]{x[k], k}
			}
		})
		minV, minK, _, _ := naiveLoc(x, func(a, b float64) bool { return a < b })
		maxV, maxK, _, _ := naiveLoc(x, func(a, b float64) bool { return a > b })
		if mn != (ValLoc[float64, [2]int]{minV, [2]int{minK / n1, minK % n1}}) || mf != (ValLoc[float64, int]{maxV, maxK}) {
			t.Errorf("%s: MinLoc %v, MaxFirstLoc %v; want %v at %d, %v at %d", spaceName(s), mn, mf, minV, minK, maxV, maxK)
		}
		running := make([]ValLoc[float64, int], len(x))
		ParallelScan("argmin", Range(0, len(x)).On(s), MinFirstLoc[float64, int](), func(i int, a *ValLoc[float64, int], final bool) {
			if x[i] < a.Val {
				*a = ValLoc[float64, int]{x[i], i}
			}
			if final {
				running[i] = *a
			}
		})
		var want ValLoc[float64, int]
		for i, v := range x {
			if i == 0 || v < want.Val {
				want = ValLoc[float64, int]{v, i}
			}
			if running[i] != want {
				t.Fatalf("%s: running arg-min at %d is %v, want %v", spaceName(s), i, running[i], want)
			}
		}
	}
}
