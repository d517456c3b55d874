// Package cudatest helps tests that use package cuda: it skips where no
// CUDA driver is present and reports blocks left unreleased.
//
// Two checks agree on what a leak is, a block allocated and never freed:
// CheckLeaks and LeakCheck read package cuda's registry of every block it
// allocated (views, staging buffers, direct Allocate calls), and Checked
// wraps one space in a backendtest.CheckedSpace, which records the blocks
// of that space alone with the stacks that allocated them. CheckLeaksOn and
// LeakCheckOn check the blocks of the devices named, and RequireDevices
// skips a test that needs more devices than the machine has.
package cudatest

import (
	"testing"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/cuda"
)

// RequireDevice returns device 0, or skips the test with the reason CUDA
// cannot be used (such as the places searched for the driver).
func RequireDevice(t testing.TB) *cuda.Device {
	t.Helper()
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	dev, err := cuda.GetDevice(0)
	if err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	return dev
}

// CheckLeaks fails the test for every block of package cuda still live,
// and for every block whose holders all dropped it without Free (such a
// block is leaked: never freed). Each report names the block's label,
// space, size and allocation site.
func CheckLeaks(t testing.TB) {
	t.Helper()
	for _, a := range cuda.LiveAllocations() {
		t.Errorf("cuda leak: live block %s", a)
	}
	reportLeaked(t)
}

// LeakCheck arranges for the blocks allocated during the test and still
// live at its end to be reported as CheckLeaks does. Blocks live before
// the call are ignored.
func LeakCheck(t testing.TB) {
	t.Helper()
	before := map[uintptr]bool{}
	for _, a := range cuda.LiveAllocations() {
		before[a.Addr] = true
	}
	t.Cleanup(func() {
		for _, a := range cuda.LiveAllocations() {
			if !before[a.Addr] {
				t.Errorf("cuda leak: live block %s", a)
			}
		}
		reportLeaked(t)
	})
}

func reportLeaked(t testing.TB) {
	t.Helper()
	for _, a := range cuda.TakeLeaked() {
		t.Errorf("cuda leak: block %s was dropped without Free (never freed)", a)
	}
}

// Checked returns s wrapped in a backendtest.CheckedSpace and arranges for
// the blocks allocated in it and not freed by the end of the test to fail
// the test, each with the stack that allocated it. Allocate views in the
// result (kokkos.InSpace(cs)): it copies and fills through s.
func Checked(t testing.TB, s backend.BlockSpace) backendtest.CheckedSpace {
	t.Helper()
	cs := backendtest.NewCheckedSpace(s)
	t.Cleanup(func() { cs.AssertNoLeaks(t) })
	return cs
}
