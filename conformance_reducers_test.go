package kokkos_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
)

// uniqueExtremes returns n values rand()%100000+2 as Kokkos's test makes
// them, with the first minimum and the first maximum made unique (later
// equal values moved off by one), and their indices.
func uniqueExtremes(rng *rand.Rand, n int) (x []float64, minLoc, maxLoc int) {
	x = make([]float64, n)
	for i := range x {
		x[i] = float64(rng.IntN(100000) + 2)
	}
	for i := range x {
		if x[i] > x[maxLoc] {
			maxLoc = i
		} else if i != maxLoc && x[i] == x[maxLoc] {
			x[i]--
		}
	}
	for i := range x {
		if x[i] < x[minLoc] {
			minLoc = i
		} else if i != minLoc && x[i] == x[minLoc] {
			x[i]++
		}
	}
	return x, minLoc, maxLoc
}

// Kokkos: core/unit_test/TestReducers.hpp, test_minloc and test_maxloc.
func TestConformanceReducersMinLocMaxLoc(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 1))
	for _, n := range []int{1, 101, 10003} {
		x, minLoc, maxLoc := uniqueExtremes(rng, n)
		mn := kokkos.ParallelReduce("minloc", kokkos.Range(0, n), kokkos.MinLoc[float64, int](), func(i int, a *kokkos.ValLoc[float64, int]) {
			if x[i] < a.Val {
				*a = kokkos.ValLoc[float64, int]{Val: x[i], Loc: i}
			}
		})
		mx := kokkos.ParallelReduce("maxloc", kokkos.Range(0, n), kokkos.MaxLoc[float64, int](), func(i int, a *kokkos.ValLoc[float64, int]) {
			if x[i] > a.Val {
				*a = kokkos.ValLoc[float64, int]{Val: x[i], Loc: i}
			}
		})
		if mn != (kokkos.ValLoc[float64, int]{Val: x[minLoc], Loc: minLoc}) || mx != (kokkos.ValLoc[float64, int]{Val: x[maxLoc], Loc: maxLoc}) {
			t.Errorf("n=%d: MinLoc %v, MaxLoc %v; want %v at %d, %v at %d", n, mn, mx, x[minLoc], minLoc, x[maxLoc], maxLoc)
		}
	}
}

// Kokkos: core/unit_test/TestReducers.hpp, test_minloc_2d and test_maxloc_2d
// (a location of two indices).
func TestConformanceReducersMinLoc2D(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 2))
	const n = 67
	x, minLoc, maxLoc := uniqueExtremes(rng, n*n)
	p := kokkos.MDRange([]int{0, 0}, []int{n, n})
	type VL = kokkos.ValLoc[float64, [2]int]
	mn := kokkos.ParallelReduceMD("minloc2d", p, kokkos.MinLoc[float64, [2]int](), func(i, j int, a *VL) {
		if v := x[i*n+j]; v < a.Val {
			*a = VL{Val: v, Loc: [2]int{i, j}}
		}
	})
	mx := kokkos.ParallelReduceMD("maxloc2d", p, kokkos.MaxLoc[float64, [2]int](), func(i, j int, a *VL) {
		if v := x[i*n+j]; v > a.Val {
			*a = VL{Val: v, Loc: [2]int{i, j}}
		}
	})
	if mn != (VL{x[minLoc], [2]int{minLoc / n, minLoc % n}}) || mx != (VL{x[maxLoc], [2]int{maxLoc / n, maxLoc % n}}) {
		t.Errorf("MinLoc %v, MaxLoc %v; want %v at %d, %v at %d", mn, mx, x[minLoc], minLoc, x[maxLoc], maxLoc)
	}
}

// Kokkos: core/unit_test/TestReducers.hpp, test_minmaxloc.
func TestConformanceReducersMinMaxLoc(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 3))
	for _, n := range []int{1, 101, 10003} {
		x, minLoc, maxLoc := uniqueExtremes(rng, n)
		type MM = kokkos.MinMaxValLoc[float64, int]
		got := kokkos.ParallelReduce("minmaxloc", kokkos.Range(0, n), kokkos.MinMaxLoc[float64, int](), func(i int, a *MM) {
			if x[i] < a.MinVal {
				a.MinVal, a.MinLoc = x[i], i
			}
			if x[i] > a.MaxVal {
				a.MaxVal, a.MaxLoc = x[i], i
			}
		})
		mm := kokkos.ParallelReduce("minmax", kokkos.Range(0, n), kokkos.MinMax[float64](), func(i int, a *kokkos.MinMaxVal[float64]) {
			a.MinVal, a.MaxVal = min(a.MinVal, x[i]), max(a.MaxVal, x[i])
		})
		if got != (MM{x[minLoc], x[maxLoc], minLoc, maxLoc}) || mm != (kokkos.MinMaxVal[float64]{MinVal: x[minLoc], MaxVal: x[maxLoc]}) {
			t.Errorf("n=%d: MinMaxLoc %+v, MinMax %+v; want %v at %d, %v at %d", n, got, mm, x[minLoc], minLoc, x[maxLoc], maxLoc)
		}
	}
}

// locInitBody is the body of the loc_init tests: it skips even indices and
// takes values with <= (>= for the maximum), so that equal values at
// every odd index replace each other.
func locInitBody(x []float64) func(i int, a *kokkos.MinMaxValLoc[float64, int]) {
	return func(i int, a *kokkos.MinMaxValLoc[float64, int]) {
		if i%2 == 0 {
			return
		}
		if x[i] <= a.MinVal {
			a.MinVal, a.MinLoc = x[i], i
		}
		if x[i] >= a.MaxVal {
			a.MaxVal, a.MaxLoc = x[i], i
		}
	}
}

// Kokkos: core/unit_test/TestReducers.hpp, test_minloc_loc_init,
// test_maxloc_loc_init, test_minmaxloc_loc_init,
// test_minmaxfirstlastloc_loc_init, test_minfirstloc_loc_init and
// test_maxfirstloc_loc_init: all values are a reduction identity and the
// body skips even indices, so partial results of even indices stay the
// identity; the locations must still be indices the body recorded (odd,
// in range), which takes the identity-location rule of the joins.
func TestConformanceReducersLocInit(t *testing.T) {
	for _, n := range []int{63, 1003} { // 63: one index per block
		testLocInit(t, n)
	}
}

func testLocInit(t *testing.T, n int) {
	for _, fill := range []float64{math.Inf(1), math.Inf(-1)} {
		x := make([]float64, n)
		for i := range x {
			x[i] = fill
		}
		r := kokkos.Range(0, n)
		body := locInitBody(x)
		inRange := func(loc int) bool { return loc >= 0 && loc < n && loc%2 == 1 }
		for _, c := range []struct {
			name string
			r    kokkos.Reducer[kokkos.MinMaxValLoc[float64, int]]
		}{
			{"MinMaxLoc", kokkos.MinMaxLoc[float64, int]()},
			{"MinMaxFirstLastLoc", kokkos.MinMaxFirstLastLoc[float64, int]()},
		} {
			got := kokkos.ParallelReduce(c.name, r, c.r, body)
			if got.MinVal != fill || got.MaxVal != fill || !inRange(got.MinLoc) || !inRange(got.MaxLoc) {
				t.Errorf("%s of %v: %+v", c.name, fill, got)
			}
		}
		for _, c := range []struct {
			name string
			r    kokkos.Reducer[kokkos.ValLoc[float64, int]]
			max  bool
		}{
			{"MinLoc", kokkos.MinLoc[float64, int](), false},
			{"MaxLoc", kokkos.MaxLoc[float64, int](), true},
			{"MinFirstLoc", kokkos.MinFirstLoc[float64, int](), false},
			{"MaxFirstLoc", kokkos.MaxFirstLoc[float64, int](), true},
		} {
			got := kokkos.ParallelReduce(c.name, r, c.r, func(i int, a *kokkos.ValLoc[float64, int]) {
				if i%2 == 1 && (!c.max && x[i] <= a.Val || c.max && x[i] >= a.Val) {
					*a = kokkos.ValLoc[float64, int]{Val: x[i], Loc: i}
				}
			})
			// only a fill equal to the identity's value reaches the joins'
			// tie rules; the other fill is an ordinary extreme
			if got.Val != fill || !inRange(got.Loc) {
				t.Errorf("%s of %v: %+v", c.name, fill, got)
			}
		}
	}
}
