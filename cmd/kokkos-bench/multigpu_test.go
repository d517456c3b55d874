package main

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/cuda"
)

// TestMultiGPUSuite runs the multigpu suite at a tiny size on the GPUs;
// without a driver it checks that the suite fails with the driver's error,
// as the other cuda suites do.
func TestMultiGPUSuite(t *testing.T) {
	cfg := config{reps: 3, scale: 1.0 / 4096, space: "cuda"}
	var progress, log bytes.Buffer
	multigpuLog = &log
	defer func() { multigpuLog = os.Stderr }()
	ms, err := runSuites(cfg, "multigpu", &progress)
	if cerr := cuda.Available(); cerr != nil {
		if err == nil || !strings.Contains(err.Error(), "suite multigpu") || errors.Is(cerr, cuda.ErrNoDriver) && !errors.Is(err, cuda.ErrNoDriver) {
			t.Fatalf("without CUDA: %v, want the driver's error %v", err, cerr)
		}
		t.Skipf("CUDA unavailable: %v", cerr)
	}
	if err != nil {
		t.Fatal(err)
	}
	n, _ := cuda.DeviceCount()
	want := 1 + min(n/2, 1) + min(n/4, 1) // the stencil on 1, 2, 4 GPUs
	if n >= 2 {
		want++ // the peer copy
	}
	ms = slices.DeleteFunc(ms, func(m measure) bool { return m.Suite == "control" })
	if len(ms) != want {
		t.Fatalf("%d measures on %d devices, want %d: %+v", len(ms), n, want, ms)
	}
	for _, m := range ms {
		if m.Value <= 0 {
			t.Errorf("%s: value %v", m.Name, m.Value)
		}
	}
	for _, m := range ms {
		if strings.Contains(m.Name, "rank") {
			t.Errorf("not under mpirun, a row of examples/heat-mpi: %+v", m)
		}
	}
	if !strings.Contains(log.String(), "not under mpirun: for the rows of examples/heat-mpi on 1, 2 and 4 ranks, run mpirun -np 4 kokkos-bench -space cuda -suite multigpu") {
		t.Errorf("no line says how to get the rows of examples/heat-mpi:\n%s", log.String())
	}
	if n < 4 && !strings.Contains(log.String(), "left out") {
		t.Errorf("no line says what was left out on %d devices:\n%s", n, log.String())
	}
}
