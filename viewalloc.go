package kokkos

import "github.com/gokkos/kokkos/backend"

// This file holds the hooks through which other packages of the module
// (package dal) allocate memory under an Allocation and convert between their
// arrays and rank-1 views without copying, so that both count holders on the
// same Allocation.

// NewBlockAllocation allocates bytes bytes in s, filled with zero bytes when
// zero is true, and returns the Allocation, with one holder, and the block.
// The block's Free runs exactly once, at the last Release, and never
// otherwise (see package backend). The error is the space's own, for the caller
// to put in context.
func NewBlockAllocation(label string, s backend.BlockSpace, bytes int, zero bool) (*Allocation, backend.Block, error) {
	b, err := s.Allocate(label, bytes, zero)
	if err != nil {
		return nil, backend.Block{}, err
	}
	a := NewAllocation(label, s, bytes, b.Free)
	a.addr = b.Addr
	return a, b, nil
}

// ViewFromAllocation1 returns a contiguous rank-1 LayoutRight view of the n
// elements that start off elements (of T) after the first byte of a, and
// adds a holder to a for the view: the view's Release drops it (Retain and
// Release do nothing for unmanaged allocations). data holds the same n
// elements for host access; it must be nil where the host cannot access a's
// space. Make the result read-only with ReadOnly where writes must not
// happen. It returns an error when a is nil or released, or when the
// elements do not lie within a, or data does not match n.
func ViewFromAllocation1[T any](a *Allocation, off, n int, data []T) (View1[T], error) {
	size := sizeOf[T]()
	switch {
	case a == nil:
		return View1[T]{}, errorf(ErrReleased, "kokkos: view over a nil allocation")
	case a.Released():
		return View1[T]{}, errorf(ErrReleased, "kokkos: view over allocation %q after its final Release", a.label)
	case off < 0 || n < 0 || size > 0 && (off > a.bytes/size || n > a.bytes/size-off):
		// compared by division: (off+n)*size may overflow
		return View1[T]{}, errorf(ErrShape, "kokkos: view of %d elements of %d bytes at element %d of allocation %q do not lie within its %d bytes",
			n, size, off, a.label, a.bytes)
	}
	var flags viewFlags
	if a.Space().HostAccessible() {
		if len(data) != n {
			return View1[T]{}, errorf(ErrShape, "kokkos: view of %d elements of allocation %q given %d host elements", n, a.label, len(data))
		}
		if data == nil {
			data = []T{}
		}
		data = data[:n:n]
	} else {
		if data != nil {
			return View1[T]{}, errorf(ErrNotHostAccessible, "kokkos: view of allocation %q in %s given host elements, but the host cannot access that space", a.label, a.Space().Name())
		}
		flags |= flagNoHost
	}
	a.Retain()
	v := View1[T]{data: data, rec: a, off: off, layout: LayoutRight, flags: flags}
	v.ext[0], v.str[0] = n, 1
	v.lim0 = checkExtent(v.data, n)
	if !a.managed {
		v.traits = Unmanaged
	}
	return v, nil
}

// View1Storage returns what lies under v: its Allocation (nil for the zero
// view), the offset in elements of v's first element from the allocation's
// first byte, and v's host elements from its first to its last (nil where
// the host cannot access them). The slice is writable even when v is
// read-only: callers must honour v.IsReadOnly().
func View1Storage[T any](v *View1[T]) (a *Allocation, off int, data []T) {
	return v.rec, v.off, v.data
}
