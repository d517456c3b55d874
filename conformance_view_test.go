package kokkos_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// randView2 returns a host LayoutRight n0×n1 view of random values and a
// copy of them in logical order.
func randView2(t *testing.T, rng *rand.Rand, label string, n0, n1 int, opts ...kokkos.Option) (kokkos.View2[float64], [][]float64) {
	t.Helper()
	v := kokkos.Must(kokkos.NewView2[float64](label, n0, n1, opts...))
	ref := make([][]float64, n0)
	for i := range n0 {
		ref[i] = make([]float64, n1)
		for j := range n1 {
			ref[i][j] = rng.Float64()
			v.Set(i, j, ref[i][j])
		}
	}
	return v, ref
}

// Kokkos: core/unit_test/TestViewAPI.hpp, test_allocated.
func TestConformanceViewAPIAllocated(t *testing.T) {
	var d1 kokkos.View1[int32]
	u1, err := kokkos.WrapView1[int32](nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d1.IsAllocated() || u1.IsAllocated() {
		t.Fatalf("zero view or view over a nil slice reports IsAllocated")
	}
	const n = 100
	d1 = kokkos.Must(kokkos.NewView1[int32]("d1", n))
	d2 := d1
	d3 := kokkos.Must(kokkos.NewView1[int32]("d3", n))
	s1 := kokkos.Must(kokkos.NewView1[[5]int32]("s1", 1)) // View<int[5]>
	s2 := s1
	if !d1.IsAllocated() || !d2.IsAllocated() || !d3.IsAllocated() || !s1.IsAllocated() || !s2.IsAllocated() {
		t.Fatalf("allocated views report IsAllocated false")
	}
	u1 = kokkos.Must(kokkos.WrapView1(d1.Data(), n))
	u2 := u1
	u3 := kokkos.Must(kokkos.WrapView1(d1.Data(), n))
	if !u1.IsAllocated() || !u2.IsAllocated() || !u3.IsAllocated() {
		t.Fatalf("unmanaged views over memory report IsAllocated false")
	}
	// The Go difference: the final Release ends the allocation for every
	// copy of the view at once.
	if err := d1.Release(); err != nil {
		t.Fatal(err)
	}
	if d1.IsAllocated() || d2.IsAllocated() {
		t.Fatalf("views report IsAllocated after the final Release")
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, run_test (use_count with managed,
// const and unmanaged copies). Go copies a view without telling anyone, so
// the count is explicit: copies leave it alone, Retain and Release move it,
// and an unmanaged alias neither counts nor moves it.
func TestConformanceViewAPIUseCount(t *testing.T) {
	const n0, n1, n2, n3 = 4, 3, 2, 5
	dx := kokkos.Must(kokkos.NewView4[float64]("dx", n0, n1, n2, n3))
	dy := kokkos.Must(kokkos.NewView4[float64]("dy", n0, n1, n2, n3))
	if dx.UseCount() != 1 {
		t.Fatalf("UseCount of a new view = %d, want 1", dx.UseCount())
	}
	unmanagedDx := kokkos.Must(dx.AsTraits(kokkos.Unmanaged))
	if dx.UseCount() != 1 || unmanagedDx.UseCount() != 0 {
		t.Fatalf("unmanaged alias: UseCount %d and %d, want 1 and 0", dx.UseCount(), unmanagedDx.UseCount())
	}
	unmanagedDx.Retain()
	if err := unmanagedDx.Release(); err != nil || dx.UseCount() != 1 {
		t.Fatalf("Retain/Release of an unmanaged alias moved the count to %d (err %v)", dx.UseCount(), err)
	}
	fromPtr := kokkos.Must(kokkos.WrapView4(dx.Data(), n0, n1, n2, n3))
	if fromPtr.Span() != n0*n1*n2*n3 || fromPtr.UseCount() != 0 {
		t.Fatalf("view over dx's data: span %d, UseCount %d", fromPtr.Span(), fromPtr.UseCount())
	}
	constDx := dx.ReadOnly()
	constDx.Retain()
	if dx.UseCount() != 2 {
		t.Fatalf("after Retain of the const view: UseCount %d, want 2", dx.UseCount())
	}
	constDx2 := constDx // a copy: the count does not move
	if dx.UseCount() != 2 {
		t.Fatalf("copying a view moved UseCount to %d", dx.UseCount())
	}
	if err := constDx2.Release(); err != nil || dx.UseCount() != 1 {
		t.Fatalf("Release: UseCount %d, err %v", dx.UseCount(), err)
	}
	if dx.Equal(dy) || !dx.Equal(constDx) || !dx.Equal(unmanagedDx) {
		t.Fatalf("Equal: dx==dy %v, dx==const %v, dx==unmanaged %v", dx.Equal(dy), dx.Equal(constDx), dx.Equal(unmanagedDx))
	}
	// The unmanaged alias shares the record, so it sees the final Release.
	if err := dx.Release(); err != nil {
		t.Fatal(err)
	}
	if unmanagedDx.IsAllocated() {
		t.Fatalf("the unmanaged alias of a released view reports IsAllocated")
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, operator== and != (ASSERT_NE(dx,
// dy)), and Kokkos_View.hpp's operator==: same value type, layout, space,
// rank, data() and extents.
func TestConformanceViewAPIEqual(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]float64, 60)
	for i := range buf {
		buf[i] = rng.Float64()
	}
	a := kokkos.Must(kokkos.WrapView2(buf, 6, 10))
	b := kokkos.Must(kokkos.WrapView2(buf, 6, 10, kokkos.WithLabel("other")))
	if !a.Equal(b) {
		t.Fatalf("two views of the same slice and shape are not Equal")
	}
	c := kokkos.Must(kokkos.WrapView2(buf, 10, 6))
	if a.Equal(c) {
		t.Fatalf("views of other extents are Equal")
	}
	l := kokkos.Must(kokkos.WrapView2(buf, 6, 10, kokkos.LayoutLeft))
	if a.Equal(l) {
		t.Fatalf("views of other layouts are Equal")
	}
	d := kokkos.DynRankFrom[float64](&a)
	if !a.Equal(&d) {
		t.Fatalf("a DynRankView of the same elements is not Equal")
	}
	sub := a.Subview2(kokkos.All, kokkos.Pair(0, 10))
	if sub.Layout() == kokkos.LayoutRight && !a.Equal(&sub) {
		t.Fatalf("a subview of the whole view with the same layout is not Equal")
	}
	shifted := a.Subview2(kokkos.Pair(1, 6), kokkos.All)
	if a.Equal(&shifted) {
		t.Fatalf("a subview with another origin is Equal")
	}
	var z1, z2 kokkos.View2[float64]
	if !z1.Equal(&z2) || z1.Equal(&a) {
		t.Fatalf("zero views: Equal to each other %v, to a %v", z1.Equal(&z2), z1.Equal(&a))
	}
}

// Kokkos: core/unit_test/TestViewSubview.hpp, TestUnmanagedSubviewReset:
// assign_data re-points a subview at each slab of its parent in turn.
func TestConformanceViewSubviewUnmanagedSubviewReset(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	a := kokkos.Must(kokkos.NewView4[int32]("a", 20, 10, 5, 2))
	data := a.Data()
	for i := range data {
		data[i] = rng.Int32()
	}
	sub := a.Subview3(0, kokkos.All, kokkos.All, kokkos.All)
	for i := range a.Extent(0) {
		if err := sub.AssignData(data[i*a.Stride(0):]); err != nil {
			t.Fatal(err)
		}
		if sub.Ptr(1, 1, 1) != a.Ptr(i, 1, 1, 1) {
			t.Fatalf("slab %d: sub(1,1,1) is not a(%d,1,1,1)", i, i)
		}
		for j := range 10 {
			for k := range 5 {
				for l := range 2 {
					if sub.At(j, k, l) != a.At(i, j, k, l) {
						t.Fatalf("slab %d: sub(%d,%d,%d) = %d, want %d", i, j, k, l, sub.At(j, k, l), a.At(i, j, k, l))
					}
				}
			}
		}
	}
	if sub.Traits()&kokkos.Unmanaged == 0 || sub.UseCount() != 0 || sub.Label() != "a" || a.UseCount() != 1 {
		t.Fatalf("after AssignData: traits %v, UseCount %d, label %q; parent's UseCount %d", sub.Traits(), sub.UseCount(), sub.Label(), a.UseCount())
	}
	if err := sub.AssignData(data[len(data)-10:]); !errors.Is(err, kokkos.ErrShape) {
		t.Fatalf("AssignData of a short slice: %v, want ErrShape", err)
	}
	if sub.Ptr(0, 0, 0) != a.Ptr(19, 0, 0, 0) {
		t.Fatalf("a failed AssignData changed the view")
	}
	dev := kokkos.Must(kokkos.NewView1[int32]("dev", 4, kokkos.InSpace(backendtest.FakeDevice(false))))
	defer dev.Release()
	if err := dev.AssignData(make([]int32, 4)); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("AssignData of a device view: %v, want ErrNotHostAccessible", err)
	}
}

// Kokkos: core/unit_test/TestAtomicViews.hpp (a View with
// MemoryTraits<Atomic> assigned from a plain one, then updated
// concurrently): AsTraits(Atomic) gives the atomic alias.
func TestConformanceAtomicViewsFromPlainView(t *testing.T) {
	const n, workers, per = 64, 8, 2000
	x := kokkos.Must(kokkos.NewView1[int64]("x", n))
	rng := rand.New(rand.NewPCG(5, 6))
	want := make([]int64, n)
	for i := range n {
		want[i] = rng.Int64N(1000)
		x.Set(i, want[i])
	}
	xa, err := x.AsTraits(kokkos.Atomic)
	if err != nil {
		t.Fatal(err)
	}
	if xa.Label() != "x" || xa.Allocation() != x.Allocation() || xa.Traits() != kokkos.Atomic {
		t.Fatalf("atomic alias: label %q, traits %v, shares allocation %v", xa.Label(), xa.Traits(), xa.Allocation() == x.Allocation())
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := range per {
				xa.Ref((w + k) % n).Add(int64(w + 1))
			}
		})
	}
	wg.Wait()
	for w := range workers {
		for k := range per {
			want[(w+k)%n] += int64(w + 1)
		}
	}
	for i := range n {
		if got := x.At(i); got != want[i] {
			t.Fatalf("x(%d) = %d after atomic adds through the alias, want %d", i, got, want[i])
		}
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(error).Error(), "Atomic") {
				t.Fatalf("At of the atomic alias: recovered %v", r)
			}
		}()
		xa.At(0)
	}()
	// Any pointer-free element type takes the trait ([3]float64 through
	// the lock table, as desul's lock-based atomics); one holding Go
	// pointers does not.
	c := kokkos.Must(kokkos.NewView1[[3]float64]("c", 4))
	if ca, err := c.AsTraits(kokkos.Atomic); err != nil {
		t.Fatalf("AsTraits(Atomic) of [3]float64: %v", err)
	} else if ca.Ref(2).Store([3]float64{1, 2, 3}); c.At(2) != [3]float64{1, 2, 3} {
		t.Fatalf("a Store through the atomic alias of [3]float64 is not seen: %v", c.At(2))
	}
	p := kokkos.Must(kokkos.NewView1[*int]("p", 4))
	if _, err := p.AsTraits(kokkos.Atomic); !errors.Is(err, kokkos.ErrElementType) {
		t.Fatalf("AsTraits(Atomic) of *int: %v, want ErrElementType", err)
	}
	plain := kokkos.Must(xa.AsTraits(0))
	plain.Set(0, 7)
	if x.At(0) != 7 {
		t.Fatalf("a plain alias of the atomic alias does not write x")
	}
}

// Kokkos: core/src/View/Kokkos_ViewMapping.hpp, the unmanaged View(ptr,
// extents...) constructor over memory of any space (TestViewAPI.hpp's
// unmanaged_from_ptr views, and device pointers handed over by other
// libraries).
func TestConformanceViewAPIUnmanagedDevicePointer(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	dev := backendtest.FakeDevice(false)
	const n0, n1, skip = 7, 9, 3
	blk, err := dev.Allocate("external", (skip+n0*n1)*8, true)
	if err != nil {
		t.Fatal(err)
	}
	defer blk.Free()
	h, ref := randView2(t, rng, "h", n0, n1)
	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		d, err := kokkos.WrapView2[float64](nil, n0, n1, l, kokkos.InSpace(dev), kokkos.AtAddress(blk.Addr+skip*8), kokkos.WithLabel("ext"))
		if err != nil {
			t.Fatal(err)
		}
		if d.Space() != dev || !d.IsAllocated() || d.UseCount() != 0 || d.Label() != "ext" {
			t.Fatalf("%v: space %v, allocated %v, UseCount %d, label %q", l, d.Space().Name(), d.IsAllocated(), d.UseCount(), d.Label())
		}
		if err := kokkos.DeepCopy[float64](&d, &h); err != nil {
			t.Fatal(err)
		}
		back := kokkos.Must(kokkos.NewView2[float64]("back", n0, n1))
		if err := kokkos.DeepCopy[float64](&back, &d); err != nil {
			t.Fatal(err)
		}
		for i := range n0 {
			for j := range n1 {
				if back.At(i, j) != ref[i][j] {
					t.Fatalf("%v: round trip through wrapped device memory: (%d,%d) = %v, want %v", l, i, j, back.At(i, j), ref[i][j])
				}
			}
		}
	}
	for _, c := range []struct {
		data []float64
		opts []kokkos.Option
		want error
	}{
		{make([]float64, 4), []kokkos.Option{kokkos.InSpace(dev), kokkos.AtAddress(blk.Addr)}, kokkos.ErrShape},
		{nil, []kokkos.Option{kokkos.InSpace(dev)}, kokkos.ErrNotHostAccessible},
		{nil, []kokkos.Option{kokkos.InSpace(backendtest.FakeDevice(true)), kokkos.AtAddress(blk.Addr)}, kokkos.ErrNoCopySpace},
		{nil, []kokkos.Option{kokkos.AtAddress(blk.Addr)}, kokkos.ErrNoCopySpace},
	} {
		if _, err := kokkos.WrapView1(c.data, 4, c.opts...); !errors.Is(err, c.want) {
			t.Errorf("WrapView1 with %d options: %v, want %v", len(c.opts), err, c.want)
		}
	}
}

// Kokkos: data() of a View<const T>: the read-only hand-off of a view's
// elements (TestViewAPI.hpp reads const views' data()).
func TestConformanceViewAPIConstData(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	v, ref := randView2(t, rng, "v", 5, 6)
	ro := v.ReadOnly()
	got := kokkos.ReadOnlyData[float64](&ro)
	if len(got) != 30 {
		t.Fatalf("ReadOnlyData holds %d elements, want 30", len(got))
	}
	for i := range 5 {
		for j := range 6 {
			if got[i*6+j] != ref[i][j] {
				t.Fatalf("ReadOnlyData[%d] = %v, want %v", i*6+j, got[i*6+j], ref[i][j])
			}
		}
	}
	col := v.Subview1(kokkos.All, 2)
	if s := kokkos.ReadOnlyData[float64](&col); len(s) != 4*6+1 || s[6] != ref[1][2] {
		t.Fatalf("ReadOnlyData of a column spans %d elements", len(s))
	}
	var z kokkos.View1[float64]
	if kokkos.ReadOnlyData[float64](&z) != nil {
		t.Fatalf("ReadOnlyData of the zero view is not nil")
	}
	dev := kokkos.Must(kokkos.NewView1[float64]("dev", 3, kokkos.InSpace(backendtest.FakeDevice(false))))
	defer dev.Release()
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), `"dev"`) {
				t.Fatalf("ReadOnlyData of a device view: recovered %v", r)
			}
		}()
		kokkos.ReadOnlyData[float64](&dev)
	}()
}
