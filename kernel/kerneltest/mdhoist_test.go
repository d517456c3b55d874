package kerneltest

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// The MDRange kernels whose host loops compute the parts that only the
// outer indices change once per line (mdhoist.go) give, at every place,
// in both inner orders, with and without tiles, on views laid out right,
// left and with strides, what the kernels give called directly.

var mdLayoutNames = []string{"right", "left", "strided"}

// mdView2 returns a copy of the host view src at place w, laid out as
// layout says: right, left, or every other column of a row twice as
// long.
func mdView2[T kokkos.Number](t *testing.T, w where, layout string, src kokkos.View2[T]) kokkos.View2[T] {
	t.Helper()
	n0, n1 := src.Extent(0), src.Extent(1)
	var opt kokkos.Option
	switch layout {
	case "right":
		opt = kokkos.LayoutRight
	case "left":
		opt = kokkos.LayoutLeft
	default:
		opt = kokkos.WithStrides(2*n1, 2)
	}
	v := kokkos.Must(kokkos.NewView2[T]("v", n0, n1, opt, kokkos.InSpace(w.mem)))
	keep(t, &v)
	if err := kokkos.DeepCopy[T](v, src); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMDHoistWrite(t *testing.T) {
	rng := rand.New(rand.NewPCG(401, 1))
	const n0, n1 = 37, 29
	a := kokkos.Must(kokkos.NewView2[float64]("a", n0, n1))
	fill(a, randFloat[float64](rng, -1, 1))
	want := at(t, refPlace, a, kokkos.CreateMirror)
	for i := range n0 {
		for j := range n1 {
			MDWrite(i, j, want)
		}
	}
	for _, layout := range mdLayoutNames {
		for _, p := range mdPolicies([]int{n0, n1}, []int{4, 5}) {
			for _, w := range places(t) {
				got := mdView2(t, w, layout, a)
				if launched(t, w, kernel.For("mdwrite", p.On(w.space), MDWrite, got)) {
					check(t, w, layout+" "+p.String(), got, want)
				}
			}
		}
	}
}

func TestMDHoistRowMix(t *testing.T) {
	rng := rand.New(rand.NewPCG(402, 1))
	const n0, n1 = 37, 29
	const s, n, m = 1.37, 17, int32(0x1234567)
	in := kokkos.Must(kokkos.NewView2[float64]("in", n0, n1))
	out := kokkos.Must(kokkos.NewView2[float64]("out", n0, n1))
	cnt := kokkos.Must(kokkos.NewView2[int64]("cnt", n0, n1))
	fill(in, randFloat[float64](rng, -1, 1))
	fill(out, randFloat[float64](rng, -1, 1))
	fill(cnt, randInt[int64](rng))
	// j == n returns before the stores: out and cnt keep their values there.
	rout, rcnt := at(t, refPlace, out, kokkos.CreateMirror), at(t, refPlace, cnt, kokkos.CreateMirror)
	for i := range n0 {
		for j := range n1 {
			MDRowMix(i, j, rout, in, rcnt, s, n, m)
		}
	}
	for _, k := range []struct {
		name string
		fn   func(i, j int, out, in kokkos.View2[float64], cnt kokkos.View2[int64], s float64, n int, m int32)
	}{{"checked", MDRowMix}, {"nocheck", MDRowMixNoCheck}} {
		for _, layout := range mdLayoutNames {
			for _, p := range mdPolicies([]int{n0, n1}, []int{4, 5}) {
				for _, w := range places(t) {
					gout, gcnt := mdView2(t, w, layout, out), mdView2(t, w, layout, cnt)
					if launched(t, w, kernel.For("mdrowmix", p.On(w.space), k.fn, gout, mdView2(t, w, layout, in), gcnt, s, n, m)) {
						what := k.name + " " + layout + " " + p.String()
						check(t, w, what+" out", gout, rout)
						check(t, w, what+" cnt", gcnt, rcnt)
					}
				}
			}
		}
	}
}

func TestMDHoistPlane(t *testing.T) {
	rng := rand.New(rand.NewPCG(403, 1))
	const n0, n1, n2 = 11, 13, 17
	const h = float32(0.73)
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		in := kokkos.Must(kokkos.NewView3[float32]("in", n0, n1, n2, lay))
		out := kokkos.Must(kokkos.NewView3[float32]("out", n0, n1, n2, lay))
		fill(in, randFloat[float32](rng, -2, 2))
		fill(out, randFloat[float32](rng, -2, 2))
		want := at(t, refPlace, out, kokkos.CreateMirror)
		for i := range n0 {
			for j := range n1 {
				for k := range n2 {
					MDPlane(i, j, k, want, in, h)
				}
			}
		}
		for _, p := range mdPolicies([]int{n0, n1, n2}, []int{3, 4, 5}) {
			for _, w := range places(t) {
				got := at(t, w, out, kokkos.CreateMirror)
				if launched(t, w, kernel.For("mdplane", p.On(w.space), MDPlane, got, at(t, w, in, kokkos.CreateMirror), h)) {
					check(t, w, lay.String()+" "+p.String(), got, want)
				}
			}
		}
	}
}

func TestMDHoistRowSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(404, 1))
	const n0, n1 = 37, 29
	const wt = 0.61
	for _, layout := range mdLayoutNames {
		a := mdView2(t, refPlace, layout, func() kokkos.View2[float64] {
			v := kokkos.Must(kokkos.NewView2[float64]("a", n0, n1))
			fill(v, randFloat[float64](rng, -1, 1))
			return v
		}())
		for _, p := range mdPolicies([]int{n0, n1}, []int{4, 5}) {
			// The same tiles joined in the same tree: exact on the host.
			want := kokkos.ParallelReduceMD("ref", p, kokkos.Sum[float64](), func(i, j int, acc *float64) { MDRowSum(i, j, a, wt, acc) })
			for _, w := range places(t) {
				got, err := kernel.Reduce("mdrowsum", p.On(w.space), kokkos.Sum[float64](), MDRowSum, mdView2(t, w, layout, a), wt)
				if launched(t, w, err) && !sameTotal(w, got, want, 1e-12) {
					t.Errorf("%s %s %v: sum = %v, want %v", w.name, layout, p, got, want)
				}
			}
		}
	}
}
