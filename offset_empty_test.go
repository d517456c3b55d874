package kokkos

import (
	"math/rand/v2"
	"testing"
)

// TestOffsetViewEmptyRange: Bounds(b, b-1) is an empty dimension, as
// Kokkos's {b, b-1}, whose extent is last - first + 1 = 0
// (containers/src/Kokkos_OffsetView.hpp:566-594); a range ending earlier is
// an error. Kokkos 4.6.1 ran testdata/kokkos/offset_empty.cpp (built as
// testdata/kokkos/stride_past.cpp) and printed
//
//	a: extents 6 0 begins -2 5 ends 4 5 size 0
//	z: extent 0 begin 0 end 0
func TestOffsetViewEmptyRange(t *testing.T) {
	a := Must(NewOffsetView2[float64]("a", Bounds(-2, 3), Bounds(5, 4)))
	if a.Extent(0) != 6 || a.Extent(1) != 0 || a.Begin(0) != -2 || a.Begin(1) != 5 || a.End(0) != 4 || a.End(1) != 5 || a.Size() != 0 {
		t.Fatalf("a: extents %d %d begins %d %d ends %d %d size %d", a.Extent(0), a.Extent(1), a.Begin(0), a.Begin(1), a.End(0), a.End(1), a.Size())
	}
	z := Must(NewOffsetView1[float64]("z", Bounds(0, -1)))
	if z.Extent(0) != 0 || z.Begin(0) != 0 || z.End(0) != 0 || z.Span() != 0 {
		t.Fatalf("z: extent %d begin %d end %d", z.Extent(0), z.Begin(0), z.End(0))
	}
	mustPanic(t, func() { z.At(0) }, "out of bounds", `"z"`, "[0, -1]")
	mustPanic(t, func() { a.At(0, 5) }, "out of bounds", `"a"`, "[-2, 3] x [5, 4]")

	rng := rand.New(rand.NewPCG(4, 4))
	for range 30 {
		b0, b1, b2 := rng.IntN(21)-10, rng.IntN(21)-10, rng.IntN(21)-10
		n0, n2 := 1+rng.IntN(4), 1+rng.IntN(4)
		l := []Layout{LayoutRight, LayoutLeft}[rng.IntN(2)]
		o := Must(NewOffsetView3[int32]("o", Bounds(b0, b0+n0-1), Bounds(b1, b1-1), Bounds(b2, b2+n2-1), l))
		if o.Extent(1) != 0 || o.Begin(1) != b1 || o.End(1) != b1 || o.Size() != 0 || o.Extent(0) != n0 || o.End(2) != b2+n2 {
			t.Fatalf("%v %d..%d: extent %d begin %d end %d size %d", l, b1, b1-1, o.Extent(1), o.Begin(1), o.End(1), o.Size())
		}
		// All keeps the empty dimension and its begin; an index in it
		// is out of range; an empty range of a non-empty dimension is
		// legal.
		s := o.Subview2(b0+rng.IntN(n0), All, All)
		if s.Extent(0) != 0 || s.Begin(0) != b1 || s.End(0) != b1 || s.Extent(1) != n2 || s.Begin(1) != b2 {
			t.Fatalf("subview (i, All, All): extents %d %d begins %d %d", s.Extent(0), s.Extent(1), s.Begin(0), s.Begin(1))
		}
		mustPanic(t, func() { o.Subview2(All, b1, All) }, "of dimension 1 is out of range")
		e := o.Subview3(Bounds(b0+1, b0), All, Bounds(b2, b2+n2-1))
		if e.Extent(0) != 0 || e.Begin(0) != 0 || e.Extent(2) != n2 || e.Size() != 0 {
			t.Fatalf("subview (Bounds(b0+1, b0), All, ...): extents %d %d %d", e.Extent(0), e.Extent(1), e.Extent(2))
		}
		// Copies and mirrors of an empty view move nothing.
		m := Must(CreateMirror(o))
		if m.Extent(1) != 0 || m.Begin(1) != b1 {
			t.Fatal("mirror of an empty offset view")
		}
		if err := DeepCopy[int32](m, o); err != nil {
			t.Fatal(err)
		}
		if err := Fill[int32](o, rng.Int32()); err != nil {
			t.Fatal(err)
		}
		// A range ending two or more before it begins stays an error.
		_, err := NewOffsetView3[int32]("bad", Bounds(b0, b0), Bounds(b1, b1-2-rng.IntN(5)), Bounds(b2, b2))
		mustErr(t, err, `offset view "bad"`, "of dimension 1 ends before it begins", "is the empty range")
	}
}
