package cuda_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
	"github.com/gokkos/kokkos/internal/testutil"
)

// newViewR allocates a view of rank len(ext) as the View0..View8 kind.
func newViewR[T any](label string, ext []int, opts ...kokkos.Option) (kokkos.View[T], error) {
	e := func(i int) int { return ext[i] }
	switch len(ext) {
	case 0:
		return kokkos.NewView0[T](label, opts...)
	case 1:
		return kokkos.NewView1[T](label, e(0), opts...)
	case 2:
		return kokkos.NewView2[T](label, e(0), e(1), opts...)
	case 3:
		return kokkos.NewView3[T](label, e(0), e(1), e(2), opts...)
	case 4:
		return kokkos.NewView4[T](label, e(0), e(1), e(2), e(3), opts...)
	case 5:
		return kokkos.NewView5[T](label, e(0), e(1), e(2), e(3), e(4), opts...)
	case 6:
		return kokkos.NewView6[T](label, e(0), e(1), e(2), e(3), e(4), e(5), opts...)
	case 7:
		return kokkos.NewView7[T](label, e(0), e(1), e(2), e(3), e(4), e(5), e(6), opts...)
	case 8:
		return kokkos.NewView8[T](label, e(0), e(1), e(2), e(3), e(4), e(5), e(6), e(7), opts...)
	}
	panic("rank")
}

// subviewR returns the same-rank subview of v.
func subviewR[T any](v kokkos.View[T], a []any) kokkos.View[T] {
	switch v := v.(type) {
	case kokkos.View0[T]:
		return v
	case kokkos.View1[T]:
		return v.Subview1(a[0])
	case kokkos.View2[T]:
		return v.Subview2(a[0], a[1])
	case kokkos.View3[T]:
		return v.Subview3(a[0], a[1], a[2])
	case kokkos.View4[T]:
		return v.Subview4(a[0], a[1], a[2], a[3])
	case kokkos.View5[T]:
		return v.Subview5(a[0], a[1], a[2], a[3], a[4])
	case kokkos.View6[T]:
		return v.Subview6(a[0], a[1], a[2], a[3], a[4], a[5])
	case kokkos.View7[T]:
		return v.Subview7(a[0], a[1], a[2], a[3], a[4], a[5], a[6])
	case kokkos.View8[T]:
		return v.Subview8(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7])
	}
	panic("kind")
}

// anyRank is what the tests use of a view of any rank: a DynRankView holds
// ranks up to 7, and a View8 answers for itself.
type anyRank[T any] interface {
	Data() []T
	Strides() []int
	Release() error
}

func asAnyRank[T any](v kokkos.View[T]) anyRank[T] {
	if v8, ok := v.(kokkos.View8[T]); ok {
		return &v8
	}
	d := kokkos.DynRankFrom(v)
	return &d
}

func release[T any](t *testing.T, v kokkos.View[T]) {
	t.Helper()
	if err := asAnyRank(v).Release(); err != nil {
		t.Fatal(err)
	}
}

// layoutOpts returns the options of layout kind k: 0 LayoutRight, 1
// LayoutLeft, 2 a permuted LayoutStride with gaps.
func layoutOpts(rng *rand.Rand, k int, ext []int) []kokkos.Option {
	switch k {
	case 0:
		return []kokkos.Option{kokkos.LayoutRight}
	case 1:
		return []kokkos.Option{kokkos.LayoutLeft}
	}
	return []kokkos.Option{kokkos.WithStrides(testutil.GappedStrides(rng, ext)...)}
}

// hostAt returns the element of host view v at idx.
func hostAt(v kokkos.View[float64], idx []int) float64 {
	d := asAnyRank(v)
	return d.Data()[offset(d.Strides(), idx)]
}

func offset(str, idx []int) int {
	o := 0
	for r, i := range idx {
		o += i * str[r]
	}
	return o
}

// hostView allocates a host view of extents ext and layout kind k filled
// with random non-zero values, a subview of a larger parent when sub.
func hostView(t *testing.T, rng *rand.Rand, label string, ext []int, k int, sub bool) kokkos.View[float64] {
	t.Helper()
	pext, args := parentOf(rng, ext, sub)
	p, err := newViewR[float64](label, pext, layoutOpts(rng, k, pext)...)
	if err != nil {
		t.Fatal(err)
	}
	data := asAnyRank(p).Data()
	for i := range data {
		data[i] = float64(1+rng.IntN(1<<30)) + rng.Float64()
	}
	if sub {
		return subviewR(p, args)
	}
	return p
}

// parentOf returns larger extents and the subview arguments that cut ext
// out of them (All when not sub).
func parentOf(rng *rand.Rand, ext []int, sub bool) ([]int, []any) {
	pext := append([]int(nil), ext...)
	args := make([]any, len(ext))
	for r := range ext {
		args[r] = kokkos.All
		if sub {
			pext[r] += 1 + rng.IntN(2)
			b := rng.IntN(pext[r] - ext[r] + 1)
			args[r] = kokkos.Pair(b, b+ext[r])
		}
	}
	return pext, args
}

var extCap = [...]int{1, 300, 40, 12, 6, 4, 3, 3, 2}

// TestViewRoundTrip copies random host views into device views and back,
// for every rank 0 to 8, every pair of layouts (Right, Left, Stride) and
// contiguous or strided subviews on either side, and compares every
// element, including the device parent's elements outside a subview.
func TestViewRoundTrip(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for rank := 0; rank <= kokkos.MaxRank; rank++ {
		for dk := range 3 {
			for sk := range 3 {
				for sub := range 4 {
					ext := make([]int, rank)
					for r := range ext {
						ext[r] = 1 + rng.IntN(extCap[rank])
					}
					roundTrip(t, rng, ext, dk, sk, sub&1 != 0, sub&2 != 0)
				}
			}
		}
	}
}

func roundTrip(t *testing.T, rng *rand.Rand, ext []int, dk, sk int, dsub, ssub bool) {
	t.Helper()
	name := fmt.Sprintf("ext %v dst layout %d sub %v, src layout %d sub %v", ext, dk, dsub, sk, ssub)
	src := hostView(t, rng, "src", ext, sk, ssub)
	pext, args := parentOf(rng, ext, dsub)
	init := hostView(t, rng, "init", pext, 0, false)
	dev, err := newViewR[float64]("dev", pext, append(layoutOpts(rng, dk, pext), kokkos.InSpace(cuda.Space))...)
	if err != nil {
		t.Fatal(err)
	}
	defer release(t, dev)
	if err := kokkos.DeepCopy(dev, init); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sub := dev
	if dsub {
		sub = subviewR(dev, args)
	}
	if err := kokkos.DeepCopy(sub, src); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	back, _ := newViewR[float64]("back", pext, kokkos.LayoutLeft)
	if err := kokkos.DeepCopy(back, dev); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	// Device subview straight into a host view of another layout, itself
	// possibly a subview.
	direct := hostView(t, rng, "direct", ext, rng.IntN(3), rng.IntN(2) == 0)
	if err := kokkos.DeepCopy(direct, sub); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	off := make([]int, len(ext))
	for r, a := range args {
		if p, ok := a.(kokkos.PairRange); ok {
			off[r] = p.Begin
		}
	}
	sidx := make([]int, len(ext))
	testutil.ForEachIndex(pext, func(idx []int) {
		in := true
		for r := range idx {
			sidx[r] = idx[r] - off[r]
			in = in && sidx[r] >= 0 && sidx[r] < ext[r]
		}
		want := hostAt(init, idx)
		if in {
			want = hostAt(src, sidx)
			if got := hostAt(direct, sidx); got != want {
				t.Fatalf("%s: device→host %v = %v, want %v", name, sidx, got, want)
			}
		}
		if got := hostAt(back, idx); got != want {
			t.Fatalf("%s: round trip %v = %v, want %v", name, idx, got, want)
		}
	})
}

// TestViewFill fills device views, contiguous and strided (a block and a
// column of a LayoutRight matrix, a row of a LayoutLeft one), with element
// sizes 1, 2, 4, 8, 12 and 16 bytes, and checks every element.
func TestViewFill(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(3, 4))
	fillCase(t, rng, uint8(0xa7), uint8(0x3c))
	fillCase(t, rng, int16(-12345), int16(777))
	fillCase(t, rng, float32(3.25), float32(-1.5))
	fillCase(t, rng, 2.718281828, -0.125)
	fillCase(t, rng, [3]float32{1, 2, 3}, [3]float32{-4, 5.5, 6})
	fillCase(t, rng, complex(1.5, -2.25), complex(7, 8))
	fillCase(t, rng, [3]byte{1, 2, 3}, [3]byte{9, 8, 7})
}

func fillCase[T comparable](t *testing.T, rng *rand.Rand, x, y T) {
	t.Helper()
	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		n0, n1 := 200+rng.IntN(100), 300+rng.IntN(100)
		name := fmt.Sprintf("%T %v", x, l)
		d, err := kokkos.NewView2[T]("fill", n0, n1, l, kokkos.InSpace(cuda.Space))
		if err != nil {
			t.Fatal(err)
		}
		if err := kokkos.Fill(d, x); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r0, r1, c0, c1 := 3, n0-5, 7, n1-2
		blk := d.Subview2(kokkos.Pair(r0, r1), kokkos.Pair(c0, c1))
		if err := kokkos.Fill(blk, y); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// A column of LayoutRight (element stride n1) or a row of
		// LayoutLeft: one element per run.
		var line kokkos.View1[T]
		lineAt := 1
		if l == kokkos.LayoutRight {
			line = d.Subview1(kokkos.All, lineAt)
		} else {
			line = d.Subview1(lineAt, kokkos.All)
		}
		if err := kokkos.Fill(line, y); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h, err := kokkos.CreateMirrorViewAndCopy(d)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n0 {
			for j := range n1 {
				want := x
				if i >= r0 && i < r1 && j >= c0 && j < c1 {
					want = y
				}
				if l == kokkos.LayoutRight && j == lineAt || l == kokkos.LayoutLeft && i == lineAt {
					want = y
				}
				if got := h.At(i, j); got != want {
					t.Fatalf("%s: (%d, %d) = %v, want %v", name, i, j, got, want)
				}
			}
		}
		if err := d.Release(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestViewMirrors checks the mirror functions with device, pinned and
// unified views, host access to device views, and copies between every
// pair of CUDA spaces and the host.
func TestViewMirrors(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(5, 6))
	const n0, n1 = 123, 77
	d, err := kokkos.NewView2[float64]("d", n0, n1, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	func() {
		defer func() {
			msg := fmt.Sprint(recover())
			if !strings.Contains(msg, `"d"`) || !strings.Contains(msg, "CudaSpace") || !strings.Contains(msg, "CreateMirrorView") {
				t.Errorf("host access to a device view: panic %q", msg)
			}
		}()
		_ = d.At(1, 2)
	}()
	m, err := kokkos.CreateMirrorView(d)
	if err != nil {
		t.Fatal(err)
	}
	if m.Space() != kokkos.HostSpace || m.Extent(0) != n0 || m.Extent(1) != n1 || m.Label() != "d_mirror" {
		t.Fatalf("mirror: space %s, extents %d×%d, label %q", m.Space().Name(), m.Extent(0), m.Extent(1), m.Label())
	}
	h, _ := kokkos.NewView2[float64]("h", n0, n1, kokkos.LayoutLeft)
	for i, data := 0, h.Data(); i < len(data); i++ {
		data[i] = rng.NormFloat64() + 3
	}
	dh, err := kokkos.CreateMirrorViewAndCopy(h, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer dh.Release()
	if dh.Space() != cuda.Space || dh.Layout() != kokkos.LayoutLeft {
		t.Fatalf("CreateMirrorViewAndCopy to CudaSpace: space %s layout %v", dh.Space().Name(), dh.Layout())
	}
	if same, err := kokkos.CreateMirrorViewAndCopy(dh, kokkos.InSpace(cuda.Space)); err != nil || !same.Equal(dh) {
		t.Fatalf("a device view is its own device mirror: %v", err)
	}
	// Device → device (other layout) → pinned → unified → device → host.
	if err := kokkos.DeepCopy(d, dh); err != nil {
		t.Fatal(err)
	}
	p, err := kokkos.NewView2[float64]("p", n0, n1, kokkos.InSpace(cuda.HostPinnedSpace))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	u, err := kokkos.NewView2[float64]("u", n0, n1, kokkos.LayoutLeft, kokkos.InSpace(cuda.UVMSpace))
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(p, d); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(u, p); err != nil {
		t.Fatal(err)
	}
	d2, err := kokkos.NewView2[float64]("d2", n0, n1, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Release()
	if err := kokkos.DeepCopy(d2, u); err != nil {
		t.Fatal(err)
	}
	back, err := kokkos.CreateMirrorViewAndCopy(d2)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n0 {
		for j := range n1 {
			if p.At(i, j) != h.At(i, j) || u.At(i, j) != h.At(i, j) || back.At(i, j) != h.At(i, j) {
				t.Fatalf("(%d, %d): pinned %v unified %v back %v, want %v", i, j, p.At(i, j), u.At(i, j), back.At(i, j), h.At(i, j))
			}
		}
	}
	// Pinned and unified views are their own host mirrors, and the host
	// writes them directly; a device fill into unified memory is visible
	// to the host after a fence.
	if mp, _ := kokkos.CreateMirrorView(p); !mp.Equal(p) {
		t.Fatal("a pinned view must be its own mirror")
	}
	if mu, _ := kokkos.CreateMirrorView(u); !mu.Equal(u) {
		t.Fatal("a unified view must be its own mirror")
	}
	u.Set(4, 5, 42.5)
	if err := kokkos.DeepCopy(d2, u); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(back, d2); err != nil {
		t.Fatal(err)
	}
	if back.At(4, 5) != 42.5 {
		t.Fatalf("host write to unified memory: device copy holds %v", back.At(4, 5))
	}
	if err := kokkos.Fill(d2, 6.5); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(u.Subview2(kokkos.Pair(10, 20), kokkos.All), d2.Subview2(kokkos.Pair(30, 40), kokkos.All)); err != nil {
		t.Fatal(err)
	}
	if err := cuda.Synchronize(); err != nil {
		t.Fatal(err)
	}
	if u.At(15, 3) != 6.5 || u.At(9, 3) != h.At(9, 3) {
		t.Fatalf("unified after a device copy: %v %v", u.At(15, 3), u.At(9, 3))
	}
	if err := u.Release(); err != nil {
		t.Fatal(err)
	}
	// The last Release frees unified memory at once, as any block.
	for _, a := range cuda.LiveAllocations() {
		if a.Label == "u" {
			t.Fatalf("unified block still live after its last Release: %s", a)
		}
	}
}

// TestDeepCopyOnStreams queues copies and fills on two streams, from
// pageable, pinned and device memory, fences both and checks the results;
// Fence reports the error of submitted work once.
func TestDeepCopyOnStreams(t *testing.T) {
	dev := cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(7, 8))
	s1, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Release()
	s2, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Release()
	const n = 3<<20 + 11 // 24 MiB of float64: staged in chunks
	var hs [2]kokkos.View1[float64]
	var ds, dcopy [2]kokkos.View1[float64]
	var backs [2]kokkos.View1[float64]
	for k := range 2 {
		var space kokkos.MemorySpace = kokkos.HostSpace
		if k == 1 {
			space = cuda.HostPinnedSpace
		}
		hs[k], err = kokkos.NewView1[float64]("h", n, kokkos.InSpace(space))
		if err != nil {
			t.Fatal(err)
		}
		for i, data := 0, hs[k].Data(); i < n; i++ {
			data[i] = rng.Float64() + 1
		}
		ds[k], _ = kokkos.NewView1[float64]("d", n, kokkos.InSpace(cuda.Space))
		dcopy[k], _ = kokkos.NewView1[float64]("dc", n, kokkos.InSpace(cuda.Space), kokkos.LayoutRight)
		backs[k], _ = kokkos.NewView1[float64]("back", n)
	}
	streams := []*cuda.Stream{s1, s2}
	for k, s := range streams {
		if err := kokkos.DeepCopyOn(s, ds[k], hs[k]); err != nil {
			t.Fatal(err)
		}
		if err := kokkos.FillOn(s, ds[k].Subview1(kokkos.Pair(100, 200)), -float64(k+1)); err != nil {
			t.Fatal(err)
		}
		if err := kokkos.DeepCopyOn(s, dcopy[k], ds[k]); err != nil {
			t.Fatal(err)
		}
	}
	// Pageable source overwritten after DeepCopyOn returned: the copy
	// must have taken the old values.
	old := append([]float64(nil), hs[0].Data()...)
	for i := range old {
		hs[0].Data()[i] = 0.5
	}
	for k, s := range streams {
		if err := kokkos.DeepCopyOn(s, backs[k], dcopy[k]); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range streams {
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
	}
	for k := range 2 {
		ref := hs[k].Data()
		if k == 0 {
			ref = old
		}
		got := backs[k].Data()
		for i := range n {
			want := ref[i]
			if i >= 100 && i < 200 {
				want = -float64(k + 1)
			}
			if got[i] != want {
				t.Fatalf("stream %d: element %d = %v, want %v", k, i, got[i], want)
			}
		}
		for _, v := range []kokkos.View1[float64]{hs[k], ds[k], dcopy[k]} {
			if err := v.Release(); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A strided device → host copy goes through Submit.
	m, _ := kokkos.NewView2[int32]("m", 64, 48, kokkos.InSpace(cuda.Space))
	defer m.Release()
	if err := kokkos.FillOn(s1, m, 9); err != nil {
		t.Fatal(err)
	}
	col, _ := kokkos.NewView1[int32]("col", 64)
	if err := kokkos.DeepCopyOn(s1, col, m.Subview1(kokkos.All, 5)); err != nil {
		t.Fatal(err)
	}
	if err := s1.Fence(); err != nil {
		t.Fatal(err)
	}
	for i := range 64 {
		if col.At(i) != 9 {
			t.Fatalf("column %d = %d", i, col.At(i))
		}
	}
	boom := errors.New("boom")
	s2.Submit(func() error { return boom })
	s2.Submit(func() error { return nil })
	if err := s2.Fence(); !errors.Is(err, boom) {
		t.Fatalf("Fence after failing work: %v", err)
	}
	if err := s2.Fence(); err != nil {
		t.Fatalf("second Fence: %v", err)
	}
}

// TestViewOutOfMemory asks for a device view larger than the device.
func TestViewOutOfMemory(t *testing.T) {
	dev := cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	n := int(dev.TotalMemory()/8) + 1<<28
	_, err := kokkos.NewView1[float64]("too-big-view", n, kokkos.InSpace(cuda.Space))
	if err == nil {
		t.Fatal("no error")
	}
	for _, s := range []string{"cuMemAlloc", "CUDA_ERROR_OUT_OF_MEMORY", "too-big-view"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not mention %s", err, s)
		}
	}
	if !errors.Is(err, cuda.ErrOutOfMemory) {
		t.Errorf("errors.Is(%v, ErrOutOfMemory) is false", err)
	}
}

// TestViewUseAfterRelease copies into and fills a released device view.
func TestViewUseAfterRelease(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	d, err := kokkos.NewView1[float64]("gone", 1000, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := kokkos.NewView1[float64]("h", 1000)
	h.Set(3, 1)
	if err := d.Release(); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(d, h); err == nil || !strings.Contains(err.Error(), "released") {
		t.Fatalf("DeepCopy into a released view: %v", err)
	}
	if err := kokkos.DeepCopy(h, d); err == nil {
		t.Fatal("DeepCopy from a released view: no error")
	}
	if err := kokkos.Fill(d, 2.0); err == nil {
		t.Fatal("Fill of a released view: no error")
	}
	// The hook itself refuses freed memory.
	err = cuda.Space.CopyBytes(backend.Endpoint{Space: cuda.Space, Addr: d.Allocation().Addr()}, backend.Endpoint{Space: cuda.Space, Addr: d.Allocation().Addr()}, 8)
	if !errors.Is(err, cuda.ErrFreed) {
		t.Fatalf("CopyBytes on freed memory: %v", err)
	}
}

// TestUVMViewAfterRelease: a view in unified memory reads and writes as
// its reference from the host while live; after its final Release every
// host accessor of it, its copies, subviews and offset and DynRankView
// forms panics naming the label, instead of touching freed memory.
func TestUVMViewAfterRelease(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	v, err := kokkos.NewView2[float64]("uvm", 64, 32, kokkos.InSpace(cuda.UVMSpace))
	if err != nil {
		t.Fatal(err)
	}
	d, err := kokkos.NewDynRankView[float64]("uvm", []int{4, 4, 4}, kokkos.InSpace(cuda.UVMSpace))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	want := make([]float64, 64*32)
	for i := range want {
		want[i] = rng.Float64()
		v.Set(i/32, i%32, want[i])
	}
	d.Set3(1, 2, 3, 2.5)
	sub := v.Subview1(5, kokkos.All)
	ro := v.ReadOnly()
	o, err := kokkos.OffsetView2Of(v, [2]int{-3, 10})
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range want {
		if v.At(i/32, i%32) != x || ro.At(i/32, i%32) != x || o.At(i/32-3, i%32+10) != x {
			t.Fatalf("live UVM view at %d disagrees with the reference %v", i, x)
		}
	}
	if sub.At(7) != want[5*32+7] || d.At3(1, 2, 3) != 2.5 {
		t.Fatal("live UVM subview or DynRankView disagrees with what was stored")
	}
	if err := v.Release(); err != nil {
		t.Fatal(err)
	}
	if err := d.Release(); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(){
		"At":           func() { v.At(1, 1) },
		"Set":          func() { v.Set(1, 1, 0) },
		"Row":          func() { v.Row(1) },
		"Data":         func() { v.Data() },
		"subview At":   func() { sub.At(1) },
		"read-only At": func() { ro.At(1, 1) },
		"offset At":    func() { o.At(0, 12) },
		"DynRank At3":  func() { d.At3(1, 2, 3) },
	} {
		func() {
			defer func() {
				r := recover()
				if s := fmt.Sprint(r); r == nil || !strings.Contains(s, `"uvm"`) || !strings.Contains(s, "after the final Release") {
					t.Errorf("%s after the final Release: recovered %v, want a panic naming the view", name, r)
				}
			}()
			f()
		}()
	}
}
