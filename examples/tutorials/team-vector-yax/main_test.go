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

// randomViews returns y, A and x of e matrices n×m with random values,
// and the sum of y_e^T*A_e*x_e computed by plain loops.
func randomViews(rng *rand.Rand, e, n, m int) (y kokkos.View2[float64], a kokkos.View3[float64], x kokkos.View2[float64], want float64) {
	y, _ = kokkos.NewView2[float64]("y", e, n)
	x, _ = kokkos.NewView2[float64]("x", e, m)
	a, _ = kokkos.NewView3[float64]("A", e, n, m)
	for k := range e {
		for i := range m {
			x.Set(k, i, rng.Float64()-0.5)
		}
		for j := range n {
			y.Set(k, j, rng.Float64()-0.5)
			s := 0.0
			for i := range m {
				a.Set(k, j, i, rng.Float64()-0.5)
				s += a.At(k, j, i) * x.At(k, i)
			}
			want += y.At(k, j) * s
		}
	}
	return y, a, x, want
}

// TestYAxTeam runs the team form on random data against plain loops.
func TestYAxTeam(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, sz := range [][3]int{{1, 1, 1}, {3, 7, 5}, {5, 11, 37}} {
		y, a, x, want := randomViews(rng, sz[0], sz[1], sz[2])
		got, err := yaxTeam(tut.Place{Mem: kokkos.HostSpace}, y, a, x)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-12*float64(sz[0]*sz[1]*sz[2]) {
			t.Errorf("%v: %v, want %v", sz, got, want)
		}
	}
}

// TestRun checks the printed result and the JSON line.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	if err := run(&b, tut.Place{Mem: kokkos.HostSpace}, 4, 16, 8, 2); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{"Computed result for 16 x 8 x 4 is 512.000000", `{"name":"` + name + `","unit":"s","value":`} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "Error") {
		t.Errorf("output reports an error:\n%s", out)
	}
}

// TestRunCUDA compares the team kernel YAxTeamVector (teams of Auto size, vector
// length 32) on a GPU with the host's and plain loops', on random data,
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
	rng := rand.New(rand.NewPCG(51, 51+1))
	in := kokkos.InSpace(place.Mem)
	for _, sz := range [][3]int{{1, 1, 1}, {3, 7, 5}, {9, 33, 100}, {4, 300, 64}, {2, 5, 2000}} {
		e, n, m := sz[0], sz[1], sz[2]
		y, a, x, want := randomViews(rng, e, n, m)
		h, err := yaxTeam(tut.Place{Mem: kokkos.HostSpace}, y, a, x)
		if err != nil {
			t.Fatal(err)
		}
		dy := kokkos.Must(kokkos.CreateMirrorViewAndCopy(y, in))
		da := kokkos.Must(kokkos.CreateMirrorViewAndCopy(a, in))
		dx := kokkos.Must(kokkos.CreateMirrorViewAndCopy(x, in))
		d, err := yaxTeam(place, dy, da, dx)
		dy.Release()
		da.Release()
		dx.Release()
		if err != nil {
			t.Fatal(err)
		}
		if tol := 1e-12 * float64(e*n*m); math.Abs(d-want) > tol || math.Abs(h-want) > tol {
			t.Errorf("%d×%d×%d: y^T*A*x is %v on the GPU, %v on the host, %v by plain loops", e, n, m, d, h, want)
		}
	}
	var b bytes.Buffer
	if err := run(&b, place, 8, 64, 32, 2); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "is 16384.000000") || strings.Contains(out, "Error") {
		t.Errorf("output:\n%s", out)
	}
}
