package containers_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
)

// TestDualViewSubview: a subview shares its parent's counters; a sync
// through it copies its elements only and clears the shared counters, as
// Kokkos's; it holds its own references.
func TestDualViewSubview(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	rng := rand.New(rand.NewPCG(41, 42))
	dv := kokkos.Must(containers.NewDualView2[float64]("P", 4, 6, kokkos.InSpace(fake), kokkos.LayoutLeft))
	h := dv.ViewHost()
	for i := range 4 {
		for j := range 6 {
			h.Set(i, j, rng.Float64())
		}
	}
	dv.ModifyHost()
	if err := dv.SyncDevice(); err != nil {
		t.Fatal(err)
	}
	row := dv.Subview1(2, kokkos.Pair(1, 5))
	if row.Extent(0) != 4 || row.Label() != "P" || row.Rank() != 1 {
		t.Fatalf("subview: extent %d label %q", row.Extent(0), row.Label())
	}
	rh := row.ViewHost()
	for j := range 4 {
		rh.Set(j, -float64(j+1))
	}
	h.Set(0, 0, 99) // outside the subview: the sync must not carry it
	row.ModifyHost()
	if !dv.NeedSyncDevice() {
		t.Fatal("a mark through the subview is not seen by the parent")
	}
	if msg := panics(dv.ModifyDevice); !strings.Contains(msg, `"P"`) {
		t.Fatalf("the parent's ModifyDevice after the subview's ModifyHost: panic %q", msg)
	}
	if err := row.SyncDevice(); err != nil {
		t.Fatal(err)
	}
	if dv.NeedSyncDevice() || dv.NeedSyncHost() {
		t.Fatal("the subview's sync does not clear the shared counters")
	}
	d := kokkos.Must(kokkos.CreateMirrorViewAndCopy(dv.ViewDevice()))
	for i := range 4 {
		for j := range 6 {
			want := h.At(i, j)
			if i == 0 && j == 0 {
				want = d.At(0, 0) // not synced; checked below
			}
			if d.At(i, j) != want {
				t.Fatalf("device (%d, %d) = %v, want %v", i, j, d.At(i, j), want)
			}
		}
	}
	if d.At(0, 0) == 99 {
		t.Fatal("the subview's sync copied an element outside it")
	}
	for j := range 4 {
		if d.At(2, j+1) != -float64(j+1) {
			t.Fatalf("device (2, %d) = %v", j+1, d.At(2, j+1))
		}
	}
	// Rank 0 and the full rank.
	e := dv.Subview0(3, 5)
	if got := e.ViewHost(); got.At() != h.At(3, 5) {
		t.Fatalf("Subview0: %v, want %v", got.At(), h.At(3, 5))
	}
	all := dv.Subview2(kokkos.All, kokkos.Pair(0, 2))
	if all.Extent(0) != 4 || all.Extent(1) != 2 {
		t.Fatalf("Subview2 extents %d %d", all.Extent(0), all.Extent(1))
	}
	if err := dv.Release(); err != nil {
		t.Fatal(err)
	}
	if fake.Blocks() != 1 {
		t.Fatalf("%d blocks live after the parent's Release, want 1 (the subviews hold it)", fake.Blocks())
	}
	for _, rel := range []func() error{row.Release, e.Release, all.Release} {
		if err := rel(); err != nil {
			t.Fatal(err)
		}
	}
	if fake.Blocks() != 0 {
		t.Fatalf("%d blocks live after every Release", fake.Blocks())
	}
}
