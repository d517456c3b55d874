package tools_test

import (
	"bytes"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/tools"
)

// goroutineLabels returns the goroutine profile, which lists each
// goroutine's pprof labels.
func goroutineLabels() string {
	var b bytes.Buffer
	pprof.Lookup("goroutine").WriteTo(&b, 1)
	return b.String()
}

// TestLabelKernels checks that a goroutine running a kernel's body
// carries the kernel's pprof label, and that none is left afterwards.
func TestLabelKernels(t *testing.T) {
	tools.LabelKernels(true)
	defer tools.LabelKernels(false)
	var inside string
	kokkos.ParallelForChunks("labelled", kokkos.Range(0, 2).On(kokkos.Serial{}), func(lo, hi int) {
		if lo == 0 {
			inside = goroutineLabels()
		}
	})
	if !strings.Contains(inside, `"kokkos.kernel":"labelled"`) {
		t.Fatalf("no kernel label in the goroutine profile taken in the body:\n%s", inside)
	}
	kokkos.ParallelFor("pool", kokkos.Range(0, 100000), func(int) {})
	if after := goroutineLabels(); strings.Contains(after, "kokkos.kernel") {
		t.Fatalf("kernel labels left after the kernels:\n%s", after)
	}
}
