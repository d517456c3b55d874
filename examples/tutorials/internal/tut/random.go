package tut

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/gokkos/kokkos"
)

// RandomYAx returns y (n), x (m) and A (n×m) in host memory and layout l,
// holding values drawn from rng in [-0.5, 0.5), and y^T*A*x computed by a
// plain loop: the data of the tests that compare a launch at a place with
// the host's.
func RandomYAx(rng *rand.Rand, l kokkos.Layout, n, m int) (y, x kokkos.View1[float64], a kokkos.View2[float64], want float64) {
	y = kokkos.Must(kokkos.NewView1[float64]("y", n, l))
	x = kokkos.Must(kokkos.NewView1[float64]("x", m, l))
	a = kokkos.Must(kokkos.NewView2[float64]("A", n, m, l))
	for i := range m {
		x.Set(i, rng.Float64()-0.5)
	}
	for j := range n {
		y.Set(j, rng.Float64()-0.5)
		s := 0.0
		for i := range m {
			a.Set(j, i, rng.Float64()-0.5)
			s += a.At(j, i) * x.At(i)
		}
		want += y.At(j) * s
	}
	return y, x, a, want
}

// YAxAt returns copies of y, x and A in place's memory, of their layouts
// (the views themselves on the host).
func YAxAt(place Place, y, x kokkos.View1[float64], a kokkos.View2[float64]) (dy, dx kokkos.View1[float64], da kokkos.View2[float64], err error) {
	in := kokkos.InSpace(place.Mem)
	if dy, err = kokkos.CreateMirrorViewAndCopy(y, in); err != nil {
		return
	}
	if dx, err = kokkos.CreateMirrorViewAndCopy(x, in); err != nil {
		return
	}
	da, err = kokkos.CreateMirrorViewAndCopy(a, in)
	return
}

// YAxReduce is y^T*A*x computed at a place: a launch of an example's
// kernel on views in the place's memory.
type YAxReduce func(place Place, y, x kokkos.View1[float64], a kokkos.View2[float64]) (float64, error)

// CompareYAx runs reduce on random data (RandomYAx, seeded by seed) of
// both layouts and several sizes at place and on the host, and returns an
// error unless both give the plain loop's y^T*A*x, within rounding.
func CompareYAx(place Place, seed uint64, reduce YAxReduce) error {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	host := Place{Mem: kokkos.HostSpace}
	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		for _, sz := range [][2]int{{1, 1}, {7, 5}, {100, 33}, {1000, 257}, {33, 4100}} {
			n, m := sz[0], sz[1]
			y, x, a, want := RandomYAx(rng, l, n, m)
			h, err := reduce(host, y, x, a)
			if err != nil {
				return err
			}
			dy, dx, da, err := YAxAt(place, y, x, a)
			if err != nil {
				return err
			}
			d, err := reduce(place, dy, dx, da)
			if place.Stream != nil {
				dy.Release()
				dx.Release()
				da.Release()
			}
			if err != nil {
				return err
			}
			if tol := 1e-12 * float64(n*m); math.Abs(d-want) > tol || math.Abs(h-want) > tol {
				return fmt.Errorf("%s %d×%d: y^T*A*x is %v at %s, %v on the host, %v by a plain loop", l, n, m, d, place.Name(), h, want)
			}
		}
	}
	return nil
}
