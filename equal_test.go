package kokkos

import (
	"math/rand/v2"
	"testing"
)

// TestEqualAcrossKinds compares every kind's Equal, on random views, with
// its definition: the same first element, layout, extents and strides,
// and the same begins when both are offset views.
func TestEqualAcrossKinds(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for range 50 {
		v, err := NewView3[float64]("e", 1+r.IntN(4), 1+r.IntN(4), 1+r.IntN(4), []Layout{LayoutRight, LayoutLeft}[r.IntN(2)])
		if err != nil {
			t.Fatal(err)
		}
		begins := func() [3]int {
			if r.IntN(2) == 0 {
				return [3]int{}
			}
			return [3]int{r.IntN(3) - 1, r.IntN(3) - 1, r.IntN(3) - 1}
		}
		ba, bb := begins(), begins()
		oa, err := OffsetView3Of(v, ba)
		if err != nil {
			t.Fatal(err)
		}
		ob, _ := OffsetView3Of(v, bb)
		sub := v.Subview3(All, All, Pair(0, v.Extent(2)-r.IntN(2)))
		d := DynRankFrom[float64](v)
		type named struct {
			name   string
			v      View[float64]
			begins [3]int
			offset bool
			whole  bool // all of v, in its layout
		}
		views := []named{
			{"View3", &v, [3]int{}, false, true},
			{"subview", &sub, [3]int{}, false, sub.Extent(2) == v.Extent(2) && sub.Layout() == v.Layout()},
			{"DynRankView", &d, [3]int{}, false, true},
			{"OffsetView3 a", &oa, ba, true, true},
			{"OffsetView3 b", &ob, bb, true, true},
		}
		equal := func(x View[float64]) func(View[float64]) bool {
			switch x := x.(type) {
			case *View3[float64]:
				return x.Equal
			case *DynRankView[float64]:
				return x.Equal
			case *OffsetView3[float64]:
				return x.Equal
			}
			panic("kind")
		}
		for _, a := range views {
			for _, b := range views {
				want := a.whole == b.whole && (!a.offset || !b.offset || a.begins == b.begins)
				if got := equal(a.v)(b.v); got != want {
					t.Fatalf("%v extents %v: %s (begins %v).Equal(%s (begins %v)) = %v, want %v", v.Layout(), []int{v.Extent(0), v.Extent(1), v.Extent(2)}, a.name, a.begins, b.name, b.begins, got, want)
				}
			}
		}
	}
}
