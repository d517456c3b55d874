package containers_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/cuda"
)

// TestDynamicViewCUDA: chunks in device, pinned and unified memory grow,
// take elements from a host view and give them back; in pinned and
// unified memory the host reads them directly.
func TestDynamicViewCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	rng := rand.New(rand.NewPCG(21, 22))
	for _, space := range []kokkos.MemorySpace{cuda.Space, cuda.HostPinnedSpace, cuda.UVMSpace} {
		d, err := containers.NewDynamicView[float32]("dyn", 100, 5000, kokkos.InSpace(space))
		if err != nil {
			t.Fatal(err)
		}
		src := kokkos.Must(kokkos.NewView1[float32]("src", 5000))
		for i := range 5000 {
			src.Set(i, rng.Float32())
		}
		for _, n := range []int{1, 130, 129, 4000, 5000, 300} {
			if err := d.Resize(n); err != nil {
				t.Fatal(err)
			}
			if err := containers.DeepCopyFromView(&d, src); err != nil {
				t.Fatal(err)
			}
			back := kokkos.Must(kokkos.NewView1[float32]("back", n))
			if err := containers.DeepCopyToView(back, &d); err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if back.At(i) != src.At(i) {
					t.Fatalf("%s, extent %d: element %d = %v, want %v", space.Name(), n, i, back.At(i), src.At(i))
				}
				if space.HostAccessible() && d.At(i) != src.At(i) {
					t.Fatalf("%s, extent %d: At(%d) = %v, want %v", space.Name(), n, i, d.At(i), src.At(i))
				}
			}
		}
		if err := d.Release(); err != nil {
			t.Fatal(err)
		}
	}
}
