package kokkos_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// TestAssignDataDeviceAddress: AssignData(nil, AtAddress(p)) re-points a
// view in a space the host cannot access at device memory, as Kokkos's
// assign_data(ptr) for a view of any space
// (core/src/View/Kokkos_ViewLegacy.hpp:1041-1044). Ported from
// core/unit_test/TestViewSubview.hpp, TestUnmanagedSubviewReset: a rank-3
// subview of a rank-4 device view is re-pointed at a(i, 0, 0, 0) for each
// i; filled through it, a's slab i holds the values. Then a LayoutStride
// view re-pointed into another block takes DeepCopy and Fill through its
// strides, and its old memory stays as it was.
func TestAssignDataDeviceAddress(t *testing.T) {
	rng := rand.New(rand.NewPCG(67, 1))
	dev := fakeDevice(t)
	const n0, n1, n2, n3 = 6, 4, 3, 2
	a := must[kokkos.View4[int32]](t)(kokkos.NewView4[int32]("A", n0, n1, n2, n3, kokkos.InSpace(dev)))
	defer a.Release()
	sub := a.Subview3(0, kokkos.All, kokkos.All, kokkos.All)
	vals := make([]int32, n0)
	for i := range n0 {
		vals[i] = rng.Int32()
		// a(i, 0, 0, 0): i times the stride of dimension 0, in bytes.
		p := a.Allocation().Addr() + uintptr(i*a.Stride(0)*4)
		if err := sub.AssignData(nil, kokkos.AtAddress(p)); err != nil {
			t.Fatal(err)
		}
		if sub.Traits()&kokkos.Unmanaged == 0 || sub.UseCount() != 0 || sub.Label() != "A" || sub.Space() != dev || sub.Allocation().Addr() != p {
			t.Fatalf("after AssignData: traits %v, UseCount %d, label %q, address %#x", sub.Traits(), sub.UseCount(), sub.Label(), sub.Allocation().Addr())
		}
		if err := kokkos.Fill(kokkos.View[int32](sub), vals[i]); err != nil {
			t.Fatal(err)
		}
	}
	if a.UseCount() != 1 {
		t.Fatalf("the parent's UseCount %d, want 1", a.UseCount())
	}
	h := must[kokkos.View4[int32]](t)(kokkos.CreateMirrorViewAndCopy(a))
	for i := range n0 {
		for j := range n1 {
			for k := range n2 {
				for l := range n3 {
					if h.At(i, j, k, l) != vals[i] {
						t.Fatalf("a(%d, %d, %d, %d) = %d, want %d", i, j, k, l, h.At(i, j, k, l), vals[i])
					}
				}
			}
		}
	}

	// A LayoutStride view moved into another block: DeepCopy and Fill go
	// there, through its strides; its old memory is untouched.
	const m0, m1 = 5, 3
	v := must[kokkos.View2[float64]](t)(kokkos.NewView2[float64]("v", m0, m1, kokkos.WithStrides(1, 7), kokkos.InSpace(dev)))
	old := v // v's own allocation, which AssignData leaves to old
	defer old.Release()
	before := randHost(rng, m0, m1)
	if err := kokkos.DeepCopy(kokkos.View[float64](v), kokkos.View[float64](before)); err != nil {
		t.Fatal(err)
	}
	const skip = 3 // elements before the view's origin in the block
	block := must[kokkos.View1[float64]](t)(kokkos.NewView1[float64]("block", skip+v.Span()+2, kokkos.InSpace(dev)))
	defer block.Release()
	if err := v.AssignData(nil, kokkos.AtAddress(block.Allocation().Addr()+skip*8)); err != nil {
		t.Fatal(err)
	}
	if v.Stride(1) != 7 || v.Layout() != kokkos.LayoutStride || v.Extent(0) != m0 || old.Allocation() == v.Allocation() {
		t.Fatalf("after AssignData: %+v", v.LayoutSpec())
	}
	src := randHost(rng, m0, m1)
	if err := kokkos.DeepCopy(kokkos.View[float64](v), kokkos.View[float64](src)); err != nil {
		t.Fatal(err)
	}
	hb := must[kokkos.View1[float64]](t)(kokkos.CreateMirrorViewAndCopy(block))
	for i := range m0 {
		for j := range m1 {
			if got := hb.At(skip + i + 7*j); got != src.At(i, j) {
				t.Fatalf("block[%d] = %v, want v(%d, %d) = %v", skip+i+7*j, got, i, j, src.At(i, j))
			}
		}
	}
	for _, k := range []int{0, 1, 2, skip + v.Span()} {
		if hb.At(k) != 0 {
			t.Fatalf("block[%d] = %v outside the view, want 0", k, hb.At(k))
		}
	}
	x := rng.NormFloat64()
	if err := kokkos.Fill(kokkos.View[float64](v), x); err != nil {
		t.Fatal(err)
	}
	back := randHost(rng, m0, m1)
	if err := kokkos.DeepCopy(kokkos.View[float64](back), kokkos.View[float64](v)); err != nil {
		t.Fatal(err)
	}
	oldBack := randHost(rng, m0, m1)
	if err := kokkos.DeepCopy(kokkos.View[float64](oldBack), kokkos.View[float64](old)); err != nil {
		t.Fatal(err)
	}
	for i := range m0 {
		for j := range m1 {
			if back.At(i, j) != x || oldBack.At(i, j) != before.At(i, j) {
				t.Fatalf("(%d, %d): through the view %v, want %v; old memory %v, want %v", i, j, back.At(i, j), x, oldBack.At(i, j), before.At(i, j))
			}
		}
	}

	// Refusals, each leaving the view as it was.
	p := block.Allocation().Addr()
	for _, c := range []struct {
		name string
		err  error
		kind error
	}{
		{"a slice and an address", v.AssignData(make([]float64, 40), kokkos.AtAddress(p)), kokkos.ErrShape},
		{"AtAddress(0)", v.AssignData(nil, kokkos.AtAddress(0)), kokkos.ErrOption},
		{"another option", v.AssignData(nil, kokkos.AtAddress(p), kokkos.WithLabel("w")), kokkos.ErrOption},
		{"InSpace", v.AssignData(nil, kokkos.AtAddress(p), kokkos.InSpace(dev)), kokkos.ErrOption},
		{"a device view without an address", v.AssignData(make([]float64, 40)), kokkos.ErrNotHostAccessible},
		{"a host view with an address", before.AssignData(nil, kokkos.AtAddress(p)), kokkos.ErrNoCopySpace},
	} {
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.kind)
		}
	}
	if v.Allocation().Addr() != block.Allocation().Addr()+skip*8 {
		t.Fatal("a refused AssignData changed the view")
	}
	at := must[kokkos.View1[int64]](t)(kokkos.NewView1[int64]("at", 4, kokkos.InSpace(backendtest.FakeDevice(false)), kokkos.WithTraits(kokkos.Atomic)))
	defer at.Release()
	if err := at.AssignData(nil, kokkos.AtAddress(at.Allocation().Addr()+4)); !errors.Is(err, kokkos.ErrElementType) {
		t.Errorf("a misaligned address for an atomic view: %v, want ErrElementType", err)
	}
}

func randHost(rng *rand.Rand, m0, m1 int) kokkos.View2[float64] {
	h := kokkos.Must(kokkos.NewView2[float64]("h", m0, m1))
	for i := range m0 {
		for j := range m1 {
			h.Set(i, j, rng.NormFloat64())
		}
	}
	return h
}
