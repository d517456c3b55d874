package cudatest

import (
	"fmt"
	"strings"
	"testing"
)

// TestNeedDevicesSaysCUDAUnavailable checks the skip reason that the CI
// summary counts: it must contain "CUDA unavailable".
func TestNeedDevicesSaysCUDAUnavailable(t *testing.T) {
	got := needDevices(2, 1)
	for _, want := range []string{"CUDA unavailable", "needs 2 devices", "reports 1"} {
		if !strings.Contains(got, want) {
			t.Errorf("needDevices(2, 1) = %q, want it to contain %q", got, want)
		}
	}
}

// skipTB records the reason of a Skip and stops the caller.
type skipTB struct {
	testing.TB
	reason string
}

type skipped struct{}

func (s *skipTB) Helper() {}

func (s *skipTB) Skip(args ...any) { s.reason = fmt.Sprint(args...); panic(skipped{}) }

func (s *skipTB) Skipf(format string, args ...any) {
	s.reason = fmt.Sprintf(format, args...)
	panic(skipped{})
}

// TestRequireDevicesSkips asks for more devices than any machine has and
// checks that RequireDevices skips with "CUDA unavailable", here (no
// driver) and on a GPU machine alike.
func TestRequireDevicesSkips(t *testing.T) {
	s := &skipTB{TB: t}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(skipped); !ok {
					panic(r)
				}
			}
		}()
		RequireDevices(s, 1<<20)
		t.Error("RequireDevices(1<<20) returned")
	}()
	if !strings.HasPrefix(s.reason, "CUDA unavailable") {
		t.Errorf("skip reason %q does not begin with \"CUDA unavailable\"", s.reason)
	}
}
