package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/multigpu/stencil"
)

// TestRunRefuses checks the flags' bounds, on any machine.
func TestRunRefuses(t *testing.T) {
	for _, c := range [][3]int{{2, 10, 1}, {16, 0, 1}, {16, 10, -1}} {
		err := run(&bytes.Buffer{}, c[0], c[1], c[2], true, graphOpt{true, 20})
		if err == nil || !strings.Contains(err.Error(), "want -n of 3 or more") {
			t.Errorf("run(n %d, steps %d, gpus %d): %v", c[0], c[1], c[2], err)
		}
	}
	for _, k := range []int{0, 3, -2} {
		err := run(&bytes.Buffer{}, 16, 10, 1, true, graphOpt{true, k})
		if err == nil || !strings.Contains(err.Error(), "want an even -graph-steps of 2 or more") {
			t.Errorf("-graph-steps %d: %v", k, err)
		}
	}
}

// TestSplitChecksums runs the split on the host for 1 to 4 bands: every
// split has the checksum of one band, and the hot spots have spread.
func TestSplitChecksums(t *testing.T) {
	const n, steps = 48, 30
	var want uint64
	for d := 1; d <= 4; d++ {
		f, err := stencil.SimulateHost(n, d, steps)
		if err != nil {
			t.Fatal(err)
		}
		sum := stencil.Checksum(&f)
		if d == 1 {
			want = sum
			// A point next to the first hot spot's disc has warmed up.
			if i := n/3 + n/8 + 1; !(f.At(i, n/3) > 0) {
				t.Fatalf("(%d, %d) = %v after %d steps, want > 0", i, n/3, f.At(i, n/3), steps)
			}
		} else if sum != want {
			t.Errorf("%d bands: checksum %016x, one band %016x", d, sum, want)
		}
		if i, j := firstDiff(&f, &f); i != 0 || j != 0 {
			t.Errorf("firstDiff of a field with itself: (%d, %d)", i, j)
		}
		f.Release()
	}
}

// TestRun runs the command on the GPUs at a small size: the split field
// must be bit-identical to the one-GPU field.
func TestRun(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	var out bytes.Buffer
	if err := run(&out, 130, 20, 0, true, graphOpt{true, 6}); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	n, _ := cuda.DeviceCount()
	if n > 1 && !strings.Contains(out.String(), "bit-identical to the one-GPU run") {
		t.Fatalf("no comparison in the output:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "graphs of 6 steps (3 launches, 2 steps on the streams)") {
		t.Fatalf("the steps were not replayed as graphs:\n%s", out.String())
	}
	t.Log(out.String())
	out.Reset()
	if err := run(&out, 65, 7, 1, true, graphOpt{}); err != nil {
		t.Fatalf("-gpus 1: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "1 GPU(s), on the streams:") {
		t.Fatalf("-graph=false: the steps not on the streams:\n%s", out.String())
	}
}
