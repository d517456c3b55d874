package kokkos

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/testutil"
)

// deviceRoundTrip copies a random host view into a (sub)view of a device
// parent of layout dk, then the whole device parent back to the host, and
// checks the subview's elements and that nothing else changed.
func deviceRoundTrip(t *testing.T, rng *rand.Rand, space MemorySpace, ext []int, dk, sk int, dsub, ssub bool) {
	t.Helper()
	name := fmt.Sprintf("%s %v dst%d-sub%v src%d-sub%v", space.Name(), ext, dk, dsub, sk, ssub)
	src := makeTestView(t, rng, "src", ext, sk, ssub)
	// The device parent and its initial contents from a host view.
	pext := append([]int(nil), ext...)
	args := make([]any, len(ext))
	for r := range ext {
		args[r] = All
		if dsub {
			pext[r]++
			args[r] = Pair(1, 1+ext[r])
		}
	}
	init, _ := newViewR[float64]("init", pext)
	id := init.viewDesc()
	for i := range id.data {
		id.data[i] = 1 + rng.Float64()
	}
	dev, err := newViewR[float64]("dev", pext, append(layoutOpts(rng, dk, pext), InSpace(space))...)
	if err != nil {
		t.Fatal(err)
	}
	defer release(t, dev)
	if err := DeepCopy(dev, init); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sub := dev
	if dsub {
		sub = subviewR(dev, args)
	}
	if err := DeepCopy(sub, src.v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	back, _ := newViewR[float64]("back", pext, LayoutLeft)
	if err := DeepCopy(back, dev); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// Also device → host straight from the subview.
	direct, _ := newViewR[float64]("direct", ext)
	if err := DeepCopy(direct, sub); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	bd, sd, dd := back.viewDesc(), src.v.viewDesc(), direct.viewDesc()
	testutil.ForEachIndex(pext, func(idx []int) {
		in := true
		sidx := make([]int, len(idx))
		for r := range idx {
			sidx[r] = idx[r]
			if dsub {
				sidx[r]--
				in = in && idx[r] >= 1
			}
		}
		got := bd.data[offsetOf(bd.strides(), idx)]
		want := id.data[offsetOf(id.strides(), idx)]
		if in {
			want = sd.data[offsetOf(sd.strides(), sidx)]
			if d := dd.data[offsetOf(dd.strides(), sidx)]; d != want {
				t.Fatalf("%s: direct %v = %v, want %v", name, sidx, d, want)
			}
		}
		if got != want {
			t.Fatalf("%s: %v = %v, want %v", name, idx, got, want)
		}
	})
}

func TestFakeDevice(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	plain := newFakeSpace(false)
	spaces := []MemorySpace{checked(t, plain), checked(t, newFakeSpace(false).With2D())}
	for _, sp := range spaces {
		for rank := 1; rank <= 4; rank++ {
			for dk := range 3 {
				for sk := range 3 {
					for c := range 4 {
						deviceRoundTrip(t, rng, sp, randExt(rng, rank), dk, sk, c&1 != 0, c&2 != 0)
					}
				}
			}
		}
		deviceRoundTrip(t, rng, sp, []int{40, 300}, 2, 0, true, true)
		deviceRoundTrip(t, rng, sp, []int{3, 2, 2, 3, 2, 1, 2, 3}, 1, 2, true, false)
	}
	if plain.Calls() == 0 {
		t.Fatal("the fake device was never called")
	}
}

func TestFakeDeviceContiguousIsOneCall(t *testing.T) {
	fs := newFakeSpace(false)
	cs := checked(t, fs)
	h, _ := NewView3[int64]("h", 10, 20, 30)
	for i := range h.Data() {
		h.Data()[i] = int64(i*7 + 1)
	}
	d, err := NewView3[int64]("d", 10, 20, 30, InSpace(cs), WithoutInitializing)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	fs.ResetCalls()
	if err := DeepCopy[int64](d, h); err != nil {
		t.Fatal(err)
	}
	if fs.Calls() != 1 {
		t.Fatalf("%d hook calls, want 1", fs.Calls())
	}
	m, err := CreateMirrorViewAndCopy(d)
	if err != nil {
		t.Fatal(err)
	}
	if m.Label() != "d" || m.Space() != HostSpace || m.At(9, 19, 29) != h.At(9, 19, 29) || m.At(3, 4, 5) != h.At(3, 4, 5) {
		t.Fatalf("mirror %q in %s: %d", m.Label(), m.Space().Name(), m.At(9, 19, 29))
	}
	// Fill of a device subview, then check through a mirror.
	if err := Fill[int64](d.Subview2(2, All, Pair(3, 9)), -5); err != nil {
		t.Fatal(err)
	}
	if err := DeepCopy[int64](m, d); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		for j := range 20 {
			for k := range 30 {
				want := h.At(i, j, k)
				if i == 2 && k >= 3 && k < 9 {
					want = -5
				}
				if m.At(i, j, k) != want {
					t.Fatalf("(%d,%d,%d) = %d, want %d", i, j, k, m.At(i, j, k), want)
				}
			}
		}
	}
	// Rank 0 on the device.
	s, _ := NewView0[int64]("s", InSpace(cs))
	defer s.Release()
	if err := Fill[int64](s, 11); err != nil {
		t.Fatal(err)
	}
	var x int64
	if err := DeepCopyToScalar[int64](&x, s); err != nil || x != 11 {
		t.Fatalf("%d %v", x, err)
	}
	// Conversion from the device.
	f, _ := NewView3[float64]("f", 10, 20, 30, LayoutLeft)
	if err := DeepCopyConvert[float64, int64](f, d); err != nil || f.At(9, 19, 29) != float64(h.At(9, 19, 29)) {
		t.Fatal(err)
	}
	if err := DeepCopyConvert[int64, float64](d, f); err != nil {
		t.Fatal(err)
	}
}

func TestDeepCopyOnAsyncSpace(t *testing.T) {
	fs := newFakeSpace(false).WithAsync(func(e backend.Exec) backend.WorkQueue {
		q, _ := e.(*testQueue)
		if q == nil {
			return nil
		}
		return q
	})
	cs := checked(t, fs)
	q1, q2 := newTestQueue(), newTestQueue()
	defer close(q1.work)
	defer close(q2.work)
	h1, _ := NewView1[float32]("h1", 1000)
	h2, _ := NewView1[float32]("h2", 1000)
	for i := range 1000 {
		h1.Set(i, float32(i))
		h2.Set(i, float32(-i))
	}
	d1, _ := NewView1[float32]("d1", 1000, InSpace(cs))
	d2, _ := NewView1[float32]("d2", 1000, InSpace(cs))
	defer d1.Release()
	defer d2.Release()
	if err := DeepCopyOn[float32](q1, d1, h1); err != nil {
		t.Fatal(err)
	}
	if err := DeepCopyOn[float32](q2, d2, h2); err != nil {
		t.Fatal(err)
	}
	// Changing the host source after submission must not matter: the
	// backend staged it.
	h1.Set(5, 99)
	r1, _ := NewView1[float32]("r1", 1000)
	r2, _ := NewView1[float32]("r2", 1000)
	if err := DeepCopyOn[float32](q1, r1, d1); err != nil {
		t.Fatal(err)
	}
	if err := DeepCopyOn[float32](q2, r2, d2); err != nil {
		t.Fatal(err)
	}
	if err := q1.Fence(); err != nil {
		t.Fatal(err)
	}
	if err := q2.Fence(); err != nil {
		t.Fatal(err)
	}
	if fs.Queued() != 2 {
		t.Fatalf("%d copies queued on the backend, want 2", fs.Queued())
	}
	for i := range 1000 {
		if r1.At(i) != float32(i) || r2.At(i) != float32(-i) {
			t.Fatalf("%d: %v %v", i, r1.At(i), r2.At(i))
		}
	}
}

func TestCreateMirror(t *testing.T) {
	v, _ := NewView3[float64]("v", 4, 5, 6, LayoutLeft, AllowPadding, WithTraits(Atomic))
	m, err := CreateMirror(v)
	if err != nil {
		t.Fatal(err)
	}
	if m.Equal(v) || m.Layout() != LayoutLeft || m.Label() != "v_mirror" || m.Traits() != 0 || !m.SpanIsContiguous() || m.Extent(2) != 6 {
		t.Fatalf("mirror %+v", m.LayoutSpec())
	}
	same, _ := CreateMirrorView(v)
	if !same.Equal(v) {
		t.Fatal("CreateMirrorView of a host view is not the view")
	}
	cp, _ := CreateMirrorViewAndCopy(v)
	if !cp.Equal(v) {
		t.Fatal("CreateMirrorViewAndCopy of a host view is not the view")
	}
	// A non-contiguous LayoutStride subview's mirror has its strides, as
	// Kokkos's mirror made from src.layout().
	s := v.Subview2(1, Pair(1, 4), All)
	ms, _ := CreateMirror(s)
	if s.Layout() != LayoutStride || ms.Layout() != LayoutStride || ms.Extent(0) != 3 || ms.Extent(1) != 6 || ms.Stride(0) != s.Stride(0) || ms.Stride(1) != s.Stride(1) {
		t.Fatalf("subview mirror %v %+v", s.Layout(), ms.LayoutSpec())
	}
	// A contiguous LayoutStride view keeps its strides.
	w, _ := NewView2[int]("w", 3, 4, WithStrides(1, 3))
	mw, _ := CreateMirror(w)
	if mw.Layout() != LayoutStride || mw.Stride(1) != 3 {
		t.Fatalf("%+v", mw.LayoutSpec())
	}
	// Into a device space and back.
	fs := checked(t, newFakeSpace(false))
	dv, err := CreateMirrorViewAndCopy(v, InSpace(fs))
	if err != nil {
		t.Fatal(err)
	}
	defer dv.Release()
	if dv.Space() != MemorySpace(fs) {
		t.Fatal("not in the fake space")
	}
	same2, _ := CreateMirrorView(dv, InSpace(fs))
	if !same2.Equal(dv) {
		t.Fatal("CreateMirrorView into the view's own space is not the view")
	}
	var z View2[int]
	mz, err := CreateMirror(z)
	if err != nil || mz.IsAllocated() {
		t.Fatal("mirror of the zero view")
	}
}
