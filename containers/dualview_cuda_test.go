package containers_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/cuda"
)

// TestDualViewCUDA runs the model check on the CUDA memory spaces: device
// memory (separate views), pinned and unified memory (one view).
func TestDualViewCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	spaces := []struct {
		space kokkos.MemorySpace
		mode  dualMode
	}{{cuda.Space, modeSeparate}, {cuda.HostPinnedSpace, modeShared}, {cuda.UVMSpace, modeShared}}
	for _, sp := range spaces {
		for rank := range 9 {
			t.Run(fmt.Sprintf("%s/rank%d", sp.space.Name(), rank), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(rank), 9))
				for _, layout := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
					runDualSequenceIn(t, rng, rank, sp.space, sp.mode, []kokkos.Option{layout}, 25)
				}
			})
		}
	}
}

// TestDualViewCUDASyncOn: SyncDeviceOn and SyncHostOn on a stream.
func TestDualViewCUDASyncOn(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dv := kokkos.Must(containers.NewDualView2[float64]("sync", 64, 33, kokkos.InSpace(cuda.Space)))
	defer dv.Release()
	h := dv.ViewHost()
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 64 {
		for j := range 33 {
			h.Set(i, j, rng.Float64())
		}
	}
	want := kokkos.Must(kokkos.CreateMirror(h))
	if err := kokkos.DeepCopy(want, h); err != nil {
		t.Fatal(err)
	}
	dv.ModifyHost()
	if err := dv.SyncDeviceOn(s); err != nil {
		t.Fatal(err)
	}
	dv.ModifyDevice()
	if err := kokkos.Fill(h, 0); err != nil {
		t.Fatal(err)
	}
	if err := dv.SyncHostOn(s); err != nil {
		t.Fatal(err)
	}
	if err := s.Fence(); err != nil {
		t.Fatal(err)
	}
	for i := range 64 {
		for j := range 33 {
			if h.At(i, j) != want.At(i, j) {
				t.Fatalf("host (%d, %d) = %v after the round trip, want %v", i, j, h.At(i, j), want.At(i, j))
			}
		}
	}
}
