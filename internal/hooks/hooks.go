// Package hooks is how package dal and the interop packages reach what
// they need of package kokkos and no other importer may use: allocating
// under a kokkos.Allocation, and converting between their arrays and rank-1
// and rank-2 views without copying, so that both count holders on the same
// Allocation. Package kokkos sets the
// functions when it is initialised; dal wraps them in typed helpers.
//
// The package cannot import kokkos (kokkos imports it), so an Allocation
// travels as an any holding a *kokkos.Allocation, and a view as an
// unsafe.Pointer to a kokkos.View1[T] with its element size: a View1[T]'s
// fields are the same, at the same offsets, for every T (package kokkos
// tests that), so one implementation serves every element type.
package hooks

import (
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

var (
	// NewAllocation returns a *kokkos.Allocation with one holder for
	// bytes bytes of memory in space, labelled label. free, if not nil,
	// runs exactly once, when the last holder releases the allocation,
	// and never otherwise: if the Allocation becomes unreachable before
	// that, free never runs and the leak is reported.
	NewAllocation func(label string, space backend.MemorySpace, bytes int, free func() error) any

	// NewBlockAllocation allocates bytes bytes in s, filled with zero
	// bytes when zero is true, and returns the *kokkos.Allocation, with
	// one holder, and the block. The block's Free runs exactly once, at
	// the last Release. The error is the space's own.
	NewBlockAllocation func(label string, s backend.BlockSpace, bytes int, zero bool) (any, backend.Block, error)

	// View1FromAllocation sets *dst, a kokkos.View1[T] with elements of
	// size bytes, to a contiguous LayoutRight view of the n elements that
	// start off elements after the first byte of a (a *kokkos.Allocation),
	// and adds a holder to a for it. host and hostLen are the same n
	// elements for host access (unsafe.SliceData and len of a []T); host
	// must be nil where the host cannot access a's space. On error *dst
	// is left alone and no holder is added.
	View1FromAllocation func(dst unsafe.Pointer, a any, off, n, size int, host unsafe.Pointer, hostLen int) error

	// View1Storage returns what lies under v, a *kokkos.View1[T]: its
	// *kokkos.Allocation (nil for the zero view), the offset in elements
	// of its first element from the allocation's first byte, and its host
	// elements from the first to the last as the pointer, length and
	// capacity of a []T (a nil pointer where the host cannot access
	// them). The elements are writable even when the view is read-only:
	// the caller must honour the view's IsReadOnly, as dal.FromView does
	// by making the array immutable.
	View1Storage func(v unsafe.Pointer) (a any, off int, host unsafe.Pointer, length, capacity int)

	// View2FromAllocation sets *dst, a kokkos.View2[T] with elements of
	// size bytes, to a view of layout (a kokkos.Layout's value) with
	// extents ext and strides str, in elements, whose first element lies
	// off elements after the first byte of a (a *kokkos.Allocation), and
	// adds a holder to a for it. The strides must be those of layout
	// (LayoutRight and LayoutLeft may pad the leading dimension) and the
	// span must lie within a. host and hostLen are the span's elements for
	// host access; host must be nil where the host cannot access a's
	// space. On error *dst is left alone and no holder is added.
	View2FromAllocation func(dst unsafe.Pointer, a any, off int, layout uint8, ext, str [2]int, size int, host unsafe.Pointer, hostLen int) error

	// View2Storage is View1Storage for v, a *kokkos.View2[T]: the host
	// elements are those of v's span.
	View2Storage func(v unsafe.Pointer) (a any, off int, host unsafe.Pointer, length, capacity int)
)
