package kokkos

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestOffsetBeginsAndEnds(t *testing.T) {
	// Kokkos's OffsetView documentation: OffsetView<int***> ov("someLabel", {-1,1}, {-2,2}, {-3,3})
	ov, err := NewOffsetView3[int]("someLabel", Bounds(-1, 1), Bounds(-2, 2), Bounds(-3, 3))
	if err != nil {
		t.Fatal(err)
	}
	if ov.Begins() != [3]int{-1, -2, -3} || ov.Begin(0) != -1 || ov.End(0) != 2 {
		t.Fatalf("begins %v end0 %d", ov.Begins(), ov.End(0))
	}
	for r, want := range []int{3, 5, 7, 1, 1} {
		if ov.Extent(r) != want {
			t.Fatalf("Extent(%d) = %d, want %d", r, ov.Extent(r), want)
		}
	}
	if ov.Begin(5) != 0 || ov.End(5) != 1 || ov.Rank() != 3 || ov.Size() != 105 || ov.Label() != "someLabel" {
		t.Fatal("past-rank Begin/End, Rank, Size or Label")
	}
	b, _ := NewOffsetView1[float64]("b", Bounds(-1, 3))
	if b.Extent(0) != 5 || b.Begin(0) != -1 || b.End(0) != 4 {
		t.Fatalf("Bounds(-1, 3): extent %d begin %d end %d", b.Extent(0), b.Begin(0), b.End(0))
	}
	z, _ := NewOffsetView2[float64]("z", Bounds(0, 2), Bounds(5, 5))
	if z.Begins() != [2]int{0, 5} || z.Extent(1) != 1 || z.End(1) != 6 {
		t.Fatal("zero and positive offsets")
	}
	mustPanic(t, func() { ov.Begin(8) }, "Begin(8) of a rank-3 offset view")
	mustPanic(t, func() { ov.End(-1) }, "End(-1)")
}

func TestOffsetErrors(t *testing.T) {
	_, err := NewOffsetView2[float64]("e", Bounds(0, 3), Bounds(2, 0))
	mustErr(t, err, `offset view "e": index range [2, 0] of dimension 1 ends before it begins; Bounds(2, 1) is the empty range`)
	_, err = NewOffsetView1[float64]("o", Bounds(math.MinInt, 0))
	mustErr(t, err, "index range", "overflows int")
	_, err = NewOffsetView1[float64]("o", Bounds(0, math.MaxInt))
	mustErr(t, err, "overflows int")
	v, _ := NewView2[float64]("v", 10, 20)
	_, err = OffsetView2Of(v, [2]int{0, math.MaxInt - 5})
	mustErr(t, err, `offset view "v": begin 9223372036854775802 of dimension 1 with extent 20 overflows int`)
	_, err = NewOffsetView2From[float64]("f", LayoutSpec{Extents: []int{2, 3, 4}}, [2]int{})
	mustErr(t, err, "layout spec of rank 3", "rank-2 constructor")
	_, err = NewOffsetView2[float64]("big", Bounds(0, 1<<40), Bounds(0, 1<<40))
	mustErr(t, err, `"big"`, "overflow")
}

func TestOffsetFromView(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// Kokkos's OffsetView documentation: View<double**> b("somelabel", 10, 20); OffsetView ov(b, {-10, -20})
	b, _ := NewView2[float64]("somelabel", 10, 20)
	for i := range 10 {
		for j := range 20 {
			b.Set(i, j, randNonZero(rng))
		}
	}
	ov, err := OffsetView2Of(b, [2]int{-10, -20})
	if err != nil {
		t.Fatal(err)
	}
	if ov.Begin(0) != -10 || ov.End(0) != 0 || ov.Begin(1) != -20 || ov.End(1) != 0 || ov.Label() != "somelabel" {
		t.Fatal("ranges [-10, -1] x [-20, -1]")
	}
	for i := -10; i < 0; i++ {
		for j := -20; j < 0; j++ {
			if ov.At(i, j) != b.At(i+10, j+20) || *ov.Ptr(i, j) != b.At(i+10, j+20) {
				t.Fatalf("(%d, %d)", i, j)
			}
		}
	}
	ov.Set(-1, -1, 42)
	if b.At(9, 19) != 42 {
		t.Fatal("Set does not share memory")
	}
	w := ov.View()
	if !w.Equal(b) || w.Label() != "somelabel" || ov.UseCount() != 1 {
		t.Fatal("View() is not the underlying view")
	}
	mustPanic(t, func() { ov.At(0, -20) }, `index (0, -20) out of bounds for view "somelabel" with index ranges [-10, -1] x [-20, -1]`)
}

func TestOffsetAccessMessages(t *testing.T) {
	a, _ := NewOffsetView2[float64]("a", Bounds(-1, 3), Bounds(-2, 2))
	mustPanic(t, func() { a.At(5, 0) }, `index (5, 0) out of bounds for view "a" with index ranges [-1, 3] x [-2, 2]`)
	mustPanic(t, func() { a.At(-2, 0) }, "index (-2, 0)")
	mustPanic(t, func() { a.Set(0, 3, 1) }, "index (0, 3)")
	mustPanic(t, func() { a.Ptr(4, -2) }, "index (4, -2)")
	a.Set(3, 2, 1.5)
	if a.At(3, 2) != 1.5 || a.At(-1, -2) != 0 {
		t.Fatal("corner elements")
	}
	r := a.ReadOnly()
	if !r.IsReadOnly() || r.At(3, 2) != 1.5 || r.Begins() != a.Begins() {
		t.Fatal("ReadOnly")
	}
	mustPanic(t, func() { r.Set(-1, -2, 1) }, `write to read-only view "a" at index (-1, -2)`)
	mustPanic(t, func() { r.Ptr(0, 0) }, "read-only")
	var z OffsetView1[float64]
	mustPanic(t, func() { z.At(0) }, "not allocated")
}

func TestOffsetLayoutFrom(t *testing.T) {
	// Kokkos's OffsetView documentation: OffsetView<int***> a("someLabel", LayoutLeft, {min0, min1, min2})
	spec := LayoutSpec{Layout: LayoutLeft, Extents: []int{2, 3, 4}}
	a, err := NewOffsetView3From[int]("someLabel", spec, [3]int{-1, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	if a.Layout() != LayoutLeft || a.Stride(0) != 1 || a.Stride(1) != 2 || a.End(2) != 6 {
		t.Fatalf("layout %v strides %d %d", a.Layout(), a.Stride(0), a.Stride(1))
	}
	a.Set(0, 2, 5, 9)
	v := a.View()
	if v.At(1, 2, 3) != 9 || a.Data()[1+2*2+3*6] != 9 {
		t.Fatal("LayoutLeft offset mapping")
	}
	l, err := NewOffsetView2[int]("l", Bounds(-1, 1), Bounds(1, 4), LayoutLeft)
	if err != nil || l.Layout() != LayoutLeft || l.Stride(1) != 3 {
		t.Fatal("layout option", err)
	}
}

// TestOffsetRandomRank4 compares a rank-4 offset view over random data with
// a naive offset computation.
func TestOffsetRandomRank4(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	o, err := NewOffsetView4[float64]("r4", Bounds(-2, 0), Bounds(3, 6), Bounds(0, 1), Bounds(-5, -3))
	if err != nil {
		t.Fatal(err)
	}
	data := o.Data()
	for i := range data {
		data[i] = randNonZero(rng)
	}
	for i := -2; i <= 0; i++ {
		for j := 3; j <= 6; j++ {
			for k := 0; k <= 1; k++ {
				for l := -5; l <= -3; l++ {
					want := data[(((i+2)*4+(j-3))*2+k)*3+(l+5)]
					if o.At(i, j, k, l) != want {
						t.Fatalf("(%d, %d, %d, %d)", i, j, k, l)
					}
				}
			}
		}
	}
}

func TestOffsetSubview(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	// Kokkos's OffsetView documentation: sliceMe("offsetToSlice", {-10,20}, {-20,30}, {-30,40});
	// subview(sliceMe, 0, ALL(), make_pair(-30, -21))
	sliceMe, err := NewOffsetView3[float64]("offsetToSlice", Bounds(-10, 20), Bounds(-20, 30), Bounds(-30, 40))
	if err != nil {
		t.Fatal(err)
	}
	data := sliceMe.Data()
	for i := range data {
		data[i] = randNonZero(rng)
	}
	s := sliceMe.Subview2(0, All, Pair(-30, -21))
	if s.Rank() != 2 || s.Begin(0) != -20 || s.End(0) != 31 || s.Begin(1) != 0 || s.End(1) != 9 {
		t.Fatalf("begins %v ends %d %d", s.Begins(), s.End(0), s.End(1))
	}
	for j := -20; j <= 30; j++ {
		for k := 0; k < 9; k++ {
			if s.At(j, k) != sliceMe.At(0, j, k-30) {
				t.Fatalf("(%d, %d)", j, k)
			}
		}
	}
	b := sliceMe.Subview2(All, -20, Bounds(38, 40))
	if b.Begins() != [2]int{-10, 0} || b.End(0) != 21 || b.End(1) != 3 || b.At(7, 2) != sliceMe.At(7, -20, 40) {
		t.Fatal("Subview2 with All and Bounds")
	}
	e := sliceMe.Subview1(-10, 30, All)
	if e.Begin(0) != -30 || e.At(40) != sliceMe.At(-10, 30, 40) {
		t.Fatal("Subview1 keeps the begin of All")
	}
	c := sliceMe.Subview3(Pair(-10, -5), All, All)
	if c.Begins() != [3]int{0, -20, -30} || c.At(4, 30, 40) != sliceMe.At(-6, 30, 40) || c.Label() != "offsetToSlice" {
		t.Fatal("Subview3")
	}
	mustPanic(t, func() { sliceMe.Subview2(21, All, All) }, `Subview2 of view "offsetToSlice" with index ranges [-10, 20] x [-20, 30] x [-30, 40]: 21 of dimension 0 is out of range`)
	mustPanic(t, func() { sliceMe.Subview2(0, All, Pair(-31, 0)) }, "range [-31, 0) of dimension 2")
	mustPanic(t, func() { sliceMe.Subview2(0, All, Bounds(0, 41)) }, "range [0, 41] of dimension 2")
	mustPanic(t, func() { sliceMe.Subview2(0, 0, All) }, "1 of the 3 arguments are ranges")
	mustPanic(t, func() { sliceMe.Subview2(0, 1.5, All) }, "argument 1 has type float64")
}

func TestOffsetEqual(t *testing.T) {
	v, _ := NewView2[int]("e", 3, 4)
	a, _ := OffsetView2Of(v, [2]int{-1, 0})
	b, _ := OffsetView2Of(v, [2]int{-1, 0})
	c, _ := OffsetView2Of(v, [2]int{0, 0})
	if !a.Equal(b) || a.Equal(c) {
		t.Fatal("Equal compares the view and the begins")
	}
	av := a.View()
	if !av.Equal(v) {
		t.Fatal("an OffsetView's View equals the view it was made from")
	}
	d := DynRankFrom[int](a)
	if d.Rank() != 2 || !d.Equal(DynRankFrom[int](v)) {
		t.Fatal("DynRankFrom(OffsetView) gives the underlying view")
	}
}

// TestOffsetRowColLine reads the rows, columns and lines of rank-2 and
// rank-3 offset views of both layouts against At over random values, and
// checks that indices outside their ranges panic with the index ranges.
func TestOffsetRowColLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, l := range []Layout{LayoutRight, LayoutLeft} {
		o, err := NewOffsetView2[float64]("L2", Bounds(-2, 1), Bounds(3, 7), l)
		if err != nil {
			t.Fatal(err)
		}
		for i := o.Begin(0); i < o.End(0); i++ {
			for j := o.Begin(1); j < o.End(1); j++ {
				o.Set(i, j, 1+rng.Float64())
			}
		}
		if l == LayoutRight {
			for i := o.Begin(0); i < o.End(0); i++ {
				row, line := o.Row(i), o.Line(i)
				for k := range o.Extent(1) {
					if row[k] != o.At(i, o.Begin(1)+k) || line[k] != row[k] {
						t.Fatalf("%v: Row(%d)[%d] differs", l, i, k)
					}
				}
			}
			mustPanic(t, func() { o.Row(2) }, `Row(2) of view "L2" with index ranges [-2, 1] x [3, 7]`)
		} else {
			for j := o.Begin(1); j < o.End(1); j++ {
				col, line := o.Col(j), o.Line(j)
				for k := range o.Extent(0) {
					if col[k] != o.At(o.Begin(0)+k, j) || line[k] != col[k] {
						t.Fatalf("%v: Col(%d)[%d] differs", l, j, k)
					}
				}
			}
			mustPanic(t, func() { o.Col(2) }, `Col(2) of view "L2" with index ranges [-2, 1] x [3, 7]`)
			mustPanic(t, func() { o.Line(8) }, `Line(8) of view "L2"`)
		}
		o3, err := NewOffsetView3[float64]("L3", Bounds(-1, 1), Bounds(5, 6), Bounds(-3, 0), l)
		if err != nil {
			t.Fatal(err)
		}
		for i := o3.Begin(0); i < o3.End(0); i++ {
			for j := o3.Begin(1); j < o3.End(1); j++ {
				for k := o3.Begin(2); k < o3.End(2); k++ {
					o3.Set(i, j, k, 1+rng.Float64())
				}
			}
		}
		d := o3.LineDim()
		for a := range 3 {
			for b := range 4 {
				var line []float64
				var at func(k int) float64
				if d == 2 {
					if a > 2 || b > 1 {
						continue
					}
					i, j := o3.Begin(0)+a, o3.Begin(1)+b
					line, at = o3.Line(i, j), func(k int) float64 { return o3.At(i, j, o3.Begin(2)+k) }
				} else {
					if a > 1 || b > 3 {
						continue
					}
					j, k := o3.Begin(1)+a, o3.Begin(2)+b
					line, at = o3.Line(j, k), func(i int) float64 { return o3.At(o3.Begin(0)+i, j, k) }
				}
				for k, x := range line {
					if x != at(k) {
						t.Fatalf("%v: Line of rank 3 differs at %d", l, k)
					}
				}
			}
		}
	}
}
