package main

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/kernel"
)

// TestEmptyGoKernel checks kEmptyGo, the Go kernel of cudalaunch's launch
// row, on the host and through the device path on backendtest's fake
// device: with n 0, as the row launches it, it leaves the view as it was;
// with n k, it zeroes the first k elements and nothing else.
func TestEmptyGoKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const size = 37
	fake := backendtest.FakeDevice(false)
	for _, w := range []struct {
		name  string
		space kokkos.ExecutionSpace
		mem   kokkos.MemorySpace
	}{{"host", nil, kokkos.HostSpace}, {"fake", fake.Executor(), fake}} {
		for _, n := range []int{0, 1, 20, size} {
			src, err := kokkos.NewView1[float64]("src", size)
			if err != nil {
				t.Fatal(err)
			}
			for i := range size {
				src.Set(i, 1+rng.Float64())
			}
			x, err := kokkos.NewView1[float64]("x", size, kokkos.InSpace(w.mem))
			if err != nil {
				t.Fatal(err)
			}
			if err := kokkos.DeepCopy(x, src); err != nil {
				t.Fatal(err)
			}
			if err := kernel.For("empty go", kokkos.Range(0, size).On(w.space), kEmptyGo, x, n); err != nil {
				t.Fatalf("%s n %d: %v", w.name, n, err)
			}
			got, err := kokkos.CreateMirrorViewAndCopy(x)
			if err != nil {
				t.Fatal(err)
			}
			for i := range size {
				want := src.At(i)
				if i < n {
					want = 0
				}
				if got.At(i) != want {
					t.Fatalf("%s n %d: x(%d) = %v, want %v", w.name, n, i, got.At(i), want)
				}
			}
			x.Release()
		}
	}
}
