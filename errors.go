package kokkos

import (
	"errors"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/errkind"
	"github.com/gokkos/kokkos/internal/errs"
)

// Sentinel errors. Every error the package returns wraps at most one of
// these, so that a caller can test the kind of failure with errors.Is while
// the message names the views, extents and spaces involved:
//
//	if err := kokkos.DeepCopy(dst, src); errors.Is(err, kokkos.ErrShape) {
//		// reallocate dst with src's extents and retry
//	}
var (
	// ErrShape: extents, rank or a layout spec do not fit the operation
	// (unequal extents in a copy, a negative extent, extents whose size
	// overflows, a rank above MaxRank, a spec of another rank).
	ErrShape = errors.New("kokkos: shape mismatch")
	// ErrLayout: strides or a layout conversion break the layout's rules
	// (overlapping or negative strides, AsLayout to a layout the strides
	// are not).
	ErrLayout = errors.New("kokkos: invalid layout")
	// ErrReadOnly: a write (DeepCopy, Fill, Resize) into a read-only view.
	ErrReadOnly = errors.New("kokkos: view is read-only")
	// ErrReleased: the view's allocation had its final Release.
	ErrReleased = backend.ErrReleased
	// ErrUnmanaged: the operation needs an allocation the package owns, and
	// the view wraps caller memory.
	ErrUnmanaged = errors.New("kokkos: view is unmanaged")
	// ErrOverlap: the source and destination of a copy share memory.
	ErrOverlap = errors.New("kokkos: views overlap")
	// ErrNotHostAccessible: the host was asked to touch memory it cannot
	// access; make a host mirror with CreateMirrorView and DeepCopy into it.
	ErrNotHostAccessible = errors.New("kokkos: memory not accessible from the host")
	// ErrNoCopySpace: a memory space cannot allocate, copy or fill what was
	// asked of it (it implements neither host memory nor the interface the
	// operation needs).
	ErrNoCopySpace = errors.New("kokkos: memory space cannot do this")
	// ErrElementType: the element type cannot be used as asked (it holds Go
	// pointers and the memory lies outside the Go heap, or the Atomic trait
	// cannot update it atomically).
	ErrElementType = errors.New("kokkos: element type not allowed")
	// ErrWouldDeadlock: a call that waits for an execution-space instance
	// was made from work running on that same instance, where waiting could
	// never end.
	ErrWouldDeadlock = errs.ErrWouldDeadlock
	// ErrOption: an option that the call does not take (a label, padding,
	// a layout or traits for a mirror, whose properties follow from its
	// source).
	ErrOption = errors.New("kokkos: option not allowed")
	// ErrPartition: PartitionSpace cannot split the execution space by the
	// weights given (none, a weight that is not a positive finite number,
	// or more instances than the space has workers).
	ErrPartition = errors.New("kokkos: invalid partition")
	// ErrHostOnly: a Go closure was given to a pattern on an execution
	// space that is not a host space (a device stream); the pattern panics
	// with it. Write the body as a //kokkos:kernel function and launch it
	// with package kernel, which runs it on host and device instances.
	ErrHostOnly = errors.New("kokkos: Go closures run on host execution spaces only")
)

// errorf formats an error of kind kind (a sentinel), as fmt.Errorf does,
// without adding the sentinel's text to the message.
func errorf(kind error, format string, a ...any) error {
	return errkind.Errorf(kind, format, a...)
}
