package random

import (
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// checkedExec is the fake device's executor with its memory counted by a
// CheckedSpace, so that the test sees a leak.
type checkedExec struct {
	*backendtest.FakeExecutor
	mem backendtest.CheckedSpace
}

func (e checkedExec) MemorySpace() backend.MemorySpace { return e.mem }

// TestFillDevice fills views in memory the host cannot reach (the fake
// device of package backendtest) from pools whose states lie there too
// and from a host pool: the values are those of the same fills of host
// views from host pools of the same seed, twice in a row (the device
// pool's states come back advanced), and nothing is left allocated once
// the pools and views are released.
func TestFillDevice(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	exec := checkedExec{fake.Executor(), backendtest.NewCheckedSpace(fake)}
	dev64 := must(NewXorShift64PoolSize(exec, 5, 1))
	dev1024 := must(NewXorShift1024PoolSize(exec, 5, 1))
	host64 := must(NewXorShift64PoolSize(kokkos.Serial{}, 5, 1))
	host1024 := must(NewXorShift1024PoolSize(kokkos.Serial{}, 5, 1))
	// One chunk of 128 rows, so that one state draws them in order.
	for run := range 2 {
		for _, c := range []struct {
			name       string
			fill, want func(v kokkos.View2[float64]) error
		}{
			{"device pool 64", func(v kokkos.View2[float64]) error { return FillRange(v, dev64, -1, 1) }, func(v kokkos.View2[float64]) error { return FillRange(v, host64, -1, 1) }},
			{"device pool 1024", func(v kokkos.View2[float64]) error { return FillRange(v, dev1024, -1, 1) }, func(v kokkos.View2[float64]) error { return FillRange(v, host1024, -1, 1) }},
		} {
			d := must(kokkos.NewView2[float64]("d", 100, 7, kokkos.InSpace(exec.mem)))
			h := must(kokkos.NewView2[float64]("h", 100, 7))
			if err := c.fill(d); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if err := c.want(h); err != nil {
				t.Fatal(err)
			}
			got := must(kokkos.CreateMirrorViewAndCopy(d))
			for i := range 100 {
				for j := range 7 {
					if got.At(i, j) != h.At(i, j) {
						t.Fatalf("%s, run %d: (%d, %d) = %v, want %v", c.name, run, i, j, got.At(i, j), h.At(i, j))
					}
				}
			}
			d.Release()
		}
	}
	// A device view from a host pool: through a host mirror.
	ref := must(NewXorShift64PoolSize(kokkos.Serial{}, 9, 1))
	src := must(NewXorShift64PoolSize(kokkos.Serial{}, 9, 1))
	d := must(kokkos.NewView1[int32]("d", 120, kokkos.InSpace(exec.mem)))
	h := must(kokkos.NewView1[int32]("h", 120))
	if err := FillRange(d, src, -5, 50); err != nil {
		t.Fatal(err)
	}
	if err := FillRange(h, ref, -5, 50); err != nil {
		t.Fatal(err)
	}
	got := must(kokkos.CreateMirrorViewAndCopy(d))
	for i := range 120 {
		if got.At(i) != h.At(i) {
			t.Fatalf("host pool into a device view: [%d] = %d, want %d", i, got.At(i), h.At(i))
		}
	}
	d.Release()
	for _, err := range []error{dev64.Release(), dev1024.Release()} {
		if err != nil {
			t.Fatal(err)
		}
	}
	exec.mem.AssertNoLeaks(t)
}
