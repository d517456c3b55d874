package main

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
)

var sizes = [][2]int{{1, 1}, {30, 20}, {0, 5}, {5, 0}, {1000, 800}}

func TestRun(t *testing.T) {
	for _, n := range sizes {
		if err := run(n[0], n[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOuterHost checks the host's C and sum against a loop over the
// indices.
func TestOuterHost(t *testing.T) {
	for _, n := range sizes {
		c, sum, err := outer(n[0], n[1], nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Extent(0) != n[0] || c.Extent(1) != n[1] || c.Layout() != kokkos.LayoutLeft {
			t.Fatalf("C is %d x %d %v, want %d x %d LayoutLeft", c.Extent(0), c.Extent(1), c.Layout(), n[0], n[1])
		}
		want := 0.0
		for i0 := range n[0] {
			for i1 := range n[1] {
				x := float64(i0) * float64(i1)
				if c.At(i0, i1) != x {
					t.Fatalf("%v: C(%d, %d) = %v, want %v", n, i0, i1, c.At(i0, i1), x)
				}
				want += x
			}
		}
		if sum != want {
			t.Fatalf("%v: sum %v, want %v", n, sum, want)
		}
	}
}

// TestKernelsRandom runs SetC and SumC on random integers (so that every
// sum is exact whatever its order) in both layouts and loop orders,
// against a loop over the indices.
func TestKernelsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n0, n1 = 37, 53
	a, _ := kokkos.NewView1[float64]("a", n0)
	b, _ := kokkos.NewView1[float64]("b", n1)
	for i := range n0 {
		a.Set(i, float64(rng.IntN(2001)-1000))
	}
	for i := range n1 {
		b.Set(i, float64(rng.IntN(2001)-1000))
	}
	for _, lay := range []kokkos.Option{kokkos.LayoutLeft, kokkos.LayoutRight} {
		for _, it := range []kokkos.Iterate{kokkos.IterateLeft, kokkos.IterateRight} {
			c, _ := kokkos.NewView2[float64]("c", n0, n1, lay)
			p := kokkos.MDRange([]int{0, 0}, []int{n0, n1}).Tile(8, 4).Order(it, it)
			if err := kernel.For("SetC", p, SetC, c, a.ReadOnly(), b.ReadOnly()); err != nil {
				t.Fatal(err)
			}
			sum, err := kernel.Reduce("SumC", p, kokkos.Sum[float64](), SumC, c)
			if err != nil {
				t.Fatal(err)
			}
			want := 0.0
			for i0 := range n0 {
				for i1 := range n1 {
					x := a.At(i0) * b.At(i1)
					if c.At(i0, i1) != x {
						t.Fatalf("%v %v: C(%d, %d) = %v, want %v", lay, it, i0, i1, c.At(i0, i1), x)
					}
					want += x
				}
			}
			if sum != want {
				t.Fatalf("%v %v: sum %v, want %v", lay, it, sum, want)
			}
		}
	}
}

// TestRunCUDA runs the example on the GPU, which checks it against the
// host; it skips without a device.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	for _, n := range sizes {
		if err := runCUDA(n[0], n[1]); err != nil {
			t.Fatal(err)
		}
	}
}
