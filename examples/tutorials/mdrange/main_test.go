package main

import (
	"bytes"
	"math"
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

// TestYAx runs YAx on random data against a plain loop.
func TestYAx(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sz := range [][2]int{{1, 1}, {7, 5}, {33, 19}} {
		n, m := sz[0], sz[1]
		y, _ := kokkos.NewView1[float64]("y", n)
		x, _ := kokkos.NewView1[float64]("x", m)
		a, _ := kokkos.NewView2[float64]("A", n, m)
		want := 0.0
		for i := range m {
			x.Set(i, rng.Float64()-0.5)
		}
		for j := range n {
			y.Set(j, rng.Float64()-0.5)
			s := 0.0
			for i := range m {
				a.Set(j, i, rng.Float64()-0.5)
				s += a.At(j, i) * x.At(i)
			}
			want += y.At(j) * s
		}
		got, err := kernel.Reduce("yAx", kokkos.Range(0, n), kokkos.Sum[float64](), YAx, y, a, x)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-12*float64(n*m) {
			t.Errorf("%d×%d: YAx gives %v, want %v", n, m, got, want)
		}
	}
}

// TestOnes checks that Ones and OnesA set every element of views holding
// random values.
func TestOnes(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	v, _ := kokkos.NewView1[float64]("v", 13)
	a, _ := kokkos.NewView2[float64]("A", 7, 9)
	for i := range 13 {
		v.Set(i, rng.Float64())
	}
	for j := range 7 {
		for i := range 9 {
			a.Set(j, i, rng.Float64())
		}
	}
	if err := kernel.For("ones", kokkos.Range(0, 13), Ones, v); err != nil {
		t.Fatal(err)
	}
	if err := kernel.For("onesA", kokkos.MDRange([]int{0, 0}, []int{7, 9}), OnesA, a); err != nil {
		t.Fatal(err)
	}
	for i := range 13 {
		if v.At(i) != 1 {
			t.Errorf("v(%d) = %v, want 1", i, v.At(i))
		}
	}
	for j := range 7 {
		for i := range 9 {
			if a.At(j, i) != 1 {
				t.Errorf("A(%d, %d) = %v, want 1", j, i, a.At(j, i))
			}
		}
	}
}

// TestRun checks the printed result and the JSON line.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	if err := run(&b, tut.Place{Mem: kokkos.HostSpace}, 16, 8, 2); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{"Computed result for 16 x 8 is 128.000000", `{"name":"mdrange","unit":"s","value":`} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "Error") {
		t.Errorf("output reports an error:\n%s", out)
	}
}

// TestRunCUDA compares the kernel YAx on a GPU with the host's and a plain
// loop's, on random data of both layouts, then runs the program there.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	err = tut.CompareYAx(place, 45, func(place tut.Place, y, x kokkos.View1[float64], a kokkos.View2[float64]) (float64, error) {
		return kernel.Reduce("yAx", kokkos.Range(0, a.Extent(0)).On(place.Space()), kokkos.Sum[float64](), YAx, y.ReadOnly(), a.ReadOnly(), x.ReadOnly())
	})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := run(&b, place, 64, 32, 2); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "is 2048.000000") || strings.Contains(out, "Error") {
		t.Errorf("output:\n%s", out)
	}
}
