package cuda_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
	"github.com/gokkos/kokkos/internal/testutil"
)

// Device copies and fills of strided views (the kernels of
// backend.StridedCopySpace), checked element by element against a naive
// host reference on random data.

// randBytes fills data with random bytes, none of them zero.
func randBytes[T any](rng *rand.Rand, data []T) {
	var z T
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(data))), len(data)*int(unsafe.Sizeof(z)))
	for i := range b {
		b[i] = byte(1 + rng.IntN(255))
	}
}

func randValue[T any](rng *rand.Rand) T {
	var x [1]T
	randBytes(rng, x[:])
	return x[0]
}

func dynData[T any](v kokkos.View[T]) []T {
	d := kokkos.DynRankFrom(v)
	return d.Data()
}

func sameBytes[T any](a, b *T) bool {
	n := int(unsafe.Sizeof(*a))
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(a)), n), unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
}

// subOf returns parent extents around ext, the subview arguments that cut
// ext out of them and the begins (All and zeros when not sub).
func subOf(rng *rand.Rand, ext []int, sub bool) ([]int, []any, []int) {
	pext, args := parentOf(rng, ext, sub)
	beg := make([]int, len(ext))
	for r, a := range args {
		if p, ok := a.(kokkos.PairRange); ok {
			beg[r] = p.Begin
		}
	}
	return pext, args, beg
}

func plus(a, b []int) []int {
	c := make([]int, len(a))
	for i := range a {
		c[i] = a[i] + b[i]
	}
	return c
}

// devSide is a device view of random elements with its host copy.
type devSide[T any] struct {
	dev, host kokkos.View[T]
	pext      []int
	args      []any
	beg       []int
	str       []int
}

// newSide allocates a parent view of layout kind k around ext in space
// with random elements, and its host copy.
func newSide[T any](t *testing.T, rng *rand.Rand, label string, ext []int, k int, sub bool, space kokkos.MemorySpace) devSide[T] {
	t.Helper()
	var s devSide[T]
	s.pext, s.args, s.beg = subOf(rng, ext, sub)
	opts := layoutOpts(rng, k, s.pext)
	var err error
	if s.host, err = newViewR[T](label+" host", s.pext, opts...); err != nil {
		t.Fatal(err)
	}
	randBytes(rng, dynData(s.host))
	if s.dev, err = newViewR[T](label, s.pext, append(opts, kokkos.InSpace(space))...); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(s.dev, s.host); err != nil {
		t.Fatal(err)
	}
	d := kokkos.DynRankFrom(s.host)
	s.str = d.Strides()
	return s
}

// check reads s's device parent back and compares every element with
// want, the host data of the same layout.
func (s *devSide[T]) check(t *testing.T, what string, want []T) {
	t.Helper()
	got, err := newViewR[T]("got", s.pext, layoutLike(s.host)...)
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(got, s.dev); err != nil {
		t.Fatal(err)
	}
	gd := kokkos.DynRankFrom(got)
	gs := gd.Strides()
	bad := 0
	testutil.ForEachIndex(s.pext, func(idx []int) {
		g, w := &gd.Data()[offset(gs, idx)], &want[offset(s.str, idx)]
		if !sameBytes(g, w) && bad < 5 {
			bad++
			t.Errorf("%s: element %v = %v, want %v", what, idx, *g, *w)
		}
	})
}

// layoutLike returns the options of a view with v's layout and strides.
func layoutLike[T any](v kokkos.View[T]) []kokkos.Option {
	d := kokkos.DynRankFrom(v)
	switch d.Layout() {
	case kokkos.LayoutRight:
		return []kokkos.Option{kokkos.LayoutRight}
	case kokkos.LayoutLeft:
		return []kokkos.Option{kokkos.LayoutLeft}
	}
	return []kokkos.Option{kokkos.WithStrides(d.Strides()[:d.Rank()]...)}
}

// copyCase copies a random source (layout kind sk, a subview when ssub)
// into a destination (dk, dsub) on the device, on st or synchronously,
// and checks the destination's whole parent.
func copyCase[T any](t *testing.T, rng *rand.Rand, ext []int, dk, sk int, dsub, ssub bool, dspace, sspace kokkos.MemorySpace, st *cuda.Stream) {
	t.Helper()
	src := newSide[T](t, rng, "src", ext, sk, ssub, sspace)
	defer release(t, src.dev)
	dst := newSide[T](t, rng, "dst", ext, dk, dsub, dspace)
	defer release(t, dst.dev)
	hd := dynData(dst.host)
	want := append([]T(nil), hd...)
	sd := dynData(src.host)
	testutil.ForEachIndex(ext, func(idx []int) {
		want[offset(dst.str, plus(dst.beg, idx))] = sd[offset(src.str, plus(src.beg, idx))]
	})
	dv, sv := subviewR(dst.dev, dst.args), subviewR(src.dev, src.args)
	if st == nil {
		if err := kokkos.DeepCopy(dv, sv); err != nil {
			t.Fatal(err)
		}
	} else {
		if err := kokkos.DeepCopyOn(st, dv, sv); err != nil {
			t.Fatal(err)
		}
		if err := st.Fence(); err != nil {
			t.Fatal(err)
		}
	}
	dst.check(t, fmt.Sprintf("copy %v layouts %d<-%d sub %v<-%v %s<-%s", ext, dk, sk, dsub, ssub, dspace.Name(), sspace.Name()), want)
}

// fillCaseK fills a random view (layout kind k, a subview when sub) on
// the device and checks its whole parent.
func fillCaseK[T any](t *testing.T, rng *rand.Rand, ext []int, k int, sub bool, st *cuda.Stream) {
	t.Helper()
	dst := newSide[T](t, rng, "dst", ext, k, sub, cuda.Space)
	defer release(t, dst.dev)
	x := randValue[T](rng)
	want := append([]T(nil), dynData(dst.host)...)
	testutil.ForEachIndex(ext, func(idx []int) { want[offset(dst.str, plus(dst.beg, idx))] = x })
	dv := subviewR(dst.dev, dst.args)
	if st == nil {
		if err := kokkos.Fill(dv, x); err != nil {
			t.Fatal(err)
		}
	} else {
		if err := kokkos.FillOn(st, dv, x); err != nil {
			t.Fatal(err)
		}
		if err := st.Fence(); err != nil {
			t.Fatal(err)
		}
	}
	dst.check(t, fmt.Sprintf("fill %v layout %d sub %v", ext, k, sub), want)
}

var copykernExts = [][]int{
	{1}, {31}, {1000},
	{1, 1}, {1, 1000}, {1000, 1}, {31, 31}, {31, 1000}, {1000, 31}, {1000, 1000},
	{31, 33, 7}, {3, 1000, 31}, {1000, 1, 31},
}

// copykernTypes runs f for every element size: 1, 2, 4, 8, 16 bytes and a
// 12-byte array.
func copykernTypes(t *testing.T, f func(t *testing.T, size int)) {
	for _, size := range []int{1, 2, 4, 8, 16, 12} {
		t.Run(fmt.Sprintf("size%d", size), func(t *testing.T) { f(t, size) })
	}
}

func copyBySize(t *testing.T, size int, rng *rand.Rand, ext []int, dk, sk int, dsub, ssub bool, dsp, ssp kokkos.MemorySpace, st *cuda.Stream) {
	t.Helper()
	switch size {
	case 1:
		copyCase[uint8](t, rng, ext, dk, sk, dsub, ssub, dsp, ssp, st)
	case 2:
		copyCase[uint16](t, rng, ext, dk, sk, dsub, ssub, dsp, ssp, st)
	case 4:
		copyCase[float32](t, rng, ext, dk, sk, dsub, ssub, dsp, ssp, st)
	case 8:
		copyCase[float64](t, rng, ext, dk, sk, dsub, ssub, dsp, ssp, st)
	case 16:
		copyCase[complex128](t, rng, ext, dk, sk, dsub, ssub, dsp, ssp, st)
	case 12:
		copyCase[[3]float32](t, rng, ext, dk, sk, dsub, ssub, dsp, ssp, st)
	}
}

func fillBySize(t *testing.T, size int, rng *rand.Rand, ext []int, k int, sub bool, st *cuda.Stream) {
	t.Helper()
	switch size {
	case 1:
		fillCaseK[uint8](t, rng, ext, k, sub, st)
	case 2:
		fillCaseK[uint16](t, rng, ext, k, sub, st)
	case 4:
		fillCaseK[float32](t, rng, ext, k, sub, st)
	case 8:
		fillCaseK[float64](t, rng, ext, k, sub, st)
	case 16:
		fillCaseK[complex128](t, rng, ext, k, sub, st)
	case 12:
		fillCaseK[[3]float32](t, rng, ext, k, sub, st)
	}
}

// TestCopykernLayouts copies between device views of every layout pair
// (LayoutLeft from LayoutRight and back, gapped strides), whole and as
// subviews, of every element size and odd extents.
func TestCopykernLayouts(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(11, 12))
	copykernTypes(t, func(t *testing.T, size int) {
		for _, ext := range copykernExts {
			for _, lk := range [][2]int{{1, 0}, {0, 1}, {0, 0}, {2, 0}, {1, 2}} {
				for _, sub := range [][2]bool{{false, false}, {true, true}, {false, true}, {true, false}} {
					copyBySize(t, size, rng, ext, lk[0], lk[1], sub[0], sub[1], cuda.Space, cuda.Space, nil)
				}
			}
		}
	})
}

// TestCopykernSubview2 copies Subview2 blocks cut with Pair ranges between
// a LayoutRight and a LayoutLeft device view.
func TestCopykernSubview2(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(13, 14))
	src, err := kokkos.NewView2[float64]("src", 1000, 1031, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer release(t, src)
	dst, err := kokkos.NewView2[float64]("dst", 1031, 1010, kokkos.InSpace(cuda.Space), kokkos.LayoutLeft)
	if err != nil {
		t.Fatal(err)
	}
	defer release(t, dst)
	hs, _ := kokkos.NewView2[float64]("hs", 1000, 1031)
	randBytes(rng, hs.Data())
	if err := kokkos.DeepCopy(src, hs); err != nil {
		t.Fatal(err)
	}
	hd, _ := kokkos.NewView2[float64]("hd", 1031, 1010, kokkos.LayoutLeft)
	randBytes(rng, hd.Data())
	if err := kokkos.DeepCopy(dst, hd); err != nil {
		t.Fatal(err)
	}
	want := append([]float64(nil), hd.Data()...)
	// dst(3:34, 7:1007) <- src(1:32, 31:1031)
	for i := range 31 {
		for j := range 1000 {
			want[(3+i)+1031*(7+j)] = hs.Data()[(1+i)*1031+31+j]
		}
	}
	if err := kokkos.DeepCopy(dst.Subview2(kokkos.Pair(3, 34), kokkos.Pair(7, 1007)), src.Subview2(kokkos.Pair(1, 32), kokkos.Pair(31, 1031))); err != nil {
		t.Fatal(err)
	}
	got, _ := kokkos.NewView2[float64]("got", 1031, 1010, kokkos.LayoutLeft)
	if err := kokkos.DeepCopy(got, dst); err != nil {
		t.Fatal(err)
	}
	for k, g := range got.Data() {
		if math.Float64bits(g) != math.Float64bits(want[k]) {
			t.Fatalf("element %d (%d, %d) = %v, want %v", k, k%1031, k/1031, g, want[k])
		}
	}
}

// TestCopykernSpaces copies between device, unified and pinned views.
func TestCopykernSpaces(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(15, 16))
	pairs := [][2]kokkos.MemorySpace{
		{cuda.Space, cuda.UVMSpace}, {cuda.UVMSpace, cuda.Space},
		{cuda.Space, cuda.HostPinnedSpace}, {cuda.HostPinnedSpace, cuda.Space},
	}
	for _, p := range pairs {
		for _, ext := range [][]int{{31, 1000}, {1000, 31}, {7, 31, 33}} {
			copyCase[float64](t, rng, ext, 1, 0, true, false, p[0], p[1], nil)
			copyCase[float32](t, rng, ext, 0, 1, false, true, p[0], p[1], nil)
			copyCase[uint16](t, rng, ext, 2, 0, true, true, p[0], p[1], nil)
		}
	}
}

// TestCopykernFill fills device views of every layout and element size,
// whole and as subviews.
func TestCopykernFill(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(17, 18))
	copykernTypes(t, func(t *testing.T, size int) {
		for _, ext := range append(copykernExts, []int{4099}, []int{300, 1001}) {
			for k := range 3 {
				for _, sub := range []bool{false, true} {
					fillBySize(t, size, rng, ext, k, sub, nil)
				}
			}
		}
	})
}

// TestCopykernStream queues copies and fills of strided views on a stream
// with DeepCopyOn and FillOn, then fences it.
func TestCopykernStream(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	st, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	rng := rand.New(rand.NewPCG(19, 20))
	copykernTypes(t, func(t *testing.T, size int) {
		for _, ext := range [][]int{{1000}, {31, 1000}, {1000, 31}, {3, 1000, 31}} {
			copyBySize(t, size, rng, ext, 1, 0, false, false, cuda.Space, cuda.Space, st)
			copyBySize(t, size, rng, ext, 0, 2, true, true, cuda.Space, cuda.Space, st)
			fillBySize(t, size, rng, ext, 0, true, st)
			fillBySize(t, size, rng, ext, 1, false, st)
		}
	})
}

// TestCopykernStreamOrder queues a transposing copy and then a fill of
// the source on one stream, without fencing between them: the copy must
// see the source's old elements and the fill must land after it.
func TestCopykernStreamOrder(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	st, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	const n, m = 2000, 3001
	src, _ := kokkos.NewView2[float64]("src", n, m, kokkos.InSpace(cuda.Space))
	defer release(t, src)
	dst, _ := kokkos.NewView2[float64]("dst", n, m, kokkos.InSpace(cuda.Space), kokkos.LayoutLeft)
	defer release(t, dst)
	rng := rand.New(rand.NewPCG(21, 22))
	hs, _ := kokkos.NewView2[float64]("hs", n, m)
	randBytes(rng, hs.Data())
	if err := kokkos.DeepCopy(src, hs); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := kokkos.DeepCopyOn(st, dst, src); err != nil {
			t.Fatal(err)
		}
	}
	sub := src.Subview2(kokkos.All, kokkos.Pair(1, m))
	if err := kokkos.FillOn(st, sub, 2.5); err != nil {
		t.Fatal(err)
	}
	if err := st.Fence(); err != nil {
		t.Fatal(err)
	}
	got, _ := kokkos.NewView2[float64]("got", n, m, kokkos.LayoutLeft)
	if err := kokkos.DeepCopy(got, dst); err != nil {
		t.Fatal(err)
	}
	gs, _ := kokkos.NewView2[float64]("gs", n, m)
	if err := kokkos.DeepCopy(gs, src); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for j := range m {
			if g, w := got.Data()[i+n*j], hs.Data()[i*m+j]; math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("dst(%d, %d) = %v, want %v", i, j, g, w)
			}
			w := 2.5
			if j == 0 {
				w = hs.Data()[i*m]
			}
			if g := gs.Data()[i*m+j]; math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("src(%d, %d) = %v, want %v", i, j, g, w)
			}
		}
	}
}
