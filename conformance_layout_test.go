package kokkos_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// fill3 sets every element of v to a fresh random value and returns the
// values by logical index, the naive reference.
func fill3(rng *rand.Rand, v kokkos.View3[float64]) map[[3]int]float64 {
	ref := map[[3]int]float64{}
	for i := range v.Extent(0) {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				x := rng.Float64()
				v.Set(i, j, k, x)
				ref[[3]int{i, j, k}] = x
			}
		}
	}
	return ref
}

// subArgs describes one argument of a subview pattern: an index, All or a
// Pair, and the parent indices it selects.
type subArgs struct {
	arg   any
	begin int
	n     int // 0 for an index
}

func argsFor(rng *rand.Rand, kinds []int, ext []int) []subArgs {
	out := make([]subArgs, len(kinds))
	for r, k := range kinds {
		switch k {
		case 0:
			i := rng.IntN(ext[r])
			out[r] = subArgs{i, i, 0}
		case 1:
			out[r] = subArgs{kokkos.All, 0, ext[r]}
		default:
			b := rng.IntN(ext[r])
			e := b + 1 + rng.IntN(ext[r]-b)
			out[r] = subArgs{kokkos.Pair(b, e), b, e - b}
		}
	}
	return out
}

// checkSub compares every element of a subview w (through DynRankFrom's
// index-list accessor) with the reference of its parent.
func checkSub(t *testing.T, what string, w kokkos.View[float64], args []subArgs, ref map[[3]int]float64) {
	t.Helper()
	d := kokkos.DynRankFrom[float64](w)
	var keep []int
	for r, a := range args {
		if a.n > 0 {
			keep = append(keep, r)
		}
	}
	idx := make([]int, len(keep))
	for {
		var p [3]int
		for r, a := range args {
			p[r] = a.begin
		}
		for q, r := range keep {
			p[r] += idx[q]
		}
		if got := d.Access(idx...); got != ref[p] {
			t.Fatalf("%s: element %v is %v, want the parent's %v = %v", what, idx, got, p, ref[p])
		}
		q := len(idx) - 1
		for ; q >= 0; q-- {
			if idx[q]++; idx[q] < args[keep[q]].n {
				break
			}
			idx[q] = 0
		}
		if q < 0 {
			return
		}
	}
}

// subviewOf3 takes the subview of v for args, of the rank their ranges
// give.
func subviewOf3(v *kokkos.View3[float64], args []subArgs) (kokkos.View[float64], kokkos.Layout) {
	m := 0
	for _, a := range args {
		if a.n > 0 {
			m++
		}
	}
	a0, a1, a2 := args[0].arg, args[1].arg, args[2].arg
	switch m {
	case 1:
		w := v.Subview1(a0, a1, a2)
		return w, w.Layout()
	case 2:
		w := v.Subview2(a0, a1, a2)
		return w, w.Layout()
	case 3:
		w := v.Subview3(a0, a1, a2)
		return w, w.Layout()
	}
	w := v.Subview0(a0, a1, a2)
	return w, w.Layout()
}

// Kokkos: core/src/View/Kokkos_ViewMapping.hpp, the subview layout rule
// (SubviewLegalArgsCompileTime and the rank-2 rules), as
// core/unit_test/TestViewSubview.hpp's layout checks exercise it.
func TestConformanceLayoutSubviewLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r3 := kokkos.Must(kokkos.NewView3[float64]("R3", 4, 5, 6))
	l3 := kokkos.Must(kokkos.NewView3[float64]("L3", 4, 5, 6, kokkos.LayoutLeft))
	rr, lr := fill3(rng, r3), fill3(rng, l3)
	const I, A, P = 0, 1, 2
	R, L, S := kokkos.LayoutRight, kokkos.LayoutLeft, kokkos.LayoutStride
	cases := []struct {
		left  bool
		kinds []int
		want  kokkos.Layout
	}{
		{false, []int{I, P, A}, R}, {false, []int{I, A, P}, R}, {false, []int{P, I, P}, R},
		{false, []int{A, I, A}, R}, {false, []int{I, A, A}, R}, {false, []int{A, I, I}, S},
		{false, []int{I, I, P}, R}, {false, []int{A, A, A}, R}, {false, []int{P, A, A}, R},
		{false, []int{A, P, A}, S}, {false, []int{A, A, P}, S}, {false, []int{I, I, I}, R},
		{true, []int{A, A, I}, L}, {true, []int{A, P, I}, L}, {true, []int{P, A, I}, L},
		{true, []int{P, I, P}, L}, {true, []int{A, I, I}, L}, {true, []int{I, A, I}, S},
		{true, []int{P, P, P}, S}, {true, []int{P, A, A}, L}, {true, []int{A, A, P}, L},
		{true, []int{A, P, A}, S}, {true, []int{I, I, A}, S},
	}
	for _, c := range cases {
		v, ref := &r3, rr
		if c.left {
			v, ref = &l3, lr
		}
		args := argsFor(rng, c.kinds, []int{4, 5, 6})
		w, got := subviewOf3(v, args)
		what := fmt.Sprintf("%v %v", v.Layout(), c.kinds)
		if got != c.want {
			t.Errorf("%s: layout %v, want %v", what, got, c.want)
		}
		checkSub(t, what, w, args, ref)
		// a subview keeping LayoutLeft or LayoutRight has strides of that
		// layout, padded at most: it converts back from LayoutStride
		if got != S {
			sh := kokkos.ShapeOf(w)
			if spec := (kokkos.LayoutSpec{Layout: got, Extents: sh.Extents, Strides: sh.Strides}); sh.Rank > 0 {
				if _, err := kokkos.NewDynRankViewFrom[float64]("copy", spec); err != nil {
					t.Errorf("%s: its strides are not a %v layout: %v", what, got, err)
				}
			}
		}
	}
}

// Kokkos: core/unit_test/TestViewSubview.hpp, test_left_0..3 and
// test_right_0..3 (subviews of every pattern read the parent's elements),
// fuzzed over argument patterns.
func TestConformanceLayoutSubviewFuzz(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		ext := []int{1 + rng.IntN(5), 1 + rng.IntN(5), 1 + rng.IntN(5)}
		var opt kokkos.Option = kokkos.LayoutRight
		switch trial % 3 {
		case 1:
			opt = kokkos.LayoutLeft
		case 2:
			opt = kokkos.WithStrides(1, ext[0]+1, (ext[0]+1)*ext[1]+2)
		}
		v := kokkos.Must(kokkos.NewView3[float64]("F", ext[0], ext[1], ext[2], opt))
		ref := fill3(rng, v)
		kinds := []int{rng.IntN(3), rng.IntN(3), rng.IntN(3)}
		args := argsFor(rng, kinds, ext)
		w, _ := subviewOf3(&v, args)
		checkSub(t, fmt.Sprintf("%v %v %v", v.Layout(), ext, kinds), w, args, ref)
	}
}

// Kokkos: core/unit_test/TestViewSubview.hpp, test_2d_subview_3d: a rank-2
// subview of a rank-3 view, then a rank-1 subview of it.
func TestConformanceLayout2dSubview3d(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, opt := range []kokkos.Option{kokkos.LayoutRight, kokkos.LayoutLeft} {
		v := kokkos.Must(kokkos.NewView3[float64]("V", 3, 4, 5, opt))
		ref := fill3(rng, v)
		s2 := v.Subview2(1, kokkos.All, kokkos.All)
		s1 := s2.Subview1(2, kokkos.All)
		for k := range 5 {
			if s1.At(k) != ref[[3]int{1, 2, k}] || s2.At(2, k) != ref[[3]int{1, 2, k}] {
				t.Fatalf("%v: element %d differs", v.Layout(), k)
			}
		}
	}
}

// Kokkos: core/unit_test/TestViewSubview.hpp, test_1d_strided_assignment:
// a column of a LayoutRight view is a strided rank-1 view.
func TestConformanceLayout1dStridedAssignment(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	v := kokkos.Must(kokkos.NewView2[float64]("V", 6, 7))
	for i := range 6 {
		for j := range 7 {
			v.Set(i, j, rng.Float64())
		}
	}
	col := v.Subview1(kokkos.All, 3)
	if col.Layout() != kokkos.LayoutStride || col.Stride(0) != 7 {
		t.Fatalf("column: %v stride %d", col.Layout(), col.Stride(0))
	}
	for i := range 6 {
		if col.At(i) != v.At(i, 3) {
			t.Fatalf("column element %d", i)
		}
	}
}

// Kokkos: core/src/View/MDSpan/Kokkos_MDSpan_Layout.hpp (Padding) and
// core/unit_test/TestViewMapping_a.hpp: AllowPadding pads the contiguous
// extent only above the alignment in elements (64 bytes) and when not a
// multiple of it.
func TestConformanceLayoutPadding(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 5, 8, 9, 13, 16, 17, 31} {
		want := n
		if n > 8 && n%8 != 0 {
			want = (n + 7) / 8 * 8
		}
		r := kokkos.Must(kokkos.NewView2[float64]("R", 3, n, kokkos.AllowPadding))
		l := kokkos.Must(kokkos.NewView2[float64]("L", n, 3, kokkos.LayoutLeft, kokkos.AllowPadding))
		if r.Stride(0) != want || l.Stride(1) != want {
			t.Errorf("extent %d: strides %v and %v, want a leading dimension of %d", n, r.Strides(), l.Strides(), want)
		}
		// indexing the padded view matches a naive reference
		ref := map[[2]int]float64{}
		for i := range 3 {
			for j := range n {
				x := rng.Float64()
				r.Set(i, j, x)
				l.Set(j, i, -x)
				ref[[2]int{i, j}] = x
			}
		}
		for k, x := range ref {
			if r.At(k[0], k[1]) != x || l.At(k[1], k[0]) != -x {
				t.Fatalf("extent %d: element %v", n, k)
			}
		}
		// the spec keeps the padding
		q := kokkos.Must(kokkos.NewView2From[float64]("Q", r.LayoutSpec()))
		if q.Stride(0) != want {
			t.Errorf("extent %d: rebuilt with stride %d, want %d", n, q.Stride(0), want)
		}
	}
	// rank 1 is never padded
	if v := kokkos.Must(kokkos.NewView1[float64]("P1", 13, kokkos.AllowPadding)); v.Span() != 13 {
		t.Errorf("rank 1 padded: span %d", v.Span())
	}
}

// Kokkos: core/src/Kokkos_Layout.hpp (LayoutLeft's stride) and
// TestViewAPI.hpp's layout checks: a LayoutLeft view with a leading
// dimension, as BLAS's lda.
func TestConformanceLayoutLeadingDimension(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	spec := kokkos.LayoutSpec{Layout: kokkos.LayoutLeft, Extents: []int{3, 4}, Strides: []int{1, 10}}
	a := kokkos.Must(kokkos.NewView2From[float64]("A", spec))
	if a.Layout() != kokkos.LayoutLeft || a.Stride(1) != 10 || a.Span() != 3*10+3 {
		t.Fatalf("strides %v span %d", a.Strides(), a.Span())
	}
	buf := make([]float64, 40)
	for i := range buf {
		buf[i] = rng.Float64()
	}
	w := kokkos.Must(kokkos.WrapView2(buf, 3, 4, kokkos.WithStrides(1, 10)))
	wl := kokkos.Must(w.AsLayout(kokkos.LayoutLeft))
	for i := range 3 {
		for j := range 4 {
			if wl.At(i, j) != buf[i+10*j] {
				t.Fatalf("element (%d, %d)", i, j)
			}
		}
	}
	if err := kokkos.DeepCopy[float64](a, wl); err != nil {
		t.Fatal(err)
	}
	if a.At(2, 3) != buf[2+30] {
		t.Fatal("DeepCopy into the padded view")
	}
	for _, bad := range [][]int{{1, 2}, {2, 10}, {1}, {10, 1}} {
		s := kokkos.LayoutSpec{Layout: kokkos.LayoutLeft, Extents: []int{3, 4}, Strides: bad}
		if _, err := kokkos.NewView2From[float64]("B", s); !errors.Is(err, kokkos.ErrLayout) {
			t.Errorf("strides %v: %v, want ErrLayout", bad, err)
		}
	}
}

// Kokkos: core/unit_test/TestViewLayoutStrideAssignment.hpp: LayoutStride
// views with the strides of LayoutLeft or LayoutRight assign to them, and
// interleaved strides that never collide are legal mappings.
func TestConformanceLayoutStrideAssignment(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	s := kokkos.Must(kokkos.NewView3[float64]("S", 2, 3, 4, kokkos.WithStrides(12, 4, 1)))
	ref := fill3(rng, s)
	r := kokkos.Must(s.AsLayout(kokkos.LayoutRight))
	for k, x := range ref {
		if r.At(k[0], k[1], k[2]) != x {
			t.Fatal("LayoutRight from LayoutStride")
		}
	}
	if _, err := s.AsLayout(kokkos.LayoutLeft); !errors.Is(err, kokkos.ErrLayout) {
		t.Errorf("LayoutLeft from LayoutRight strides: %v", err)
	}
	// interleaved: offsets 0 2 4 / 3 5 7 are all distinct
	v, err := kokkos.NewView2[float64]("I", 3, 2, kokkos.WithStrides(2, 3))
	if err != nil {
		t.Fatalf("interleaved injective strides refused: %v", err)
	}
	seen := map[*float64]bool{}
	for i := range 3 {
		for j := range 2 {
			p := v.Ptr(i, j)
			if seen[p] {
				t.Fatal("two elements share memory")
			}
			seen[p] = true
		}
	}
	if _, err := kokkos.NewView2[float64]("O", 4, 3, kokkos.WithStrides(2, 3)); !errors.Is(err, kokkos.ErrLayout) {
		t.Errorf("colliding strides (3·2 = 2·3): %v", err)
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, layout and properties: a view has
// one layout; conflicting options are refused, naming both.
func TestConformanceLayoutOptions(t *testing.T) {
	_, err := kokkos.NewView2[float64]("O", 2, 3, kokkos.LayoutLeft, kokkos.LayoutRight)
	if !errors.Is(err, kokkos.ErrLayout) || !strings.Contains(err.Error(), "LayoutLeft and LayoutRight") {
		t.Errorf("LayoutLeft, LayoutRight: %v", err)
	}
	_, err = kokkos.NewView2[float64]("O", 2, 3, kokkos.WithStrides(1, 2), kokkos.LayoutRight)
	if !errors.Is(err, kokkos.ErrLayout) || !strings.Contains(err.Error(), "WithStrides(1, 2) and LayoutRight") {
		t.Errorf("WithStrides, LayoutRight: %v", err)
	}
	_, err = kokkos.WrapView2(make([]float64, 6), 2, 3, kokkos.WithStrides(3, 1), kokkos.WithStrides(1, 2))
	if !errors.Is(err, kokkos.ErrLayout) {
		t.Errorf("two WithStrides: %v", err)
	}
	spec := kokkos.LayoutSpec{Layout: kokkos.LayoutRight, Extents: []int{2, 3}}
	if _, err := kokkos.NewDynRankViewFrom[float64]("D", spec, kokkos.LayoutLeft); !errors.Is(err, kokkos.ErrLayout) {
		t.Errorf("spec LayoutRight with LayoutLeft: %v", err)
	}
	// repeating the same option is fine
	v, err := kokkos.NewView2[float64]("O", 2, 3, kokkos.LayoutLeft, kokkos.LayoutLeft, kokkos.InSpace(kokkos.HostSpace))
	if err != nil || v.Layout() != kokkos.LayoutLeft {
		t.Errorf("LayoutLeft twice: %v", err)
	}
	w, err := kokkos.NewView2[float64]("O", 2, 3, kokkos.LayoutStride, kokkos.WithStrides(1, 2), kokkos.WithStrides(1, 2))
	if err != nil || w.Stride(1) != 2 {
		t.Errorf("LayoutStride with WithStrides twice: %v", err)
	}
	// two memory spaces, at every constructor that takes options
	dev := backendtest.FakeDevice(false)
	two := []kokkos.Option{kokkos.InSpace(kokkos.HostSpace), kokkos.InSpace(dev)}
	if _, err := kokkos.NewView1[float64]("S", 4, two...); !errors.Is(err, kokkos.ErrOption) || !strings.Contains(err.Error(), "InSpace(HostSpace) and InSpace(FakeDeviceSpace)") {
		t.Errorf("two spaces: %v", err)
	}
	if _, err := kokkos.NewDynRankView[float64]("S", []int{4}, two...); !errors.Is(err, kokkos.ErrOption) {
		t.Errorf("two spaces, DynRankView: %v", err)
	}
	if _, err := kokkos.CreateMirror(v, two...); !errors.Is(err, kokkos.ErrOption) {
		t.Errorf("two spaces, CreateMirror: %v", err)
	}
	if err := kokkos.Resize(&v, [2]int{3, 3}, kokkos.LayoutLeft, kokkos.LayoutRight); !errors.Is(err, kokkos.ErrLayout) {
		t.Errorf("two layouts, Resize: %v", err)
	}
}

// Kokkos: core/unit_test/TestViewSubview.hpp (subview arguments of any
// integral type): indices of every Go integer type and PairOf.
func TestConformanceLayoutIntegerIndices(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	v := kokkos.Must(kokkos.NewView3[float64]("V", 3, 4, 5))
	ref := fill3(rng, v)
	for _, i := range []any{int8(2), int16(2), int32(2), int64(2), uint(2), uint8(2), uint16(2), uint32(2), uint64(2), uintptr(2), 2} {
		w := v.Subview1(1, i, kokkos.PairOf(uint8(1), uint8(4)))
		for k := range 3 {
			if w.At(k) != ref[[3]int{1, 2, 1 + k}] {
				t.Fatalf("index of type %T: element %d", i, k)
			}
		}
	}
	for _, bad := range []any{int8(-1), uint64(1 << 63), int64(4), uint32(4)} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("index %v of type %T was accepted", bad, bad)
				}
			}()
			v.Subview1(1, bad, kokkos.All)
		}()
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, views of compile-time extents
// (View<double*[3]>): in Go the fixed extent is the element type, a
// View1[[3]float64], which DeepCopy, mirrors and subviews handle.
func TestConformanceLayoutCompileTimeExtents(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	v := kokkos.Must(kokkos.NewView1[[3]float64]("P", 10))
	ref := make([][3]float64, 10)
	for i := range ref {
		ref[i] = [3]float64{rng.Float64(), rng.Float64(), rng.Float64()}
		v.Set(i, ref[i])
	}
	m := kokkos.Must(kokkos.CreateMirror(v))
	if err := kokkos.DeepCopy[[3]float64](m, v); err != nil {
		t.Fatal(err)
	}
	s := m.Subview1(kokkos.Pair(2, 7))
	for i := range 5 {
		if s.At(i) != ref[2+i] {
			t.Fatalf("subview element %d", i)
		}
	}
	// one component of every element: a strided rank-1 view over the
	// same memory, as Kokkos's subview(v, ALL, 1)
	comp := kokkos.Must(kokkos.WrapView2(flatten(m.Data()), 10, 3))
	col := comp.Subview1(kokkos.All, 1)
	for i := range 10 {
		if col.At(i) != ref[i][1] {
			t.Fatalf("component 1 of element %d", i)
		}
	}
}

// flatten views a slice of [3]float64 as its components, copying them.
func flatten(a [][3]float64) []float64 {
	out := make([]float64, 0, 3*len(a))
	for _, x := range a {
		out = append(out, x[:]...)
	}
	return out
}
