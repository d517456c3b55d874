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
)

// TestYAxTeam runs the team form on random data against a plain loop.
func TestYAxTeam(t *testing.T) {
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
		got, err := yaxTeam(tut.Place{Mem: kokkos.HostSpace}, y, a, x)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-12*float64(n*m) {
			t.Errorf("%d×%d: YAx gives %v, want %v", n, m, got, want)
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
	for _, s := range []string{"Computed result for 16 x 8 is 128.000000", `{"name":"team-yax","unit":"s","value":`} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "Error") {
		t.Errorf("output reports an error:\n%s", out)
	}
}

// TestRunCUDA compares the team kernel YAxTeam (teams of Auto size) on a
// GPU with the host's and a plain loop's, on random data of both layouts,
// then runs the program there.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	err = tut.CompareYAx(place, 47, func(place tut.Place, y, x kokkos.View1[float64], a kokkos.View2[float64]) (float64, error) {
		return yaxTeam(place, y, a, x)
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
