package kokkos_test

import (
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

func init() {
	kokkos.NewCheckedSpaceForTest = func(t testing.TB, s backend.BlockSpace) backend.BlockSpace {
		cs := backendtest.NewCheckedSpace(s)
		t.Cleanup(func() { cs.AssertNoLeaks(t) })
		return cs
	}
}
