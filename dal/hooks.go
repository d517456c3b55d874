package dal

import (
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/hooks"
)

// The typed side of package internal/hooks, through which dal allocates
// under a kokkos.Allocation and converts between arrays and rank-1 views.

// newAllocation returns an Allocation with one holder for bytes bytes in
// space; free, if not nil, runs at the last Release.
func newAllocation(label string, space backend.MemorySpace, bytes int, free func() error) *kokkos.Allocation {
	return hooks.NewAllocation(label, space, bytes, free).(*kokkos.Allocation)
}

// newBlockAllocation allocates bytes bytes in s under a new Allocation with
// one holder.
func newBlockAllocation(label string, s backend.BlockSpace, bytes int, zero bool) (*kokkos.Allocation, backend.Block, error) {
	a, b, err := hooks.NewBlockAllocation(label, s, bytes, zero)
	rec, _ := a.(*kokkos.Allocation)
	return rec, b, err
}

// viewFromAllocation1 returns a contiguous rank-1 view of the n elements
// that start off elements after the first byte of a, holding a; data is
// the same elements for host access, nil where the host cannot access a's
// space. See hooks.View1FromAllocation.
func viewFromAllocation1[T any](a *kokkos.Allocation, off, n int, data []T) (kokkos.View1[T], error) {
	var v kokkos.View1[T]
	err := hooks.View1FromAllocation(unsafe.Pointer(&v), a, off, n, sizeOf[T](), unsafe.Pointer(unsafe.SliceData(data)), len(data))
	return v, err
}

// view1Storage returns v's Allocation, the offset of its first element in
// elements, and its host elements (nil where the host cannot access them).
// The slice is writable even when v is read-only: the caller must honour
// v.IsReadOnly().
func view1Storage[T any](v *kokkos.View1[T]) (a *kokkos.Allocation, off int, data []T) {
	rec, off, p, n, c := hooks.View1Storage(unsafe.Pointer(v))
	a, _ = rec.(*kokkos.Allocation)
	if p != nil {
		data = unsafe.Slice((*T)(p), c)[:n]
	}
	return a, off, data
}
