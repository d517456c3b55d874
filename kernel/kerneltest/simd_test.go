package kerneltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// The kernels of simd.go, run with their rows laid out along the inner
// loops (LayoutRight: the host calls the vector helpers) and across them
// (LayoutLeft: the scalar loops), against the functions called directly.
// Integers and maps agree exactly; the fastmath sums of floats within
// the bound of simd.go's helpers, 2 n u Σ|terms| for n terms of unit
// roundoff u (each order's error is at most (n-1) u Σ|terms|).

// fastBound returns the bound on the difference of two sums of terms, in
// any order, of unit roundoff u.
func fastBound(terms []float64, u float64) float64 {
	var abs float64
	for _, x := range terms {
		abs += math.Abs(x)
	}
	return 2 * float64(len(terms)) * u * abs
}

// hostCopy returns v's elements, copied to the host.
func hostCopy[T kokkos.Number](t *testing.T, w where, v kokkos.View[T]) kokkos.DynRankView[T] {
	t.Helper()
	fence(t, w)
	h := kokkos.Must(kokkos.NewDynRankView[T]("got", kokkos.ShapeOf(v).Extents))
	if err := kokkos.DeepCopy[T](h, v); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestSIMDDotFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(301, 1))
	const n, m = 37, 203
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		A := kokkos.Must(kokkos.NewView2[float64]("A", n, m, lay))
		x := kokkos.Must(kokkos.NewView1[float64]("x", m))
		fill(A, randFloat[float64](rng, -1, 1))
		fill(x, randFloat[float64](rng, -1, 1))
		for _, b := range [][2]int{{0, m}, {3, m - 1}, {5, 12}, {7, 7}, {9, 2}} {
			lo, hi := b[0], b[1]
			want := kokkos.Must(kokkos.NewView1[float64]("want", n))
			bound := make([]float64, n)
			for i := range n {
				DotFast(i, want, A, x, lo, hi)
				terms := []float64{0.5}
				for j := lo; j < hi; j++ {
					terms = append(terms, A.At(i, j)*x.At(j))
				}
				bound[i] = fastBound(terms, 0x1p-53)
			}
			for _, w := range places(t) {
				y := kokkos.Must(kokkos.NewView1[float64]("y", n, kokkos.InSpace(w.mem)))
				keep(t, &y)
				if !launched(t, w, kernel.For("dotfast", kokkos.Range(0, n).On(w.space), DotFast, y, at(t, w, A, kokkos.CreateMirror), at(t, w, x, kokkos.CreateMirror), lo, hi)) {
					continue
				}
				got := hostCopy[float64](t, w, y)
				for i := range n {
					if g, x := got.At(i), want.At(i); math.Abs(g-x) > bound[i] {
						t.Errorf("%s: %v, [%d, %d): y[%d] = %v, want %v within %.3g", w.name, lay, lo, hi, i, g, x, bound[i])
					}
				}
			}
		}
	}
}

func TestSIMDFast32(t *testing.T) {
	rng := rand.New(rand.NewPCG(302, 1))
	const n, m = 29, 150
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		A := kokkos.Must(kokkos.NewView2[float32]("A", n, m+1, lay))
		x := kokkos.Must(kokkos.NewView1[float32]("x", m))
		fill(A, randFloat[float32](rng, -1, 1))
		fill(x, randFloat[float32](rng, -1, 1))
		for _, cols := range []int{m, 17, 1, 0} {
			wantSum := kokkos.Must(kokkos.NewView1[float32]("wantsum", n))
			wantDot := kokkos.Must(kokkos.NewView1[float32]("wantdot", n))
			boundSum, boundDot := make([]float64, n), make([]float64, n)
			for i := range n {
				SumFast32(i, wantSum, A, cols)
				DotFast32(i, wantDot, A, x, cols)
				var sum, dot []float64
				for j := 0; j <= cols; j++ {
					sum = append(sum, float64(A.At(i, j)))
					if j < cols {
						dot = append(dot, float64(A.At(i, j)*x.At(j)))
					}
				}
				boundSum[i], boundDot[i] = fastBound(sum, 0x1p-24), fastBound(dot, 0x1p-24)
			}
			for _, w := range places(t) {
				sum := kokkos.Must(kokkos.NewView1[float32]("sum", n, kokkos.InSpace(w.mem)))
				dot := kokkos.Must(kokkos.NewView1[float32]("dot", n, kokkos.InSpace(w.mem)))
				keep(t, &sum)
				keep(t, &dot)
				Aw := at(t, w, A, kokkos.CreateMirror)
				if !launched(t, w, kernel.For("sumfast32", kokkos.Range(0, n).On(w.space), SumFast32, sum, Aw, cols)) ||
					!launched(t, w, kernel.For("dotfast32", kokkos.Range(0, n).On(w.space), DotFast32, dot, Aw, at(t, w, x, kokkos.CreateMirror), cols)) {
					continue
				}
				gotSum, gotDot := hostCopy[float32](t, w, sum), hostCopy[float32](t, w, dot)
				for i := range n {
					if g, x := float64(gotSum.At(i)), float64(wantSum.At(i)); math.Abs(g-x) > boundSum[i] {
						t.Errorf("%s: %v, %d columns: sum[%d] = %v, want %v within %.3g", w.name, lay, cols, i, g, x, boundSum[i])
					}
					if g, x := float64(gotDot.At(i)), float64(wantDot.At(i)); math.Abs(g-x) > boundDot[i] {
						t.Errorf("%s: %v, %d columns: dot[%d] = %v, want %v within %.3g", w.name, lay, cols, i, g, x, boundDot[i])
					}
				}
			}
		}
	}
}

func TestSIMDSumDotInts(t *testing.T) {
	rng := rand.New(rand.NewPCG(303, 1))
	const n, m = 41, 131
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		a := kokkos.Must(kokkos.NewView2[int32]("a", n, m, lay))
		b := kokkos.Must(kokkos.NewView2[int32]("b", n, m, lay))
		c := kokkos.Must(kokkos.NewView2[int64]("c", n, m, lay))
		d := kokkos.Must(kokkos.NewView2[int64]("d", n, m, lay))
		// Values that overflow, so that the sums wrap.
		fill(a, func() int32 { return int32(rng.Uint32()) })
		fill(b, func() int32 { return int32(rng.Uint32()) })
		fill(c, func() int64 { return int64(rng.Uint64()) })
		fill(d, func() int64 { return int64(rng.Uint64()) })
		for _, cols := range []int{m, 33, 8, 3, 0} {
			want := kokkos.Must(kokkos.NewView2[int64]("want", n, 4))
			for i := range n {
				SumDotInts(i, want, a, b, c, d, cols)
			}
			for _, w := range places(t) {
				out := kokkos.Must(kokkos.NewView2[int64]("out", n, 4, kokkos.InSpace(w.mem)))
				keep(t, &out)
				if launched(t, w, kernel.For("sumdotints", kokkos.Range(0, n).On(w.space), SumDotInts, out, at(t, w, a, kokkos.CreateMirror), at(t, w, b, kokkos.CreateMirror), at(t, w, c, kokkos.CreateMirror), at(t, w, d, kokkos.CreateMirror), cols)) {
					check(t, w, fmt.Sprintf("%v, %d columns: out", lay, cols), out, want)
				}
			}
		}
	}
}

func TestSIMDMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(304, 1))
	const n, m = 23, 77
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		a := kokkos.Must(kokkos.NewView2[float64]("a", n, m, lay))
		b := kokkos.Must(kokkos.NewView2[float64]("b", n, m, lay))
		fill(a, randFloat[float64](rng, -1e3, 1e3))
		fill(b, randFloat[float64](rng, -1e3, 1e3))
		ia := kokkos.Must(kokkos.NewView2[int32]("ia", n, m, lay))
		ib := kokkos.Must(kokkos.NewView2[int32]("ib", n, m, lay))
		la := kokkos.Must(kokkos.NewView2[int64]("la", n, m, lay))
		lb := kokkos.Must(kokkos.NewView2[int64]("lb", n, m, lay))
		fill(ia, func() int32 { return int32(rng.Uint32()) })
		fill(ib, func() int32 { return int32(rng.Uint32()) })
		fill(la, func() int64 { return int64(rng.Uint64()) })
		fill(lb, func() int64 { return int64(rng.Uint64()) })
		fa := kokkos.Must(kokkos.NewView2[float32]("fa", n, m, lay))
		fb := kokkos.Must(kokkos.NewView2[float32]("fb", n, m, lay))
		fill(fa, randFloat[float32](rng, -1, 1))
		fill(fb, randFloat[float32](rng, -1, 1))
		for _, cols := range []int{m, 10, 1} {
			for _, w := range places(t) {
				for op := range 3 {
					want := kokkos.Must(kokkos.NewView2[float64]("want", n, m, lay))
					for i := range n {
						MapsF64(i, want, a, b, op, cols)
					}
					c := kokkos.Must(kokkos.NewView2[float64]("c", n, m, lay, kokkos.InSpace(w.mem)))
					keep(t, &c)
					if launched(t, w, kernel.For("mapsf64", kokkos.Range(0, n).On(w.space), MapsF64, c, at(t, w, a, kokkos.CreateMirror), at(t, w, b, kokkos.CreateMirror), op, cols)) {
						check(t, w, fmt.Sprintf("%v, op %d, %d columns: c", lay, op, cols), c, want)
					}
				}
				wantC := kokkos.Must(kokkos.NewView2[int32]("wantc", n, m, lay))
				wantF := kokkos.Must(kokkos.NewView2[int64]("wantf", n, m, lay))
				want32 := kokkos.Must(kokkos.NewView2[float32]("want32", n, m, lay))
				for i := range n {
					MapsInts(i, wantC, ia, ib, wantF, la, lb, cols)
					MapF32(i, want32, fa, fb, cols)
				}
				c := kokkos.Must(kokkos.NewView2[int32]("c", n, m, lay, kokkos.InSpace(w.mem)))
				f := kokkos.Must(kokkos.NewView2[int64]("f", n, m, lay, kokkos.InSpace(w.mem)))
				g := kokkos.Must(kokkos.NewView2[float32]("g", n, m, lay, kokkos.InSpace(w.mem)))
				keep(t, &c)
				keep(t, &f)
				keep(t, &g)
				if launched(t, w, kernel.For("mapsints", kokkos.Range(0, n).On(w.space), MapsInts, c, at(t, w, ia, kokkos.CreateMirror), at(t, w, ib, kokkos.CreateMirror), f, at(t, w, la, kokkos.CreateMirror), at(t, w, lb, kokkos.CreateMirror), cols)) {
					check(t, w, fmt.Sprintf("%v, %d columns: c", lay, cols), c, wantC)
					check(t, w, fmt.Sprintf("%v, %d columns: f", lay, cols), f, wantF)
				}
				if launched(t, w, kernel.For("mapf32", kokkos.Range(0, n).On(w.space), MapF32, g, at(t, w, fa, kokkos.CreateMirror), at(t, w, fb, kokkos.CreateMirror), cols)) {
					check(t, w, fmt.Sprintf("%v, %d columns: g", lay, cols), g, want32)
				}
			}
		}
	}
}
