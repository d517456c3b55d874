package kokkos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/internal/testutil"
)

// addrN returns the address of v's element at idx, through the rank-typed
// Ptr.
func addrN(v View[float64], idx []int) uintptr {
	d := v.viewDesc()
	return uintptr(unsafe.Pointer(&d.data[offsetOf(d.strides(), idx)]))
}

// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_view_operator_a, _b and
// _c (TestViewOperator_LeftAndRight for ranks 1 to 8, extents 2, 3, 4, 2,
// 3, 4, 2, 3): iterating a LayoutLeft view with the first index fastest,
// and a LayoutRight view with the last index fastest, visits strictly
// increasing offsets inside the allocation; the views hold what was stored.
func TestConformanceViewAPIOperatorLeftAndRight(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	all := []int{2, 3, 4, 2, 3, 4, 2, 3}
	for rank := 1; rank <= MaxRank; rank++ {
		ext := all[:rank]
		for _, l := range []Layout{LayoutLeft, LayoutRight} {
			v := newViewN(t, "v", ext, l)
			d := v.viewDesc()
			base := uintptr(unsafe.Pointer(&d.data[0]))
			alloc := uintptr(d.rec.Bytes())
			ref := map[string]float64{}
			testutil.ForEachIndex(ext, func(idx []int) {
				x := rng.Float64()
				setN(v, idx, x)
				ref[fmt.Sprint(idx)] = x
			})
			// Visit in the layout's order: ForEachIndex runs the last
			// index fastest, so reverse the indices for LayoutLeft.
			order := append([]int(nil), ext...)
			if l == LayoutLeft {
				for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
					order[i], order[j] = order[j], order[i]
				}
			}
			prev := -1
			testutil.ForEachIndex(order, func(o []int) {
				idx := append([]int(nil), o...)
				if l == LayoutLeft {
					for i, j := 0, len(idx)-1; i < j; i, j = i+1, j-1 {
						idx[i], idx[j] = idx[j], idx[i]
					}
				}
				off := int(addrN(v, idx) - base)
				if off <= prev || uintptr(off) >= alloc {
					t.Fatalf("rank %d %v: offset of %v is %d after %d (allocation %d bytes)", rank, l, idx, off, prev, alloc)
				}
				prev = off
				if got := atN(v, idx); got != ref[fmt.Sprint(idx)] {
					t.Fatalf("rank %d %v: %v = %v, want %v", rank, l, idx, got, ref[fmt.Sprint(idx)])
				}
			})
		}
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_mirror: the mirror view
// of a host rank-0 view is the view itself; create_mirror copies.
func TestConformanceViewAPIMirror(t *testing.T) {
	a := Must(NewView0[int]("a"))
	am := Must(CreateMirrorView(a))
	ax := Must(CreateMirror(a))
	if am.Ptr() != a.Ptr() || ax.Ptr() == a.Ptr() {
		t.Fatalf("rank-0 mirrors: view shares %v, mirror shares %v", am.Ptr() == a.Ptr(), ax.Ptr() == a.Ptr())
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_scalar: rank-0 views
// through device memory and back.
func TestConformanceViewAPIScalar(t *testing.T) {
	fs := checked(t, newFakeSpace(false))
	dx := Must(NewView0[float64]("dx", InSpace(fs)))
	dy := Must(NewView0[float64]("dy", InSpace(fs)))
	defer dx.Release()
	defer dy.Release()
	hx := Must(CreateMirror(dx))
	hy := Must(CreateMirror(dy))
	x := rand.New(rand.NewPCG(33, 34)).Float64()
	hx.Set(x)
	for _, step := range []error{DeepCopy[float64](&dx, &hx), DeepCopy[float64](&dy, &dx), DeepCopy[float64](&hy, &dy)} {
		if step != nil {
			t.Fatal(step)
		}
	}
	if hy.At() != x {
		t.Fatalf("hy() = %v, want %v", hy.At(), x)
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_contruction_from_layout
// and _2: a view is rebuilt from another's label and layout object; a view
// wrapped over memory too small for it is refused, where Kokkos trusts the
// pointer.
func TestConformanceViewAPIConstructionFromLayout(t *testing.T) {
	const n0, n1, n2 = 5, 3, 2
	for _, l := range []Layout{LayoutRight, LayoutLeft} {
		v0 := Must(NewView3[float64]("v_0", n0, n1, n2, l))
		w := Must(NewView3From[float64](v0.Label(), v0.LayoutSpec()))
		if w.Label() != "v_0" || w.LayoutSpec().Layout != l || w.Strides()[0] != v0.Strides()[0] || w.Extent(2) != n2 {
			t.Fatalf("%v: rebuilt view %q %+v, want %+v", l, w.Label(), w.LayoutSpec(), v0.LayoutSpec())
		}
		// View<T*[N2]> from the layout of View<T***>: the fixed extent is
		// the array element type in Go.
		a := Must(NewView2[[n2]float64]("v_1", n0, n1, l))
		if RequiredAllocationSizeFor[[n2]float64](a.LayoutSpec()) != RequiredAllocationSizeFor[float64](v0.LayoutSpec()) {
			t.Fatalf("%v: View2 of [%d]float64 and View3 of float64 differ in size", l, n2)
		}
	}
	dummy := Must(NewView0[float64]("dummy"))
	if _, err := WrapView1(dummy.Data(), n0); !errors.Is(err, ErrShape) {
		t.Fatalf("wrapping a 1-element slice as %d elements: %v, want ErrShape", n0, err)
	}
	if v, err := WrapView0(dummy.Data()); err != nil || v.Ptr() != dummy.Ptr() {
		t.Fatalf("wrapping a rank-0 view's data: %v", err)
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_deep_copy_empty.
func TestConformanceViewAPIDeepCopyEmpty(t *testing.T) {
	dll := Must(NewView1[float64]("dll", 10, LayoutLeft))
	hlr := Must(NewView1[float64]("hlr", 10))
	rng := rand.New(rand.NewPCG(35, 36))
	for i := range 10 {
		hlr.Set(i, rng.Float64())
	}
	if err := DeepCopy[float64](&dll, &hlr); err != nil {
		t.Fatal(err)
	}
	if err := DeepCopy[float64](&hlr, &dll); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if dll.At(i) != hlr.At(i) {
			t.Fatalf("(%d): %v, want %v", i, dll.At(i), hlr.At(i))
		}
	}
	var d, h View1[float64]
	if err := DeepCopy[float64](&d, &h); err != nil {
		t.Fatal(err)
	}
	if err := DeepCopy[float64](&h, &d); err != nil {
		t.Fatal(err)
	}
	var d2, h2 View2[[3]float64] // View<double*[3]>
	if err := DeepCopy[[3]float64](&d2, &h2); err != nil {
		t.Fatal(err)
	}
	if err := DeepCopy[[3]float64](&h2, &d2); err != nil {
		t.Fatal(err)
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_const: the const view
// of x equals x and shares its data.
func TestConformanceViewAPIConst(t *testing.T) {
	x := Must(NewView1[[2]float64]("X", 1)) // View<T[2]>
	xc := x.ReadOnly()
	xr := Must(xc.AsTraits(RandomAccess))
	if !xc.Equal(&x) || !x.Equal(&xc) || !xr.Equal(&x) || !xr.IsReadOnly() {
		t.Fatalf("const views: xc==x %v, x==xc %v, xr==x %v, xr read-only %v", xc.Equal(&x), x.Equal(&xc), xr.Equal(&x), xr.IsReadOnly())
	}
	if &ReadOnlyData[[2]float64](&xr)[0] != x.Ptr(0) {
		t.Fatalf("x.data() != xr.data()")
	}
}

// Kokkos: core/unit_test/TestViewAPI.hpp, run_test_vector: columns of a
// LayoutLeft multivector and rows of a LayoutRight one as rank-1 views of
// either layout, and rank-2 subviews that keep their parent's layout.
func TestConformanceViewAPIVector(t *testing.T) {
	const length, count = 1000, 8
	mv := Must(NewView2[float64]("mv", length, count, LayoutLeft))
	mvRight := Must(NewView2[float64]("mv", length, count))
	for i := range 3 {
		v := mv.Subview1(All, i)
		vl := Must(v.AsLayout(LayoutLeft))
		vr := Must(v.AsLayout(LayoutRight))
		cv := v.ReadOnly()
		for _, w := range []*View1[float64]{&v, &vl, &vr, &cv} {
			if &ReadOnlyData[float64](w)[0] != mv.Ptr(0, i) {
				t.Fatalf("column %d does not start at mv(0, %d)", i, i)
			}
		}
		rv := mvRight.Subview1(i, All)
		if rl := Must(rv.AsLayout(LayoutLeft)); rl.Ptr(0) != mvRight.Ptr(i, 0) {
			t.Fatalf("row %d does not start at mv_right(%d, 0)", i, i)
		}
	}
	mv1 := mv.Subview2(Pair(1, 998), Pair(2, 5))
	mvr1 := mvRight.Subview2(Pair(1, 998), Pair(2, 5))
	mv1l, err := mv1.AsLayout(LayoutLeft)
	if err != nil {
		t.Fatal(err)
	}
	mvr1r, err := mvr1.AsLayout(LayoutRight)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][4]int{{0, 0, 1, 2}, {1, 1, 2, 3}, {3, 2, 4, 4}} {
		if mv1l.Ptr(c[0], c[1]) != mv.Ptr(c[2], c[3]) || mvr1r.Ptr(c[0], c[1]) != mvRight.Ptr(c[2], c[3]) {
			t.Fatalf("mv1(%d, %d) is not mv(%d, %d)", c[0], c[1], c[2], c[3])
		}
	}
	cmv := mv.ReadOnly()
	if !cmv.Equal(&mv) {
		t.Fatalf("const multivector differs")
	}
}
