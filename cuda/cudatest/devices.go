package cudatest

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gokkos/kokkos/cuda"
)

// RequireDevices returns devices 0 to n-1, or skips the test, with a
// reason that begins "CUDA unavailable", when CUDA cannot be used or the
// driver reports fewer than n devices.
func RequireDevices(t testing.TB, n int) []*cuda.Device {
	t.Helper()
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	count, err := cuda.DeviceCount()
	if err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	if count < n {
		t.Skip(needDevices(n, count))
	}
	devs := make([]*cuda.Device, n)
	for i := range devs {
		if devs[i], err = cuda.GetDevice(i); err != nil {
			t.Skipf("CUDA unavailable: device %d: %v", i, err)
		}
	}
	return devs
}

// needDevices is RequireDevices' reason for skipping.
func needDevices(n, count int) string {
	return fmt.Sprintf("CUDA unavailable: this test needs %d devices, the driver reports %d", n, count)
}

// CheckLeaksOn is CheckLeaks for the blocks of the devices given (every
// device when none is given): it fails the test for each live block of
// those devices, and for every block dropped without Free, each report
// naming the block's device, label, space, size and allocation site.
func CheckLeaksOn(t testing.TB, ordinals ...int) {
	t.Helper()
	for _, a := range LiveOn(ordinals...) {
		t.Errorf("cuda leak on device %d: live block %s", a.Device, a)
	}
	reportLeaked(t)
}

// LeakCheckOn is LeakCheck for the blocks of the devices given (every
// device when none is given): the blocks of those devices allocated
// during the test and still live at its end are reported, each with its
// device.
func LeakCheckOn(t testing.TB, ordinals ...int) {
	t.Helper()
	before := map[uintptr]bool{}
	for _, a := range cuda.LiveAllocations() {
		before[a.Addr] = true
	}
	t.Cleanup(func() {
		for _, a := range LiveOn(ordinals...) {
			if !before[a.Addr] {
				t.Errorf("cuda leak on device %d: live block %s", a.Device, a)
			}
		}
		reportLeaked(t)
	})
}

// LiveOn returns the live blocks of the devices given (every device when
// none is given), ordered by address.
func LiveOn(ordinals ...int) []cuda.Allocation {
	var out []cuda.Allocation
	for _, a := range cuda.LiveAllocations() {
		if len(ordinals) == 0 || slices.Contains(ordinals, a.Device) {
			out = append(out, a)
		}
	}
	return out
}
