package containers_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
)

// TestDeepCopyDualView: the side copied and the side marked follow
// Kokkos's deep_copy(DualView, DualView): the host views when the source's
// host holds unsynced changes, the device views otherwise.
func TestDeepCopyDualView(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	rng := rand.New(rand.NewPCG(31, 32))
	for _, hostNewer := range []bool{true, false} {
		for _, on := range []bool{false, true} {
			src := kokkos.Must(containers.NewDualView2[float64]("src", 3, 5, kokkos.InSpace(fake)))
			dst := kokkos.Must(containers.NewDualView2[float64]("dst", 3, 5, kokkos.InSpace(fake), kokkos.LayoutLeft))
			vals := randomValues(rng, 15)
			h := src.ViewHost()
			copy(h.Data(), vals)
			if hostNewer {
				src.ModifyHost()
			} else {
				src.ModifyHost()
				if err := src.SyncDevice(); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if on {
				exec := kokkos.DefaultExecutionSpace()
				if err = containers.DeepCopyDualViewOn(exec, &dst, &src); err == nil {
					err = exec.Fence()
				}
			} else {
				err = containers.DeepCopyDualView(&dst, &src)
			}
			if err != nil {
				t.Fatal(err)
			}
			if dst.NeedSyncDevice() != hostNewer || dst.NeedSyncHost() == hostNewer {
				t.Fatalf("host newer %v: dst NeedSyncDevice %v NeedSyncHost %v", hostNewer, dst.NeedSyncDevice(), dst.NeedSyncHost())
			}
			if err := dst.SyncHost(); err != nil {
				t.Fatal(err)
			}
			dh := dst.ViewHost()
			got := make([]float64, 0, 15)
			for i := range 3 {
				for j := range 5 {
					got = append(got, dh.At(i, j))
				}
			}
			if !slices.Equal(got, vals) {
				t.Fatalf("host newer %v: dst %v, want %v", hostNewer, got, vals)
			}
			other := kokkos.Must(containers.NewDualView2[float64]("other", 5, 3, kokkos.InSpace(fake)))
			if err := containers.DeepCopyDualView(&other, &src); !errors.Is(err, kokkos.ErrShape) {
				t.Fatalf("extents differ: %v", err)
			}
			for _, dv := range []*containers.DualView2[float64]{&src, &dst, &other} {
				if err := dv.Release(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if fake.Blocks() != 0 {
		t.Fatalf("%d blocks live", fake.Blocks())
	}
}
