package arrow

import (
	"errors"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/errkind"
)

// Sentinel errors. Every error the package returns wraps one of these or
// one of package kokkos's (ErrNotHostAccessible, ErrElementType, ErrLayout,
// ErrShape, ErrReadOnly, ErrReleased) or dal's (ErrReleased), so that a
// caller can test the kind with errors.Is while the message names the
// types, lengths and view involved and what to do.
var (
	// ErrType: the Arrow array's type is not the element type asked for
	// (or not a primitive, fixed-size-list or tensor type at all).
	ErrType = errors.New("arrow: element type mismatch")
	// ErrNulls: the Arrow array has null slots and the caller did not ask
	// to fill them (FillNulls).
	ErrNulls = errors.New("arrow: array has nulls")
	// ErrOption: an option that the call cannot apply (FillNulls of
	// another element type, FillNulls for a buffer, which has no nulls)
	// or options that conflict (Writable with FillNulls, two WithLabel or
	// two FillNulls that differ). It wraps kokkos.ErrOption, so errors.Is
	// finds either.
	ErrOption = errkind.Wrap(kokkos.ErrOption, errors.New("arrow: option not allowed"))
)

func errorf(kind error, format string, a ...any) error {
	return errkind.Errorf(kind, format, a...)
}

// wrapKind returns err, with its message unchanged, as an error of kind
// kind too.
func wrapKind(kind, err error) error { return errkind.Wrap(kind, err) }
