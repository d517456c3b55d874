package containers_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/cuda"
)

// TestBitsetCUDA: bits copied to device memory and back, counted and set
// there; in pinned and unified memory, set and tested from the host.
func TestBitsetCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	const n = 1000
	rng := rand.New(rand.NewPCG(8, 9))
	host := kokkos.Must(containers.NewBitset("h", n))
	want := make([]bool, n)
	for i := range want {
		want[i] = rng.IntN(2) == 0
		if want[i] {
			host.Set(i)
		}
	}
	count, _ := host.Count()
	for _, space := range []kokkos.MemorySpace{cuda.Space, cuda.HostPinnedSpace, cuda.UVMSpace} {
		b, err := containers.NewBitset("dev", n, kokkos.InSpace(space))
		if err != nil {
			t.Fatal(err)
		}
		if c, err := b.Count(); err != nil || c != 0 {
			t.Fatalf("%s: new Bitset counts %d, %v", space.Name(), c, err)
		}
		if err := containers.DeepCopyBitset(&b, &host); err != nil {
			t.Fatal(err)
		}
		if c, err := b.Count(); err != nil || c != count {
			t.Fatalf("%s: Count %d, %v; want %d", space.Name(), c, err, count)
		}
		if space.HostAccessible() {
			for i, x := range want {
				if b.Test(i) != x {
					t.Fatalf("%s: bit %d", space.Name(), i)
				}
			}
			if b.Reset(0) != want[0] || !b.Set(0) {
				t.Fatalf("%s: Reset and Set of bit 0", space.Name())
			}
		}
		back := kokkos.Must(containers.NewBitset("back", n))
		if err := containers.DeepCopyBitset(&back, &b); err != nil {
			t.Fatal(err)
		}
		for i, x := range want {
			if i > 0 && back.Test(i) != x {
				t.Fatalf("%s: bit %d after the round trip", space.Name(), i)
			}
		}
		if err := b.SetAll(); err != nil {
			t.Fatal(err)
		}
		if c, _ := b.Count(); c != n {
			t.Fatalf("%s: Count after SetAll: %d", space.Name(), c)
		}
		if err := b.Release(); err != nil {
			t.Fatal(err)
		}
	}
}
