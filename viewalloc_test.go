package kokkos

import (
	"reflect"
	"testing"
)

// TestView1LayoutIndependentOfT: initView1 and the hooks write and read a
// View1[T] as a View1[byte], which is sound only while every field has the
// same offset and size for every T (the element type appearing only in the
// slice of host elements).
func TestView1LayoutIndependentOfT(t *testing.T) {
	ref := reflect.TypeFor[View1[byte]]()
	for _, typ := range []reflect.Type{
		reflect.TypeFor[View1[struct{}]](),
		reflect.TypeFor[View1[complex128]](),
		reflect.TypeFor[View1[*int]](),
		reflect.TypeFor[View1[[3]int16]](),
		reflect.TypeFor[View1[struct {
			a byte
			b [5]float64
		}]](),
	} {
		if typ.Size() != ref.Size() || typ.Align() != ref.Align() || typ.NumField() != ref.NumField() {
			t.Fatalf("%v: size %d align %d fields %d; View1[byte]: %d, %d, %d", typ, typ.Size(), typ.Align(), typ.NumField(), ref.Size(), ref.Align(), ref.NumField())
		}
		for i := range ref.NumField() {
			f, g := typ.Field(i), ref.Field(i)
			if f.Name != g.Name || f.Offset != g.Offset || f.Type.Size() != g.Type.Size() {
				t.Errorf("%v.%s at %d (%d bytes); View1[byte].%s at %d (%d bytes)", typ, f.Name, f.Offset, f.Type.Size(), g.Name, g.Offset, g.Type.Size())
			}
			if g.Type.Kind() != reflect.Slice && f.Type != g.Type {
				t.Errorf("%v.%s is %v, View1[byte]'s %v", typ, f.Name, f.Type, g.Type)
			}
		}
	}
}

// TestViewFromAllocationElementTypes: views made through the erased path
// read and write their elements for element types of several sizes,
// including size 0.
func TestViewFromAllocationElementTypes(t *testing.T) {
	type pair struct {
		a int8
		b float64
	}
	ps := []pair{{1, 2}, {3, 4}, {5, 6}}
	a := newAllocation("pairs", HostSpace, 48, nil)
	v, err := viewFromAllocation1(a, 0, 3, ps)
	if err != nil {
		t.Fatal(err)
	}
	v.Set(1, pair{7, 8})
	if ps[1] != (pair{7, 8}) || v.At(2) != ps[2] || v.Extent(0) != 3 {
		t.Fatalf("view over pairs: %v, %v", ps, v.At(2))
	}
	e := newAllocation("empty", HostSpace, 0, nil)
	z, err := viewFromAllocation1(e, 0, 5, make([]struct{}, 5))
	if err != nil {
		t.Fatal(err)
	}
	_ = z.At(4)
	w, err := viewFromAllocation1[int](e, 0, 0, nil)
	if err != nil || w.Data() == nil {
		t.Fatalf("empty host view: %v, data nil %v", err, w.Data() == nil)
	}
	for _, x := range []interface{ Release() error }{&v, &z, &w, a, e} {
		if err := x.Release(); err != nil {
			t.Error(err)
		}
	}
}
