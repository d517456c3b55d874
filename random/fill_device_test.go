package random

import (
	"errors"
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
// device of package backendtest) from pools whose states lie there too:
// float64 views of rank 2 by the fill kernels on the device (the fake
// device interprets their descriptions), int16 views and rank-4 views
// through a host mirror with the states lent to the host. The values are
// those of the same fills of host views from host pools of the same seed,
// twice in a row (the device pool's states end advanced as the host's).
func TestFillDevice(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	plain := fake.Executor()
	checked := checkedExec{fake.Executor(), backendtest.NewCheckedSpace(fake)}
	for _, c := range []struct {
		name    string
		exec    kokkos.ExecutionSpace
		mem     kokkos.MemorySpace
		kernels bool
	}{
		{"kernels", plain, fake, true},
		{"host mirror", checked, checked.mem, false},
	} {
		dev64 := must(NewXorShift64PoolSize(c.exec, 5, 1))
		dev1024 := must(NewXorShift1024PoolSize(c.exec, 5, 1))
		host64 := must(NewXorShift64PoolSize(kokkos.Serial{}, 5, 1))
		host1024 := must(NewXorShift1024PoolSize(kokkos.Serial{}, 5, 1))
		launches := plain.Launches()
		for run := range 2 {
			for _, p := range []struct {
				name       string
				fill, want func(v kokkos.View[float64]) error
			}{
				{"64", func(v kokkos.View[float64]) error { return FillRange(v, dev64, -1, 1) }, func(v kokkos.View[float64]) error { return FillRange(v, host64, -1, 1) }},
				{"1024", func(v kokkos.View[float64]) error { return FillRange(v, dev1024, -1, 1) }, func(v kokkos.View[float64]) error { return FillRange(v, host1024, -1, 1) }},
			} {
				// One chunk of 128 rows (of 7 or 2*2*2 elements), so
				// that one state draws them in order.
				var d, h kokkos.View[float64]
				var get func(i int) float64
				if c.kernels {
					dv, hv := must(kokkos.NewView2[float64]("d", 100, 7, kokkos.InSpace(c.mem))), must(kokkos.NewView2[float64]("h", 100, 7))
					d, h = dv, hv
					defer dv.Release()
					get = func(i int) float64 {
						m := must(kokkos.CreateMirrorViewAndCopy(dv))
						return m.At(i/7, i%7) - hv.At(i/7, i%7)
					}
				} else {
					dv, hv := must(kokkos.NewView4[float64]("d", 100, 2, 2, 2, kokkos.InSpace(c.mem))), must(kokkos.NewView4[float64]("h", 100, 2, 2, 2))
					d, h = dv, hv
					defer dv.Release()
					get = func(i int) float64 {
						m := must(kokkos.CreateMirrorViewAndCopy(dv))
						return m.At(i/8, i/4%2, i/2%2, i%2) - hv.At(i/8, i/4%2, i/2%2, i%2)
					}
				}
				if err := p.fill(d); err != nil {
					t.Fatalf("%s %s: %v", c.name, p.name, err)
				}
				if err := p.want(h); err != nil {
					t.Fatal(err)
				}
				for i := range 700 {
					if diff := get(i); diff != 0 {
						t.Fatalf("%s %s, run %d: element %d differs from the host's fill by %v", c.name, p.name, run, i, diff)
					}
				}
			}
		}
		if got := plain.Launches() - launches; c.kernels && got != 4 || !c.kernels && got != 0 {
			t.Errorf("%s: %d launches on the device", c.name, got)
		}
		// An int16 view: through a host mirror (no kernel takes it).
		ref := must(NewXorShift64PoolSize(kokkos.Serial{}, 9, 1))
		dev := must(NewXorShift64PoolSize(c.exec, 9, 1))
		d := must(kokkos.NewView1[int16]("d", 120, kokkos.InSpace(c.mem)))
		h := must(kokkos.NewView1[int16]("h", 120))
		if err := FillRange(d, dev, -5, 50); err != nil {
			t.Fatal(err)
		}
		if err := FillRange(h, ref, -5, 50); err != nil {
			t.Fatal(err)
		}
		got := must(kokkos.CreateMirrorViewAndCopy(d))
		for i := range 120 {
			if got.At(i) != h.At(i) {
				t.Fatalf("%s: int16 view: [%d] = %d, want %d", c.name, i, got.At(i), h.At(i))
			}
		}
		d.Release()
		for _, err := range []error{dev64.Release(), dev1024.Release(), dev.Release()} {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	// A host pool into a device view: through a host mirror.
	ref, src := must(NewXorShift64PoolSize(kokkos.Serial{}, 11, 1)), must(NewXorShift64PoolSize(kokkos.Serial{}, 11, 1))
	d := must(kokkos.NewView1[float64]("d", 120, kokkos.InSpace(checked.mem)))
	h := must(kokkos.NewView1[float64]("h", 120))
	if err := errors.Join(FillRange(d, src, 2, 3), FillRange(h, ref, 2, 3)); err != nil {
		t.Fatal(err)
	}
	got := must(kokkos.CreateMirrorViewAndCopy(d))
	for i := range 120 {
		if got.At(i) != h.At(i) {
			t.Fatalf("host pool into a device view: [%d] = %v, want %v", i, got.At(i), h.At(i))
		}
	}
	d.Release()
	// The views of the loop above are released when the test returns.
	t.Cleanup(func() { checked.mem.AssertNoLeaks(t) })
}
