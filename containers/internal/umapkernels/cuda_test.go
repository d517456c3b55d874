package umapkernels

import (
	"testing"

	"github.com/gokkos/kokkos/cuda"
)

// TestKernelsCUDA runs the kernels on a CUDA stream over maps in
// cuda.Space, with inserts racing for the same keys and lists: the maps
// must hold what the host's would, as entries (their indices depend on
// the order of the inserts).
func TestKernelsCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	deviceKernels(t, device{s, cuda.Space}, false)
	deviceCount(t, device{s, cuda.Space})
	deviceErase(t, device{s, cuda.Space})
}
