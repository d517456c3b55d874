package dal

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// View returns a rank-1 kokkos view of a's elements, without copying, that
// shares a's block: the view counts as a holder, so release it with its
// Release method when done. The view is read-only unless a has mutable
// data. The empty array gives the zero view. It returns an error for a
// released handle and when a starts inside an element of T (after a Cast
// from a smaller type).
func (a Array[T]) View() (kokkos.View1[T], error) {
	if err := a.checkLive("View"); err != nil || a.s == nil {
		return kokkos.View1[T]{}, err
	}
	size := sizeOf[T]()
	off := 0
	if size > 0 {
		if a.s.off%size != 0 {
			return kokkos.View1[T]{}, errorf(ErrCast, "dal: View of an array of %s that starts %d bytes into its block, inside an element", typeName[T](), a.s.off)
		}
		off = a.s.off / size
	}
	v, err := kokkos.ViewOnAllocation1(a.s.rec, off, a.s.count, a.data)
	if err != nil {
		return kokkos.View1[T]{}, fmt.Errorf("dal: View of an array of %s: %w", typeName[T](), err)
	}
	if !a.s.mutable {
		v = v.ReadOnly()
	}
	return v, nil
}

// FromView returns a handle on the elements of the rank-1 view v, without
// copying, that shares v's allocation: it counts as a holder, so release
// it when done (the view keeps its own hold). The array is mutable unless v
// is read-only. A view that does not count holders (kokkos.WrapView1) gives
// an array that does not either, like Wrap. The zero view gives the empty
// array. It returns an error when v's elements are not contiguous and when
// v's allocation was released.
func FromView[T any](v kokkos.View1[T]) (Array[T], error) {
	rec := v.Allocation()
	if rec == nil {
		return Array[T]{}, nil
	}
	n := v.Extent(0)
	switch {
	case rec.Released():
		return Array[T]{}, fmt.Errorf("dal: FromView of view %q after its final Release: %w", v.Label(), ErrReleased)
	case n > 1 && v.Stride(0) != 1:
		return Array[T]{}, errorf(kokkos.ErrLayout, "dal: FromView of view %q with stride %d: an array needs contiguous elements", v.Label(), v.Stride(0))
	}
	var data []T
	if v.Space().HostAccessible() {
		data = hostElements(v)[:n:n]
	}
	rec.Retain()
	return Array[T]{s: &state{l: newHold(rec), rec: rec, count: n, off: kokkos.ShapeOf[T](v).Offset * sizeOf[T](), mutable: !v.IsReadOnly()}, data: data}, nil
}

// hostElements returns the elements of the span of v, a view the host can
// access, read-only or Atomic ones included (the array honours the former
// by being immutable; its plain accesses to the latter are the caller's, as
// AsTraits(0) gives them). It is never nil.
func hostElements[T any](v kokkos.View1[T]) []T {
	if v.Span() == 0 {
		return []T{}
	}
	if v.Traits()&kokkos.Atomic != 0 {
		v, _ = v.AsTraits(v.Traits() &^ kokkos.Atomic) // dropping Atomic never fails
	}
	return kokkos.ReadOnlyData[T](v)
}
