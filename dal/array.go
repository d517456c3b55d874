package dal

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/gokkos/kokkos"
)

// Array is a handle on a contiguous block of Count elements of type T, held
// read-only (immutable) or read-write (mutable), as oneDAL's array<T>. The
// block's ownership is a kokkos.Allocation whose holder count is shared by
// every handle on the block: shared copies, slices, aliases, casts and
// views.
//
// An Array is a value. Which block the handle reads, where its elements
// start, how many there are and whether it may write them live in the
// value, so a copy (b := a, an argument, a struct field) is a handle of its
// own: DiscardMutableData through b leaves a as it was. What copies share is
// the hold: the one count on the block that the handle was made with, by a
// constructor, Share, Slice, Cast, FromView, a Reset form or Assign.
//
//   - b := a.Share() takes a new hold, as oneDAL's copy constructor does;
//     b.Release() drops it, as the destructor does. Release each hold once.
//   - b := a borrows a's hold: b is valid until the hold is released, or
//     moved to a new block by NeedMutableData through a or b, and is not
//     released itself. Releasing either ends the hold for both, and a
//     second Release returns ErrReleasedTwice.
//   - b.Assign(a) drops b's hold and takes a new one on a's block, as
//     oneDAL's copy assignment b = a does; b.Move(&a) moves a's hold into b
//     and leaves a empty.
//
// See the package documentation for the rules.
//
// The zero Array is empty: no elements, immutable, and it holds nothing.
// Methods that change the handle (Release, the Reset forms, Assign, Move,
// NeedMutableData, DiscardMutableData) take a pointer receiver and change
// only the variable they are called on; the others take a value, so they
// can be called on a function's result.
//
// A variable is not safe for concurrent mutation; handles on the same block,
// copies included, may be shared, sliced and released from any goroutines.
type Array[T any] struct {
	// s is the rest of the handle's state; nil for the empty array. A
	// state is never changed once an Array refers to it, so copies may
	// share it: a method that changes the handle gives the variable a new
	// one. Keeping the value to two fields, within four words, lets the
	// compiler keep it in registers where At is inlined.
	s    *state
	data []T // host elements; nil when empty or the host cannot access them
}

// state is the state of a handle besides its host elements.
type state struct {
	// l is the lease of the hold on the block of the elements, shared
	// with the copies of the handle; nil only for the empty array before
	// its Release.
	l *lease
	// rec is the block that the elements lie in, one of h's blocks; nil
	// for an empty handle whose Release was called.
	rec *kokkos.Allocation
	// off is the distance in bytes from the block's first byte to
	// element 0; it locates the elements where the host has no slice.
	off     int
	count   int
	mutable bool
}

// zeroState is the state of the empty array. It is never changed.
var zeroState state

// st returns a's state, zeroState for the empty array.
func (a Array[T]) st() *state {
	if a.s == nil {
		return &zeroState
	}
	return a.s
}

// Owner is implemented by every Array[T], whatever T: it is the owner
// argument of ResetAlias, which shares the owner's block.
type Owner interface {
	ownership() (*kokkos.Allocation, bool)
}

// ownership returns the block of a's elements and whether a's hold was
// released.
func (a Array[T]) ownership() (*kokkos.Allocation, bool) { return a.st().rec, a.st().l.dead() }

func sizeOf[T any]() int { var z T; return int(unsafe.Sizeof(z)) }

func alignOf[T any]() int { var z T; return int(unsafe.Alignof(z)) }

func typeName[T any]() string { return reflect.TypeFor[T]().String() }

// panicIfReleased panics with an error wrapping ErrReleased if a's hold
// was released: op names the caller in the message.
func (a Array[T]) panicIfReleased(op string) {
	if a.st().l.dead() {
		panic(errorf(ErrReleased, "dal: %s of an array of %s that was released", op, typeName[T]()))
	}
}

// checkLive returns an error wrapping ErrReleased if a's hold was released.
func (a Array[T]) checkLive(op string) error {
	if a.st().l.dead() {
		return releasedError(op, typeName[T]())
	}
	return nil
}

// noHost reports whether a has elements that the host cannot access.
func (a Array[T]) noHost() bool { return a.st().count > 0 && a.data == nil }

func noHostError(op string, s kokkos.MemorySpace) error {
	return errorf(kokkos.ErrNotHostAccessible, "dal: %s of an array in %s, which the host cannot access: copy it to a host array first", op, s.Name())
}

// releasedError is the error of operation op on a released handle of an
// array of elements named elem.
func releasedError(op, elem string) error {
	return fmt.Errorf("dal: %s of an array of %s: %w", op, elem, ErrReleased)
}

// Count returns the number of elements; it is 0 for the empty and for a
// released handle.
func (a Array[T]) Count() int {
	if a.st().l.dead() {
		return 0
	}
	return a.st().count
}

// Size returns the size of the elements in bytes: Count times the size of T.
func (a Array[T]) Size() int { return a.Count() * sizeOf[T]() }

// HasMutableData reports whether this handle may write its elements, that
// is, whether MutableData succeeds. It is false for the empty and for a
// released handle.
func (a Array[T]) HasMutableData() bool { return a.st().mutable && !a.st().l.dead() }

// Released reports whether the hold of this handle was released, through
// this variable or through a copy of it (and no Reset form, Assign or Move
// gave the variable a new one since).
func (a Array[T]) Released() bool { return a.st().l.dead() }

// Data returns the elements for reading, as a slice of the block itself,
// without copying; it is nil for the empty array. It costs nothing and
// never fails for memory the host can access.
//
// Go slices have no read-only form, so the slice is writable even when the
// handle holds its elements read-only: writing through it then breaks the
// array's contract (the memory may be a caller's constant table, or shared
// by other handles) and dal cannot detect it. Write through MutableData;
// read with At, or with Data where code takes a []T; take a private copy
// with slices.Clone(a.Data()) or Clone. The slice is valid until the hold
// is released.
//
// Data panics, with an error wrapping ErrReleased, for a released handle,
// and with one wrapping kokkos.ErrNotHostAccessible for an array in a space
// the host cannot access (such as GPU memory).
func (a Array[T]) Data() []T {
	a.panicIfReleased("Data")
	if a.noHost() {
		panic(noHostError("Data", a.Space()))
	}
	return a.data
}

// MutableData returns the elements for reading and writing, as a slice of
// the block itself. It returns an error wrapping ErrNoMutableData when the
// handle holds its data read-only (call NeedMutableData first), one
// wrapping ErrReleased for a released handle, and one wrapping
// kokkos.ErrNotHostAccessible for an array in a space the host cannot
// access.
func (a Array[T]) MutableData() ([]T, error) {
	switch {
	case a.st().l.dead():
		return nil, releasedError("MutableData", typeName[T]())
	case !a.st().mutable:
		return nil, ErrNoMutableData
	case a.noHost():
		return nil, noHostError("MutableData", a.Space())
	}
	return a.data, nil
}

// At returns element i. It panics with an error wrapping ErrRange, naming i
// and the count, unless 0 <= i < Count, and panics like Data for a
// released handle or memory the host cannot access. At inlines to the
// bounds check, a load of the released flag and the load (BenchmarkAt
// measures a loop of At against a slice loop).
func (a Array[T]) At(i int) T {
	// A handle whose elements the host cannot access has a nil slice, so
	// the length check catches it too; atError sorts out which. A non-nil
	// slice comes with a state and a hold.
	if uint(i) < uint(len(a.data)) && !a.s.l.released.Load() {
		return a.data[i]
	}
	// A composite literal, not a call, keeps At within the inlining budget.
	panic(&atError[T]{a, i})
}

// atError is the panic value of a failed At: an error wrapping ErrRange,
// ErrReleased or kokkos.ErrNotHostAccessible. The message is made when it
// is printed.
type atError[T any] struct {
	a Array[T]
	i int
}

func (e *atError[T]) Error() string { return e.err().Error() }
func (e *atError[T]) Unwrap() error { return e.err() }

func (e *atError[T]) err() error {
	a := e.a
	switch {
	case a.st().l.dead():
		return errorf(ErrReleased, "dal: At of an array of %s that was released", typeName[T]())
	case uint(e.i) >= uint(a.st().count):
		return errorf(ErrRange, "dal: index %d out of range for an array of %d elements", e.i, a.st().count)
	}
	return noHostError("At", a.Space())
}

// Space returns the memory space of the elements; HostSpace for the empty
// array.
func (a Array[T]) Space() kokkos.MemorySpace { return a.st().rec.Space() }

// Addr returns the address of element 0 in the array's memory space, for
// memory outside the Go heap (a backend.BlockSpace, such as GPU memory); it
// is 0 for Go memory and for the empty array.
func (a Array[T]) Addr() uintptr {
	if a.st().rec.Addr() == 0 {
		return 0
	}
	return a.st().rec.Addr() + uintptr(a.st().off)
}

// UseCount returns the number of holders of the block of this handle's
// elements: the holds of handles, the views and any other holders
// registered on its kokkos.Allocation. Borrowed copies are not holders. It
// is 0 for the empty array, for a released handle and for a block of a
// view that does not count holders (kokkos.WrapView1).
func (a Array[T]) UseCount() int {
	if a.st().l.dead() {
		return 0
	}
	return a.st().rec.UseCount()
}

// Allocation returns the record that owns the block of this handle's
// elements, shared by every handle on it; nil for the empty array.
func (a Array[T]) Allocation() *kokkos.Allocation { return a.st().rec }
