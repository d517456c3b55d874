package arrow

import (
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/hooks"
)

// The typed side of package internal/hooks: allocations that own Arrow
// memory, and rank-1 and rank-2 views over them that count as holders.

// newAllocation returns a host Allocation of bytes bytes with one holder,
// whose last Release runs free.
func newAllocation(label string, bytes int, free func() error) *kokkos.Allocation {
	return hooks.NewAllocation(label, kokkos.HostSpace, bytes, free).(*kokkos.Allocation)
}

// view1 returns a contiguous view of the len(data) elements that start off
// elements into a, and adds a holder to a for it.
func view1[T Element](a *kokkos.Allocation, off int, data []T) (kokkos.View1[T], error) {
	var v kokkos.View1[T]
	err := hooks.View1FromAllocation(unsafe.Pointer(&v), a, off, len(data), sizeOf[T](), unsafe.Pointer(unsafe.SliceData(data)), len(data))
	return v, err
}

// view2 returns a view of layout l, extents ext and strides str whose span
// is data, starting off elements into a, and adds a holder to a for it.
func view2[T Element](a *kokkos.Allocation, off int, l kokkos.Layout, ext, str [2]int, data []T) (kokkos.View2[T], error) {
	var v kokkos.View2[T]
	err := hooks.View2FromAllocation(unsafe.Pointer(&v), a, off, uint8(l), ext, str, sizeOf[T](), unsafe.Pointer(unsafe.SliceData(data)), len(data))
	return v, err
}

// view2Storage returns v's Allocation and the host elements of its span,
// writable even when v is read-only (the caller must honour that).
func view2Storage[T Element](v *kokkos.View2[T]) (*kokkos.Allocation, []T) {
	rec, _, p, n, c := hooks.View2Storage(unsafe.Pointer(v))
	a, _ := rec.(*kokkos.Allocation)
	var data []T
	if p != nil {
		data = unsafe.Slice((*T)(p), c)[:n:n]
	}
	return a, data
}
