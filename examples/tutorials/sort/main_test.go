package main

import (
	"bytes"
	"fmt"
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

// splitmix is the keys of the C++ program, computed by a plain loop.
func splitmix(i int) float64 {
	z := uint64(i) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

func TestKeys(t *testing.T) {
	v := kokkos.Must(kokkos.NewView1[float64]("v", 5000))
	if err := kernel.For("keys", kokkos.Range(0, 5000), Keys, v); err != nil {
		t.Fatal(err)
	}
	for i := range 5000 {
		if v.At(i) != splitmix(i) || v.At(i) < 0 || v.At(i) >= 1 {
			t.Fatalf("key %d is %v, want %v", i, v.At(i), splitmix(i))
		}
	}
}

// TestRun checks the output: the first key of 2^12 is their least, and
// the checksum the sum of their bits.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	if err := run(&b, tut.Place{Mem: kokkos.HostSpace}, 1<<12, 2); err != nil {
		t.Fatal(err)
	}
	least, sum := math.Inf(1), uint64(0)
	for i := range 1 << 12 {
		least = min(least, splitmix(i))
		sum += math.Float64bits(splitmix(i))
	}
	out := b.String()
	for _, s := range []string{"first " + fmtG(least) + " ", " checksum " + fmtU(sum) + "\n", "Time Sort: 4096 2 ", `{"name":"sort","unit":"s","value":`} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// TestRunCUDA runs the program on a GPU and compares its keys' line with
// the host's.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	for _, n := range []int{1 << 10, 1<<20 + 3} {
		var host, dev bytes.Buffer
		if err := run(&host, tut.Place{Mem: kokkos.HostSpace}, n, 1); err != nil {
			t.Fatal(err)
		}
		if err := run(&dev, place, n, 2); err != nil {
			t.Fatal(err)
		}
		first := func(s string) string { return s[:strings.Index(s, "\n")] }
		if first(host.String()) != first(dev.String()) {
			t.Errorf("n %d: host %q, GPU %q", n, first(host.String()), first(dev.String()))
		}
	}
}

func fmtG(x float64) string { return strings.TrimSpace(fmt.Sprintf("%.17g", x)) }
func fmtU(x uint64) string  { return fmt.Sprintf("%d", x) }
