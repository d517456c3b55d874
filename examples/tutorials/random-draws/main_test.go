package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
	"github.com/gokkos/kokkos/random"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// TestDrawsSerial: with one state, the kernel's sum is that of the
// state's first draws, up to the order of the additions (the reduction
// adds in blocks).
func TestDrawsSerial(t *testing.T) {
	const n, draws = 3000, 7
	pool := kokkos.Must(random.NewXorShift64PoolSize(kokkos.Serial{}, seed, 1))
	got, err := kernel.Reduce("draws", kokkos.Range(0, n).On(kokkos.Serial{}), kokkos.Sum[float64](), Draws, pool, draws)
	if err != nil {
		t.Fatal(err)
	}
	g := kokkos.Must(random.NewXorShift64PoolSize(kokkos.Serial{}, seed, 1)).GetStateAt(0)
	want := 0.0
	for range n * draws {
		want += g.Drand()
	}
	if math.Abs(got-want) > 1e-9 {
		t.Errorf("sum %v, the state's draws %v", got, want)
	}
}

// TestRun checks the means and the JSON lines on the host.
func TestRun(t *testing.T) {
	testRun(t, tut.Place{Mem: kokkos.HostSpace})
}

// TestRunCUDA runs the program on a GPU.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	testRun(t, place)
}

func testRun(t *testing.T, place tut.Place) {
	t.Helper()
	var b bytes.Buffer
	mean, fillMean, err := run(&b, place, 1<<14, 8)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(mean-0.5) > 0.01 || math.Abs(fillMean-0.5) > 0.01 {
		t.Errorf("means %v and %v, want about 0.5:\n%s", mean, fillMean, b.String())
	}
	for _, s := range []string{"indices = 16384  draws = 131072  mean = ", `{"name":"random-draws","unit":"s","value":`, `{"name":"random-draws.fill","unit":"s","value":`} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, b.String())
		}
	}
}
