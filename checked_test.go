package kokkos

import (
	"testing"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// newFakeSpace returns backendtest's fake device: Go memory that the
// planner must treat as unreachable from the host unless host is set, so
// that the tests check every backend copy path without a GPU.
func newFakeSpace(host bool) *backendtest.Fake { return backendtest.FakeDevice(host) }

// checked returns s wrapped in a backendtest.CheckedSpace that fails t at
// its end on every block not freed by then. Allocate in the result: it
// copies through s, and views report it as their space.
func checked(t testing.TB, s backend.BlockSpace) backend.BlockSpace {
	t.Helper()
	cs := backendtest.NewCheckedSpace(s)
	t.Cleanup(func() { cs.AssertNoLeaks(t) })
	return cs
}

// release drops the creator's hold on v's allocation.
func release[T any](t testing.TB, v View[T]) {
	t.Helper()
	d := v.viewDesc()
	if err := d.rec.Release(); err != nil {
		t.Error(err)
	}
}
