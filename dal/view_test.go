package dal_test

import (
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
)

func TestArrayToViewSharesTheBlock(t *testing.T) {
	var d deleter
	data := randFloat64(64)
	a := dal.WrapMutableWithDeleter(data, d.fn())
	s, err := a.Slice(16, 48)
	must(t, err)
	v, err := s.View()
	must(t, err)
	if v.Extent(0) != 32 || v.IsReadOnly() || v.Allocation() != a.Allocation() || a.UseCount() != 3 {
		t.Fatalf("View: extent %d, read-only %v, uses %d", v.Extent(0), v.IsReadOnly(), a.UseCount())
	}
	for i := range 32 {
		if v.Ptr(i) != &data[16+i] || v.At(i) != data[16+i] {
			t.Fatalf("view element %d is not element %d of the block", i, 16+i)
		}
	}
	x := randFloat64(1)[0] + 5
	v.Set(3, x)
	if s.At(3) != x || data[19] != x {
		t.Fatal("a write through the view did not reach the array")
	}
	must(t, a.Release())
	must(t, s.Release())
	d.want(t, 0, "while the view holds the block")
	must(t, v.Release())
	d.want(t, 1, "after the view's release")

	ro := dal.Wrap(randFloat32(4))
	rv, err := ro.View()
	must(t, err)
	if !rv.IsReadOnly() || rv.At(2) != ro.At(2) {
		t.Fatal("the view of an immutable array is writable or differs")
	}
	if !panics(func() { rv.Set(0, 1) }) {
		t.Fatal("a write through the view of an immutable array did not panic")
	}
	must(t, rv.Release())
	must(t, ro.Release())

	var empty dal.Array[int]
	ev, err := empty.View()
	must(t, err)
	if ev.Allocation() != nil || ev.Extent(0) != 0 {
		t.Fatal("the view of the empty array is not the zero view")
	}

	c, err := dal.Cast[float32](dal.Wrap(randFloat64(2)))
	must(t, err)
	odd, err := c.Slice(1, 3)
	must(t, err)
	oc, err := dal.Cast[[2]float32](odd)
	must(t, err)
	_, err = oc.View()
	wantErr(t, err, dal.ErrCast)
}

func TestViewToArraySharesTheAllocation(t *testing.T) {
	v, err := kokkos.NewView1[float32]("weights", 100)
	must(t, err)
	for i, x := range randFloat32(100) {
		v.Set(i, x)
	}
	sub := v.Subview1(kokkos.Pair(20, 60))
	a, err := dal.FromView(sub)
	must(t, err)
	if a.Count() != 40 || !a.HasMutableData() || a.Allocation() != v.Allocation() || v.UseCount() != 2 {
		t.Fatalf("FromView: count %d, mutable %v, uses %d", a.Count(), a.HasMutableData(), v.UseCount())
	}
	for i := range 40 {
		if &a.Data()[i] != v.Ptr(20+i) {
			t.Fatalf("array element %d is not view element %d", i, 20+i)
		}
	}
	// Back to a view: same elements, same origin.
	w, err := a.View()
	must(t, err)
	if !w.Equal(sub) || w.Ptr(0) != sub.Ptr(0) {
		t.Fatal("the round trip through an array changed the view")
	}
	must(t, w.Release())
	must(t, v.Release())
	if a.At(39) != sub.At(39) {
		t.Fatal("the array lost its data with the view's release")
	}
	must(t, a.Release())
	if !v.Allocation().Released() {
		t.Fatal("the allocation outlived its last holder")
	}

	ro := v.ReadOnly()
	_, err = dal.FromView(ro)
	wantErr(t, err, dal.ErrReleased)

	u, err := kokkos.NewView1[float64]("u", 8)
	must(t, err)
	ra, err := dal.FromView(u.ReadOnly())
	must(t, err)
	if ra.HasMutableData() {
		t.Fatal("the array of a read-only view is mutable")
	}
	must(t, ra.Release())

	m, err := kokkos.NewView2[float64]("m", 4, 4)
	must(t, err)
	col := m.Subview1(kokkos.All, 1)
	_, err = dal.FromView(col)
	wantErr(t, err, kokkos.ErrLayout)

	wrapped, err := kokkos.WrapView1(randFloat64(6), 6)
	must(t, err)
	wa, err := dal.FromView(wrapped)
	must(t, err)
	if wa.Count() != 6 || wa.UseCount() != 0 {
		t.Fatalf("FromView of an unmanaged view: count %d, uses %d", wa.Count(), wa.UseCount())
	}
	must(t, wa.Release())

	var zero kokkos.View1[int]
	za, err := dal.FromView(zero)
	must(t, err)
	if za.Count() != 0 || za.Allocation() != nil {
		t.Fatal("FromView of the zero view is not empty")
	}
}

// FromView takes a view's allocation, offset and host elements, and keeps
// a read-only view's array immutable; View gives back a view of the same
// elements at the same offset.
func TestFromViewReadOnlyAtOffset(t *testing.T) {
	data := randFloat64(6)
	rec, err := kokkos.NewAllocation("block", kokkos.HostSpace, 0, 48, nil)
	must(t, err)
	v, err := kokkos.ViewOnAllocation1(rec, 2, 4, data[2:])
	must(t, err)
	arr, err := dal.FromView(v.ReadOnly())
	must(t, err)
	if arr.HasMutableData() || arr.Allocation() != rec || arr.Count() != 4 || rec.UseCount() != 3 {
		t.Fatalf("FromView of a read-only view: mutable %v, allocation %p, count %d, holders %d", arr.HasMutableData(), arr.Allocation(), arr.Count(), rec.UseCount())
	}
	for i := range 4 {
		if arr.At(i) != data[2+i] {
			t.Fatalf("element %d = %v, want %v", i, arr.At(i), data[2+i])
		}
	}
	w, err := arr.View()
	must(t, err)
	if off, host := kokkos.ShapeOf[float64](w).Offset, kokkos.ReadOnlyData[float64](w); off != 2 || len(host) != 4 || &host[0] != &data[2] || !w.IsReadOnly() {
		t.Fatalf("View of the array: offset %d, %d host elements, read-only %v", off, len(host), w.IsReadOnly())
	}
	must(t, w.Release())
	must(t, arr.Release())
	must(t, v.Release())
	must(t, rec.Release())
}

// FromView of a view with the Atomic trait gives an array over its
// elements, and of an empty view an empty host array.
func TestFromViewAtomicAndEmpty(t *testing.T) {
	data := randFloat64(7)
	v, err := kokkos.NewView1[float64]("atomic", 7, kokkos.WithTraits(kokkos.Atomic))
	must(t, err)
	for i, x := range data {
		v.Ref(i).Store(x)
	}
	arr, err := dal.FromView(v)
	must(t, err)
	if !arr.HasMutableData() || arr.Count() != 7 {
		t.Fatalf("FromView of an Atomic view: mutable %v, count %d", arr.HasMutableData(), arr.Count())
	}
	for i, x := range data {
		if arr.At(i) != x {
			t.Fatalf("element %d = %v, want %v", i, arr.At(i), x)
		}
	}
	must(t, arr.Release())
	must(t, v.Release())
	e, err := kokkos.NewView1[float64]("empty", 0)
	must(t, err)
	ea, err := dal.FromView(e)
	must(t, err)
	if ea.Count() != 0 || ea.Allocation() != e.Allocation() || ea.Data() == nil {
		t.Fatalf("FromView of an empty view: count %d, data nil %v", ea.Count(), ea.Data() == nil)
	}
	must(t, ea.Release())
	must(t, e.Release())
}
