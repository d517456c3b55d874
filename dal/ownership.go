package dal

import (
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gokkos/kokkos/internal/typeinfo"

	"github.com/gokkos/kokkos"
)

// Share returns a new handle on the same elements, with the same
// mutability, and counts it as a holder of the block: oneDAL's copy
// constructor. No element is copied. Release the result when done with it.
// Sharing the empty array returns the empty array. Share panics for a
// released handle.
func (a Array[T]) Share() Array[T] {
	h := a.live("Share")
	if h == nil {
		return Array[T]{}
	}
	return Array[T]{h.derive(h.data, h.count, h.off, h.mutable)}
}

// derive returns a new handle on part of h's block, holding it.
func (h *handle[T]) derive(data []T, count, off int, mutable bool) *handle[T] {
	h.rec.Retain()
	return &handle[T]{data: data, count: count, off: off, mutable: mutable, rec: h.rec}
}

// Release drops this handle's hold on its block and marks the handle
// released: its data may no longer be used (Data and At panic, the other
// methods return errors). The release that drops the block's last holder
// frees it: it runs the deleter of WrapWithDeleter, or returns memory
// outside the Go heap to its space (and returns that space's error, if any);
// Go memory is left to the garbage collector. Releasing the empty array
// holds nothing and succeeds; releasing a handle twice, or through two
// assigned copies of it, is an error.
func (a *Array[T]) Release() error {
	if a.h == nil {
		a.h = &handle[T]{}
		a.h.released.Store(true)
		return nil
	}
	if a.h.released.Swap(true) {
		return fmt.Errorf("dal: Release of an array of %s: %w", typeName[T](), ErrReleasedTwice)
	}
	// Only the winner of the swap gets here. Dropping the slice makes At,
	// which skips the released flag for speed, fail its bounds check.
	a.h.data = nil
	if a.h.rec == nil {
		return nil
	}
	return a.h.rec.Release()
}

// replace gives a's handle the new state n, then drops the handle's hold on
// its old block. The handle is no longer released. Other variables assigned
// from a see the change; handles made by Share do not.
func (a *Array[T]) replace(n *handle[T]) error {
	if a.h == nil {
		a.h = new(handle[T])
	}
	h := a.h
	old := h.rec
	wasReleased := h.released.Load()
	h.data, h.count, h.mutable, h.rec, h.off = n.data, n.count, n.mutable, n.rec, n.off
	h.released.Store(false)
	if old == nil || wasReleased {
		return nil
	}
	return old.Release()
}

// Reset makes the handle empty, dropping its hold on its block (see Release
// for what the last holder's release does). It returns the error of that
// release.
func (a *Array[T]) Reset() error {
	if a.h == nil {
		return nil
	}
	return a.replace(&handle[T]{})
}

// ResetCount gives the handle a new mutable block of n elements whose
// contents are unspecified, as Empty, and drops its hold on the old block.
// The block is always new, even when n is not larger than Count. On an
// allocation error the handle is unchanged.
func (a *Array[T]) ResetCount(n int, opts ...Option) error {
	nh, err := allocate[T]("ResetCount", n, makeConfig(opts), false)
	if err != nil {
		return err
	}
	return a.replace(nh)
}

// ResetWithDeleter gives the handle the caller's memory data, immutable, as
// WrapWithDeleter, and drops its hold on the old block.
func (a *Array[T]) ResetWithDeleter(data []T, deleter func()) error {
	return a.replace(wrapHandle(data, false, deleter))
}

// ResetMutableWithDeleter is ResetWithDeleter for memory the array may
// write.
func (a *Array[T]) ResetMutableWithDeleter(data []T, deleter func()) error {
	return a.replace(wrapHandle(data, true, deleter))
}

// ResetAlias makes the handle an immutable view of data that shares the
// ownership of owner's block, whatever owner's element type, as oneDAL's
// reset(ref, data, count): the handle counts as a holder of owner's block,
// so the block outlives it. data should lie in memory that owner's block
// keeps valid, typically part of it. The handle drops its hold on its old
// block. It returns an error, and leaves the handle unchanged, when owner is
// empty or released or lives where the host cannot access it.
func (a *Array[T]) ResetAlias(owner Owner, data []T) error {
	return a.resetAlias(owner, data, false)
}

// ResetAliasMutable is ResetAlias for data the array may write.
func (a *Array[T]) ResetAliasMutable(owner Owner, data []T) error {
	return a.resetAlias(owner, data, true)
}

func (a *Array[T]) resetAlias(owner Owner, data []T, mutable bool) error {
	rec, released := owner.ownership()
	switch {
	case released:
		return fmt.Errorf("dal: ResetAlias with an owner that was released: %w", ErrReleased)
	case rec == nil:
		return errorf(ErrEmptyOwner, "dal: ResetAlias with an empty owner: it has no block to share; use Wrap")
	case !rec.Space().HostAccessible():
		return errorf(kokkos.ErrNotHostAccessible, "dal: ResetAlias with an owner in %s, which the host cannot access", rec.Space().Name())
	}
	rec.Retain()
	n := len(data)
	if data == nil {
		data = []T{}
	}
	return a.replace(&handle[T]{data: data[:n:n], count: n, mutable: mutable, rec: rec})
}

// NeedMutableData makes sure this handle has mutable data. On a mutable or
// empty array it does nothing. Otherwise it allocates a new block that the
// handle owns, in the same memory space, copies the elements into it with
// kokkos.DeepCopy (a space the host cannot access, such as GPU memory, copies
// them within the space through its kokkos.CopySpace methods), and drops
// the handle's hold on the old block: other handles on the old block keep
// it, still immutable. It returns an error, and leaves the handle
// unchanged, for a released handle, when the space cannot allocate or copy,
// and when the host cannot access the space and the space does not
// implement kokkos.CopySpace.
func (a *Array[T]) NeedMutableData() error {
	h, err := a.liveErr("NeedMutableData")
	if err != nil || h == nil || h.mutable || h.count == 0 {
		return err
	}
	fail := func(err error) error {
		return fmt.Errorf("dal: NeedMutableData of an array of %s in %s: %w", typeName[T](), h.space().Name(), err)
	}
	if h.noHost() && lacksCopySpace(h.space()) {
		return fail(errorf(kokkos.ErrNoCopySpace, "%s, so the elements cannot be copied", noCopySpace))
	}
	nh, err := allocate[T]("NeedMutableData", h.count, config{space: h.space(), label: h.rec.Label()}, false)
	if err != nil {
		return err
	}
	if err := copyElements(nh, h); err != nil {
		return fail(errors.Join(err, nh.rec.Release()))
	}
	return a.replace(nh)
}

// copyElements copies the elements of src into dst, a handle on the whole
// of a new block of as many elements in the same space, with
// kokkos.DeepCopy over rank-1 views.
func copyElements[T any](dst, src *handle[T]) error {
	size := sizeOf[T]()
	switch {
	case src.count == 0 || size == 0:
		return nil
	case src.data != nil:
		// Host memory: the handle's slice is its elements (an alias's
		// slice need not lie at off in its owner's block).
		dv, err := kokkos.ViewFromAllocation1(dst.rec, 0, dst.count, dst.data)
		if err != nil {
			return err
		}
		sv, err := kokkos.WrapView1(src.data, src.count)
		if err != nil {
			return errors.Join(err, dv.Release())
		}
		return errors.Join(kokkos.DeepCopy(dv, sv), dv.Release())
	case src.off%size == 0:
		return copyBlock[T](dst.rec, src.rec, src.off/size, src.count)
	default:
		// A Cast from a smaller type can start inside an element of T
		// (which then holds no Go pointers): copy the bytes.
		return copyBlock[byte](dst.rec, src.rec, src.off, src.count*size)
	}
}

// copyBlock copies the n elements of type E that start off elements into
// the block of src to the start of the block of dst, with kokkos.DeepCopy
// over rank-1 views of the blocks, which the host cannot access.
func copyBlock[E any](dst, src *kokkos.Allocation, off, n int) (err error) {
	dv, err := kokkos.ViewFromAllocation1[E](dst, 0, n, nil)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, dv.Release()) }()
	sv, err := kokkos.ViewFromAllocation1[E](src, off, n, nil)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, sv.Release()) }()
	return kokkos.DeepCopy(dv, sv)
}

// DiscardMutableData makes this handle hold its elements read-only; the
// block, and the other handles on it, are unchanged. Share first to keep a
// mutable handle as well. It panics for a released handle.
func (a *Array[T]) DiscardMutableData() {
	if h := a.live("DiscardMutableData"); h != nil {
		h.mutable = false
	}
}

// Slice returns a new handle on the elements [first, last) of a, without
// copying, with a's mutability; it counts as a holder of the block, so the
// block outlives a if a is released first. Release it when done. It returns
// an error unless 0 <= first <= last <= Count, and for a released handle.
func (a Array[T]) Slice(first, last int) (Array[T], error) {
	h, err := a.liveErr("Slice")
	if err != nil {
		return Array[T]{}, err
	}
	n := 0
	if h != nil {
		n = h.count
	}
	if first < 0 || first > last || last > n {
		return Array[T]{}, errorf(ErrRange, "dal: Slice(%d, %d) of an array of %d elements: need 0 <= first <= last <= %d", first, last, n, n)
	}
	if h == nil {
		return Array[T]{}, nil
	}
	var data []T
	if h.data != nil {
		data = h.data[first:last:last]
	}
	return Array[T]{h.derive(data, last-first, h.off+first*sizeOf[T](), h.mutable)}, nil
}

// Cast returns a new handle that reinterprets a's elements as elements of
// type U, without copying, with a's mutability; it counts as a holder of
// the block. It returns an error when the byte size of a is not a multiple
// of U's size, when a's first element is not aligned for U, when T or U
// holds Go pointers (unless they are the same type), when either has size
// zero, and for a released handle.
func Cast[U, T any](a Array[T]) (Array[U], error) {
	h, err := a.liveErr("Cast")
	if err != nil {
		return Array[U]{}, err
	}
	tn, un := typeName[T](), typeName[U]()
	ts, us := sizeOf[T](), sizeOf[U]()
	fail := func(format string, args ...any) (Array[U], error) {
		return Array[U]{}, errorf(ErrCast, "dal: cannot cast an array of %d %s to %s: %s", a.Count(), tn, un, fmt.Sprintf(format, args...))
	}
	switch {
	case ts == 0 || us == 0:
		return fail("element types of size zero cannot be reinterpreted")
	case tn != un && (hasPointersOf[T]() || hasPointersOf[U]()):
		return fail("element types holding Go pointers cannot be reinterpreted")
	}
	if h == nil {
		return Array[U]{}, nil
	}
	bytes := h.count * ts
	if bytes%us != 0 {
		return fail("%d bytes are not a multiple of %s's %d bytes", bytes, un, us)
	}
	addr := a.Addr()
	if h.data != nil && h.count > 0 {
		addr = uintptr(unsafe.Pointer(&h.data[0]))
	}
	if addr%uintptr(alignOf[U]()) != 0 {
		return fail("its first element at %#x is not aligned to %s's %d bytes", addr, un, alignOf[U]())
	}
	n := bytes / us
	var data []U
	switch {
	case h.data == nil:
	case n == 0:
		data = []U{}
	default:
		data = unsafe.Slice((*U)(unsafe.Pointer(&h.data[0])), n)
	}
	h.rec.Retain()
	return Array[U]{&handle[U]{data: data, count: n, off: h.off, mutable: h.mutable, rec: h.rec}}, nil
}

func hasPointersOf[T any]() bool { return typeinfo.HasPointers(reflect.TypeFor[T]()) }
