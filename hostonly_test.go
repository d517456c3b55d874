package kokkos

import (
	"errors"
	"strings"
	"testing"
)

// TestClosureOnDeviceSpace checks that every pattern given a Go closure
// and a policy on an execution space that is not a host space panics
// with an error wrapping ErrHostOnly, naming the pattern, its label and
// the kernel launch that runs there, and runs no index.
func TestClosureOnDeviceSpace(t *testing.T) {
	dev := parFakeSpace{}
	ran := false
	for _, c := range []struct {
		pattern string
		f       func()
	}{
		{"ParallelFor", func() { ParallelFor("gpu", Range(0, 4).On(dev), func(int) { ran = true }) }},
		{"ParallelForChunks", func() { ParallelForChunks("gpu", Range(0, 4).On(dev), func(int, int) { ran = true }) }},
		{"ParallelReduce", func() {
			ParallelReduce("gpu", Range(0, 4).On(dev), Sum[int](), func(i int, acc *int) { ran = true })
		}},
		{"ParallelScan", func() {
			ParallelScan("gpu", Range(0, 4).On(dev), Sum[int](), func(i int, acc *int, final bool) { ran = true })
		}},
		{"ParallelForTeam", func() { ParallelForTeam("gpu", Teams(2, 1).On(dev), func(*TeamMember) { ran = true }) }},
	} {
		r := catchPanic(c.f)
		err, ok := r.(error)
		if !ok || !errors.Is(err, ErrHostOnly) {
			t.Errorf("%s: panic %v, want an error wrapping ErrHostOnly", c.pattern, r)
			continue
		}
		for _, want := range []string{c.pattern, `"gpu"`, "Fake", "kernel.For"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q does not say %q", c.pattern, err, want)
			}
		}
	}
	if ran {
		t.Error("a body ran on the device space")
	}
}
