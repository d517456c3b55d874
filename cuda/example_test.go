package cuda_test

import (
	"testing"

	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
)

func TestLeakCheckHelper(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	b, err := cuda.Space.Allocate("checked", 256, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := cuda.Fill(b.Addr, 4, 0x01020304, 64); err != nil {
		t.Fatal(err)
	}
	if err := b.Free(); err != nil {
		t.Fatal(err)
	}
}
