package gonum

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/errkind"
)

// errorf returns an error of kind kind (a sentinel) whose message is
// "gonum: op of view "label" with extents [...]: " and the text.
func errorf(kind error, op string, s kokkos.Shape, format string, a ...any) error {
	return errkind.Errorf(kind, "gonum: %s of view %q with extents %v and strides %v: %s",
		op, s.Label, s.Extents, s.Strides, fmt.Sprintf(format, a...))
}

// checkShared returns the error that refuses to share the memory of the
// view described by s with gonum, or nil where it may be shared; copy says
// whether the caller asked for a copy, which only needs host access.
func checkShared(op string, s kokkos.Shape, copy bool) error {
	if s.Allocation != nil && s.Allocation.Released() {
		return errorf(kokkos.ErrReleased, op, s, "the view's allocation had its final Release")
	}
	if !s.Space.HostAccessible() {
		return errorf(kokkos.ErrNotHostAccessible, op, s,
			"the view is in %s, which the host cannot access: mirror it first (kokkos.CreateMirrorViewAndCopy) and convert the mirror", s.Space.Name())
	}
	if copy {
		return nil
	}
	if s.ReadOnly {
		return errorf(kokkos.ErrReadOnly, op, s,
			"gonum has no read-only matrix and may write through any matrix it is given: copy the view (CopyDense, CopyVecDense) instead")
	}
	if s.Traits&kokkos.Atomic != 0 {
		return errorf(ErrAtomic, op, s, "gonum would load and store its elements without atomics: copy it (CopyDense, CopyVecDense)")
	}
	for _, e := range s.Extents {
		if e == 0 {
			return errorf(kokkos.ErrShape, op, s, "gonum has no matrix or vector with a zero dimension")
		}
	}
	return nil
}
