package kokkos

import (
	"fmt"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/hooks"
	"github.com/gokkos/kokkos/internal/prof"
)

// This file holds what other packages of the module (package dal, the
// interop packages) need to allocate memory under an Allocation and convert
// between their arrays and rank-1 and rank-2 views without copying, so that both count holders on the same
// Allocation. They reach it through package internal/hooks, set here, so
// that it is not part of this package's API.

func init() {
	hooks.NewAllocation = func(label string, space backend.MemorySpace, bytes int, free func() error) any {
		return newAllocation(label, space, bytes, free)
	}
	hooks.NewBlockAllocation = func(label string, s backend.BlockSpace, bytes int, zero bool) (any, backend.Block, error) {
		return newBlockAllocation(label, s, bytes, zero)
	}
	hooks.View1FromAllocation = func(dst unsafe.Pointer, a any, off, n, size int, host unsafe.Pointer, hostLen int) error {
		rec, _ := a.(*Allocation)
		return initView1(dst, rec, off, n, size, host, hostLen)
	}
	hooks.View1Storage = func(v unsafe.Pointer) (any, int, unsafe.Pointer, int, int) {
		w := (*View1[byte])(v)
		return w.rec, w.off, unsafe.Pointer(unsafe.SliceData(w.data)), len(w.data), cap(w.data)
	}
	hooks.View2FromAllocation = func(dst unsafe.Pointer, a any, off int, layout uint8, ext, str [2]int, size int, host unsafe.Pointer, hostLen int) error {
		rec, _ := a.(*Allocation)
		return initView2(dst, rec, off, Layout(layout), ext, str, size, host, hostLen)
	}
	hooks.View2Storage = func(v unsafe.Pointer) (any, int, unsafe.Pointer, int, int) {
		w := (*View2[byte])(v)
		return w.rec, w.off, unsafe.Pointer(unsafe.SliceData(w.data)), len(w.data), cap(w.data)
	}
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

// viewFromAllocation1 returns a contiguous rank-1 LayoutRight view of the n
// elements that start off elements (of T) after the first byte of a, and
// adds a holder to a for the view: the view's Release drops it (Retain and
// Release do nothing for unmanaged allocations). data holds the same n
// elements for host access; it must be nil where the host cannot access a's
// space. Make the result read-only with ReadOnly where writes must not
// happen. It returns an error when a is nil or released, or when the
// elements do not lie within a, or data does not match n.
func viewFromAllocation1[T any](a *Allocation, off, n int, data []T) (View1[T], error) {
	var v View1[T]
	err := initView1(unsafe.Pointer(&v), a, off, n, sizeOf[T](), unsafe.Pointer(unsafe.SliceData(data)), len(data))
	return v, err
}

// emptyHost is where the host elements of an empty host-accessible view
// point: not nil, so that the view counts as host-accessible.
var emptyHost [1]byte

// initView1 is viewFromAllocation1 with the element type erased: it sets
// *dst, a View1[T] with elements of size bytes whose host elements are the
// hostLen elements at host (nil where the host cannot access them). A
// View1[T] has the same fields at the same offsets for every T, the
// element type appearing only in the slice of host elements, whose header
// does not depend on T (TestView1LayoutIndependentOfT), so dst is written
// as a View1[byte] whose slice counts elements, not bytes.
func initView1(dst unsafe.Pointer, a *Allocation, off, n, size int, host unsafe.Pointer, hostLen int) error {
	switch {
	case a == nil:
		return errorf(ErrReleased, "kokkos: view over a nil allocation")
	case a.Released():
		return errorf(ErrReleased, "kokkos: view over allocation %q after its final Release", a.label)
	case off < 0 || n < 0 || size > 0 && (off > a.bytes/size || n > a.bytes/size-off):
		// compared by division: (off+n)*size may overflow
		return errorf(ErrShape, "kokkos: view of %d elements of %d bytes at element %d of allocation %q do not lie within its %d bytes",
			n, size, off, a.label, a.bytes)
	}
	var flags viewFlags
	var data []byte // n elements of size bytes, counted in elements
	if a.Space().HostAccessible() {
		if hostLen != n {
			return errorf(ErrShape, "kokkos: view of %d elements of allocation %q given %d host elements", n, a.label, hostLen)
		}
		if host == nil {
			host = unsafe.Pointer(&emptyHost)
		}
		data = unsafe.Slice((*byte)(host), n)
	} else {
		if host != nil {
			return errorf(ErrNotHostAccessible, "kokkos: view of allocation %q in %s given host elements, but the host cannot access that space", a.label, a.Space().Name())
		}
		flags |= flagNoHost
	}
	flags = foreignFlags(a, data, flags)
	a.Retain()
	v := View1[byte]{data: data, rec: a, off: off, layout: LayoutRight, flags: flags}
	v.ext[0], v.str[0] = n, 1
	v.lim0, v.hlim = hostLimits(v.data, v.flags, n)
	if !a.managed {
		v.traits = Unmanaged
	}
	*(*View1[byte])(dst) = v
	return nil
}

// initView2 is initView1 for a View2[T] of layout l with extents ext and
// strides str (in elements), whose span's host elements are the hostLen
// elements at host: it writes dst as a View2[byte] whose slice counts
// elements, which is sound for the same reason
// (TestView2LayoutIndependentOfT). The strides must be l's, padded or not
// for LayoutRight and LayoutLeft.
func initView2(dst unsafe.Pointer, a *Allocation, off int, l Layout, ext, str [2]int, size int, host unsafe.Pointer, hostLen int) error {
	var s [2]int
	span, err := mapStrides(l, ext[:], str[:], size, false, s[:])
	switch {
	case a == nil:
		return errorf(ErrReleased, "kokkos: view over a nil allocation")
	case a.Released():
		return errorf(ErrReleased, "kokkos: view over allocation %q after its final Release", a.label)
	case err != nil:
		return fmt.Errorf("kokkos: view of allocation %q with extents %s and strides %s: %w", a.label, fmtInts(ext[:]), fmtInts(str[:]), err)
	case off < 0 || size > 0 && (off > a.bytes/size || span > a.bytes/size-off):
		return errorf(ErrShape, "kokkos: view spanning %d elements of %d bytes at element %d of allocation %q does not lie within its %d bytes",
			span, size, off, a.label, a.bytes)
	}
	var flags viewFlags
	var data []byte // span elements of size bytes, counted in elements
	if a.Space().HostAccessible() {
		if hostLen != span {
			return errorf(ErrShape, "kokkos: view spanning %d elements of allocation %q given %d host elements", span, a.label, hostLen)
		}
		if host == nil {
			host = unsafe.Pointer(&emptyHost)
		}
		data = unsafe.Slice((*byte)(host), span)
	} else {
		if host != nil {
			return errorf(ErrNotHostAccessible, "kokkos: view of allocation %q in %s given host elements, but the host cannot access that space", a.label, a.Space().Name())
		}
		flags |= flagNoHost
	}
	flags = foreignFlags(a, data, flags)
	d := desc[byte]{data: data, rank: 2, rec: a, off: off, layout: l, flags: flags}
	copy(d.ext[:], ext[:])
	copy(d.str[:], s[:])
	if !a.managed {
		d.traits = Unmanaged
	}
	a.Retain()
	*(*View2[byte])(dst) = view2Of(d, d.traits)
	return nil
}
