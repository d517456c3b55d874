package kokkos_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
)

// TestMirrorViewReadOnly: create_mirror_view of a View<const T> in host
// memory allocates a new, writable mirror, while create_mirror_view with
// the view's own space and create_mirror_view_and_copy return the view
// itself. Ported from the seed's HostMirror ("compatible view type with the
// same DataType", whose data type is non-const: core/src/View/
// Kokkos_ViewLegacy.hpp:268-275) and checked against Kokkos 4.6.1:
// testdata/kokkos/mirror.cpp (built as testdata/kokkos/stride_past.cpp)
// printed
//
//	const mirror_view new allocation: 1, writable: 1
//	const mirror_view(HostSpace) new allocation: 0, writable: 0
//	const mirror_view_and_copy(HostSpace) new allocation: 0, writable: 0
func TestMirrorViewReadOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	n0, n1 := 2+rng.IntN(5), 2+rng.IntN(5)
	v := must[kokkos.View2[float64]](t)(kokkos.NewView2[float64]("v", n0, n1, kokkos.LayoutLeft))
	for i := range n0 {
		for j := range n1 {
			v.Set(i, j, rng.NormFloat64())
		}
	}
	ro := v.ReadOnly()
	m := must[kokkos.View2[float64]](t)(kokkos.CreateMirrorView(ro))
	if m.Allocation() == v.Allocation() || m.IsReadOnly() || m.Label() != "v_mirror" || m.Layout() != kokkos.LayoutLeft || m.Extent(0) != n0 || m.Extent(1) != n1 {
		t.Fatalf("mirror view of a read-only view: label %q layout %v read-only %v, same allocation %v", m.Label(), m.Layout(), m.IsReadOnly(), m.Allocation() == v.Allocation())
	}
	if m.At(n0-1, n1-1) != 0 {
		t.Fatal("CreateMirrorView copied the elements")
	}
	if err := kokkos.DeepCopy(kokkos.View[float64](m), kokkos.View[float64](ro)); err != nil {
		t.Fatal(err)
	}
	old := v.At(1, 1)
	m.Set(1, 1, old+1)
	for i := range n0 {
		for j := range n1 {
			want := v.At(i, j)
			if i == 1 && j == 1 {
				want = old + 1
			}
			if m.At(i, j) != want {
				t.Fatalf("mirror (%d, %d) = %v, want %v", i, j, m.At(i, j), want)
			}
		}
	}
	if v.At(1, 1) != old {
		t.Fatal("writing the mirror changed the source")
	}
	// With the view's own space, and for create_mirror_view_and_copy
	// (whose space Kokkos requires), the read-only view itself.
	same := must[kokkos.View2[float64]](t)(kokkos.CreateMirrorView(ro, kokkos.InSpace(kokkos.HostSpace)))
	cp := must[kokkos.View2[float64]](t)(kokkos.CreateMirrorViewAndCopy(ro))
	if same.Allocation() != v.Allocation() || !same.IsReadOnly() || cp.Allocation() != v.Allocation() || !cp.IsReadOnly() {
		t.Fatal("CreateMirrorView(ro, InSpace(HostSpace)) or CreateMirrorViewAndCopy(ro) is not ro")
	}
	// A writable view is its own mirror view.
	if w := must[kokkos.View2[float64]](t)(kokkos.CreateMirrorView(v)); w.Allocation() != v.Allocation() {
		t.Fatal("CreateMirrorView of a writable host view allocates")
	}

	// DynRankView and OffsetView.
	d := must[kokkos.DynRankView[int32]](t)(kokkos.NewDynRankView[int32]("d", []int{n0, n1, 2}))
	for i, x := range d.Data() {
		d.Data()[i] = x + rng.Int32()
	}
	dm := must[kokkos.DynRankView[int32]](t)(kokkos.CreateMirrorView(d.ReadOnly()))
	if dm.Allocation() == d.Allocation() || dm.IsReadOnly() || dm.Rank() != 3 || dm.Extent(2) != 2 {
		t.Fatal("mirror view of a read-only DynRankView")
	}
	if err := kokkos.DeepCopy(kokkos.View[int32](dm), kokkos.View[int32](d.ReadOnly())); err != nil || !slicesEqual(dm.Data(), d.Data()) {
		t.Fatalf("DeepCopy into the DynRankView mirror: %v", err)
	}
	b0 := rng.IntN(5) - 2
	o := must[kokkos.OffsetView1[float64]](t)(kokkos.NewOffsetView1[float64]("o", kokkos.Bounds(b0, b0+n0)))
	om := must[kokkos.OffsetView1[float64]](t)(kokkos.CreateMirrorView(o.ReadOnly()))
	if om.Allocation() == o.Allocation() || om.IsReadOnly() || om.Begin(0) != b0 || om.End(0) != b0+n0+1 {
		t.Fatal("mirror view of a read-only OffsetView")
	}
	om.Set(b0, 1)

	// A read-only device view: a new writable host view, as before.
	dev := fakeDevice(t)
	dv := must[kokkos.View1[float64]](t)(kokkos.NewView1[float64]("dv", n0, kokkos.InSpace(dev)))
	defer dv.Release()
	hm := must[kokkos.View1[float64]](t)(kokkos.CreateMirrorView(dv.ReadOnly()))
	if hm.Space() != kokkos.HostSpace || hm.IsReadOnly() {
		t.Fatal("host mirror of a read-only device view")
	}
	hm.Set(0, 1)
}

func slicesEqual[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
