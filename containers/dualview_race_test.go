package containers_test

import (
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
)

// TestDualViewConcurrentMarks: copies of one DualView used from several
// goroutines (marks, syncs, queries) do not race on its counters (run
// under -race), and the last sync leaves the two sides equal.
func TestDualViewConcurrentMarks(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	dv := kokkos.Must(containers.NewDualView1[int64]("C", 64, kokkos.InSpace(fake)))
	defer dv.Release()
	h := dv.ViewHost()
	for i := range h.Extent(0) {
		h.Set(i, int64(3*i+1))
	}
	dv.ModifyHost()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func(c containers.DualView1[int64]) {
			defer wg.Done()
			for range 200 {
				switch g % 3 {
				case 0:
					if err := c.SyncDevice(); err != nil {
						t.Error(err)
						return
					}
				case 1:
					_ = c.NeedSyncHost()
					_ = c.NeedSyncDevice()
				default:
					if err := c.SyncHost(); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}(dv)
	}
	wg.Wait()
	if err := dv.SyncDevice(); err != nil {
		t.Fatal(err)
	}
	if dv.NeedSyncDevice() || dv.NeedSyncHost() {
		t.Fatalf("after SyncDevice: NeedSyncDevice %v, NeedSyncHost %v", dv.NeedSyncDevice(), dv.NeedSyncHost())
	}
	d := kokkos.Must(kokkos.CreateMirrorViewAndCopy(dv.ViewDevice()))
	for i := range d.Extent(0) {
		if d.At(i) != int64(3*i+1) {
			t.Fatalf("device element %d = %d, want %d", i, d.At(i), 3*i+1)
		}
	}
}
