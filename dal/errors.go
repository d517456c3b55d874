package dal

import (
	"errors"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/errkind"
)

// Sentinel errors. Every error that the package returns, and every value
// it panics with, is an error that wraps one of these or one of the
// kokkos sentinels named below, so that a caller tests the kind of failure
// with errors.Is while the message names the array, the count and the
// space:
//
//	if _, err := a.MutableData(); errors.Is(err, dal.ErrNoMutableData) {
//		err = a.NeedMutableData()
//	}
//
// Failures that concern the memory space wrap the kokkos sentinels:
// kokkos.ErrNotHostAccessible (the host was asked to touch memory it cannot
// access), kokkos.ErrNoCopySpace (the space cannot allocate, fill or copy
// what was asked) and kokkos.ErrElementType (an element type holding Go
// pointers in memory outside the Go heap). Errors of a space's own calls
// are wrapped too.
var (
	// ErrReleased: the handle, or the hold it borrows, was released; its
	// elements may no longer be used.
	ErrReleased = errors.New("dal: the array was released")
	// ErrReleasedTwice: Release of a handle whose hold was already
	// released, by this handle or by a copy of it.
	ErrReleasedTwice = errors.New("dal: the array was already released")
	// ErrNoMutableData: MutableData of a handle that holds its elements
	// read-only; NeedMutableData gives it a mutable copy.
	ErrNoMutableData = errors.New("dal: array does not contain mutable data")
	// ErrCount: a negative element count, or one whose size in bytes
	// overflows int.
	ErrCount = errors.New("dal: invalid element count")
	// ErrRange: an index or a range outside the elements.
	ErrRange = errors.New("dal: index out of range")
	// ErrCast: the elements cannot be reinterpreted as another type (size,
	// alignment, Go pointers), or a view cannot start where a cast left the
	// array, inside an element.
	ErrCast = errors.New("dal: cannot reinterpret the elements")
	// ErrOption: options that conflict (two InSpace naming different
	// spaces, two WithLabel naming different labels). It wraps
	// kokkos.ErrOption, so errors.Is finds either.
	ErrOption = errkind.Wrap(kokkos.ErrOption, errors.New("dal: option not allowed"))
)

// errorf formats an error of kind kind (a sentinel), as fmt.Errorf does,
// without adding the sentinel's text to the message.
func errorf(kind error, format string, a ...any) error {
	return errkind.Errorf(kind, format, a...)
}
