package tut

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

// plainYAx is y^T*A*x by a loop over the views (in host memory), plus off.
func plainYAx(off float64) YAxReduce {
	return func(_ Place, y, x kokkos.View1[float64], a kokkos.View2[float64]) (float64, error) {
		r := off
		for j := range a.Extent(0) {
			s := 0.0
			for i := range a.Extent(1) {
				s += a.At(j, i) * x.At(i)
			}
			r += y.At(j) * s
		}
		return r, nil
	}
}

// TestCompareYAx checks that CompareYAx accepts a right y^T*A*x and
// reports a wrong one with the sizes, the layout and the three figures.
func TestCompareYAx(t *testing.T) {
	host := Place{Mem: kokkos.HostSpace}
	if err := CompareYAx(host, 5, plainYAx(0)); err != nil {
		t.Fatal(err)
	}
	err := CompareYAx(host, 5, plainYAx(1e-3))
	if err == nil || !strings.Contains(err.Error(), "LayoutRight 1×1: y^T*A*x is ") || !strings.Contains(err.Error(), "by a plain loop") {
		t.Fatalf("error %v, want one naming LayoutRight 1×1 and the plain loop", err)
	}
	y, x, a, want := RandomYAx(rand.New(rand.NewPCG(1, 2)), kokkos.LayoutLeft, 3, 4)
	if y.Layout() != kokkos.LayoutLeft || a.Layout() != kokkos.LayoutLeft || x.Extent(0) != 4 {
		t.Fatalf("views of layouts %s and %s, x of %d", y.Layout(), a.Layout(), x.Extent(0))
	}
	if got, _ := plainYAx(0)(host, y, x, a); got != want {
		t.Errorf("RandomYAx's y^T*A*x %v, the loop's %v", want, got)
	}
}
