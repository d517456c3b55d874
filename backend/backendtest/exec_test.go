package backendtest_test

import (
	"testing"

	"github.com/gokkos/kokkos/backend/backendtest"
)

// TestFakeExecutor runs the Launcher contract suite on the fake device:
// every pattern against naive loops on random data, and the refusals.
func TestFakeExecutor(t *testing.T) {
	for _, host := range []bool{false, true} {
		t.Run(map[bool]string{false: "device", true: "host-accessible"}[host], func(t *testing.T) {
			f := backendtest.FakeDevice(host)
			ex := f.Executor()
			backendtest.TestLauncher(t, ex, f)
			if ex.Launches() < 6 {
				t.Errorf("%d launches, want the suite's at least 6", ex.Launches())
			}
		})
	}
}

// TestFakeTeams runs the team kernels' suite on the fake device.
func TestFakeTeams(t *testing.T) {
	for _, host := range []bool{false, true} {
		t.Run(map[bool]string{false: "device", true: "host-accessible"}[host], func(t *testing.T) {
			f := backendtest.FakeDevice(host)
			backendtest.TestTeamLauncher(t, f.Executor(), f)
		})
	}
}
