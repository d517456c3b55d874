package kokkos_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/testutil"
)

// The extents of Kokkos's TestDynViewAPI.
const drvN0, drvN1, drvN2, drvN3 = 1000, 3, 5, 7

// drvPanic runs f and returns its panic message, "" when it does not
// panic.
func drvPanic(f func()) (msg string) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case error:
			msg = r.Error()
		case string:
			msg = r
		default:
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// drvWantPanic checks that f panics with a message holding each of want.
func drvWantPanic(t *testing.T, f func(), want ...string) {
	t.Helper()
	msg := drvPanic(f)
	if msg == "" {
		t.Fatalf("no panic; want one with %q", want)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Fatalf("panic %q does not hold %q", msg, w)
		}
	}
}

// drvOffset is the naive offset of idx in a compact view of extents ext:
// the first index varies fastest for LayoutLeft, the last for LayoutRight.
func drvOffset(l kokkos.Layout, ext, idx []int) int {
	o := 0
	if l == kokkos.LayoutLeft {
		for r := len(ext) - 1; r >= 0; r-- {
			o = o*ext[r] + idx[r]
		}
		return o
	}
	for r := range ext {
		o = o*ext[r] + idx[r]
	}
	return o
}

// drvFill stores random values at every index of d through Set and
// returns them by naive row-major offset.
func drvFill(t *testing.T, rng *rand.Rand, d *kokkos.DynRankView[float64]) []float64 {
	t.Helper()
	ext := d.Extents()
	n := 1
	for _, e := range ext {
		n *= e
	}
	ref := make([]float64, n)
	testutil.ForEachIndex(ext, func(idx []int) {
		x := 1 + rng.Float64()
		ref[drvOffset(kokkos.LayoutRight, ext, idx)] = x
		d.Set(x, idx...)
	})
	return ref
}

// drvCheck compares every element of d with ref, indexed by the naive
// row-major offset.
func drvCheck(t *testing.T, what string, d *kokkos.DynRankView[float64], ref []float64) {
	t.Helper()
	ext := d.Extents()
	testutil.ForEachIndex(ext, func(idx []int) {
		if got, want := d.At(idx...), ref[drvOffset(kokkos.LayoutRight, ext, idx)]; got != want {
			t.Fatalf("%s: At%v = %v, want %v", what, idx, got, want)
		}
	})
}

// drvStrides returns the strides of a compact LayoutRight view of
// extents ext, as Kokkos's LayoutStride::order_dimensions with the order
// rank-1, ..., 0.
func drvStrides(ext []int) []int {
	s := make([]int, len(ext))
	n := 1
	for r := len(ext) - 1; r >= 0; r-- {
		s[r] = n
		n *= ext[r]
	}
	return s
}

func drvNew(t *testing.T, label string, ext []int, opts ...kokkos.Option) kokkos.DynRankView[float64] {
	t.Helper()
	d, err := kokkos.NewDynRankView[float64](label, ext, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, TestViewOperator and
// TestViewOperator_LeftAndRight (run_operator_test_rank12345 and
// run_operator_test_rank67).
func TestConformanceDynRankOperatorLeftAndRight(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	// TestViewOperator: v2(i, X) = v1(i, X) in a parallel loop.
	const n, dim = 100, 3
	v1, v2 := drvNew(t, "v1", []int{n, dim}), drvNew(t, "v2", []int{n, dim})
	ref := drvFill(t, rng, &v1)
	kokkos.ParallelFor("copy", kokkos.Range(0, n), func(i int) {
		for x := range dim {
			v2.Set2(i, x, v1.At2(i, x))
		}
	})
	drvCheck(t, "v2", &v2, ref)

	// Every element of a left and a right view of ranks 1 to 7 lies at the
	// naive offset of its layout, within the allocation.
	extents := []int{2, 3, 4, 2, 3, 4, 2}
	for rank := 1; rank <= kokkos.MaxDynRank; rank++ {
		ext := extents[:rank]
		for _, l := range []kokkos.Layout{kokkos.LayoutLeft, kokkos.LayoutRight} {
			d := drvNew(t, "d", ext, l)
			data := d.Data()
			for i := range data {
				data[i] = 1 + rng.Float64()
			}
			if d.Span() != len(data) || d.Size() != d.Span() {
				t.Fatalf("rank %d %v: span %d size %d, %d elements", rank, l, d.Span(), d.Size(), len(data))
			}
			testutil.ForEachIndex(ext, func(idx []int) {
				o := drvOffset(l, ext, idx)
				full := append(slices.Clone(idx), make([]int, kokkos.MaxDynRank-rank)...)
				if d.Ptr(idx...) != &data[o] || d.At(idx...) != data[o] || d.At(full...) != data[o] || d.Access(full...) != data[o] {
					t.Fatalf("rank %d %v: element %v is not at offset %d", rank, l, idx, o)
				}
			})
		}
	}
}

// Kokkos: containers/src/Kokkos_DynRankView.hpp, operator() and
// dyn_rank_view_verify_operator_bounds: at least rank indices, those past
// the rank 0 (the extents there are 1); fewer indices, or a non-zero one
// past the rank, fail the bounds check.
func TestConformanceDynRankOperatorArity(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	d := drvNew(t, "A", []int{3, 4})
	ref := drvFill(t, rng, &d)
	for i := range 3 {
		for j := range 4 {
			want := ref[i*4+j]
			got := []float64{d.At2(i, j), d.At3(i, j, 0), d.At4(i, j, 0, 0), d.At7(i, j, 0, 0, 0, 0, 0),
				d.At(i, j, 0), d.At(i, j, 0, 0, 0, 0, 0), *d.Ptr3(i, j, 0), d.Ref5(i, j, 0, 0, 0).Load(), d.Ref(i, j, 0).Load()}
			for k, g := range got {
				if g != want {
					t.Fatalf("(%d, %d) form %d: %v, want %v", i, j, k, g, want)
				}
			}
		}
	}
	x := 3 + rng.Float64()
	d.Set3(2, 3, 0, x)
	d.Set(x+1, 1, 1, 0, 0)
	*d.Ptr4(0, 2, 0, 0) = x + 2
	d.Ref3(0, 3, 0).Store(x + 3)
	if d.At2(2, 3) != x || d.At2(1, 1) != x+1 || d.At2(0, 2) != x+2 || d.At2(0, 3) != x+3 {
		t.Fatal("a write with indices past the rank missed its element")
	}
	// a rank-0 view takes any number of zero indices
	s := drvNew(t, "s", nil)
	s.Set0(x)
	if s.At3(0, 0, 0) != x || s.At(0, 0) != x || s.At1(0) != x {
		t.Fatal("rank-0 view with zero indices")
	}
	drvWantPanic(t, func() { d.At3(1, 2, 1) }, `index (1, 2, 1) out of bounds for rank-2 DynRankView "A" with extents (3, 4)`, "past the rank must be 0")
	drvWantPanic(t, func() { d.Set(1, 1, 2, 0, 5) }, `index (1, 2, 0, 5)`, `"A"`, "(3, 4)")
	drvWantPanic(t, func() { d.Ref4(0, 0, 0, -1) }, "(0, 0, 0, -1)", "past the rank must be 0")
	drvWantPanic(t, func() { d.At1(1) }, `At1 of rank-2 DynRankView "A" at (1)`, "at least 2 indices")
	drvWantPanic(t, func() { d.Ptr(1) }, `Ptr of rank-2 DynRankView "A" with 1 indices (1)`)
	drvWantPanic(t, func() { d.At(0, 0, 0, 0, 0, 0, 0, 0) }, "with 8 indices", "between 2 and 7")
	drvWantPanic(t, func() { d.At3(3, 0, 0) }, `index (3, 0, 0) out of bounds for view "A" with extents (3, 4)`)
}

// Kokkos: containers/src/Kokkos_DynRankView.hpp, access(i0 = 0, ..., i6 =
// 0): missing trailing indices are 0 and those past the rank must be 0.
func TestConformanceDynRankAccessDefaults(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 3))
	d := drvNew(t, "A", []int{3, 4, 2}, kokkos.LayoutLeft)
	ref := drvFill(t, rng, &d)
	at := func(i, j, k int) float64 { return ref[(i*4+j)*2+k] }
	for i := range 3 {
		if d.Access(i) != at(i, 0, 0) {
			t.Fatalf("Access(%d) = %v, want element (%d, 0, 0)", i, d.Access(i), i)
		}
		for j := range 4 {
			if d.Access(i, j) != at(i, j, 0) || d.Access(i, j, 1, 0, 0) != at(i, j, 1) {
				t.Fatalf("Access(%d, %d) differs", i, j)
			}
		}
	}
	if d.Access() != at(0, 0, 0) {
		t.Fatal("Access() is not element (0, 0, 0)")
	}
	drvWantPanic(t, func() { d.Access(3) }, `index (3, 0, 0) out of bounds for view "A" with extents (3, 4, 2)`)
	drvWantPanic(t, func() { d.Access(0, 0, 0, 1) }, "index (0, 0, 0, 1)", "past the rank must be 0")
	e := drvNew(t, "E", []int{3, 0})
	drvWantPanic(t, func() { e.Access(1) }, `index (1, 0) out of bounds for view "E" with extents (3, 0)`)
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_resize_realloc
// (both Initialize cases), with the kept elements checked.
func TestConformanceDynRankResizeRealloc(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 4))
	for _, opts := range [][]kokkos.Option{nil, {kokkos.WithoutInitializing}} {
		d := drvNew(t, "drv0", []int{10, 20, 30})
		ref := drvFill(t, rng, &d)
		if d.Rank() != 3 {
			t.Fatal("rank")
		}
		if err := d.Resize([]int{5, 10}, opts...); err != nil {
			t.Fatal(err)
		}
		if d.Rank() != 2 || d.Extent(0) != 5 || d.Extent(1) != 10 || d.Extent(2) != 1 || d.Label() != "drv0" {
			t.Fatalf("after Resize: rank %d extents %v", d.Rank(), d.Extents())
		}
		for i := range 5 {
			for j := range 10 {
				if d.At2(i, j) != ref[(i*20+j)*30] {
					t.Fatalf("Resize lost element (%d, %d, 0)", i, j)
				}
			}
		}
		if err := d.Realloc([]int{10, 20}, opts...); err != nil {
			t.Fatal(err)
		}
		if d.Rank() != 2 || d.Extent(0) != 10 || d.Extent(1) != 20 || d.Extent(2) != 1 {
			t.Fatalf("after Realloc: rank %d extents %v", d.Rank(), d.Extents())
		}
	}
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_mirror.
func TestConformanceDynRankMirror(t *testing.T) {
	a, err := kokkos.NewDynRankView[int]("a", nil)
	if err != nil {
		t.Fatal(err)
	}
	am, err := kokkos.CreateMirrorView(a)
	if err != nil {
		t.Fatal(err)
	}
	ax, err := kokkos.CreateMirror(a)
	if err != nil {
		t.Fatal(err)
	}
	if a.Ptr0() != am.Ptr0() || a.Ptr0() == ax.Ptr0() || a.Rank() != am.Rank() || ax.Rank() != am.Rank() {
		t.Fatal("rank-0 mirrors")
	}
	for _, l := range []kokkos.Layout{kokkos.LayoutLeft, kokkos.LayoutRight} {
		ah := drvNew(t, "A", []int{1000}, l)
		ah2, err := kokkos.CreateMirror(ah, kokkos.InSpace(kokkos.HostSpace))
		if err != nil {
			t.Fatal(err)
		}
		if ah.Ptr1(0) == ah2.Ptr1(0) || ah2.Extent(0) != 1000 || ah2.Rank() != 1 || ah2.Layout() != l {
			t.Fatalf("%v: CreateMirror shares memory or differs in shape", l)
		}
		ah3, err := kokkos.CreateMirrorView(ah, kokkos.InSpace(kokkos.HostSpace))
		if err != nil {
			t.Fatal(err)
		}
		if ah.Ptr1(0) != ah3.Ptr1(0) || ah3.Rank() != 1 || ah3.Extent(0) != 1000 {
			t.Fatalf("%v: CreateMirrorView of a host view allocates", l)
		}
	}
	ext := []int{drvN0, drvN1, drvN2, 2, 2, 2, 2}
	ah := drvNew(t, "a", ext, kokkos.WithStrides(drvStrides(ext)...))
	ah2, err := kokkos.CreateMirrorView(ah, kokkos.InSpace(kokkos.HostSpace))
	if err != nil {
		t.Fatal(err)
	}
	if ah.Layout() != kokkos.LayoutStride || ah.Ptr7(0, 0, 0, 0, 0, 0, 0) != ah2.Ptr7(0, 0, 0, 0, 0, 0, 0) || ah2.Rank() != 7 || ah2.Extent(0) != drvN0 {
		t.Fatal("CreateMirrorView of a LayoutStride host view")
	}
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_mirror_and_copy.
func TestConformanceDynRankMirrorAndCopy(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 5))
	for _, l := range []kokkos.Layout{kokkos.LayoutLeft, kokkos.LayoutRight} {
		org := drvNew(t, "A", []int{10}, l)
		ref := drvFill(t, rng, &org)
		ah := org
		ah2, err := kokkos.CreateMirrorViewAndCopy(ah)
		if err != nil {
			t.Fatal(err)
		}
		if ah2.Ptr1(0) != ah.Ptr1(0) || ah2.Rank() != org.Rank() || ah2.Extent(0) != 10 {
			t.Fatalf("%v: CreateMirrorViewAndCopy of a host view", l)
		}
		drvCheck(t, "mirror", &ah2, ref)
	}
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp,
// run_test_as_view_of_rank_n: the rank-typed view of each rank aliases the
// DynRankView.
func TestConformanceDynRankAsViewOfRankN(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 6))
	var d kokkos.DynRankView[float64]
	for rank := 0; rank <= kokkos.MaxDynRank; rank++ {
		ext := make([]int, rank)
		for r := range ext {
			ext[r] = r + 1
		}
		if err := d.Resize(ext); err != nil {
			t.Fatal(err)
		}
		v, err := viewOfRank(&d, rank)
		if err != nil {
			t.Fatal(err)
		}
		// values assigned after the conversion must show through it
		ref := drvFill(t, rng, &d)
		sh := kokkos.ShapeOf(v)
		if sh.Rank != rank || !slices.Equal(sh.Extents, ext) || sh.Allocation != d.Allocation() {
			t.Fatalf("rank %d: View%d shape %+v", rank, rank, sh)
		}
		back := kokkos.DynRankFrom(v)
		if !back.Equal(d) {
			t.Fatalf("rank %d: View%d does not alias the view", rank, rank)
		}
		drvCheck(t, fmt.Sprintf("View%d", rank), &back, ref)
	}
}

// viewOfRank returns d's rank-typed view of the given rank.
func viewOfRank(d *kokkos.DynRankView[float64], rank int) (kokkos.View[float64], error) {
	switch rank {
	case 0:
		return d.View0()
	case 1:
		return d.View1()
	case 2:
		return d.View2()
	case 3:
		return d.View3()
	case 4:
		return d.View4()
	case 5:
		return d.View5()
	case 6:
		return d.View6()
	}
	return d.View7()
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_scalar. Go has
// no implicit reference counting: a copy of a view is not a holder, so the
// use counts are those of explicit Retain calls.
func TestConformanceDynRankScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 7))
	dx, dy := drvNew(t, "dx", nil), drvNew(t, "dy", nil)
	hx, err := kokkos.CreateMirror(dx)
	if err != nil {
		t.Fatal(err)
	}
	hy, err := kokkos.CreateMirror(dy)
	if err != nil {
		t.Fatal(err)
	}
	x := 1 + rng.Float64()
	hx.Set0(x)
	for _, c := range [][2]kokkos.View[float64]{{&dx, &hx}, {&dy, &dx}, {&hy, &dy}} {
		if err := kokkos.DeepCopy(c[0], c[1]); err != nil {
			t.Fatal(err)
		}
	}
	if hy.At0() != x || hx.Rank() != 0 || hy.Rank() != 0 {
		t.Fatalf("scalar round trip: %v, want %v", hy.At0(), x)
	}
	// DeepCopy between View0 and rank-0 DynRankView
	vx, _ := kokkos.NewView0[float64]("vx")
	if err := kokkos.DeepCopy[float64](&vx, &dx); err != nil || vx.At() != x {
		t.Fatalf("DynRankView to View0: %v %v", vx.At(), err)
	}
	dxx := drvNew(t, "dxx", nil)
	if err := kokkos.DeepCopy[float64](&dxx, &vx); err != nil || dxx.At0() != x {
		t.Fatalf("View0 to DynRankView: %v %v", dxx.At0(), err)
	}
	// a DynRankView from a View shares it
	dfromvx := kokkos.DynRankFrom[float64](&vx)
	if dfromvx.Rank() != 0 || dfromvx.At0() != x || dfromvx.Allocation() != vx.Allocation() {
		t.Fatal("DynRankFrom(View0)")
	}
	vtest1, _ := kokkos.NewView7[float64]("vtest1", 2, 2, 2, 2, 2, 2, 2)
	dfromv1 := kokkos.DynRankFrom[float64](&vtest1)
	if dfromv1.Rank() != 7 || dfromv1.Extent(0) != 2 || dfromv1.Extent(6) != 2 || dfromv1.Extent(7) != 1 || dfromv1.UseCount() != vtest1.UseCount() {
		t.Fatalf("DynRankFrom(View7): rank %d", dfromv1.Rank())
	}
	dfromv1.Retain()
	if vtest1.UseCount() != 2 {
		t.Fatalf("UseCount after Retain through the DynRankView: %d", vtest1.UseCount())
	}
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test.
func TestConformanceDynRankAPI(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 8))
	u := drvNew(t, "uninit", []int{10, 20}, kokkos.WithoutInitializing)
	if !u.IsAllocated() || u.Rank() != 2 || u.Extent(0) != 10 || u.Extent(1) != 20 || u.Extent(2) != 1 {
		t.Fatalf("uninitialized: rank %d extents %v", u.Rank(), u.Extents())
	}
	var dz kokkos.DynRankView[float64]
	if dz.IsAllocated() || dz.Extent(0) != 0 || dz.Rank() != 0 || dz.Size() != 0 {
		t.Fatal("the zero DynRankView is not empty")
	}
	dx := drvNew(t, "dx", []int{drvN1, drvN2, drvN3})
	if dx.Extent(0) != drvN1 || dx.Rank() != 3 {
		t.Fatal("rank 3")
	}
	dx = drvNew(t, "dx", []int{drvN0, drvN1, drvN2, drvN3})
	dy := drvNew(t, "dy", []int{drvN0, drvN1, drvN2, drvN3})
	if dx.Extent(0) != drvN0 || dx.Rank() != 4 || dx.UseCount() != 1 {
		t.Fatal("rank 4")
	}
	// an unmanaged view over dx's memory, as DynRankView(ptr, n0, ...)
	um, err := kokkos.WrapDynRankView(dx.Data(), dx.Extents())
	if err != nil {
		t.Fatal(err)
	}
	if um.Span() != drvN0*drvN1*drvN2*drvN3 || um.UseCount() != 0 || dx.UseCount() != 1 || um.Ptr4(1, 2, 3, 4) != dx.Ptr4(1, 2, 3, 4) {
		t.Fatalf("unmanaged: span %d count %d", um.Span(), um.UseCount())
	}
	// as Kokkos's ==, views of the same first element and shape are equal
	um2, _ := kokkos.WrapDynRankView(dx.Data(), dx.Extents())
	if !um.Equal(dx) || !dx.Equal(um) || !um.Equal(um2) || dx.Equal(dy) {
		t.Fatal("Equal of wrapping views")
	}
	hx, err := kokkos.CreateMirror(dx)
	if err != nil {
		t.Fatal(err)
	}
	hy, err := kokkos.CreateMirror(dy)
	if err != nil {
		t.Fatal(err)
	}
	if hx.Rank() != 4 || !slices.Equal(hx.Extents(), []int{drvN0, drvN1, drvN2, drvN3}) || !slices.Equal(hy.Extents(), hx.Extents()) {
		t.Fatal("mirror extents")
	}
	ref := drvFill(t, rng, &hx)
	for _, c := range [][2]kokkos.View[float64]{{&dx, &hx}, {&dy, &dx}, {&hy, &dy}} {
		if err := kokkos.DeepCopy(c[0], c[1]); err != nil {
			t.Fatal(err)
		}
	}
	drvCheck(t, "hy", &hy, ref)
	if err := kokkos.Fill[float64](&dx, 0); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy[float64](&hx, &dx); err != nil {
		t.Fatal(err)
	}
	drvCheck(t, "hx", &hx, make([]float64, len(ref)))
	dz = dx
	if !dx.Equal(dz) || dy.Equal(dz) {
		t.Fatal("Equal after assigning dx")
	}
	dz = dy
	if !dy.Equal(dz) || dx.Equal(dz) {
		t.Fatal("Equal after assigning dy")
	}
	dx = kokkos.DynRankView[float64]{}
	if dx.IsAllocated() || !dz.IsAllocated() {
		t.Fatal("assigning the zero view")
	}
	// DeepCopy from View1 to DynRankView and back
	const testdim = 4
	dxx := drvNew(t, "dxx", []int{testdim})
	vxx, _ := kokkos.NewView1[float64]("vxx", testdim)
	for i := range testdim {
		vxx.Set(i, 1+rng.Float64())
	}
	if err := kokkos.DeepCopy[float64](&dxx, &vxx); err != nil {
		t.Fatal(err)
	}
	vdxx, _ := kokkos.NewView1[float64]("vdxx", testdim)
	if err := kokkos.DeepCopy[float64](&vdxx, &dxx); err != nil {
		t.Fatal(err)
	}
	for i := range testdim {
		if dxx.At1(i) != vxx.At(i) || vdxx.At(i) != vxx.At(i) {
			t.Fatalf("View1 round trip differs at %d", i)
		}
	}
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_allocated.
func TestConformanceDynRankAllocated(t *testing.T) {
	var d1 kokkos.DynRankView[float64]
	if d1.IsAllocated() {
		t.Fatal("zero view allocated")
	}
	d1 = drvNew(t, "d1", []int{100, 10})
	d2 := d1
	d3 := drvNew(t, "d3", []int{100})
	if !d1.IsAllocated() || !d2.IsAllocated() || !d3.IsAllocated() {
		t.Fatal("not allocated")
	}
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_const. A
// DynRankView<const T> is a ReadOnly view here.
func TestConformanceDynRankConst(t *testing.T) {
	x := drvNew(t, "X", []int{2})
	xc := x.ReadOnly()
	if !xc.Equal(x) || !x.Equal(xc) || xc.Allocation() != x.Allocation() || !xc.IsReadOnly() {
		t.Fatal("a read-only view equals its source")
	}
	x.Set1(1, 5)
	if xc.At1(1) != 5 {
		t.Fatal("the read-only view does not share memory")
	}
	drvWantPanic(t, func() { xc.Set1(1, 2) }, `write to read-only view "X"`)
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_subview.
func TestConformanceDynRankSubview(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 9))
	d0 := drvNew(t, "d0", nil)
	if s0 := d0.ReadOnly(); s0.Rank() != 0 {
		t.Fatal("rank-0 view")
	}
	ext7 := []int{drvN0, drvN1, drvN2, 2, 2, 2, 2}
	d7 := drvNew(t, "d7", ext7, kokkos.WithStrides(drvStrides(ext7)...))
	ref := drvFill(t, rng, &d7)
	if d7.Rank() != 7 {
		t.Fatal("rank 7")
	}
	ranks := []struct {
		s    kokkos.DynRankView[float64]
		rank int
	}{
		{d7.Subview(1, 1, 1, 1, 1, 1, 1), 0},
		{d7.Subview(kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.All), 7},
		{d7.Subview(kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.All, 1), 6},
		{d7.Subview(kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.Pair(1, 2)), 7},
	}
	for k, c := range ranks {
		if c.s.Rank() != c.rank || c.s.Layout() != kokkos.LayoutStride {
			t.Fatalf("subview %d: rank %d layout %v, want %d LayoutStride", k, c.s.Rank(), c.s.Layout(), c.rank)
		}
	}
	if ranks[0].s.At0() != ref[drvOffset(kokkos.LayoutRight, ext7, []int{1, 1, 1, 1, 1, 1, 1})] {
		t.Fatal("rank-0 subview element")
	}
	dd0 := drvNew(t, "dd0", ext7)
	if s := dd0.Subview(kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.Pair(0, 1)); s.Rank() != 7 {
		t.Fatal("pair subview of a LayoutRight view")
	}
	dr5 := drvNew(t, "dr5", []int{drvN0, drvN1, drvN2, 2, 2})
	ext5 := []int{drvN0, drvN1, drvN2, 2, 2}
	d5 := drvNew(t, "d5", ext5, kokkos.WithStrides(drvStrides(ext5)...))
	ref5 := drvFill(t, rng, &d5)
	for r := range 6 {
		if d5.Extent(r) != dr5.Extent(r) {
			t.Fatalf("Extent(%d) differs", r)
		}
	}
	if d5.Rank() != dr5.Rank() {
		t.Fatal("rank")
	}
	// Arguments past the rank select the one index of an extent-1
	// dimension and add no dimension.
	ds5 := d5.Subview(kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.Pair(0, 1))
	ds5plus := d5.Subview(kokkos.All, kokkos.All, kokkos.All, kokkos.All, kokkos.Pair(0, 1), kokkos.All)
	if ds5.Rank() != 5 || ds5plus.Rank() != 5 || ds5.Extent(0) != ds5plus.Extent(0) || ds5.Extent(4) != ds5plus.Extent(4) || ds5.Extent(5) != ds5plus.Extent(5) {
		t.Fatalf("ds5 %v, ds5plus %v", ds5.Extents(), ds5plus.Extents())
	}
	if ds5.Ptr(1, 1, 1, 1, 0) != ds5plus.Ptr(1, 1, 1, 1, 0) || ds5.Ptr(1, 1, 1, 1, 0, 0) != ds5plus.Ptr(1, 1, 1, 1, 0, 0) {
		t.Fatal("ds5 and ds5plus address different elements")
	}
	ds4 := d5.Subview(kokkos.All, kokkos.All, kokkos.All, kokkos.All, 0)
	ds4plus := d5.Subview(kokkos.All, kokkos.All, kokkos.All, kokkos.All, 0, kokkos.All)
	if ds4.Rank() != 4 || ds4plus.Rank() != 4 || ds4.Extent(4) != ds4plus.Extent(4) || ds4.Extent(5) != ds4plus.Extent(5) {
		t.Fatal("ds4 and ds4plus")
	}
	testutil.ForEachIndex(ds4.Extents(), func(idx []int) {
		want := ref5[drvOffset(kokkos.LayoutRight, ext5, append(slices.Clone(idx), 0))]
		if ds4.At(idx...) != want || ds4plus.At(idx...) != want {
			t.Fatalf("ds4%v differs from d5", idx)
		}
	})
	// Missing trailing arguments are the index 0.
	m := d5.Subview(kokkos.All, 2)
	if m.Rank() != 1 || m.Extent(0) != drvN0 {
		t.Fatalf("Subview(All, 2): rank %d", m.Rank())
	}
	for i := range drvN0 {
		if m.At1(i) != ref5[drvOffset(kokkos.LayoutRight, ext5, []int{i, 2, 0, 0, 0})] {
			t.Fatalf("Subview(All, 2) at %d is not d5(%d, 2, 0, 0, 0)", i, i)
		}
	}
	if z := d5.Subview(); z.Rank() != 0 || z.At0() != ref5[0] {
		t.Fatal("Subview() is not the element (0, ...)")
	}
	drvWantPanic(t, func() { d5.Subview(0, 0, 0, 0, 0, 1) }, `"d5"`, "argument 5 (1) is past the rank")
	drvWantPanic(t, func() { d5.Subview(0, 0, 0, 0, 0, kokkos.Pair(0, 0)) }, "argument 5", "Pair(0, 1)")
	drvWantPanic(t, func() { d5.Subview(0, 0, 0, 0, 0, 0, 0, 0) }, "8 arguments", "at most 7")
	drvWantPanic(t, func() { d5.Subview(drvN0) }, `"d5"`, "dimension 0")
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_subview_strided.
func TestConformanceDynRankSubviewStrided(t *testing.T) {
	xl2 := drvNew(t, "xl2", []int{100, 200}, kokkos.LayoutLeft)
	xr2 := drvNew(t, "xr2", []int{100, 200}, kokkos.LayoutRight)
	yl1, yl2 := xl2.Subview(0, kokkos.All), xl2.Subview(1, kokkos.All)
	yr1, yr2 := xr2.Subview(0, kokkos.All), xr2.Subview(1, kokkos.All)
	if yl1.Extent(0) != 200 || yl2.Extent(0) != 200 || yr1.Extent(0) != 200 || yr2.Extent(0) != 200 {
		t.Fatal("extents")
	}
	for j := range 200 {
		if yl1.Ptr1(j) != xl2.Ptr2(0, j) || yl2.Ptr1(j) != xl2.Ptr2(1, j) || yr1.Ptr1(j) != xr2.Ptr2(0, j) || yr2.Ptr1(j) != xr2.Ptr2(1, j) {
			t.Fatalf("row element %d", j)
		}
	}
	xl4 := drvNew(t, "xl4", []int{10, 20, 30, 40}, kokkos.LayoutLeft)
	xr4 := drvNew(t, "xr4", []int{10, 20, 30, 40}, kokkos.LayoutRight)
	yl4, yr4 := xl4.Subview(1, kokkos.All, 2, kokkos.All), xr4.Subview(1, kokkos.All, 2, kokkos.All)
	if yl4.Rank() != 2 || yr4.Rank() != 2 || yl4.Extent(0) != 20 || yl4.Extent(1) != 40 || yr4.Extent(0) != 20 || yr4.Extent(1) != 40 {
		t.Fatal("rank-2 subviews of rank 4")
	}
	for i := range 20 {
		for j := range 40 {
			if yl4.Ptr2(i, j) != xl4.Ptr4(1, i, 2, j) || yr4.Ptr2(i, j) != xr4.Ptr4(1, i, 2, j) {
				t.Fatalf("element (%d, %d)", i, j)
			}
		}
	}
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_vector.
func TestConformanceDynRankVector(t *testing.T) {
	const length, count = 1000, 8
	mv := drvNew(t, "mv", []int{length, count}, kokkos.LayoutLeft)
	mvRight := drvNew(t, "mv", []int{length, count}, kokkos.LayoutRight)
	for c := range 3 {
		v := mv.Subview(kokkos.All, c)
		cv := v.ReadOnly()
		rv := mvRight.Subview(c, kokkos.All)
		if v.Ptr1(0) != mv.Ptr2(0, c) || v.Ptr(0) != v.Ptr1(0) || cv.Ref1(0).Load() != mv.At2(0, c) || rv.Ptr1(0) != mvRight.Ptr2(c, 0) {
			t.Fatalf("column %d", c)
		}
	}
	mv1 := mv.Subview(kokkos.Pair(1, 998), kokkos.Pair(2, 5))
	mvr1 := mvRight.Subview(kokkos.Pair(1, 998), kokkos.Pair(2, 5))
	for _, p := range [][4]int{{0, 0, 1, 2}, {1, 1, 2, 3}, {3, 2, 4, 4}} {
		if mv1.Ptr2(p[0], p[1]) != mv.Ptr2(p[2], p[3]) || mvr1.Ptr2(p[0], p[1]) != mvRight.Ptr2(p[2], p[3]) {
			t.Fatalf("pair subview element %v", p)
		}
	}
}

// Kokkos: containers/unit_tests/TestDynViewAPI.hpp, run_test_layout. The
// layout object is a LayoutSpec, whose Extents hold only the rank's.
func TestConformanceDynRankLayout(t *testing.T) {
	d := drvNew(t, "source", []int{1, 2, 3, 4})
	e, err := kokkos.NewDynRankViewFrom[float64](d.Label(), d.LayoutSpec(), kokkos.WithoutInitializing)
	if err != nil {
		t.Fatal(err)
	}
	if d.Rank() != 4 || e.Rank() != 4 || e.Label() != "source" || !slices.Equal(e.LayoutSpec().Extents, []int{1, 2, 3, 4}) {
		t.Fatalf("rank %d label %q layout %+v", e.Rank(), e.Label(), e.LayoutSpec())
	}
}

// Kokkos: containers/src/Kokkos_DynRankView.hpp, "Max rank of a DynRankView
// is 7".
func TestConformanceDynRankMaxRank(t *testing.T) {
	_, err := kokkos.NewDynRankView[float64]("d8", []int{1, 1, 1, 1, 1, 1, 1, 1})
	if !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), "rank 8 exceeds 7") {
		t.Fatalf("rank 8: %v", err)
	}
	var d kokkos.DynRankView[float64]
	if err := d.Resize([]int{1, 1, 1, 1, 1, 1, 1, 1}); !errors.Is(err, kokkos.ErrShape) {
		t.Fatalf("Resize to rank 8: %v", err)
	}
	v8, _ := kokkos.NewView8[float64]("v8", 1, 2, 1, 2, 1, 2, 1, 2)
	drvWantPanic(t, func() { kokkos.DynRankFrom[float64](&v8) }, `rank-8 view "v8"`, "at most 7", "View8")
	v7, _ := kokkos.NewView7[float64]("v7", 1, 2, 1, 2, 1, 2, 1)
	if d := kokkos.DynRankFrom[float64](&v7); d.Rank() != 7 {
		t.Fatal("rank 7")
	}
}

// Kokkos: containers/src/Kokkos_DynRankView.hpp, resize and realloc:
// "Can only resize managed views", "Can only realloc managed views"
// (compile-time there; errors here), and const views do not compile.
func TestConformanceDynRankResizeManagedOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 10))
	data := make([]float64, 12)
	for i := range data {
		data[i] = 1 + rng.Float64()
	}
	w, err := kokkos.WrapDynRankView(data, []int{3, 4}, kokkos.WithLabel("w"))
	if err != nil {
		t.Fatal(err)
	}
	before := w
	for _, err := range []error{w.Resize([]int{2, 2}), w.Realloc([]int{6})} {
		if !errors.Is(err, kokkos.ErrUnmanaged) || !strings.Contains(err.Error(), `"w"`) {
			t.Fatalf("unmanaged: %v", err)
		}
	}
	if !w.Equal(before) || w.At2(2, 3) != data[11] {
		t.Fatal("a refused Resize changed the view")
	}
	m := drvNew(t, "m", []int{3, 4})
	r := m.ReadOnly()
	if err := r.Resize([]int{2}); !errors.Is(err, kokkos.ErrReadOnly) {
		t.Fatalf("read-only Resize: %v", err)
	}
	if err := r.Realloc([]int{2}); !errors.Is(err, kokkos.ErrReadOnly) {
		t.Fatalf("read-only Realloc: %v", err)
	}
	if err := m.Release(); err != nil {
		t.Fatal(err)
	}
	if err := m.Resize([]int{2}); !errors.Is(err, kokkos.ErrReleased) {
		t.Fatalf("released Resize: %v", err)
	}
}
