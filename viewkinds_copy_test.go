package kokkos

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// These tests run DynRankView and OffsetView through the copy planner,
// the mirrors and Resize.

func TestDynRankDeepCopyAndMirror(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	v := Must(NewView3[float64]("V", 3, 4, 5, LayoutLeft))
	fillRandom(rng, v)
	d := Must(NewDynRankView[float64]("D", []int{3, 4, 5}))
	if err := DeepCopy(d, v); err != nil {
		t.Fatal(err)
	}
	testutil.ForEachIndex([]int{3, 4, 5}, func(i []int) {
		if d.At3(i[0], i[1], i[2]) != v.At(i[0], i[1], i[2]) {
			t.Fatalf("DynRankView ← View3 at %v", i)
		}
	})
	m, err := CreateMirrorViewAndCopy(d)
	if err != nil {
		t.Fatal(err)
	}
	if m.Rank() != 3 || !m.Equal(d) {
		t.Fatal("CreateMirrorViewAndCopy of a host DynRankView must return it")
	}
	c, err := CreateMirror(d)
	if err != nil || c.Rank() != 3 || c.Label() != "D_mirror" || c.Equal(d) {
		t.Fatalf("CreateMirror of DynRankView: %v", err)
	}
	if err := DeepCopy(c, d); err != nil {
		t.Fatal(err)
	}
	w := Must(NewView3[float64]("W", 3, 4, 5))
	if err := DeepCopy(w, c); err != nil {
		t.Fatal(err)
	}
	if w.At(2, 3, 4) != v.At(2, 3, 4) {
		t.Fatal("View3 ← DynRankView mirror")
	}
	if err := Fill(d.Subview(1, All, Pair(1, 3)), 9.5); err != nil {
		t.Fatal(err)
	}
	if d.At3(1, 2, 2) != 9.5 || d.At3(1, 2, 0) != v.At(1, 2, 0) || d.At3(0, 2, 2) != v.At(0, 2, 2) {
		t.Fatal("Fill of a DynRankView subview")
	}
	two := Must(NewDynRankView[float64]("two", []int{3, 20}))
	if err := DeepCopy(two, d); err == nil || !strings.Contains(err.Error(), `"two"`) || !strings.Contains(err.Error(), `"D"`) {
		t.Fatalf("rank mismatch: %v", err)
	}
}

func TestDynRankResizeChangesRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	d := Must(NewDynRankView[float64]("R", []int{4, 6, 3}))
	fillRandom(rng, Must(d.View3()))
	old := d
	if err := d.Resize([]int{5, 10}); err != nil {
		t.Fatal(err)
	}
	if d.Rank() != 2 || d.Extent(0) != 5 || d.Extent(1) != 10 || d.Extent(2) != 1 || d.Label() != "R" {
		t.Fatalf("resized to rank %d extents %v", d.Rank(), d.Extents())
	}
	for i := range 5 {
		for j := range 10 {
			want := 0.0
			if i < 4 && j < 6 {
				want = old.At3(i, j, 0)
			}
			if d.At2(i, j) != want {
				t.Fatalf("Resize keeps the overlap: (%d, %d) = %v, want %v", i, j, d.At2(i, j), want)
			}
		}
	}
	if err := d.Resize([]int{2, 3, 4, 2}); err != nil || d.Rank() != 4 {
		t.Fatalf("grow rank: %v", err)
	}
	if d.At4(1, 2, 0, 0) != old.At3(1, 2, 0) || d.At4(1, 2, 1, 0) != 0 {
		t.Fatal("rank 4 overlap")
	}
	ro := d.ReadOnly()
	if err := ro.Resize([]int{1}); err == nil || !strings.Contains(err.Error(), `Resize of read-only DynRankView "R"`) {
		t.Fatalf("read-only resize: %v", err)
	}
}

func TestOffsetViewDeepCopyAndMirror(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	o := Must(NewOffsetView2[float64]("o", Bounds(-2, 2), Bounds(1, 4)))
	v := Must(NewView2[float64]("v", 5, 4, LayoutLeft))
	fillRandom(rng, v)
	if err := DeepCopy(o, v); err != nil {
		t.Fatal(err)
	}
	for i := -2; i <= 2; i++ {
		for j := 1; j <= 4; j++ {
			if o.At(i, j) != v.At(i+2, j-1) {
				t.Fatalf("OffsetView ← View at (%d, %d)", i, j)
			}
		}
	}
	m, err := CreateMirror(o)
	if err != nil || m.Begins() != o.Begins() || m.Label() != "o_mirror" {
		t.Fatalf("mirror of OffsetView: %v %v", err, m.Begins())
	}
	if err := DeepCopy(m, o); err != nil {
		t.Fatal(err)
	}
	if m.At(-2, 4) != v.At(0, 3) {
		t.Fatal("mirror copy keeps offsets")
	}
	back := Must(NewView2[float64]("back", 5, 4))
	if err := DeepCopy(back, m); err != nil || back.At(4, 0) != v.At(4, 0) {
		t.Fatalf("View ← OffsetView: %v", err)
	}
	if err := Fill(o, 1.25); err != nil || o.At(0, 3) != 1.25 {
		t.Fatalf("Fill OffsetView: %v", err)
	}
	if mv, _ := CreateMirrorView(o); !mv.Equal(o) {
		t.Fatal("CreateMirrorView of a host OffsetView returns it")
	}
}

func TestOffsetViewOnDevice(t *testing.T) {
	dev := Must(NewView3[float64]("dev", 2, 3, 4, InSpace(checked(t, newFakeSpace(false)))))
	defer dev.Release()
	o := Must(OffsetView3Of(dev, [3]int{-1, 0, 5}))
	expectPanic(t, `view "dev" lives in FakeDeviceSpace, which the host cannot access (index (0, 1, 6))`, func() { o.At(0, 1, 6) })
	expectPanic(t, `index (1, 1, 6) out of bounds for view "dev" with index ranges`, func() { o.At(1, 1, 6) })
	expectPanic(t, `lives in FakeDeviceSpace`, func() { o.Set(-1, 0, 5, 1) })
	s := o.Subview2(All, 1, All)
	expectPanic(t, `lives in FakeDeviceSpace`, func() { s.At(-1, 5) })
	host := Must(NewOffsetView3[float64]("host", Bounds(-1, 0), Bounds(0, 2), Bounds(5, 8)))
	if err := Fill(host, 2.5); err != nil || host.At(0, 2, 8) != 2.5 {
		t.Fatalf("host offset view: %v", err)
	}
	hs := host.Subview2(All, 1, All)
	if hs.At(-1, 7) != 2.5 {
		t.Fatal("host offset subview access")
	}
}

// TestLoopAccessChecks runs the loop shapes whose index checks the compiler
// proves away (loops over Extent, and from Begin to End) against every view
// kind: on host views they must read the right elements, and on views the
// host cannot access the remaining data-pointer test must still panic.
func TestLoopAccessChecks(t *testing.T) {
	host := Must(NewView3[float64]("h", 3, 4, 5, LayoutLeft))
	for i := range host.Extent(0) {
		for j := range host.Extent(1) {
			for k := range host.Extent(2) {
				host.Set(i, j, k, float64(100*i+10*j+k)+0.5)
			}
		}
	}
	want := func(i, j, k int) float64 { return float64(100*i+10*j+k) + 0.5 }
	d := DynRankFrom[float64](host)
	o := Must(OffsetView3Of(host, [3]int{-1, 2, -7}))
	for i := range host.Extent(0) {
		for j := range host.Extent(1) {
			for k := range host.Extent(2) {
				if host.At(i, j, k) != want(i, j, k) || d.At3(i, j, k) != want(i, j, k) {
					t.Fatalf("View3/DynRankView at (%d, %d, %d)", i, j, k)
				}
			}
		}
	}
	for i := o.Begin(0); i < o.End(0); i++ {
		for j := o.Begin(1); j < o.End(1); j++ {
			for k := o.Begin(2); k < o.End(2); k++ {
				if o.At(i, j, k) != want(i+1, j-2, k+7) {
					t.Fatalf("OffsetView3 at (%d, %d, %d)", i, j, k)
				}
			}
		}
	}

	dev := Must(NewView2[float64]("dev2", 2, 3, InSpace(checked(t, newFakeSpace(false)))))
	defer dev.Release()
	const msg = `view "dev2" lives in FakeDeviceSpace, which the host cannot access (index (0, 0))`
	expectPanic(t, msg, func() {
		for i := range dev.Extent(0) {
			for j := range dev.Extent(1) {
				_ = dev.At(i, j)
			}
		}
	})
	dd := DynRankFrom[float64](dev)
	expectPanic(t, msg, func() {
		for i := range dd.Extent(0) {
			for j := range dd.Extent(1) {
				_ = dd.At2(i, j)
			}
		}
	})
	od := Must(OffsetView2Of(dev, [2]int{4, -4}))
	expectPanic(t, `view "dev2" lives in FakeDeviceSpace, which the host cannot access (index (4, -4))`, func() {
		for i := od.Begin(0); i < od.End(0); i++ {
			for j := od.Begin(1); j < od.End(1); j++ {
				_ = od.At(i, j)
			}
		}
	})
	expectPanic(t, `lives in FakeDeviceSpace`, func() { p := dev.Ptr(1, 2); _ = p })
	expectPanic(t, `lives in FakeDeviceSpace`, func() { dev.Set(1, 2, 1) })
}
