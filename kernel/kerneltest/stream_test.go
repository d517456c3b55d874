package kerneltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// The kernels of stream.go at every place, over ranges of several lengths
// and starts, on random data with NaNs, infinities and zeros of both
// signs mixed in, against the functions called directly: the same bits
// (any NaN for a NaN: which of two NaNs an operation gives, Go leaves
// open). In place (a source that is the destination), and,
// on the serial place (one chunk, in index order), onto a source shifted
// by one: the loop's result. The fastmath dot product within 2 n u
// Σ|terms|.

// streamGen returns float generators of random values with specials.
func streamGen(rng *rand.Rand) func() float64 {
	return func() float64 {
		switch rng.IntN(20) {
		case 0:
			return math.NaN()
		case 1:
			return math.Inf(1)
		case 2:
			return math.Inf(-1)
		case 3:
			return math.Copysign(0, -1)
		case 4:
			return 0
		}
		return rng.NormFloat64() * 100
	}
}

func TestStreamKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	g := streamGen(rng)
	g32 := func() float32 { return float32(g()) }
	for _, n := range []int{0, 1, 7, 67, 1000, 20011} {
		for _, lo := range []int{0, 3} {
			if lo > n {
				continue
			}
			mk := func(name string) kokkos.View1[float64] {
				v := kokkos.Must(kokkos.NewView1[float64](name, n+1))
				fill(v, g)
				return v
			}
			mk32 := func(name string) kokkos.View1[float32] {
				v := kokkos.Must(kokkos.NewView1[float32](name, n+1))
				fill(v, g32)
				return v
			}
			a, b, c := mk("a"), mk("b"), mk("c")
			a32, b32, c32 := mk32("a32"), mk32("b32"), mk32("c32")
			ia := kokkos.Must(kokkos.NewView1[int32]("ia", n+1))
			ic := kokkos.Must(kokkos.NewView1[int32]("ic", n+1))
			la := kokkos.Must(kokkos.NewView1[int64]("la", n+1))
			lb := kokkos.Must(kokkos.NewView1[int64]("lb", n+1))
			lc := kokkos.Must(kokkos.NewView1[int64]("lc", n+1))
			fill(ia, randInt[int32](rng))
			fill(ic, randInt[int32](rng))
			fill(la, randInt[int64](rng))
			fill(lb, randInt[int64](rng))
			fill(lc, randInt[int64](rng))
			s, s32 := rng.NormFloat64(), float32(rng.NormFloat64())
			what := func(name string) string { return fmt.Sprintf("%s over [%d, %d)", name, lo, n) }
			for _, w := range places(t) {
				r := kokkos.Range(lo, n).On(w.space)
				// f64 runs k on a copy at w of the destination dst with
				// the sources srcs, and compares with ref run on a host
				// copy of dst.
				f64 := func(name string, dst kokkos.View1[float64], ref func(i int, dst kokkos.View1[float64]), launch func(dst kokkos.View1[float64]) error) {
					t.Helper()
					want := at(t, refPlace, dst, kokkos.CreateMirror)
					for i := lo; i < n; i++ {
						ref(i, want)
					}
					got := at(t, w, dst, kokkos.CreateMirror)
					if launched(t, w, launch(got)) {
						checkNaN(t, w, what(name), got, want)
					}
				}
				f64("copy", c, func(i int, d kokkos.View1[float64]) { StreamCopy(i, a, d) }, func(d kokkos.View1[float64]) error {
					return kernel.For("copy", r, StreamCopy, at(t, w, a, kokkos.CreateMirror), d)
				})
				f64("scale", b, func(i int, d kokkos.View1[float64]) { StreamScale(i, d, c, s) }, func(d kokkos.View1[float64]) error {
					return kernel.For("scale", r, StreamScale, d, at(t, w, c, kokkos.CreateMirror), s)
				})
				f64("add", c, func(i int, d kokkos.View1[float64]) { StreamAdd(i, a, b, d) }, func(d kokkos.View1[float64]) error {
					return kernel.For("add", r, StreamAdd, at(t, w, a, kokkos.CreateMirror), at(t, w, b, kokkos.CreateMirror), d)
				})
				f64("triad", a, func(i int, d kokkos.View1[float64]) { StreamTriad(i, d, b, c, s) }, func(d kokkos.View1[float64]) error {
					return kernel.For("triad", r, StreamTriad, d, at(t, w, b, kokkos.CreateMirror), at(t, w, c, kokkos.CreateMirror), s)
				})
				f64("triad in place", a, func(i int, d kokkos.View1[float64]) { StreamTriad(i, d, d, c, s) }, func(d kokkos.View1[float64]) error {
					return kernel.For("triad", r, StreamTriad, d, d, at(t, w, c, kokkos.CreateMirror), s)
				})
				f64("nstream", a, func(i int, d kokkos.View1[float64]) { StreamNstream(i, d, b, c, s) }, func(d kokkos.View1[float64]) error {
					return kernel.For("nstream", r, StreamNstream, d, at(t, w, b, kokkos.CreateMirror), at(t, w, c, kokkos.CreateMirror), s)
				})
				// float32 and integers.
				want32 := at(t, refPlace, a32, kokkos.CreateMirror)
				wantS := at(t, refPlace, b32, kokkos.CreateMirror)
				wantI := at(t, refPlace, ic, kokkos.CreateMirror)
				wantL := at(t, refPlace, lc, kokkos.CreateMirror)
				for i := lo; i < n; i++ {
					StreamTriad32(i, want32, b32, c32, s32)
					StreamScale32(i, wantS, c32)
					StreamShift(i, ia, wantI)
					StreamSubInt(i, la, lb, wantL)
				}
				got32, gotS := at(t, w, a32, kokkos.CreateMirror), at(t, w, b32, kokkos.CreateMirror)
				gotI, gotL := at(t, w, ic, kokkos.CreateMirror), at(t, w, lc, kokkos.CreateMirror)
				if launched(t, w, kernel.For("triad32", r, StreamTriad32, got32, at(t, w, b32, kokkos.CreateMirror), at(t, w, c32, kokkos.CreateMirror), s32)) {
					checkNaN(t, w, what("triad32"), got32, want32)
				}
				if launched(t, w, kernel.For("scale32", r, StreamScale32, gotS, at(t, w, c32, kokkos.CreateMirror))) {
					checkNaN(t, w, what("scale32"), gotS, wantS)
				}
				if lo < n && launched(t, w, kernel.For("shift", kokkos.Range(lo, n).On(w.space), StreamShift, at(t, w, ia, kokkos.CreateMirror), gotI)) {
					check(t, w, what("shift"), gotI, wantI)
				}
				if launched(t, w, kernel.For("subint", r, StreamSubInt, at(t, w, la, kokkos.CreateMirror), at(t, w, lb, kokkos.CreateMirror), gotL)) {
					check(t, w, what("subint"), gotL, wantL)
				}
				// Onto the source shifted by one, in index order.
				if w.name == "serial" && n > lo {
					v := at(t, refPlace, ia, kokkos.CreateMirror)
					want := at(t, refPlace, ia, kokkos.CreateMirror)
					for i := lo; i < n-1; i++ {
						StreamShift(i, want.Subview1(kokkos.Pair(1, n+1)), want)
					}
					if launched(t, w, kernel.For("shift", kokkos.Range(lo, n-1).On(w.space), StreamShift, v.Subview1(kokkos.Pair(1, n+1)), v)) {
						check(t, w, what("shift onto its source"), v, want)
					}
					// Finite values: a NaN would run down the chain, and
					// which of two NaNs a sum gives, Go leaves open.
					x := kokkos.Must(kokkos.NewView1[float64]("x", n+1))
					fill(x, randFloat[float64](rng, -1e3, 1e3))
					wantX := at(t, refPlace, x, kokkos.CreateMirror)
					cf := kokkos.Must(kokkos.NewView1[float64]("cf", n+1))
					fill(cf, randFloat[float64](rng, -1e3, 1e3))
					for i := lo; i < n; i++ {
						StreamTriad(i, wantX.Subview1(kokkos.Pair(1, n+1)), wantX.Subview1(kokkos.Pair(0, n)), cf, s)
					}
					if launched(t, w, kernel.For("triad", kokkos.Range(lo, n).On(w.space), StreamTriad, x.Subview1(kokkos.Pair(1, n+1)), x.Subview1(kokkos.Pair(0, n)), cf, s)) {
						check(t, w, what("triad onto its source shifted"), x, wantX)
					}
				}
			}
		}
	}
}

func TestStreamDotFast(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 2))
	for _, n := range []int{0, 5, 67, 20011} {
		a := kokkos.Must(kokkos.NewView1[float64]("a", n))
		b := kokkos.Must(kokkos.NewView1[float64]("b", n))
		fill(a, randFloat[float64](rng, -1e3, 1e3))
		fill(b, randFloat[float64](rng, -1e3, 1e3))
		var want float64
		terms := make([]float64, n)
		for i := range n {
			StreamDotFast(i, a, b, &want)
			terms[i] = a.At(i) * b.At(i)
		}
		for _, w := range places(t) {
			got, err := kernel.Reduce("dot", kokkos.Range(0, n).On(w.space), kokkos.Sum[float64](), StreamDotFast, at(t, w, a, kokkos.CreateMirror), at(t, w, b, kokkos.CreateMirror))
			if launched(t, w, err) {
				if math.Abs(got-want) > fastBound(terms, 0x1p-53) {
					t.Errorf("%s: dot over %d = %v, want %v", w.name, n, got, want)
				}
			}
		}
	}
}

// checkNaN is check, on the host, with any NaN matching any NaN.
func checkNaN[T float32 | float64](t *testing.T, w where, what string, got, want kokkos.View1[T]) {
	t.Helper()
	h := hostCopy(t, w, got)
	for i := range want.Extent(0) {
		g, x := h.At(i), want.At(i)
		if !same(true, g, x, 0) {
			t.Fatalf("%s: %s[%d] = %v, want %v", w.name, what, i, g, x)
		}
	}
}
