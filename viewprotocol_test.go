package kokkos

import (
	"reflect"
	"slices"
	"testing"
)

// viewProtocol lists the methods every view kind has: View0..8,
// OffsetView1..8 and DynRankView.
var viewProtocol = []string{
	"Rank", "Extent", "Stride", "Strides", "Size", "Span", "SpanIsContiguous",
	"Label", "Layout", "LayoutSpec", "Space", "Traits", "Allocation",
	"UseCount", "Retain", "Release", "IsAllocated", "IsReadOnly", "ReadOnly",
	"AsLayout", "Access", "At", "Set", "Ptr", "Ref", "Data", "Equal",
}

func TestViewProtocol(t *testing.T) {
	kinds := []any{
		&View0[float64]{}, &View1[float64]{}, &View3[float64]{}, &View8[float64]{},
		&OffsetView1[float64]{}, &OffsetView3[float64]{}, &OffsetView8[float64]{},
		&DynRankView[float64]{},
	}
	for _, k := range kinds {
		typ := reflect.TypeOf(k)
		for _, m := range viewProtocol {
			if _, ok := typ.MethodByName(m); !ok {
				t.Errorf("%v has no method %s", typ, m)
			}
		}
	}
}

func TestOffsetViewProtocol(t *testing.T) {
	o, err := NewOffsetView2[float64]("O", Bounds(-1, 1), Bounds(2, 5), LayoutLeft)
	if err != nil {
		t.Fatal(err)
	}
	o.Set(1, 4, 7)
	if got := o.Access(1, 4); got != 7 {
		t.Errorf("Access(1, 4) = %v, want 7", got)
	}
	if got := o.Access(1, 4, 0, 0); got != 7 {
		t.Errorf("Access(1, 4, 0, 0) = %v, want 7", got)
	}
	expectPanic(t, "out of bounds", func() { o.Access(2, 4) })
	if s := o.Strides(); !slices.Equal(s, []int{1, 3, 12}) {
		t.Errorf("Strides = %v", s)
	}
	if spec := o.LayoutSpec(); spec.Layout != LayoutLeft || !slices.Equal(spec.Extents, []int{3, 4}) {
		t.Errorf("LayoutSpec = %+v", spec)
	}
	if !o.SpanIsContiguous() || !o.IsAllocated() || o.Allocation() == nil {
		t.Error("SpanIsContiguous, IsAllocated or Allocation")
	}
	s, err := o.AsLayout(LayoutStride)
	if err != nil || s.Layout() != LayoutStride || s.Begins() != o.Begins() || s.At(1, 4) != 7 {
		t.Errorf("AsLayout(LayoutStride): %v, %v", s.Layout(), err)
	}
	if _, err := o.AsLayout(LayoutRight); err == nil {
		t.Error("AsLayout(LayoutRight) of a rank-2 LayoutLeft view succeeded")
	}
	o.Retain()
	if o.UseCount() != 2 {
		t.Errorf("UseCount after Retain = %d", o.UseCount())
	}
	if err := o.Release(); err != nil || o.UseCount() != 1 {
		t.Errorf("Release: %v, UseCount %d", err, o.UseCount())
	}
}

func TestShapeOf(t *testing.T) {
	var z View2[float64]
	if s := ShapeOf[float64](z); s.Rank != 2 || s.Size != 0 || s.Span != 0 || s.Allocation != nil || s.Space != HostSpace || len(s.Extents) != 2 {
		t.Errorf("zero View2: %+v", s)
	}
	var zd DynRankView[float64]
	if s := ShapeOf[float64](&zd); s.Rank != 0 || s.Size != 0 || s.Span != 0 {
		t.Errorf("zero DynRankView: %+v", s)
	}
	v, _ := NewView3[int32]("V", 2, 3, 5, AllowPadding, WithTraits(RandomAccess))
	r := v.ReadOnly()
	s := ShapeOf[int32](&r)
	if s.Label != "V" || !s.ReadOnly || s.Traits != RandomAccess || s.Span != v.Span() || s.Size != 30 || s.Allocation != v.Allocation() {
		t.Errorf("read-only padded View3: %+v", s)
	}
	for k := range 3 {
		if s.Extents[k] != v.Extent(k) || s.Strides[k] != v.Stride(k) || s.Begins[k] != 0 {
			t.Errorf("dimension %d: %+v", k, s)
		}
	}
	s.Extents[0] = 99
	if v.Extent(0) != 2 {
		t.Error("ShapeOf's extents share the view's")
	}
	o, _ := NewOffsetView3[int32]("O", Bounds(-2, 0), Bounds(1, 1), Bounds(5, 9))
	if s := ShapeOf[int32](o); !slices.Equal(s.Begins, []int{-2, 1, 5}) || !slices.Equal(s.Extents, []int{3, 1, 5}) {
		t.Errorf("OffsetView3: %+v", s)
	}
}
