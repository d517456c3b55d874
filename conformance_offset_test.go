package kokkos_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
)

// Kokkos: containers/unit_tests/TestOffsetView.hpp,
// test_offsetview_construction, on random values instead of constants.
func TestConformanceOffsetConstruction(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 1))
	range0, range1 := kokkos.Bounds(-1, 3), kokkos.Bounds(-2, 2)
	var o1 kokkos.OffsetView2[int]
	if o1.IsAllocated() {
		t.Fatal("the zero OffsetView2 is allocated")
	}
	o1, err := kokkos.NewOffsetView2[int]("o1", kokkos.Bounds(-1, 3), kokkos.Bounds(-2, 2))
	if err != nil {
		t.Fatal(err)
	}
	o2 := o1
	o3, _ := kokkos.NewOffsetView2[int]("o3", range0, range1)
	if !o1.IsAllocated() || !o2.IsAllocated() || !o3.IsAllocated() {
		t.Fatal("not allocated")
	}
	ov, _ := kokkos.NewOffsetView2[int]("firstOV", range0, range1)
	if ov.Label() != "firstOV" || ov.Rank() != 2 || ov.Begin(0) != -1 || ov.End(0) != 4 || ov.Begin(1) != -2 || ov.End(1) != 3 || ov.Extent(0) != 5 || ov.Extent(1) != 5 {
		t.Fatalf("label %q rank %d begins %v", ov.Label(), ov.Rank(), ov.Begins())
	}

	// a rank-1 offset view filled and summed over its own index range
	v1, _ := kokkos.NewOffsetView1[int]("OneDOffsetView", range0)
	want1 := 0
	vals := make([]int, v1.Extent(0))
	for i := range vals {
		vals[i] = rng.IntN(100) + 1
		want1 += vals[i]
	}
	kokkos.ParallelFor("fill", kokkos.Range(v1.Begin(0), v1.End(0)), func(i int) { v1.Set(i, vals[i-v1.Begin(0)]) })
	got1 := kokkos.ParallelReduce("sum", kokkos.Range(v1.Begin(0), v1.End(0)), kokkos.Sum[int](), func(i int, acc *int) { *acc += v1.At(i) })
	if got1 != want1 {
		t.Fatalf("sum over [%d, %d): %d, want %d", v1.Begin(0), v1.End(0), got1, want1)
	}

	// a fill of the host mirror
	const constVal = 6
	host, err := kokkos.CreateMirrorView(ov)
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.Fill[int](&host, constVal); err != nil {
		t.Fatal(err)
	}
	for i := host.Begin(0); i < host.End(0); i++ {
		for j := host.Begin(1); j < host.End(1); j++ {
			if host.At(i, j) != constVal {
				t.Fatalf("(%d, %d) = %d after Fill", i, j, host.At(i, j))
			}
		}
	}

	// an MDRange loop over the offset index space writes every element
	ref := map[[2]int]int{}
	for i := ov.Begin(0); i < ov.End(0); i++ {
		for j := ov.Begin(1); j < ov.End(1); j++ {
			ref[[2]int{i, j}] = rng.IntN(1000) + 1
		}
	}
	md := kokkos.MDRange([]int{ov.Begin(0), ov.Begin(1)}, []int{ov.End(0), ov.End(1)})
	kokkos.ParallelForMD("set", md, func(i, j int) { ov.Set(i, j, ref[[2]int{i, j}]) })
	mirror, err := kokkos.CreateMirror(ov)
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy[int](&mirror, &ov); err != nil {
		t.Fatal(err)
	}
	answer := 0
	for k, x := range ref {
		answer += x
		if mirror.At(k[0], k[1]) != x {
			t.Fatalf("mirror %v = %d, want %d", k, mirror.At(k[0], k[1]), x)
		}
	}
	if got := kokkos.ParallelReduceMD("sum", md, kokkos.Sum[int](), func(i, j int, acc *int) { *acc += ov.At(i, j) }); got != answer {
		t.Fatalf("MDRange sum %d, want %d", got, answer)
	}
	ovCopy := ov
	if !ovCopy.Equal(ov) {
		t.Fatal("a copy is not equal")
	}

	// an offset view of a View and begins sums as the View
	const e0, e1, e2 = 10, 20, 30
	view3D, _ := kokkos.NewView3[int]("view3D", e0, e1, e2)
	sum3 := 0
	for i := range e0 {
		for j := range e1 {
			for k := range e2 {
				x := rng.IntN(100)
				view3D.Set(i, j, k, x)
				sum3 += x
			}
		}
	}
	b := [3]int{-10, -20, -30}
	offset3D, err := kokkos.OffsetView3Of(view3D, b)
	if err != nil {
		t.Fatal(err)
	}
	got3 := kokkos.ParallelReduceMD("sum", kokkos.MDRange([]int{b[0], b[1], b[2]}, []int{b[0] + e0, b[1] + e1, b[2] + e2}), kokkos.Sum[int](),
		func(i, j, k int, acc *int) { *acc += offset3D.At(i, j, k) })
	if got3 != sum3 {
		t.Fatalf("OffsetView3Of sum %d, want %d", got3, sum3)
	}

	// view() and back; == against a View compares View()
	viewFromOV := ov.View()
	if !viewFromOV.Equal(ov.View()) || viewFromOV.Label() != "firstOV" {
		t.Fatal("View()")
	}
	ovFromV, err := kokkos.OffsetView2Of(viewFromOV, [2]int{-1, -2})
	if err != nil {
		t.Fatal(err)
	}
	if v := ovFromV.View(); !v.Equal(viewFromOV) || !ovFromV.Equal(ov) {
		t.Fatal("OffsetView2Of(View(), begins)")
	}
	ovZero, _ := kokkos.OffsetView2Of(viewFromOV, [2]int{})
	if v := ovZero.View(); !v.Equal(viewFromOV) || ovZero.Equal(ov) {
		t.Fatal("OffsetView2Of with begins 0 equals the View but not ov")
	}

	// DeepCopy offset view to View, and View to offset view
	aView, _ := kokkos.NewView2[int]("aView", ov.Extent(0), ov.Extent(1))
	if err := kokkos.DeepCopy[int](&aView, &ov); err != nil {
		t.Fatal(err)
	}
	for k, x := range ref {
		if aView.At(k[0]-ov.Begin(0), k[1]-ov.Begin(1)) != x {
			t.Fatalf("DeepCopy(View, OffsetView) at %v", k)
		}
	}
	for i := range aView.Extent(0) {
		for j := range aView.Extent(1) {
			aView.Set(i, j, rng.IntN(1000))
		}
	}
	if err := kokkos.DeepCopy[int](&ov, &aView); err != nil {
		t.Fatal(err)
	}
	for i := ov.Begin(0); i < ov.End(0); i++ {
		for j := ov.Begin(1); j < ov.End(1); j++ {
			if ov.At(i, j) != aView.At(i-ov.Begin(0), j-ov.Begin(1)) {
				t.Fatalf("DeepCopy(OffsetView, View) at (%d, %d)", i, j)
			}
		}
	}
}

// Kokkos: containers/unit_tests/TestOffsetView.hpp,
// test_offsetview_unmanaged_construction: an offset view over caller
// memory equals the offset view of an unmanaged View of that memory.
func TestConformanceOffsetUnmanagedConstruction(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	data := make([]float64, 5*8*7)
	for i := range data {
		data[i] = 1 + rng.Float64()
	}
	ov1, err := kokkos.WrapOffsetView1(data, [1]int{2}, [1]int{3})
	if err != nil {
		t.Fatal(err)
	}
	v1, _ := kokkos.WrapView1(data, 1)
	ovv1, _ := kokkos.OffsetView1Of(v1, [1]int{2})
	if !ov1.Equal(ovv1) || !ovv1.Equal(ov1) || ov1.At(2) != data[0] {
		t.Fatal("rank 1")
	}

	b2, e2 := [2]int{-2, -7}, [2]int{5, -3}
	ov2, err := kokkos.WrapOffsetView2(data, b2, e2)
	if err != nil {
		t.Fatal(err)
	}
	v2, _ := kokkos.WrapView2(data, e2[0]-b2[0], e2[1]-b2[1])
	ovv2, _ := kokkos.OffsetView2Of(v2, b2)
	if !ov2.Equal(ovv2) || ov2.Begins() != b2 || ov2.End(0) != 5 || ov2.End(1) != -3 {
		t.Fatal("rank 2")
	}
	for i := b2[0]; i < e2[0]; i++ {
		for j := b2[1]; j < e2[1]; j++ {
			// LayoutRight over the caller's slice: the naive row-major offset
			if want := data[(i-b2[0])*(e2[1]-b2[1])+(j-b2[1])]; ov2.At(i, j) != want || ov2.Ptr(i, j) != &data[(i-b2[0])*(e2[1]-b2[1])+(j-b2[1])] {
				t.Fatalf("(%d, %d) = %v, want %v", i, j, ov2.At(i, j), want)
			}
		}
	}
	if other, _ := kokkos.WrapOffsetView2(data, [2]int{-2, -6}, [2]int{5, -2}); other.Equal(ov2) {
		t.Fatal("offset views of other begins are equal")
	}
	if ov2.UseCount() != 0 || ov2.Traits()&kokkos.Unmanaged == 0 {
		t.Fatal("a wrapping offset view is unmanaged")
	}

	b3, e3 := [3]int{2, 3, 5}, [3]int{7, 11, 13}
	data3 := make([]float64, 5*8*8)
	ov3, err := kokkos.WrapOffsetView3(data3, b3, e3, kokkos.WithLabel("ov3"), kokkos.LayoutLeft)
	if err != nil {
		t.Fatal(err)
	}
	v3, _ := kokkos.WrapView3(data3, 5, 8, 8, kokkos.LayoutLeft)
	ovv3, _ := kokkos.OffsetView3Of(v3, b3)
	if !ov3.Equal(ovv3) || ov3.Label() != "ov3" || ov3.Layout() != kokkos.LayoutLeft {
		t.Fatal("rank 3")
	}
	ov3.Set(6, 10, 12, 42)
	if data3[len(data3)-1] != 42 {
		t.Fatal("a write through the wrapping view misses the caller's memory")
	}

	// test_offsetview_unmanaged_construction_death: ranges must not be
	// negative nor overflow; an empty range is fine.
	if _, err := kokkos.WrapOffsetView1(data, [1]int{0}, [1]int{1}); err != nil {
		t.Fatal(err)
	}
	if e, err := kokkos.WrapOffsetView1(data, [1]int{0}, [1]int{0}); err != nil || e.Extent(0) != 0 {
		t.Fatalf("empty range: %v", err)
	}
	for _, c := range []struct {
		b, e int
		want string
	}{
		{0, -1, "end -1 of dimension 0 is before its begin 0"},
		{-1, math.MaxInt, "overflows"},
		{math.MinInt, math.MaxInt, "overflows"},
		{math.MinInt, 0, "overflows"},
	} {
		_, err := kokkos.WrapOffsetView1(data, [1]int{c.b}, [1]int{c.e})
		if !errors.Is(err, kokkos.ErrShape) || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("[%d, %d): %v, want %q", c.b, c.e, err, c.want)
		}
	}
	if _, err := kokkos.WrapOffsetView1(data, [1]int{0}, [1]int{math.MaxInt}); err == nil {
		t.Fatal("a range longer than the slice")
	}
}

// Kokkos: containers/unit_tests/TestOffsetView.hpp, test_offsetview_subview.
func TestConformanceOffsetSubview(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	s1, _ := kokkos.NewOffsetView1[int]("offsetToSlice", kokkos.Bounds(-10, 20))
	s1.Set(0, 7)
	if z := s1.Subview0(0); z.Rank() != 0 || z.At() != 7 || z.Label() != "offsetToSlice" {
		t.Fatal("rank-0 subview of a rank-1 offset view")
	}
	s2, _ := kokkos.NewOffsetView2[int]("offsetToSlice", kokkos.Bounds(-10, 20), kokkos.Bounds(-20, 30))
	if a := s2.Subview1(kokkos.All, -2); a.Rank() != 1 || a.Begin(0) != -10 || a.End(0) != 21 {
		t.Fatal("Subview1(All, -2)")
	}
	if a := s2.Subview1(0, kokkos.All); a.Rank() != 1 || a.Begin(0) != -20 {
		t.Fatal("Subview1(0, All)")
	}
	s3, _ := kokkos.NewOffsetView3[int]("offsetToSlice", kokkos.Bounds(-10, 20), kokkos.Bounds(-20, 30), kokkos.Bounds(-30, 40))
	for i := s3.Begin(0); i < s3.End(0); i++ {
		for j := s3.Begin(1); j < s3.End(1); j++ {
			for k := s3.Begin(2); k < s3.End(2); k++ {
				s3.Set(i, j, k, rng.IntN(1<<20))
			}
		}
	}
	for _, r := range []int{
		func() int { a := s3.Subview2(kokkos.All, kokkos.All, 0); return a.Rank() }(),
		func() int { a := s3.Subview2(kokkos.All, 0, kokkos.All); return a.Rank() }(),
		func() int { a := s3.Subview2(0, kokkos.All, kokkos.All); return a.Rank() }(),
	} {
		if r != 2 {
			t.Fatal("rank-2 slices")
		}
	}
	sub := s3.Subview2(0, kokkos.All, kokkos.Pair(-30, -21))
	if sub.Rank() != 2 || sub.Begin(0) != -20 || sub.End(0) != 31 || sub.Begin(1) != 0 || sub.End(1) != 9 {
		t.Fatalf("begins %v ends %d %d", sub.Begins(), sub.End(0), sub.End(1))
	}
	for i := sub.Begin(0); i < sub.End(0); i++ {
		for j := sub.Begin(1); j < sub.End(1); j++ {
			if sub.At(i, j) != s3.At(0, i, j-30) {
				t.Fatalf("sub(%d, %d) is not s3(0, %d, %d)", i, j, i, j-30)
			}
		}
	}
	outside, below := s3.At(0, 30, -21), s3.At(1, 30, -22)
	md := kokkos.MDRange([]int{sub.Begin(0), sub.Begin(1)}, []int{sub.End(0), sub.End(1)})
	kokkos.ParallelForMD("six", md, func(i, j int) { sub.Set(i, j, 6) })
	sum := kokkos.ParallelReduceMD("sum", md, kokkos.Sum[int](), func(i, j int, acc *int) { *acc += sub.At(i, j) })
	if sum != 6*sub.Extent(0)*sub.Extent(1) || s3.At(0, 30, -22) != 6 || s3.At(0, 30, -21) != outside || s3.At(1, 30, -22) != below {
		t.Fatalf("sum %d, or a write outside the subview", sum)
	}
	for _, c := range []struct {
		got, want int
	}{
		{func() int { a := s3.Subview1(kokkos.All, 0, 0); return a.Begin(0) }(), -10},
		{func() int { a := s3.Subview1(0, 0, kokkos.All); return a.Begin(0) }(), -30},
		{func() int { a := s3.Subview1(0, kokkos.All, 0); return a.Begin(0) }(), -20},
	} {
		if c.got != c.want {
			t.Fatalf("rank-1 slice begin %d, want %d", c.got, c.want)
		}
	}
	if z := s3.Subview0(-10, 30, 40); z.At() != s3.At(-10, 30, 40) {
		t.Fatal("Subview0 at the last index")
	}
	s4, _ := kokkos.NewOffsetView4[int]("offsetToSlice", kokkos.Bounds(-10, 20), kokkos.Bounds(-20, 30), kokkos.Bounds(-30, 40), kokkos.Bounds(-40, 50))
	a3 := s4.Subview3(kokkos.All, kokkos.All, 0, kokkos.All)
	a2 := s4.Subview2(kokkos.All, 0, kokkos.All, 0)
	a1 := s4.Subview1(0, 0, 0, kokkos.All)
	if a3.Rank() != 3 || a3.Begins() != [3]int{-10, -20, -40} || a2.Rank() != 2 || a2.Begins() != [2]int{-10, -30} || a1.Rank() != 1 || a1.Begin(0) != -40 {
		t.Fatalf("rank-4 slices: begins %v %v %v", a3.Begins(), a2.Begins(), a1.Begins())
	}
	x := rng.IntN(1000) + 1
	s4.Set(3, 0, 0, -40, x)
	s4.Set(3, 0, 5, 0, x+1)
	s4.Set(0, 0, 0, 7, x+2)
	if a3.At(3, 0, -40) != x || a2.At(3, 5) != x+1 || a1.At(7) != x+2 {
		t.Fatal("rank-4 slices do not alias the view")
	}
	msg := func() (m string) {
		defer func() { m, _ = recover().(string) }()
		s3.Subview0(-11, 0, 0)
		return ""
	}()
	if !strings.Contains(msg, `"offsetToSlice"`) || !strings.Contains(msg, "[-10, 20]") {
		t.Fatalf("Subview0 out of range: %q", msg)
	}
}

// Kokkos: containers/unit_tests/TestOffsetView.hpp,
// test_offsetview_offsets_rank1, _rank2 and _rank3: for every begin in
// [-3, 3], ov(3, ...) of the offset view of v is v(3 - begin, ...).
func TestConformanceOffsetOffsets(t *testing.T) {
	element := func(idx ...int) int {
		e := 0
		for _, i := range idx {
			e = e*10 + i
		}
		return e
	}
	v1, _ := kokkos.NewView1[int]("View1", 10)
	v2, _ := kokkos.NewView2[int]("View2", 10, 10)
	v3, _ := kokkos.NewView3[int]("View3", 10, 10, 10)
	for i := range 10 {
		v1.Set(i, element(i))
		for j := range 10 {
			v2.Set(i, j, element(i, j))
			for k := range 10 {
				v3.Set(i, j, k, element(i, j, k))
			}
		}
	}
	errs := kokkos.ParallelReduce("offsets", kokkos.Range(-3, 4), kokkos.Sum[int](), func(ii int, errs *int) {
		o1, _ := kokkos.OffsetView1Of(v1, [1]int{ii})
		if o1.At(3) != element(3-ii) {
			*errs++
		}
		for jj := -3; jj <= 3; jj++ {
			o2, _ := kokkos.OffsetView2Of(v2, [2]int{ii, jj})
			if o2.At(3, 3) != element(3-ii, 3-jj) {
				*errs++
			}
			for kk := -3; kk <= 3; kk++ {
				o3, _ := kokkos.OffsetView3Of(v3, [3]int{ii, jj, kk})
				if o3.At(3, 3, 3) != element(3-ii, 3-jj, 3-kk) {
					*errs++
				}
			}
		}
	})
	if errs != 0 {
		t.Fatalf("%d errors", errs)
	}
}
