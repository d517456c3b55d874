package main

import (
	"bytes"
	"errors"
	"math/bits"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// TestGlobalIDs checks the GlobalIDs kernel against the bytes of ^i
// reversed.
func TestGlobalIDs(t *testing.T) {
	const n = 1000
	l2g := kokkos.Must(kokkos.NewView1[uint64]("l2g", n))
	if err := kernel.For("l2g", kokkos.Range(0, n), GlobalIDs, l2g); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if want := bits.ReverseBytes64(uint64(int64(^int32(i)))); l2g.At(i) != want {
			t.Fatalf("l2g(%d) = %#x, want %#x", i, l2g.At(i), want)
		}
	}
	if l2g.At(0) != 0xffffffffffffffff || l2g.At(1) != 0xfeffffffffffffff {
		t.Fatalf("l2g(0), l2g(1) = %#x, %#x", l2g.At(0), l2g.At(1))
	}
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(&out, tut.Place{Mem: kokkos.HostSpace}, 50000, 50000, 3); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "Time Insert: 50000 58368 ") || !strings.HasPrefix(lines[1], "Time Find: 50000 58368 ") ||
		!strings.HasPrefix(lines[2], `{"name":"unordered-map.insert","unit":"s","value":`) || !strings.HasPrefix(lines[3], `{"name":"unordered-map.find"`) {
		t.Fatalf("output:\n%s", out.String())
	}
}

// TestRunOverCapacity gives the map room for half the ids: the exercise's
// capacity message.
func TestRunOverCapacity(t *testing.T) {
	var out bytes.Buffer
	err := run(&out, tut.Place{Mem: kokkos.HostSpace}, 20000, 10000, 1)
	if !errors.Is(err, errCapacity) {
		t.Fatalf("run over capacity: %v", err)
	}
}

// TestRunCUDA runs the exercise on a CUDA stream, within and over the
// map's capacity.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	var out bytes.Buffer
	if err := run(&out, place, 1<<20, 1<<20, 3); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.HasPrefix(out.String(), "Time Insert: 1048576 1223424 ") {
		t.Fatalf("output:\n%s", out.String())
	}
	if err := run(&out, place, 20000, 10000, 1); !errors.Is(err, errCapacity) {
		t.Fatalf("run over capacity on the GPU: %v", err)
	}
}
