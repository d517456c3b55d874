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

// TestRunCUDA scans random sub-ranges of views holding random values on
// a GPU and compares the views and totals with the host's scans of the
// same and a plain loop's products, then runs the program there.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	rng := rand.New(rand.NewPCG(55, 56))
	for c := range 12 {
		n := 1 + rng.IntN(3000)
		if c == 0 {
			n = 1 << 17
		}
		lo := rng.IntN(n) * (c % 2)
		hi := lo + rng.IntN(n-lo+1)
		if c == 0 {
			hi = n
		}
		out, _ := kokkos.NewView1[float64]("out", n)
		old := make([]float64, n)
		for i := range n {
			old[i] = rng.Float64()
			out.Set(i, old[i])
		}
		dout, err := kokkos.CreateMirrorViewAndCopy(out, kokkos.InSpace(place.Mem))
		if err != nil {
			t.Fatal(err)
		}
		dtotal, err := kernel.Scan("factorial", kokkos.Range(lo, hi).On(place.Space()), kokkos.Prod[float64](), Factorial, dout)
		if err != nil {
			t.Fatal(err)
		}
		got, err := kokkos.CreateMirrorViewAndCopy(dout)
		dout.Release()
		if err != nil {
			t.Fatal(err)
		}
		htotal, err := kernel.Scan("factorial", kokkos.Range(lo, hi), kokkos.Prod[float64](), Factorial, out)
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
			if !close(got.At(i), out.At(i)) || !close(got.At(i), want) {
				t.Fatalf("range [%d, %d) of %d: out(%d) = %v on the GPU, %v on the host, want %v", lo, hi, n, i, got.At(i), out.At(i), want)
			}
		}
		if !close(dtotal, htotal) || !close(dtotal, ref) {
			t.Errorf("range [%d, %d): total %v on the GPU, %v on the host, want %v", lo, hi, dtotal, htotal, ref)
		}
	}
	var b bytes.Buffer
	if err := run(&b, place, 100000, 2); err != nil {
		t.Fatal(err, b.String())
	}
}
