package kokkos

import (
	"testing"

	"github.com/gokkos/kokkos/backend"
)

// NewCheckedSpaceForTest wraps a test space in a backendtest.CheckedSpace
// that fails t at its end on every block not freed by then. Package
// kokkos's own tests cannot import backendtest, which imports kokkos: the
// external test package sets it (checked_ext_test.go).
var NewCheckedSpaceForTest func(t testing.TB, s backend.BlockSpace) backend.BlockSpace

// checked returns s wrapped in a backendtest.CheckedSpace that fails t at
// its end on every block not freed by then. Allocate in the result: it
// copies through s, and views report it as their space.
func checked(t testing.TB, s backend.BlockSpace) backend.BlockSpace {
	t.Helper()
	return NewCheckedSpaceForTest(t, s)
}

// release drops the creator's hold on v's allocation.
func release[T any](t testing.TB, v View[T]) {
	t.Helper()
	d := v.viewDesc()
	if err := d.rec.Release(); err != nil {
		t.Error(err)
	}
}
