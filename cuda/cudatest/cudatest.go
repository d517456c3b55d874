// Package cudatest helps tests that use package cuda: it skips where no
// CUDA driver is present and reports blocks left unreleased.
package cudatest

import (
	"testing"

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
// and for every block the garbage collector's cleanup had to free because
// its holders dropped it without Free. Each report names the block's
// label, space, size and allocation site.
func CheckLeaks(t testing.TB) {
	t.Helper()
	for _, a := range cuda.LiveAllocations() {
		t.Errorf("cuda leak: live block %s", a)
	}
	for _, a := range cuda.TakeCollected() {
		t.Errorf("cuda leak: block %s was dropped without Free (freed by the garbage collector)", a)
	}
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
		for _, a := range cuda.TakeCollected() {
			t.Errorf("cuda leak: block %s was dropped without Free (freed by the garbage collector)", a)
		}
	})
}
