package kokkos

import (
	"math/rand/v2"
	"testing"
)

// TestMustValueMethods calls each value-receiver method on a Must result
// directly, which compiles only for value receivers, and checks what it
// returns against the same call on a stored view, on random values.
func TestMustValueMethods(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	a := Must(NewView2[float64]("A", 3, 4, LayoutLeft))
	for i := range 3 {
		for j := range 4 {
			a.Set(i, j, r.Float64())
		}
	}
	mk := func() (View2[float64], error) { return a, nil }
	ro := Must(mk()).ReadOnly()
	st := Must(Must(mk()).AsLayout(LayoutStride))
	at := Must(Must(mk()).AsTraits(RandomAccess))
	m := Must(mk()) // subviews take a pointer, as At does
	sub := m.Subview1(All, 2)
	if !ro.IsReadOnly() || st.Layout() != LayoutStride || at.Traits()&RandomAccess == 0 || !Must(mk()).Equal(a) {
		t.Fatal("ReadOnly, AsLayout, AsTraits or Equal on a Must result")
	}
	for i := range 3 {
		if sub.At(i) != a.At(i, 2) || ro.At(i, 1) != a.At(i, 1) || st.At(i, 3) != a.At(i, 3) {
			t.Fatalf("row %d: a view made from a Must result does not share a's elements", i)
		}
	}
	if Must(mk()).Label() != "A" || Must(mk()).Layout() != LayoutLeft || Must(mk()).Space() != HostSpace ||
		Must(mk()).Allocation() != a.Allocation() || Must(mk()).UseCount() != a.UseCount() ||
		!Must(mk()).IsAllocated() || Must(mk()).IsReadOnly() || !Must(mk()).SpanIsContiguous() ||
		Must(mk()).ExecutionSpace() == nil || Must(mk()).Traits() != a.Traits() ||
		Must(mk()).LayoutSpec().Extents[1] != 4 {
		t.Fatal("a query on a Must result differs from the stored view's")
	}
	Must(mk()).Retain()
	if err := Must(mk()).Release(); err != nil || a.UseCount() != 1 {
		t.Fatalf("Retain and Release on a Must result: %v, use count %d", err, a.UseCount())
	}

	o := Must(NewOffsetView2[float64]("O", Bounds(-1, 1), Bounds(2, 4)))
	o.Set(0, 3, 2.5)
	mo := func() (OffsetView2[float64], error) { return o, nil }
	oro, ov, osub, ost := Must(mo()).ReadOnly(), Must(mo()).View(), o.Subview1(0, All), Must(Must(mo()).AsLayout(LayoutStride))
	if oro.At(0, 3) != 2.5 || ov.At(1, 1) != 2.5 || osub.At(3) != 2.5 || ost.At(0, 3) != 2.5 ||
		!Must(mo()).Equal(o) || Must(mo()).LayoutSpec().Extents[0] != 3 || Must(mo()).Label() != "O" {
		t.Fatal("an OffsetView method on a Must result")
	}

	d := Must(NewDynRankView[float64]("D", []int{2, 3}))
	d.Set(-4.0, 1, 2)
	md := func() (DynRankView[float64], error) { return d, nil }
	dro, dsub, dst := Must(md()).ReadOnly(), d.Subview(1, All), Must(Must(md()).AsLayout(LayoutStride))
	if dro.At(1, 2) != -4 || dsub.At(2) != -4 || dst.At(1, 2) != -4 || !Must(md()).Equal(d) ||
		Must(md()).LayoutSpec().Extents[1] != 3 || Must(md()).Label() != "D" {
		t.Fatal("a DynRankView method on a Must result")
	}
}
