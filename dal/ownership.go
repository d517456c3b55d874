package dal

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gokkos/kokkos/internal/typeinfo"

	"github.com/gokkos/kokkos"
)

// hold is one holder of a block: the count that a handle made by a
// constructor, Share, Slice, Cast, FromView, a Reset form or Assign takes on
// the block's kokkos.Allocation, and that the handle's copies share. A hold
// holds one block at a time: NeedMutableData moves it to the new block it
// makes, and releases its count on the old one at once, as oneDAL's
// need_mutable_data does, so that a block's count is the number of holds
// (array objects) on it. The hold's count on each block it held is a
// lease; the handles that read a block through the hold share the lease,
// and see themselves released when it ends.
type hold struct {
	mu    sync.Mutex
	ended bool   // guarded by mu; the hold was released
	cur   *lease // guarded by mu; the lease on the block held now
}

// lease is a hold's count on one block. It ends when the hold is released
// or moves to another block.
type lease struct {
	released atomic.Bool
	h        *hold
	rec      *kokkos.Allocation // the block; nil for the empty array's
}

// newHold returns the lease of a new hold on rec, which the caller counted
// as one holder.
func newHold(rec *kokkos.Allocation) *lease {
	h := &hold{}
	h.cur = &lease{h: h, rec: rec}
	return h.cur
}

// releasedLease returns a lease that is released, of a hold that was
// released: the state of the empty array after its Release.
func releasedLease() *lease {
	l := newHold(nil)
	l.h.ended = true
	l.released.Store(true)
	return l
}

// dead reports whether the lease ended: its hold was released or moved to
// another block; false for the nil lease of the empty array.
func (l *lease) dead() bool { return l != nil && l.released.Load() }

// end releases the hold, the first time only, and its count on the block
// it holds now: ok is false if the hold was released already.
func (h *hold) end() (ok bool, err error) {
	h.mu.Lock()
	if h.ended {
		h.mu.Unlock()
		return false, nil
	}
	h.ended = true
	cur := h.cur
	cur.released.Store(true)
	h.mu.Unlock()
	if cur.rec == nil {
		return true, nil
	}
	return true, cur.rec.Release()
}

// move moves the hold from the block of lease from, its current lease, to
// rec, which the caller counted as one holder for it, and releases the
// hold's count on the old block. It reports false, and moves nothing, when
// from is no longer the hold's lease: the hold was released, or moved by
// another handle sharing it.
func (h *hold) move(from *lease, rec *kokkos.Allocation) (to *lease, ok bool, err error) {
	h.mu.Lock()
	if h.ended || h.cur != from {
		h.mu.Unlock()
		return nil, false, nil
	}
	to = &lease{h: h, rec: rec}
	h.cur = to
	from.released.Store(true)
	h.mu.Unlock()
	return to, true, from.rec.Release()
}

// Share returns a new handle on the same elements, with the same
// mutability, that takes a new hold on the block: oneDAL's copy
// constructor. No element is copied. Release the result when done with it.
// Sharing the empty array returns the empty array. Share panics, with an
// error wrapping ErrReleased, for a released handle.
func (a Array[T]) Share() Array[T] {
	a.panicIfReleased("Share")
	if a.s == nil {
		return Array[T]{}
	}
	return a.derive(a.data, a.s.count, a.s.off, a.s.mutable)
}

// derive returns a handle with a new hold on the block of a, a live
// handle that is not empty.
func (a Array[T]) derive(data []T, count, off int, mutable bool) Array[T] {
	rec := a.s.rec
	rec.Retain()
	return Array[T]{s: &state{l: newHold(rec), rec: rec, count: count, off: off, mutable: mutable}, data: data}
}

// Release ends the hold of this handle, which its copies share: the
// destructor. The handle and its copies are released: their elements may
// no longer be used (Data and At panic, the other methods return errors
// wrapping ErrReleased). The release that drops a block's last holder frees
// it: it runs the deleter of WrapWithDeleter, or returns memory outside the
// Go heap to its space (and returns that space's error, if any); Go memory
// is left to the garbage collector. The block released is the one the
// hold holds now: after NeedMutableData through a copy, the copy's new
// block, also when Release is called through a handle that the move left
// released. Releasing the empty array holds nothing and succeeds;
// releasing a hold again, through this variable or a copy, returns an
// error wrapping ErrReleasedTwice and changes no count.
func (a *Array[T]) Release() error {
	if a.s == nil {
		a.s = &state{l: releasedLease()}
		return nil
	}
	ok, err := a.s.l.h.end()
	if !ok {
		return fmt.Errorf("dal: Release of an array of %s: %w", typeName[T](), ErrReleasedTwice)
	}
	a.data = nil
	return err
}

// replace makes n the state of the variable a, then ends a's old hold
// unless it was released already or n keeps it. Copies of a that borrowed
// the old hold see it released.
func (a *Array[T]) replace(n Array[T]) error {
	old := a.st().l
	*a = n
	if old == nil || n.st().l != nil && old.h == n.st().l.h {
		return nil
	}
	_, err := old.h.end()
	return err
}

// Reset makes the handle empty and ends its hold, which copies sharing it
// then see released (see Release for what the last holder's release does).
// It returns the error of that release. On a released handle it only makes
// the handle empty, and usable again.
func (a *Array[T]) Reset() error { return a.replace(Array[T]{}) }

// Assign makes the handle a handle on src's elements, with src's
// mutability, that takes a new hold on src's block, and ends the handle's
// old hold: oneDAL's copy assignment b = a, written b.Assign(a). No element
// is copied. Copies that borrowed the old hold see it released. Assigning
// the empty array makes the handle empty. When the handle already shares
// src's hold (b.Assign(b), or from a copy), it takes src's elements and
// mutability and keeps the hold, so no count changes.
//
// It returns an error wrapping ErrReleased, and leaves the handle
// unchanged, when src was released; otherwise the error of the old hold's
// release (see Release).
func (a *Array[T]) Assign(src Array[T]) error {
	switch {
	case src.st().l.dead():
		return fmt.Errorf("dal: Assign from an array of %s: %w", typeName[T](), ErrReleased)
	case src.s == nil:
		return a.replace(Array[T]{})
	case a.st().l != nil && src.s.l.h == a.st().l.h:
		*a = src
		return nil
	}
	return a.replace(src.derive(src.data, src.s.count, src.s.off, src.s.mutable))
}

// Move moves src's handle and hold into the handle, leaves src empty, and
// ends the handle's old hold: oneDAL's move assignment b = std::move(a),
// written b.Move(&a). No count changes on src's block. Copies of src still
// borrow the hold, now through the handle. When the handle already shares
// src's hold, it takes src's elements and mutability and keeps the hold.
// a.Move(&a) does nothing.
//
// It returns an error wrapping ErrReleased, and leaves both unchanged, when
// src was released; otherwise the error of the old hold's release (see
// Release).
func (a *Array[T]) Move(src *Array[T]) error {
	if src == a {
		return nil
	}
	if src.st().l.dead() {
		return fmt.Errorf("dal: Move from an array of %s: %w", typeName[T](), ErrReleased)
	}
	n := *src
	*src = Array[T]{}
	return a.replace(n)
}

// ResetCount gives the handle a new mutable block of n elements whose
// contents are unspecified, as Empty, with a new hold, and ends its old
// hold, as Reset does. The block is always new, even when n is not larger
// than Count. On an error (options that conflict, an allocation that
// fails) the handle is unchanged.
func (a *Array[T]) ResetCount(n int, opts ...Option) error {
	cfg, err := makeConfig("ResetCount", n, opts)
	if err != nil {
		return err
	}
	n2, err := allocate[T]("ResetCount", n, cfg, false)
	if err != nil {
		return err
	}
	return a.replace(n2)
}

// ResetWithDeleter gives the handle the caller's memory data, immutable, as
// WrapWithDeleter, with a new hold, and ends its old hold, as Reset does.
func (a *Array[T]) ResetWithDeleter(data []T, deleter func()) error {
	return a.replace(wrap(data, false, deleter))
}

// ResetMutableWithDeleter is ResetWithDeleter for memory the array may
// write.
func (a *Array[T]) ResetMutableWithDeleter(data []T, deleter func()) error {
	return a.replace(wrap(data, true, deleter))
}

// ResetAlias makes the handle an immutable view of data that shares the
// ownership of owner's block, whatever owner's element type, as oneDAL's
// reset(ref, data, count): the handle counts as a holder of owner's block,
// so the block outlives it. data should lie in memory that owner's block
// keeps valid, typically part of it. An empty owner (the zero Array, or one
// after Reset) has no block to share: the handle then refers to data without
// owning it, as Wrap (WrapMutable for ResetAliasMutable) makes it, since
// oneDAL's reset with an empty ref aliases an empty shared_ptr, which owns
// nothing (array_impl::reset(const array_impl<Y>& ref, const T* data,
// count): data_owned_ = cshared(ref.get_cshared(), data)). The handle ends
// its old hold, as Reset does. It returns an error, and leaves the handle
// unchanged, when owner is released (wrapping ErrReleased) or lives where
// the host cannot access it (kokkos.ErrNotHostAccessible).
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
		return a.replace(wrap(data, mutable, nil))
	case !rec.Space().HostAccessible():
		return errorf(kokkos.ErrNotHostAccessible, "dal: ResetAlias with an owner in %s, which the host cannot access", rec.Space().Name())
	}
	rec.Retain()
	n := len(data)
	if data == nil {
		data = []T{}
	}
	return a.replace(Array[T]{s: &state{l: newHold(rec), rec: rec, count: n, mutable: mutable}, data: data[:n:n]})
}

// NeedMutableData makes sure this handle has mutable data. On a mutable or
// empty array it does nothing. Otherwise it allocates a new block in the
// same memory space, copies the elements into it with kokkos.DeepCopy (a
// space the host cannot access, such as GPU memory, copies them within the
// space through its backend.CopySpace methods), and moves the handle's
// hold to the new block, mutable: as oneDAL's need_mutable_data, the hold
// gives up its count on the original block at once, so the original's
// UseCount drops by one, and the release that drops its last holder (its
// deleter, or its space's free) runs now if this hold was the last. Other
// holds on the original block (Share, Slice, views, ...) keep it, still
// immutable.
//
// The hold is shared by the handle's borrowed copies (b := a), so this
// moves it for them too: a copy still on the original block is released
// (its methods report ErrReleased), and Release through any of them
// releases the new block. To make a private mutable copy while the
// original stays readable, take a hold of its own first (c := a.Share();
// c.NeedMutableData()), as oneDAL's copy constructor does, or use Clone.
//
// It returns an error, and leaves the handle unchanged, for a released
// handle (wrapping ErrReleased, also when a borrowed copy moved the hold
// first), when the space cannot allocate or copy, and when the host cannot
// access the space and the space does not implement backend.CopySpace
// (wrapping kokkos.ErrNoCopySpace). The error of the original block's
// release, if any (a space's free), is returned after the move.
func (a *Array[T]) NeedMutableData() error {
	const op = "NeedMutableData"
	if err := a.checkLive(op); err != nil || a.s == nil || a.s.mutable || a.s.count == 0 {
		return err
	}
	c, err := a.mutableCopy(op)
	if err != nil {
		return err
	}
	to, ok, err := a.s.l.h.move(a.s.l, c.s.rec)
	if !ok {
		// A copy released the hold, or moved it, meanwhile, from another
		// goroutine.
		_ = c.s.rec.Release()
		return releasedError(op, typeName[T]())
	}
	*a = Array[T]{s: &state{l: to, rec: c.s.rec, count: c.s.count, mutable: true}, data: c.data}
	if err != nil {
		return fmt.Errorf("dal: %s of an array of %s: the release of the original block: %w", op, typeName[T](), err)
	}
	return nil
}

// Clone returns a new mutable array, with a hold of its own, on a new block
// of a's memory space that holds a copy of a's elements, made as
// NeedMutableData makes it; a is unchanged. Clone of the empty array is the
// empty array. Release the result when done.
//
// It returns the errors of NeedMutableData: one wrapping ErrReleased for a
// released handle, and the space's errors.
func (a Array[T]) Clone() (Array[T], error) {
	if err := a.checkLive("Clone"); err != nil || a.s == nil {
		return Array[T]{}, err
	}
	return a.mutableCopy("Clone")
}

// mutableCopy returns a mutable handle, with a hold of its own, on a new
// block of a's space that holds a copy of a's elements; op names the
// caller in errors.
func (a Array[T]) mutableCopy(op string) (Array[T], error) {
	s := a.Space()
	fail := func(err error) (Array[T], error) {
		return Array[T]{}, fmt.Errorf("dal: %s of an array of %s in %s: %w", op, typeName[T](), s.Name(), err)
	}
	if a.noHost() && lacksCopySpace(s) {
		return fail(errorf(kokkos.ErrNoCopySpace, "%s, so the elements cannot be copied", noCopySpace))
	}
	c, err := allocate[T](op, a.st().count, config{space: s, label: a.st().rec.Label()}, false)
	if err != nil {
		return Array[T]{}, err
	}
	if err := copyElements(c, a); err != nil {
		return fail(errors.Join(err, c.st().rec.Release()))
	}
	return c, nil
}

// copyElements copies the elements of src into dst, a handle on the whole
// of a new block of as many elements in the same space, with
// kokkos.DeepCopy over rank-1 views.
func copyElements[T any](dst, src Array[T]) error {
	size := sizeOf[T]()
	switch {
	case src.s.count == 0 || size == 0:
		return nil
	case src.data != nil:
		// Host memory: the handle's slice is its elements (an alias's
		// slice need not lie at off in its owner's block).
		dv, err := kokkos.ViewOnAllocation1(dst.s.rec, 0, dst.s.count, dst.data)
		if err != nil {
			return err
		}
		sv, err := kokkos.WrapView1(src.data, src.s.count)
		if err != nil {
			return errors.Join(err, dv.Release())
		}
		return errors.Join(kokkos.DeepCopy(dv, sv), dv.Release())
	case src.s.off%size == 0:
		return copyBlock[T](dst.s.rec, src.s.rec, src.s.off/size, src.s.count)
	default:
		// A Cast from a smaller type can start inside an element of T
		// (which then holds no Go pointers): copy the bytes.
		return copyBlock[byte](dst.s.rec, src.s.rec, src.s.off, src.s.count*size)
	}
}

// copyBlock copies the n elements of type E that start off elements into
// the block of src to the start of the block of dst, with kokkos.DeepCopy
// over rank-1 views of the blocks, which the host cannot access.
func copyBlock[E any](dst, src *kokkos.Allocation, off, n int) (err error) {
	dv, err := kokkos.ViewOnAllocation1[E](dst, 0, n, nil)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, dv.Release()) }()
	sv, err := kokkos.ViewOnAllocation1[E](src, off, n, nil)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, sv.Release()) }()
	return kokkos.DeepCopy(dv, sv)
}

// DiscardMutableData makes this handle hold its elements read-only; the
// block, and the other handles on it, copies included, are unchanged.
// It panics, with an error wrapping ErrReleased, for a released handle.
func (a *Array[T]) DiscardMutableData() {
	a.panicIfReleased("DiscardMutableData")
	if a.s != nil && a.s.mutable {
		s := *a.s
		s.mutable = false
		a.s = &s
	}
}

// Slice returns a new handle on the elements [first, last) of a, without
// copying, with a's mutability; it takes a new hold on the block, so the
// block outlives a if a is released first. Release it when done. It returns
// an error wrapping ErrRange unless 0 <= first <= last <= Count, and one
// wrapping ErrReleased for a released handle.
func (a Array[T]) Slice(first, last int) (Array[T], error) {
	if err := a.checkLive("Slice"); err != nil {
		return Array[T]{}, err
	}
	if n := a.st().count; first < 0 || first > last || last > n {
		return Array[T]{}, errorf(ErrRange, "dal: Slice(%d, %d) of an array of %d elements: need 0 <= first <= last <= %d", first, last, n, n)
	}
	if a.s == nil {
		return Array[T]{}, nil
	}
	var data []T
	if a.data != nil {
		data = a.data[first:last:last]
	}
	return a.derive(data, last-first, a.s.off+first*sizeOf[T](), a.s.mutable), nil
}

// Cast returns a new handle that reinterprets a's elements as elements of
// type U, without copying, with a's mutability; it takes a new hold on the
// block. It returns an error wrapping ErrCast when the byte size of a is not
// a multiple of U's size, when a's first element is not aligned for U, when
// T or U holds Go pointers (unless T and U are the same type: identical
// types, not merely types of the same name) and when either has size
// zero, and one wrapping ErrReleased for a released handle.
func Cast[U, T any](a Array[T]) (Array[U], error) {
	if err := a.checkLive("Cast"); err != nil {
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
	case reflect.TypeFor[T]() != reflect.TypeFor[U]() && (hasPointersOf[T]() || hasPointersOf[U]()):
		// Types are compared by identity: two distinct types may print
		// the same name (function-local types, or types of two packages
		// of one name) and lay out their pointers differently.
		return fail("element types holding Go pointers cannot be reinterpreted as another type (%s and %s are distinct types)", tn, un)
	}
	if a.s == nil {
		return Array[U]{}, nil
	}
	bytes := a.s.count * ts
	if bytes%us != 0 {
		return fail("%d bytes are not a multiple of %s's %d bytes", bytes, un, us)
	}
	addr := a.Addr()
	if a.data != nil && a.s.count > 0 {
		addr = uintptr(unsafe.Pointer(&a.data[0]))
	}
	if addr%uintptr(alignOf[U]()) != 0 {
		return fail("its first element at %#x is not aligned to %s's %d bytes", addr, un, alignOf[U]())
	}
	n := bytes / us
	var data []U
	switch {
	case a.data == nil:
	case n == 0:
		data = []U{}
	default:
		data = unsafe.Slice((*U)(unsafe.Pointer(&a.data[0])), n)
	}
	a.s.rec.Retain()
	return Array[U]{s: &state{l: newHold(a.s.rec), rec: a.s.rec, count: n, off: a.s.off, mutable: a.s.mutable}, data: data}, nil
}

func hasPointersOf[T any]() bool { return typeinfo.HasPointers(reflect.TypeFor[T]()) }
