package kokkos

import (
	"fmt"
	"reflect"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/prof"
	"github.com/gokkos/kokkos/internal/typeinfo"
)

// This file holds the Allocation of memory that the caller provides, and
// the views over an Allocation: what packages built on views (package dal,
// the interop packages) need to share one holder count between their
// arrays and views, without copying. In Kokkos the same is a
// SharedAllocationRecord with a custom deallocation and a view built over
// that record.

// NewAllocation returns an Allocation, with one holder (the caller), that
// stands for bytes bytes of memory in space which the caller provides:
//   - Go memory, or host memory the caller reaches as a Go slice (addr 0,
//     space HostSpace or another space the host can access): views over
//     the Allocation take their elements as slices (ViewOnAllocation1);
//   - memory outside the Go heap at address addr in space (a device
//     pointer made by another library, a backend.Block): views over the
//     Allocation address it from addr, as an AtAddress view does.
//
// free, if not nil, runs exactly once, at the Release that drops the
// holder count to zero, and never otherwise: an Allocation dropped before
// that Release is reported as a leak (see SetLeakHandler) and free does not
// run. A nil free leaves the memory to the caller, or to the garbage
// collector for Go memory. When a profiling tool is loaded, an Allocation
// with an address is reported to it as allocated now and deallocated at its
// final Release.
//
// It returns an error wrapping ErrShape for a negative size, ErrOption for
// a nil space, and ErrNotHostAccessible for memory the host cannot access
// given without its address.
func NewAllocation(label string, space MemorySpace, addr uintptr, bytes int, free func() error) (*Allocation, error) {
	switch {
	case space == nil:
		return nil, errorf(ErrOption, "kokkos: NewAllocation %q in a nil memory space: give the space of the memory, HostSpace for Go memory", label)
	case bytes < 0:
		return nil, errorf(ErrShape, "kokkos: NewAllocation %q of %d bytes: the size is negative", label, bytes)
	case addr == 0 && !space.HostAccessible():
		return nil, errorf(ErrNotHostAccessible, "kokkos: NewAllocation %q in %s without an address: the host cannot access that space, so views over the allocation need the memory's address", label, space.Name())
	}
	a := newAllocation(label, space, bytes, free)
	a.addr = addr
	if addr != 0 && prof.On() {
		profileAlloc(a, addr)
	}
	return a, nil
}

// ViewOnAllocation1 returns a contiguous rank-1 LayoutRight view of the n
// elements of type T that start off elements after the first byte of a,
// and adds a holder to a for the view: the view's Release gives it back.
// (For an Allocation that does not count holders, that of a view over
// caller memory, the view is Unmanaged, as a WrapView1 view.) The view is
// writable: make it read-only with ReadOnly where the memory must not be
// written.
//
// host is the view's elements for host access: the n elements themselves,
// sharing a's memory, where the host can access a's space, and nil where it
// cannot (the view then addresses a's memory from a.Addr()). The function
// cannot check that host is a's memory: a slice that is not gives a view
// whose host accesses and device accesses see different elements.
//
// The inverse, for any view v: v's Allocation, ShapeOf(v).Offset and, for
// host access, ReadOnlyData(v).
//
// It returns an error wrapping ErrReleased for a nil or released
// allocation; ErrShape when the elements do not lie within a or host does
// not hold n elements; ErrNotHostAccessible for host elements of memory the
// host cannot access; ErrElementType when T holds Go pointers and a's
// memory lies outside the Go heap, or a's address is not aligned for T.
func ViewOnAllocation1[T any](a *Allocation, off, n int, host []T) (View1[T], error) {
	fail := func(err error) (View1[T], error) {
		return View1[T]{}, fmt.Errorf("kokkos: ViewOnAllocation1[%v] of %d elements at element %d of %s: %w", reflect.TypeFor[T](), n, off, allocName(a), err)
	}
	if n < 0 {
		return fail(errorf(ErrShape, "the extent is negative"))
	}
	d, err := onAllocation(a, off, n, host)
	if err != nil {
		return fail(err)
	}
	d.rank, d.layout = 1, LayoutRight
	d.ext[0], d.str[0] = n, 1
	a.Retain()
	return view1Of(d, d.traits), nil
}

// ViewOnAllocation2 is ViewOnAllocation1 for a rank-2 view whose layout,
// extents and strides (in elements) are spec's: spec.Strides nil gives the
// layout's own strides; LayoutRight and LayoutLeft take padded strides (a
// leading dimension larger than the extent), LayoutStride any strides that
// do not overlap. off is the offset of the view's element (0, 0), and host,
// where the host can access a's space, is the view's span: the Span()
// elements from (0, 0) on.
//
// Beyond those of ViewOnAllocation1, it returns an error wrapping ErrShape
// for a spec of another rank, and ErrLayout for strides that break spec's
// layout.
func ViewOnAllocation2[T any](a *Allocation, off int, spec LayoutSpec, host []T) (View2[T], error) {
	fail := func(err error) (View2[T], error) {
		return View2[T]{}, fmt.Errorf("kokkos: ViewOnAllocation2[%v] of %v extents %s at element %d of %s: %w", reflect.TypeFor[T](), spec.Layout, fmtInts(spec.Extents), off, allocName(a), err)
	}
	if spec.Rank() != 2 {
		return fail(errorf(ErrShape, "the layout spec has rank %d, not 2", spec.Rank()))
	}
	var str [2]int
	span, err := mapStrides(spec.Layout, spec.Extents, spec.Strides, sizeOf[T](), false, str[:])
	if err != nil {
		return fail(err)
	}
	d, err := onAllocation(a, off, span, host)
	if err != nil {
		return fail(err)
	}
	d.rank, d.layout = 2, spec.Layout
	copy(d.ext[:], spec.Extents)
	d.str = [MaxRank]int{str[0], str[1]}
	a.Retain()
	return view2Of(d, d.traits), nil
}

// allocName names a, possibly nil, in the errors of the views over it.
func allocName(a *Allocation) string {
	if a == nil {
		return "a nil allocation"
	}
	return fmt.Sprintf("allocation %q", a.label)
}

// onAllocation checks that the span elements of T that start off elements
// after the first byte of a lie within a and may live there, and that host
// is their host access, and returns the description of a view over them,
// rank and shape left for the caller to fill, with no holder added.
func onAllocation[T any](a *Allocation, off, span int, host []T) (desc[T], error) {
	size := sizeOf[T]()
	switch {
	case a == nil:
		return desc[T]{}, errorf(ErrReleased, "there is no allocation")
	case a.Released():
		return desc[T]{}, errorf(ErrReleased, "the allocation had its final Release")
	case off < 0 || size > 0 && (off > a.bytes/size || span > a.bytes/size-off):
		// compared by division: (off+span)*size may overflow
		return desc[T]{}, errorf(ErrShape, "%d elements of %d bytes at element %d do not lie within the allocation's %d bytes", span, size, off, a.bytes)
	}
	_, block := a.space.(backend.BlockSpace)
	outside := a.addr != 0 || block || !a.space.HostAccessible()
	if outside && typeinfo.HasPointers(reflect.TypeFor[T]()) {
		return desc[T]{}, errorf(ErrElementType, "the element type holds Go pointers and the allocation's memory, in %s, lies outside the Go heap", a.space.Name())
	}
	if align := uintptr(reflect.TypeFor[T]().Align()); a.addr%align != 0 {
		return desc[T]{}, errorf(ErrElementType, "the allocation's address %#x is not aligned to the element type's %d bytes", a.addr, align)
	}
	flags, err := traitFlags[T](0)
	if err != nil {
		return desc[T]{}, err
	}
	if a.space.HostAccessible() {
		if len(host) != span {
			return desc[T]{}, errorf(ErrShape, "the host slice holds %d elements, the view's span is %d", len(host), span)
		}
		if host == nil {
			host = []T{} // not nil: the view is host-accessible
		}
		host = host[:span:span]
	} else {
		if host != nil {
			return desc[T]{}, errorf(ErrNotHostAccessible, "host elements given for memory in %s, which the host cannot access: pass nil", a.space.Name())
		}
		flags |= flagNoHost
	}
	d := desc[T]{data: host, rec: a, off: off, flags: foreignFlags(a, host, flags)}
	if !a.managed {
		d.traits = Unmanaged
	}
	return d, nil
}

// newBlockAllocation allocates bytes bytes in s, filled with zero bytes when
// zero is true, and returns the Allocation, with one holder, and the block.
// The block's Free runs exactly once, at the last Release, and never
// otherwise (see package backend). The error is the space's own, for the
// caller to put in context.
func newBlockAllocation(label string, s backend.BlockSpace, bytes int, zero bool) (*Allocation, backend.Block, error) {
	b, err := s.Allocate(label, bytes, zero)
	if err != nil {
		return nil, backend.Block{}, err
	}
	a := newAllocation(label, s, bytes, b.Free)
	a.addr = b.Addr
	if prof.On() {
		profileAlloc(a, b.Addr)
	}
	return a, b, nil
}
