package kerneltest

import (
	"math"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/random"
)

// TestFillPlaces fills views in each place's memory from pools of its
// space: with one state and one chunk of rows, the values of a host fill
// from a host pool of the same seed, bit for bit; with a state per unit
// of the space's concurrency and many chunks, values within the range
// whose mean is near its middle. On a device the fill runs as a kernel.
func TestFillPlaces(t *testing.T) {
	for _, w := range places(t) {
		for _, kind := range []string{"XorShift64", "XorShift1024"} {
			fill := func(v kokkos.View[float64], states int, lo, hi float64) {
				t.Helper()
				var err error
				if kind == "XorShift64" {
					p := kokkos.Must(random.NewXorShift64PoolSize(w.space, 31, states))
					err = random.FillRange(v, p, lo, hi)
					p.Release()
				} else {
					p := kokkos.Must(random.NewXorShift1024PoolSize(w.space, 31, states))
					err = random.FillRange(v, p, lo, hi)
					p.Release()
				}
				if err != nil {
					t.Fatalf("%s %s: %v", w.name, kind, err)
				}
			}
			d := kokkos.Must(kokkos.NewView2[float64]("d", 120, 9, kokkos.InSpace(w.mem)))
			fill(d, 1, -3, 4)
			h := kokkos.Must(kokkos.NewView2[float64]("h", 120, 9))
			if kind == "XorShift64" {
				err := random.FillRange(h, kokkos.Must(random.NewXorShift64PoolSize(kokkos.Serial{}, 31, 1)), -3, 4)
				if err != nil {
					t.Fatal(err)
				}
			} else if err := random.FillRange(h, kokkos.Must(random.NewXorShift1024PoolSize(kokkos.Serial{}, 31, 1)), -3, 4); err != nil {
				t.Fatal(err)
			}
			got := kokkos.Must(kokkos.CreateMirrorViewAndCopy(d))
			d.Release()
			for i := range 120 {
				for j := range 9 {
					if got.At(i, j) != h.At(i, j) {
						t.Fatalf("%s %s: (%d, %d) = %v, the host's %v", w.name, kind, i, j, got.At(i, j), h.At(i, j))
					}
				}
			}
			n := 100_000
			if w.name == "fake" {
				n = 2000
			}
			space := w.space
			if space == nil {
				space = kokkos.DefaultExecutionSpace()
			}
			big := kokkos.Must(kokkos.NewView1[float64]("big", n, kokkos.InSpace(w.mem)))
			fill(big, space.Concurrency(), 10, 20)
			hb := kokkos.Must(kokkos.CreateMirrorViewAndCopy(big))
			big.Release()
			sum := 0.0
			for i := range n {
				x := hb.At(i)
				if x < 10 || x > 20 {
					t.Fatalf("%s %s: big(%d) = %v outside [10, 20]", w.name, kind, i, x)
				}
				sum += x
			}
			if mean := sum / float64(n); math.Abs(mean-15) > 4*10/math.Sqrt(12*float64(n)) {
				t.Errorf("%s %s: mean %v of %d values in [10, 20]", w.name, kind, mean, n)
			}
		}
	}
}
