package kokkos

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCreateMirrorKeepsStrides: a mirror has its source's mapping, padding
// and LayoutStride strides included, in the host and in a device space, and
// DeepCopy and CreateMirrorViewAndCopy carry the elements over. Ported from
// core/src/Kokkos_CopyViews.hpp:2916-2931 (Kokkos 4.6.1: the mirror is
// dst_type(prop_copy, src.layout())); Kokkos 4.6.1 itself,
// testdata/kokkos/mirror.cpp (built as testdata/kokkos/stride_past.cpp),
// printed the source's strides for every mirror:
//
//	padded right: 16 1 span 80
//	mirror: 16 1 span 80
//	padded left: 1 16 span 80
//	mirror: 1 16 span 80
//	left stride 7: 1 7 span 28
//	mirror: 1 7 span 28
//	stride (9, 2): 9 2 span 27
//	mirror: 9 2 span 27
//	subview stride: 30 1 span 120
//	mirror: 30 1 span 120
//	mirror_view: 30 1 span 120
//
// (Kokkos's legacy span, max(N·S), differs from gokkos's 1 + the largest
// offset; the strides are the point.)
func TestCreateMirrorKeepsStrides(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 9))
	pr := Must(NewView2[float64]("pr", 5, 13, AllowPadding))
	pl := Must(NewView2[float64]("pl", 13, 5, LayoutLeft, AllowPadding))
	l7 := Must(NewView2From[float64]("l7", LayoutSpec{Layout: LayoutLeft, Extents: []int{3, 4}, Strides: []int{1, 7}}))
	s92 := Must(NewView2[float64]("s92", 3, 4, WithStrides(9, 2)))
	a := Must(NewView3[float64]("a", 4, 5, 6))
	sub := a.Subview2(All, 2, Pair(1, 4))
	for _, c := range []struct {
		name string
		v    View2[float64]
		str  [2]int
	}{
		{"padded right", pr, [2]int{16, 1}},
		{"padded left", pl, [2]int{1, 16}},
		{"left stride 7", l7, [2]int{1, 7}},
		{"stride (9, 2)", s92, [2]int{9, 2}},
		{"subview stride", sub, [2]int{30, 1}},
	} {
		v := c.v
		if v.Stride(0) != c.str[0] || v.Stride(1) != c.str[1] {
			t.Fatalf("%s: source strides %d %d, want %v", c.name, v.Stride(0), v.Stride(1), c.str)
		}
		for i := range v.Extent(0) {
			for j := range v.Extent(1) {
				v.Set(i, j, rng.NormFloat64())
			}
		}
		m := Must(CreateMirror(v))
		if m.Layout() != v.Layout() || m.Stride(0) != c.str[0] || m.Stride(1) != c.str[1] || m.Span() != v.Span() || m.Allocation() == v.Allocation() {
			t.Fatalf("%s: mirror %+v, source %+v", c.name, m.LayoutSpec(), v.LayoutSpec())
		}
		if err := DeepCopy[float64](m, v); err != nil {
			t.Fatal(err)
		}
		if !sameElems(m, v) {
			t.Fatalf("%s: DeepCopy into the mirror", c.name)
		}
		// A device mirror: the same strides; back through a host mirror.
		fs := newFakeSpace(false)
		d := Must(CreateMirrorViewAndCopy(v, InSpace(checked(t, fs))))
		if d.LayoutSpec().Layout != v.Layout() || !slices.Equal(d.LayoutSpec().Strides, v.LayoutSpec().Strides) {
			t.Fatalf("%s: device mirror %+v", c.name, d.LayoutSpec())
		}
		h := Must(CreateMirrorView(d))
		if h.Space() != HostSpace || h.Stride(0) != c.str[0] || h.Stride(1) != c.str[1] {
			t.Fatalf("%s: host mirror of the device mirror %+v", c.name, h.LayoutSpec())
		}
		if err := DeepCopy[float64](h, d); err != nil {
			t.Fatal(err)
		}
		if !sameElems(h, v) {
			t.Fatalf("%s: host → device → host", c.name)
		}
		if err := d.Release(); err != nil {
			t.Fatal(err)
		}
	}
	// Views of other kinds and ranks.
	dr := Must(NewDynRankView[float32]("dr", []int{17, 4, 2}, LayoutLeft, AllowPadding))
	for i := range dr.Data() {
		dr.Data()[i] = rng.Float32()
	}
	drm := Must(CreateMirror(dr))
	if !slices.Equal(drm.LayoutSpec().Strides, dr.LayoutSpec().Strides) || drm.Stride(1) == 17 {
		t.Fatalf("DynRankView mirror %+v of %+v", drm.LayoutSpec(), dr.LayoutSpec())
	}
	ov := Must(NewOffsetView2[int64]("ov", Bounds(-2, 10), Bounds(1, 3), LayoutLeft, AllowPadding))
	ovm := Must(CreateMirror(ov))
	if ovm.Stride(1) != ov.Stride(1) || ov.Stride(1) == 13 || ovm.Begin(0) != -2 || ovm.Span() != ov.Span() {
		t.Fatalf("OffsetView mirror strides %d (source %d), begin %d", ovm.Stride(1), ov.Stride(1), ovm.Begin(0))
	}
}

// TestMirrorAndCopySpan: CreateMirrorViewAndCopy of a padded host view into
// a device space copies the span in one piece, where the elements alone are
// a run per column, and the elements arrive; the copy back is checked
// element by element.
func TestMirrorAndCopySpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 10))
	n0, n1 := 9+rng.IntN(20), 2+rng.IntN(6)
	v := Must(NewView2[float64]("v", n0, n1, LayoutLeft, AllowPadding))
	if v.SpanIsContiguous() {
		t.Fatalf("%d×%d: not padded", n0, n1)
	}
	for i := range n0 {
		for j := range n1 {
			v.Set(i, j, rng.NormFloat64())
		}
	}
	fs := newFakeSpace(false)
	space := checked(t, fs)
	fs.ResetCalls()
	d := Must(CreateMirrorViewAndCopy(v, InSpace(space)))
	defer d.Release()
	if fs.Calls() != 1 {
		t.Errorf("%d copy calls, want 1 (the span)", fs.Calls())
	}
	back := Must(NewView2[float64]("back", n0, n1))
	if err := DeepCopy[float64](back, d); err != nil {
		t.Fatal(err)
	}
	if !sameElems(back, v) {
		t.Fatal("elements through the span copy")
	}
	// Caller memory wrapped with the same strides: its gaps may be the
	// caller's, so the copy goes column by column.
	w := Must(WrapView2(slices.Clone(v.Data()), n0, n1, specOption(v.LayoutSpec())))
	if w.Layout() != LayoutLeft || w.Stride(1) != v.Stride(1) {
		t.Fatalf("wrapped: %+v", w.LayoutSpec())
	}
	fs.ResetCalls()
	dw := Must(CreateMirrorViewAndCopy(w, InSpace(space)))
	defer dw.Release()
	if fs.Calls() != n1 {
		t.Errorf("wrapped memory: %d copy calls, want %d", fs.Calls(), n1)
	}
	// A subview's gaps are other elements: element by element, one run
	// per column.
	s := v.Subview2(Pair(1, n0-1), All)
	fs.ResetCalls()
	ds := Must(CreateMirrorViewAndCopy(s, InSpace(space)))
	defer ds.Release()
	if fs.Calls() != n1 {
		t.Errorf("subview: %d copy calls, want %d", fs.Calls(), n1)
	}
	bs := Must(NewView2[float64]("bs", n0-2, n1))
	if err := DeepCopy[float64](bs, ds); err != nil {
		t.Fatal(err)
	}
	if !sameElems(bs, s) {
		t.Fatal("subview elements")
	}
}

func sameElems(a, b View2[float64]) bool {
	if a.Extent(0) != b.Extent(0) || a.Extent(1) != b.Extent(1) {
		return false
	}
	for i := range a.Extent(0) {
		for j := range a.Extent(1) {
			if a.At(i, j) != b.At(i, j) {
				return false
			}
		}
	}
	return true
}
