package main

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// TestFactorial scans over random sub-ranges of a view holding random
// values: the indices scanned get the products of the indices i+1 before
// them in the range, the others keep their values.
func TestFactorial(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for range 20 {
		n := 1 + rng.IntN(300)
		lo := rng.IntN(n)
		hi := lo + rng.IntN(n-lo+1)
		out, _ := kokkos.NewView1[float64]("out", n)
		old := make([]float64, n)
		for i := range n {
			old[i] = rng.Float64()
			out.Set(i, old[i])
		}
		total, err := kernel.Scan("factorial", kokkos.Range(lo, hi), kokkos.Prod[float64](), Factorial, out)
		if err != nil {
			t.Fatal(err)
		}
		ref := 1.0
		for i := range n {
			want := old[i]
			if i >= lo && i < hi {
				want = ref
				ref *= float64(i + 1)
			}
			if !close(out.At(i), want) {
				t.Fatalf("range [%d, %d) of %d: out(%d) = %v, want %v", lo, hi, n, i, out.At(i), want)
			}
		}
		if !close(total, ref) {
			t.Errorf("range [%d, %d): total %v, want %v", lo, hi, total, ref)
		}
	}
}

// TestRun checks the printed factorials and the JSON line.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	if err := run(&b, tut.Place{Mem: kokkos.HostSpace}, 10, 2); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{"9: 362880 should be 362880\n", `{"name":"parallel-scan","unit":"s","value":`} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// TestRunCUDA runs the scan on a GPU.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	var b bytes.Buffer
	if err := run(&b, place, 100000, 2); err != nil {
		t.Fatal(err, b.String())
	}
}
