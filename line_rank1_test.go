package kokkos

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLineView1 checks View1.Line against At on random values: the whole
// view, for allocated, wrapped and subview views whose stride is 1, and
// writes through it.
func TestLineView1(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	buf := make([]float64, 40)
	for i := range buf {
		buf[i] = r.Float64()
	}
	big := Must(NewView2[float64]("B", 6, 7))
	for i := range 6 {
		for j := range 7 {
			big.Set(i, j, r.Float64())
		}
	}
	for _, c := range []struct {
		name string
		v    View1[float64]
	}{
		{"new", Must(NewView1[float64]("N", 13))},
		{"left", Must(NewView1[float64]("L", 9, LayoutLeft))},
		{"wrapped", Must(WrapView1(buf[3:], 20))},
		{"empty", Must(NewView1[float64]("E", 0))},
		{"one", Must(NewView1[float64]("O", 1))},
		{"row", big.Subview1(4, Pair(2, 6))},
		// a column of a LayoutRight view has stride 7, but one element
		{"column of one", big.Subview1(Pair(3, 4), 5)},
	} {
		v := c.v
		for i := range v.Extent(0) {
			if c.name == "new" || c.name == "left" || c.name == "one" {
				v.Set(i, r.Float64())
			}
		}
		line := v.Line()
		if len(line) != v.Extent(0) || cap(line) != v.Extent(0) {
			t.Fatalf("%s: Line has len %d cap %d, want %d", c.name, len(line), cap(line), v.Extent(0))
		}
		for i, x := range line {
			if x != v.At(i) {
				t.Fatalf("%s: Line()[%d] = %v, want At(%d) = %v", c.name, i, x, i, v.At(i))
			}
		}
		if len(line) > 0 {
			k := r.IntN(len(line))
			line[k] = -1
			if v.At(k) != -1 {
				t.Fatalf("%s: write through Line()[%d] not seen by At", c.name, k)
			}
		}
	}
}

// TestLineView1Panics checks that View1.Line refuses, naming the view, its
// extent and its stride, a view that is not contiguous, and the views whose
// elements Row and Col refuse too.
func TestLineView1Panics(t *testing.T) {
	w := Must(NewView2[float64]("W", 3, 4))
	col := w.Subview1(All, 2) // stride 4
	msg := fmt.Sprint(catchPanic(func() { col.Line() }))
	for _, part := range []string{`Line() of view "W"`, "extents (3)", "dimension 0 has stride 4, not 1", "use At"} {
		if !strings.Contains(msg, part) {
			t.Errorf("panic %q lacks %q", msg, part)
		}
	}
	v := Must(NewView1[int64]("V", 5))
	for _, c := range []struct {
		v    View1[int64]
		want string
	}{
		{v.ReadOnly(), `Line of read-only view "V"`},
		{Must(v.AsTraits(Atomic)), `Line of view "V", which has the Atomic trait`},
	} {
		if msg := fmt.Sprint(catchPanic(func() { c.v.Line() })); !strings.Contains(msg, c.want) {
			t.Errorf("panic %q, want %q", msg, c.want)
		}
	}
}

// TestRowColLayouts checks Row, Col and Line of rank-2 and rank-3 views
// against loops over At on random values, for both layouts: Row is always
// the line along the last dimension and Col the line along the first,
// each refused (with the view's label, the indices and the extents) where
// that line is not contiguous, while Line is the contiguous one.
func TestRowColLayouts(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for _, l := range []Layout{LayoutRight, LayoutLeft} {
		v := Must(NewView2[float64]("M", 4, 6, l))
		for i := range 4 {
			for j := range 6 {
				v.Set(i, j, r.Float64())
			}
		}
		for i := range 4 {
			if l == LayoutRight {
				row := v.Row(i)
				for j := range 6 {
					if row[j] != v.At(i, j) {
						t.Fatalf("%v: Row(%d)[%d] = %v, want %v", l, i, j, row[j], v.At(i, j))
					}
				}
				if fmt.Sprint(row) != fmt.Sprint(v.Line(i)) {
					t.Fatalf("%v: Line(%d) is not Row(%d)", l, i, i)
				}
			} else {
				want := fmt.Sprintf(`Row(%d) of view "M" with extents (4, 6): dimension 1 has stride 4, not 1`, i)
				if msg := fmt.Sprint(catchPanic(func() { v.Row(i) })); !strings.Contains(msg, want) || !strings.Contains(msg, "Line gives") {
					t.Errorf("panic %q, want %q", msg, want)
				}
			}
		}
		for j := range 6 {
			if l == LayoutLeft {
				col := v.Col(j)
				for i := range 4 {
					if col[i] != v.At(i, j) {
						t.Fatalf("%v: Col(%d)[%d] = %v, want %v", l, j, i, col[i], v.At(i, j))
					}
				}
				if fmt.Sprint(col) != fmt.Sprint(v.Line(j)) {
					t.Fatalf("%v: Line(%d) is not Col(%d)", l, j, j)
				}
			} else {
				want := fmt.Sprintf(`Col(%d) of view "M" with extents (4, 6): dimension 0 has stride 6, not 1`, j)
				if msg := fmt.Sprint(catchPanic(func() { v.Col(j) })); !strings.Contains(msg, want) {
					t.Errorf("panic %q, want %q", msg, want)
				}
			}
		}
		// rank 3: Row fixes the first two indices, Col the last two
		w := Must(NewView3[int32]("T", 3, 4, 5, l))
		for i := range 3 {
			for j := range 4 {
				for k := range 5 {
					w.Set(i, j, k, r.Int32())
				}
			}
		}
		i, j, k := r.IntN(3), r.IntN(4), r.IntN(5)
		if l == LayoutRight {
			row := w.Row(i, j)
			for k := range 5 {
				if row[k] != w.At(i, j, k) {
					t.Fatalf("%v: Row(%d, %d)[%d] = %v, want %v", l, i, j, k, row[k], w.At(i, j, k))
				}
			}
			want := fmt.Sprintf(`Col(%d, %d) of view "T" with extents (3, 4, 5): dimension 0 has stride 20`, j, k)
			if msg := fmt.Sprint(catchPanic(func() { w.Col(j, k) })); !strings.Contains(msg, want) {
				t.Errorf("panic %q, want %q", msg, want)
			}
		} else {
			col := w.Col(j, k)
			for i := range 3 {
				if col[i] != w.At(i, j, k) {
					t.Fatalf("%v: Col(%d, %d)[%d] = %v, want %v", l, j, k, i, col[i], w.At(i, j, k))
				}
			}
			want := fmt.Sprintf(`Row(%d, %d) of view "T" with extents (3, 4, 5): dimension 2 has stride 12`, i, j)
			if msg := fmt.Sprint(catchPanic(func() { w.Row(i, j) })); !strings.Contains(msg, want) {
				t.Errorf("panic %q, want %q", msg, want)
			}
		}
		// out of bounds: the indices and the extents
		want := `Row(4) out of bounds for view "M" with extents (4, 6)`
		if l == LayoutLeft {
			want = `Col(6) out of bounds for view "M" with extents (4, 6)`
			if msg := fmt.Sprint(catchPanic(func() { v.Col(6) })); !strings.Contains(msg, want) {
				t.Errorf("panic %q, want %q", msg, want)
			}
		} else if msg := fmt.Sprint(catchPanic(func() { v.Row(4) })); !strings.Contains(msg, want) {
			t.Errorf("panic %q, want %q", msg, want)
		}
	}
}

// TestLineOffsetView1 checks OffsetView1.Line against At on random values,
// and its panic for a strided view.
func TestLineOffsetView1(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	o := Must(NewOffsetView1[float64]("O", Bounds(-3, 4)))
	for i := o.Begin(0); i < o.End(0); i++ {
		o.Set(i, r.Float64())
	}
	line := o.Line()
	if len(line) != 8 {
		t.Fatalf("Line has %d elements, want 8", len(line))
	}
	for k, x := range line {
		if x != o.At(o.Begin(0)+k) {
			t.Fatalf("Line()[%d] = %v, want At(%d) = %v", k, x, o.Begin(0)+k, o.At(o.Begin(0)+k))
		}
	}
	o2 := Must(NewOffsetView2[float64]("O2", Bounds(1, 3), Bounds(-2, 2)))
	col := o2.Subview1(All, 0) // stride 5
	msg := fmt.Sprint(catchPanic(func() { col.Line() }))
	for _, part := range []string{`Line() of view "O2"`, "extents (3)", "dimension 0 has stride 5"} {
		if !strings.Contains(msg, part) {
			t.Errorf("panic %q lacks %q", msg, part)
		}
	}
}
