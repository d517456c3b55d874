package dal

import (
	"fmt"
	"reflect"
	"sync/atomic"
	"unsafe"

	"github.com/gokkos/kokkos"
)

// Array is a handle on a contiguous block of Count elements of type T, held
// read-only (immutable) or read-write (mutable), as oneDAL's array<T>. The
// block's ownership is a kokkos.Allocation whose holder count is shared by
// every handle on the block: shared copies, slices, aliases, casts and
// views.
//
// An Array value refers to its handle. Assigning it (b := a) or passing it
// to a function does not count a holder: both variables are the same
// handle, and Release, Reset and NeedMutableData through either act on
// both. Share makes a new handle that counts one holder, as oneDAL's copy
// constructor does. See the package documentation for the rules.
//
// The zero Array is empty: no elements, immutable, and it holds nothing.
// Methods that change what the handle holds or how (Release, the Reset
// forms, NeedMutableData, DiscardMutableData) take a pointer receiver, so
// that they can give the zero Array a handle; the others take a value, so
// they can be called on a function's result.
//
// A handle is not safe for concurrent mutation; distinct handles on the
// same block may be shared, sliced and released from any goroutines.
type Array[T any] struct {
	h *handle[T]
}

// handle is the state of one holder of a block.
type handle[T any] struct {
	data    []T // host elements; nil when empty or the host cannot access them
	count   int
	mutable bool
	rec     *kokkos.Allocation // nil for an empty handle, which holds nothing
	// off is the distance in bytes from the block's first byte to
	// element 0; it locates the elements where the host has no slice.
	off      int
	released atomic.Bool
}

// Owner is implemented by every Array[T], whatever T: it is the owner
// argument of ResetAlias, which shares the owner's block.
type Owner interface {
	ownership() (*kokkos.Allocation, bool)
}

// ownership returns the handle's allocation and whether the handle was
// released.
func (a Array[T]) ownership() (*kokkos.Allocation, bool) {
	if a.h == nil {
		return nil, false
	}
	return a.h.rec, a.h.released.Load()
}

func sizeOf[T any]() int { var z T; return int(unsafe.Sizeof(z)) }

func alignOf[T any]() int { var z T; return int(unsafe.Alignof(z)) }

func typeName[T any]() string { return reflect.TypeFor[T]().String() }

// live returns a's handle, or nil for the zero Array. It panics if the
// handle was released: op names the caller in the message.
func (a Array[T]) live(op string) *handle[T] {
	h := a.h
	if h != nil && h.released.Load() {
		panic(errorf(ErrReleased, "dal: %s of an array of %s that was released", op, typeName[T]()))
	}
	return h
}

// liveErr is live for operations that report errors.
func (a Array[T]) liveErr(op string) (*handle[T], error) {
	h := a.h
	if h != nil && h.released.Load() {
		return nil, releasedError(op, typeName[T]())
	}
	return h, nil
}

// space returns the memory space of h's block; the empty handle is in
// HostSpace.
func (h *handle[T]) space() kokkos.MemorySpace {
	if h == nil || h.rec == nil {
		return kokkos.HostSpace
	}
	return h.rec.Space()
}

// noHost reports whether h has elements that the host cannot access.
func (h *handle[T]) noHost() bool {
	return h != nil && h.count > 0 && h.data == nil
}

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
	if a.h == nil || a.h.released.Load() {
		return 0
	}
	return a.h.count
}

// Size returns the size of the elements in bytes: Count times the size of T.
func (a Array[T]) Size() int { return a.Count() * sizeOf[T]() }

// HasMutableData reports whether this handle may write its elements, that
// is, whether MutableData succeeds. It is false for the empty and for a
// released handle.
func (a Array[T]) HasMutableData() bool {
	h := a.h
	return h != nil && !h.released.Load() && h.mutable
}

// Released reports whether Release was called on this handle (and no Reset
// since).
func (a Array[T]) Released() bool { return a.h != nil && a.h.released.Load() }

// Data returns the elements for reading, as a slice sharing the block; it
// is nil for the empty array. It costs nothing and never fails for memory
// the host can access. Go slices have no read-only form: writing through
// the result of an array that has no mutable data breaks the array's
// contract (the memory may be a caller's constant table, shared by other
// handles); use MutableData to write. Data panics for a released handle and
// for an array in a space the host cannot access (such as GPU memory).
func (a Array[T]) Data() []T {
	h := a.live("Data")
	if h.noHost() {
		panic(noHostError("Data", h.space()))
	}
	if h == nil {
		return nil
	}
	return h.data
}

// MutableData returns the elements for reading and writing, as a slice
// sharing the block. It returns ErrNoMutableData when the handle holds its
// data read-only (call NeedMutableData first), an error wrapping
// ErrReleased for a released handle, and an error for an array in a space
// the host cannot access.
func (a Array[T]) MutableData() ([]T, error) {
	h, err := a.liveErr("MutableData")
	switch {
	case err != nil:
		return nil, err
	case h == nil || !h.mutable:
		return nil, ErrNoMutableData
	case h.noHost():
		return nil, noHostError("MutableData", h.space())
	}
	return h.data, nil
}

// At returns element i. It panics, naming i and the count, unless
// 0 <= i < Count, and panics like Data for a released handle or memory the
// host cannot access. At inlines to the bounds check and the load
// (BenchmarkAt measures a loop of At against a slice loop).
func (a Array[T]) At(i int) T {
	// A released handle, and one whose elements the host cannot access,
	// has a nil slice, so the length check catches them too; atError
	// sorts out which.
	if h := a.h; h != nil && uint(i) < uint(len(h.data)) {
		return h.data[i]
	}
	// A composite literal, not a call, keeps At within the inlining budget;
	// the message is made when it is printed.
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
	h := e.a.h
	if h != nil && h.released.Load() {
		return errorf(ErrReleased, "dal: At of an array of %s that was released", typeName[T]())
	}
	n := 0
	if h != nil {
		n = h.count
	}
	if uint(e.i) >= uint(n) {
		return errorf(ErrRange, "dal: index %d out of range for an array of %d elements", e.i, n)
	}
	return noHostError("At", h.space())
}

// Space returns the memory space of the elements; HostSpace for the empty
// array.
func (a Array[T]) Space() kokkos.MemorySpace { return a.h.space() }

// Addr returns the address of element 0 in the array's memory space, for
// memory outside the Go heap (a kokkos.BlockSpace, such as GPU memory); it
// is 0 for Go memory and for the empty array.
func (a Array[T]) Addr() uintptr {
	h := a.h
	if h == nil || h.rec == nil || h.rec.Addr() == 0 {
		return 0
	}
	return h.rec.Addr() + uintptr(h.off)
}

// UseCount returns the number of holders of the block: the handles, views
// and any other holders registered on its kokkos.Allocation. It is 0 for
// the empty array, for a released handle and for a block of a view that
// does not count holders (kokkos.WrapView1).
func (a Array[T]) UseCount() int {
	h := a.h
	if h == nil || h.released.Load() {
		return 0
	}
	return h.rec.UseCount()
}

// Allocation returns the record that owns the block, shared by every
// handle on it; nil for the empty array.
func (a Array[T]) Allocation() *kokkos.Allocation {
	if a.h == nil {
		return nil
	}
	return a.h.rec
}
