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
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// TestHelpers checks the kernel helpers against the XorShift64 port.
func TestHelpers(t *testing.T) {
	for i, s := range PoolStates(99, 50) {
		g := NewXorShift64(s).Next()
		if got := xorshift(s); got != g.State {
			t.Fatalf("state %d: xorshift %d, XorShift64.Next %d", i, got, g.State)
		}
		if got := unit(g.State); got != g.Drand() || got < 0 || got > 1 {
			t.Fatalf("state %d: unit %v, Drand %v", i, got, g.Drand())
		}
		if indexState(uint64(s), i) == 0 {
			t.Fatalf("indexState(%d, %d) is 0", s, i)
		}
	}
}

// TestDarts counts the hits of Darts over a range against a plain loop of
// the same generators.
func TestDarts(t *testing.T) {
	const n, groups, rad = 1000, 7, 0.8
	var want int64
	for i := range n {
		g := XorShift64{indexState(seed, i)}
		for range groups {
			g = g.Next()
			x := g.Drand()
			g = g.Next()
			y := g.Drand()
			if x*x+y*y <= rad*rad {
				want++
			}
		}
	}
	got, err := kernel.Reduce("darts", kokkos.Range(0, n), kokkos.Sum[int64](), Darts, uint64(seed), groups, rad)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("Darts counts %d hits, the plain loop %d", got, want)
	}
}

// TestRun checks the estimate and the JSON line.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	pi, err := run(&b, tut.Place{Mem: kokkos.HostSpace}, 1<<18, 4)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pi-math.Pi) > 0.01 {
		t.Errorf("pi estimate %v", pi)
	}
	for _, s := range []string{"darts = 262144  hits = ", `{"name":"mc-pi","unit":"s","value":`} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, b.String())
		}
	}
}

// TestRunCUDA compares the GPU's hits with the host's.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	h, err := countHits(tut.Place{Mem: kokkos.HostSpace}, seed, 1<<16, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	d, err := countHits(place, seed, 1<<16, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if rngForm == "XorShift64 per index" && d != h {
		t.Errorf("GPU %d hits, host %d", d, h)
	}
}
