package mpi

import (
	"errors"
	"fmt"

	"github.com/gokkos/kokkos/internal/errkind"
)

// Sentinel errors. Every error the package returns wraps at most one of
// these, so that a caller can test the kind of failure with errors.Is while
// the message names the call, the sizes and the ranks involved.
var (
	// ErrNoLibrary: no MPI library could be loaded, or the one loaded is
	// neither Open MPI nor MPICH. Install one, or set GOKKOS_MPI_LIB.
	ErrNoLibrary = errors.New("mpi: no MPI library")
	// ErrNotInitialized: a call before Init, or after Finalize.
	ErrNotInitialized = errors.New("mpi: not initialized")
	// ErrTruncate: a message larger than the view that receives it; make
	// the view as large as the message (the error names both sizes).
	ErrTruncate = errors.New("mpi: message truncated")
	// ErrType: a message whose size is not a whole number of the
	// receiving view's elements (another element type was sent), an
	// element type that the operation cannot take (a reduction of a type
	// without an MPI datatype, elements that hold Go pointers), or a view
	// with the Atomic trait, whose elements MPI would read and write
	// without atomics.
	ErrType = errors.New("mpi: element type mismatch")
	// ErrShape: views whose sizes do not fit the collective (a Gather
	// whose receiving view is not Size() times the sending one, ...).
	ErrShape = errors.New("mpi: shape mismatch")
	// ErrMPI: the MPI library returned an error; the message names the
	// call and gives the library's error string.
	ErrMPI = errors.New("mpi: MPI call failed")
	// ErrDropped: a request became unreachable before it completed (see
	// SetDropHandler); keep every request until Wait, Test or WaitAll
	// says it is done.
	ErrDropped = errors.New("mpi: request dropped before it completed")
	// ErrLauncher: the MPI library loaded does not belong to the launcher
	// that started the process (GOKKOS_MPI_LIB names the other
	// implementation's library), so each process would run alone.
	ErrLauncher = errors.New("mpi: library does not match the launcher")
)

// Error is a failed MPI call. errors.Is(err, ErrMPI) holds for it, and
// errors.Is(err, ErrTruncate) where the library reported a truncation.
type Error struct {
	Call   string // the MPI function, such as "MPI_Recv"
	Code   int    // the error code it returned
	Class  int    // its error class (MPI_Error_class), such as MPI_ERR_TRUNCATE
	Msg    string // the library's MPI_Error_string for the code
	Detail string // what the package was doing: sizes, ranks, tags
}

func (e *Error) Error() string {
	s := "mpi: " + e.Call
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return fmt.Sprintf("%s: error %d: %s", s, e.Code, e.Msg)
}

// Is reports whether target is ErrMPI, or ErrTruncate for a truncation.
func (e *Error) Is(target error) bool {
	if target == ErrMPI {
		return true
	}
	return target == ErrTruncate && lib != nil && e.Class == lib.errTruncate
}

func errorf(kind error, format string, a ...any) error { return errkind.Errorf(kind, format, a...) }
