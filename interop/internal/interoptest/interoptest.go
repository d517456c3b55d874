// Package interoptest holds what the interop packages' tests share.
package interoptest

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
)

// DeviceView returns a 3×4 float64 view in CUDA device memory holding the
// elements of a host view of random numbers, and that host view; it skips
// the test where there is no CUDA device. The device view is released when
// the test ends.
func DeviceView(t *testing.T) (dev, host kokkos.View2[float64]) {
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

// Mirror returns a host mirror of d holding its elements.
func Mirror(t *testing.T, d kokkos.View2[float64]) kokkos.View2[float64] {
	t.Helper()
	m, err := kokkos.CreateMirrorViewAndCopy(d)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
