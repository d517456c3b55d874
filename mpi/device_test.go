package mpi

import (
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/cuda"
)

// fake is a device the host cannot access, standing in for a GPU: views
// in it are staged through host buffers, as CUDA device views are when
// the library is not CUDA-aware.
var fake = backendtest.FakeDevice(false)

// toDevice returns a view in space with h's extents and elements.
func toDevice[T any](t *testing.T, space kokkos.MemorySpace, h kokkos.DynRankView[T]) kokkos.DynRankView[T] {
	t.Helper()
	d, err := kokkos.NewDynRankView[T]("device", h.Extents(), kokkos.InSpace(space), h.Layout())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Release(); err != nil {
			t.Error(err)
		}
	})
	if err := kokkos.DeepCopy[T](&d, &h); err != nil {
		t.Fatal(err)
	}
	return d
}

func toHost[T any](t *testing.T, d kokkos.DynRankView[T]) kokkos.DynRankView[T] {
	t.Helper()
	h, err := kokkos.NewDynRankView[T]("host", d.Extents(), d.Layout())
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy[T](&h, &d); err != nil {
		t.Fatal(err)
	}
	return h
}

var _ = rankTest("DeviceViews", func(t *testing.T) { deviceViews(t, fake) })

// On a GPU, views in the memory of each rank's device (cuda.SelectDevice:
// one rank per GPU where there are enough) are staged through pinned host
// memory of their device (or passed directly where the library is
// CUDA-aware).
var _ = rankTest("CUDAViews", func(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	dev, err := cuda.SelectDevice()
	if err != nil {
		t.Fatal(err)
	}
	deviceViews(t, cuda.SpaceOn(dev.Ordinal()))
})

// deviceViews sends whole views and strided subviews in space ring-wise,
// and reduces one, against the values each rank filled in.
func deviceViews(t *testing.T, space kokkos.MemorySpace) {
	w := World()
	ext := []int{6, 5}
	for _, layout := range []string{"right", "left"} {
		// Whole device views, and a strided device subview, ring-wise.
		h := makeView[float64]("h", ext, layout)
		fill[float64](&h, uint64(w.Rank()))
		send := toDevice(t, space, h)
		recv := toDevice(t, space, makeView[float64]("r", ext, layout))
		next, prev := (w.Rank()+1)%w.Size(), (w.Rank()+w.Size()-1)%w.Size()
		rr, err := Irecv[float64](w, &recv, prev, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := Send[float64](w, &send, next, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := rr.Wait(); err != nil {
			t.Fatal(err)
		}
		got := toHost(t, recv)
		check[float64](t, "device "+layout, &got, uint64(prev))

		// Strided device subviews, packed first index fastest on both
		// sides.
		hp := makeView[float64]("hp", []int{8, 9}, layout)
		hsub := hp.Subview(kokkos.Pair(1, 7), kokkos.Pair(2, 7))
		fill[float64](&hsub, uint64(w.Rank()))
		dp := toDevice(t, space, hp)
		dsub := dp.Subview(kokkos.Pair(1, 7), kokkos.Pair(2, 7))
		big := toDevice(t, space, makeView[float64]("big", []int{8, 9}, layout))
		sub := big.Subview(kokkos.Pair(1, 7), kokkos.Pair(2, 7))
		if _, err := Sendrecv(w, &dsub, next, &sub, prev); err != nil {
			t.Fatal(err)
		}
		host := toHost(t, big)
		hs := host.Subview(kokkos.Pair(1, 7), kokkos.Pair(2, 7))
		check[float64](t, "device subview "+layout, &hs, uint64(prev))
	}
	// A reduction of device views.
	x := toDevice(t, space, kokkos.Must(kokkos.NewDynRankView[int64]("x", []int{3})))
	hx := kokkos.Must(kokkos.NewDynRankView[int64]("hx", []int{3}))
	for i := range 3 {
		hx.Set(int64(w.Rank()+i), i)
	}
	if err := kokkos.DeepCopy[int64](&x, &hx); err != nil {
		t.Fatal(err)
	}
	if err := Allreduce[int64](w, &x, &x, Sum); err != nil {
		t.Fatal(err)
	}
	hx = toHost(t, x)
	p := int64(w.Size())
	for i := range 3 {
		if want := p*(p-1)/2 + p*int64(i); hx.At(i) != want {
			t.Errorf("Allreduce of a device view: element %d = %d, want %d", i, hx.At(i), want)
		}
	}
}

// Sendrecv sends s to dest and receives r from src, for the test.
func Sendrecv[T any](c *Comm, s kokkos.View[T], dest int, r kokkos.View[T], src int) (Status, error) {
	rr, err := Irecv(c, r, src, 2)
	if err != nil {
		return Status{}, err
	}
	if err := Send(c, s, dest, 2); err != nil {
		return Status{}, err
	}
	return rr.Wait()
}
