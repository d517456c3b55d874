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

// stepRef is one step of the body over plain slices: for each cell, the
// conduction from each neighbour inside the body, P on the x = 0 face and
// radiation from each face the cell lies on; then the sum of T, and T
// advanced by dt*dT.
func stepRef(T [][][]float64, q, sigma, P, dt float64) (sum float64) {
	nx, ny, nz := len(T), len(T[0]), len(T[0][0])
	dT := make([][][]float64, nx)
	for x := range nx {
		dT[x] = make([][]float64, ny)
		for y := range ny {
			dT[x][y] = make([]float64, nz)
			for z := range nz {
				t, d, faces := T[x][y][z], 0.0, 0
				for _, o := range [][3]int{{-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}} {
					a, b, c := x+o[0], y+o[1], z+o[2]
					if a < 0 || b < 0 || c < 0 || a >= nx || b >= ny || c >= nz {
						faces++
						continue
					}
					d += q * (T[a][b][c] - t)
				}
				if x == 0 {
					d += P
				}
				if faces > 0 {
					d -= sigma * t * t * t * t * float64(faces)
				}
				dT[x][y][z] = d
			}
		}
	}
	for x := range nx {
		for y := range ny {
			for z := range nz {
				sum += T[x][y][z]
				T[x][y][z] += dt * dT[x][y][z]
			}
		}
	}
	return sum
}

// TestStep runs the kernels of two steps on a random body against stepRef.
func TestStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	const nx, ny, nz = 5, 6, 7
	q, sigma, P, dt := 0.5+rng.Float64(), 0.1+rng.Float64(), rng.Float64(), 0.01+0.05*rng.Float64()
	ref := make([][][]float64, nx)
	s := system{X: nx, Y: ny, Z: nz, q: q, sigma: sigma, P: P, dt: dt}
	s.T, _ = kokkos.NewView3[float64]("T", nx, ny, nz)
	s.dT, _ = kokkos.NewView3[float64]("dT", nx, ny, nz)
	for x := range nx {
		ref[x] = make([][]float64, ny)
		for y := range ny {
			ref[x][y] = make([]float64, nz)
			for z := range nz {
				ref[x][y][z] = rng.Float64()
				s.T.Set(x, y, z, ref[x][y][z])
				s.dT.Set(x, y, z, math.NaN()) // each cell's dT must be written
			}
		}
	}
	for step := range 2 {
		want := stepRef(ref, q, sigma, P, dt)
		got := stepKernels(t, &s)
		if math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("step %d: sum of T %v, want %v", step, got, want)
		}
		for x := range nx {
			for y := range ny {
				for z := range nz {
					if g, w := s.T.At(x, y, z), ref[x][y][z]; math.Abs(g-w) > 1e-12*math.Max(1, math.Abs(w)) {
						t.Fatalf("step %d: T(%d, %d, %d) = %v, want %v", step, x, y, z, g, w)
					}
				}
			}
		}
	}
}

// stepKernels runs one step of the kernels on the host, as run does.
func stepKernels(t *testing.T, s *system) float64 {
	t.Helper()
	if err := kernel.For("inner", kokkos.MDRange([]int{1, 1, 1}, []int{s.X - 1, s.Y - 1, s.Z - 1}), InnerDT, s.T, s.dT, s.q); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		side   int
		lo, hi []int
	}{
		{left, []int{0, 0}, []int{s.Y, s.Z}}, {right, []int{0, 0}, []int{s.Y, s.Z}},
		{down, []int{1, 0}, []int{s.X - 1, s.Z}}, {up, []int{1, 0}, []int{s.X - 1, s.Z}},
		{front, []int{1, 1}, []int{s.X - 1, s.Y - 1}}, {back, []int{1, 1}, []int{s.X - 1, s.Y - 1}},
	} {
		if err := kernel.For("surface", kokkos.MDRange(f.lo, f.hi), SurfaceDT, s.T, s.dT, f.side, s.q, s.sigma, s.P); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := kernel.Reduce("T", kokkos.MDRange([]int{0, 0, 0}, []int{s.X, s.Y, s.Z}), kokkos.Sum[float64](), ComputeT, s.T, s.dT, s.dt)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestRun checks the printed steps and the JSON line.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	s := system{X: 6, Y: 5, Z: 4, N: 10, I: 5, dt: 0.1, q: 1, sigma: 1, P: 1}
	if _, err := s.run(&b, tut.Place{Mem: kokkos.HostSpace}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, p := range []string{"0 T=0.000000 Time (", "\n5 T=", "\n10 T=", `{"name":"heat3d","unit":"s","value":`} {
		if !strings.Contains(out, p) {
			t.Errorf("output lacks %q:\n%s", p, out)
		}
	}
}

// TestRunCUDA compares the GPU's sum of T with the host's after a few
// steps.
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
	s := system{X: 20, Y: 17, Z: 13, N: 20, I: 10, dt: 0.1, q: 1, sigma: 1, P: 1}
	h := s
	want, err := h.run(&b, tut.Place{Mem: kokkos.HostSpace})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.run(&b, place)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-want) > 1e-9*math.Abs(want) {
		t.Errorf("GPU sum of T %v, host %v", got, want)
	}
}
