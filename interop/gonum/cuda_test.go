package gonum

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
)

// deviceView returns a 3×4 float64 view in CUDA device memory holding the
// elements of a host view of random numbers, and that host view; it skips
// the test where there is no CUDA device.
func deviceView(t *testing.T) (kokkos.View2[float64], kokkos.View2[float64]) {
	t.Helper()
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	h := kokkos.Must(kokkos.NewView2[float64]("host", 3, 4))
	for i := range 3 {
		for j := range 4 {
			h.Set(i, j, rng.NormFloat64())
		}
	}
	d, err := kokkos.NewView2[float64]("dev", 3, 4, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Release() })
	if err := kokkos.DeepCopy(d, h); err != nil {
		t.Fatal(err)
	}
	return d, h
}

// mirror returns a host mirror of d holding its elements.
func mirror(t *testing.T, d kokkos.View2[float64]) kokkos.View2[float64] {
	t.Helper()
	m, err := kokkos.CreateMirrorViewAndCopy(d)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestCUDA: a device view is refused with the advice to mirror it, and its
// mirror converts.
func TestCUDA(t *testing.T) {
	d, h := deviceView(t)
	for name, err := range map[string]error{
		"Dense":     second(Dense(d)),
		"Transpose": second(Transpose(d)),
		"CopyDense": second(CopyDense(d)),
	} {
		if !errors.Is(err, kokkos.ErrNotHostAccessible) {
			t.Errorf("%s of a device view: %v", name, err)
		}
	}
	m := mirror(t, d)
	md, err := Dense(m)
	if err != nil {
		t.Fatal(err)
	}
	sameElements(t, md, h)
}
