package kokkos

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/internal/hooks"
)

// TestView2LayoutIndependentOfT: initView2 and the View2 hooks write and
// read a View2[T] as a View2[byte], which is sound only while every field
// has the same offset and size for every T.
func TestView2LayoutIndependentOfT(t *testing.T) {
	ref := reflect.TypeFor[View2[byte]]()
	for _, typ := range []reflect.Type{
		reflect.TypeFor[View2[struct{}]](),
		reflect.TypeFor[View2[complex128]](),
		reflect.TypeFor[View2[*int]](),
		reflect.TypeFor[View2[[3]int16]](),
	} {
		if typ.Size() != ref.Size() || typ.Align() != ref.Align() || typ.NumField() != ref.NumField() {
			t.Fatalf("%v: size %d align %d fields %d; View2[byte]: %d, %d, %d", typ, typ.Size(), typ.Align(), typ.NumField(), ref.Size(), ref.Align(), ref.NumField())
		}
		for i := range ref.NumField() {
			f, g := typ.Field(i), ref.Field(i)
			if f.Name != g.Name || f.Offset != g.Offset || f.Type.Size() != g.Type.Size() {
				t.Errorf("%v.%s at %d (%d bytes); View2[byte].%s at %d (%d bytes)", typ, f.Name, f.Offset, f.Type.Size(), g.Name, g.Offset, g.Type.Size())
			}
			if g.Type.Kind() != reflect.Slice && f.Type != g.Type {
				t.Errorf("%v.%s is %v, View2[byte]'s %v", typ, f.Name, f.Type, g.Type)
			}
		}
	}
}

// view2FromAllocation is the typed form of hooks.View2FromAllocation.
func view2FromAllocation[T any](a *Allocation, off int, l Layout, ext, str [2]int, data []T) (View2[T], error) {
	var v View2[T]
	err := hooks.View2FromAllocation(unsafe.Pointer(&v), a, off, uint8(l), ext, str, int(unsafe.Sizeof(*new(T))), unsafe.Pointer(unsafe.SliceData(data)), len(data))
	return v, err
}

// TestView2FromAllocation: views of each layout made through the hook
// address the elements a naive index computation gives, hold the
// allocation, and report their span through View2Storage.
func TestView2FromAllocation(t *testing.T) {
	buf := make([]float64, 64)
	for i := range buf {
		buf[i] = rand.Float64()
	}
	for _, c := range []struct {
		l        Layout
		ext, str [2]int
	}{
		{LayoutRight, [2]int{3, 5}, [2]int{5, 1}},
		{LayoutRight, [2]int{3, 5}, [2]int{7, 1}},
		{LayoutLeft, [2]int{4, 3}, [2]int{1, 4}},
		{LayoutLeft, [2]int{4, 3}, [2]int{1, 6}},
		{LayoutStride, [2]int{3, 4}, [2]int{2, 9}},
	} {
		a := newAllocation("two", HostSpace, len(buf)*8, nil)
		off := 3
		span := (c.ext[0]-1)*c.str[0] + (c.ext[1]-1)*c.str[1] + 1
		v, err := view2FromAllocation(a, off, c.l, c.ext, c.str, buf[off:off+span])
		if err != nil {
			t.Fatalf("%v %v %v: %v", c.l, c.ext, c.str, err)
		}
		if v.Layout() != c.l || v.Extent(0) != c.ext[0] || v.Extent(1) != c.ext[1] || v.Stride(0) != c.str[0] || v.Stride(1) != c.str[1] || a.UseCount() != 2 {
			t.Fatalf("%v: layout %v extents %d %d strides %d %d holders %d", c, v.Layout(), v.Extent(0), v.Extent(1), v.Stride(0), v.Stride(1), a.UseCount())
		}
		for i := range c.ext[0] {
			for j := range c.ext[1] {
				if got, want := v.At(i, j), buf[off+i*c.str[0]+j*c.str[1]]; got != want {
					t.Fatalf("%v: (%d,%d) = %v, want %v", c, i, j, got, want)
				}
			}
		}
		rec, o, p, n, _ := hooks.View2Storage(unsafe.Pointer(&v))
		if rec.(*Allocation) != a || o != off || p != unsafe.Pointer(&buf[off]) || n != span {
			t.Fatalf("%v: storage %v %d %p %d", c, rec, o, p, n)
		}
		if err := v.Release(); err != nil || a.UseCount() != 1 {
			t.Fatalf("release: %v, holders %d", err, a.UseCount())
		}
	}
}

func TestView2FromAllocationChecks(t *testing.T) {
	buf := make([]int32, 12)
	a := newAllocation("checks", HostSpace, 48, nil)
	for _, c := range []struct {
		l        Layout
		off      int
		ext, str [2]int
		n        int
		kind     error
	}{
		{LayoutRight, 0, [2]int{3, 4}, [2]int{1, 3}, 12, ErrLayout},
		{LayoutLeft, 0, [2]int{3, 4}, [2]int{4, 1}, 12, ErrLayout},
		{LayoutStride, 0, [2]int{3, 4}, [2]int{-4, 1}, 12, ErrLayout},
		{LayoutRight, 1, [2]int{3, 4}, [2]int{4, 1}, 12, ErrShape},
		{LayoutRight, 0, [2]int{3, 4}, [2]int{4, 1}, 11, ErrShape},
	} {
		if _, err := view2FromAllocation(a, c.off, c.l, c.ext, c.str, buf[:c.n]); !errors.Is(err, c.kind) {
			t.Errorf("%v: %v, want %v", c, err, c.kind)
		}
	}
	if a.UseCount() != 1 {
		t.Fatalf("holders %d after failures", a.UseCount())
	}
	_ = a.Release()
	if _, err := view2FromAllocation(a, 0, LayoutRight, [2]int{3, 4}, [2]int{4, 1}, buf); !errors.Is(err, ErrReleased) {
		t.Fatalf("released: %v", err)
	}
}
