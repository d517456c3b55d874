package kokkos_test

import (
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

func init() {
	kokkos.NewCheckedSpaceForTest = func(t testing.TB, s kokkos.BlockSpace) kokkos.BlockSpace {
		cs := backendtest.NewCheckedSpace(s)
		t.Cleanup(func() { cs.AssertNoLeaks(t) })
		return cs
	}
}
