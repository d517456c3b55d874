package kokkos

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, l := range []Layout{LayoutRight, LayoutLeft} {
		for _, ext := range [][2]int{{3, 5}, {1, 4}, {4, 1}, {0, 3}, {6, 7}} {
			v := Must(NewView2[float64]("L2", ext[0], ext[1], l))
			for i := range ext[0] {
				for j := range ext[1] {
					v.Set(i, j, r.Float64())
				}
			}
			d := v.LineDim()
			want := map[Layout]int{LayoutRight: 1, LayoutLeft: 0}[l]
			if ext[want] > 1 && d != want {
				t.Fatalf("%v %v: LineDim %d, want %d", l, ext, d, want)
			}
			for j := range v.Extent(1 - d) {
				line := v.Line(j)
				if len(line) != v.Extent(d) {
					t.Fatalf("%v %v: Line(%d) has %d elements, want %d", l, ext, j, len(line), v.Extent(d))
				}
				for k, x := range line {
					ix := [2]int{j, k}
					if d == 0 {
						ix = [2]int{k, j}
					}
					if x != v.At(ix[0], ix[1]) {
						t.Fatalf("%v %v: Line(%d)[%d] = %v, want At%v = %v", l, ext, j, k, x, ix, v.At(ix[0], ix[1]))
					}
				}
			}
		}
		// Rank 3: the other indices in order.
		w := Must(NewView3[int]("L3", 3, 4, 5, l))
		for i := range 3 {
			for j := range 4 {
				for k := range 5 {
					w.Set(i, j, k, 100*i+10*j+k)
				}
			}
		}
		if l == LayoutRight {
			if got := fmt.Sprint(w.Line(2, 3)); got != "[230 231 232 233 234]" || w.LineDim() != 2 {
				t.Errorf("LayoutRight Line(2, 3) = %s, LineDim %d", got, w.LineDim())
			}
		} else {
			if got := fmt.Sprint(w.Line(3, 4)); got != "[34 134 234]" || w.LineDim() != 0 {
				t.Errorf("LayoutLeft Line(3, 4) = %s, LineDim %d", got, w.LineDim())
			}
		}
		// A subview that keeps the contiguous dimension keeps its lines.
		s := w.Subview2(All, 1, All)
		if l == LayoutRight {
			if got := fmt.Sprint(s.Line(2)); got != "[210 211 212 213 214]" || s.LineDim() != 1 {
				t.Errorf("subview Line(2) = %s, LineDim %d", got, s.LineDim())
			}
		} else {
			if got := fmt.Sprint(s.Line(4)); got != "[14 114 214]" || s.LineDim() != 0 {
				t.Errorf("subview Line(4) = %s, LineDim %d", got, s.LineDim())
			}
		}
		// Writes through a line reach the view.
		s.Line(0)[1] = -1
		if s.At(map[Layout][2]int{LayoutRight: {0, 1}, LayoutLeft: {1, 0}}[l][0], map[Layout][2]int{LayoutRight: {0, 1}, LayoutLeft: {1, 0}}[l][1]) != -1 {
			t.Errorf("%v: write through Line not seen", l)
		}
	}
}

func TestLinePanics(t *testing.T) {
	w := Must(NewView3[float64]("W", 3, 4, 5))
	strided := w.Subview2(All, All, 2)
	if strided.LineDim() != -1 {
		t.Fatalf("LineDim of a view with strides 20, 5 = %d, want -1", strided.LineDim())
	}
	msg, _ := catchPanic(func() { strided.Line(1) }).(string)
	for _, part := range []string{"Line(1)", `"W"`, "extents (3, 4)", "strides (20, 5)", "no contiguous dimension"} {
		if !strings.Contains(msg, part) {
			t.Errorf("panic %q lacks %q", msg, part)
		}
	}
	v := Must(NewView2[float64]("V", 3, 4, LayoutLeft))
	msg, _ = catchPanic(func() { v.Line(4) }).(string)
	if want := `kokkos: Line(4) along dimension 0 out of bounds for view "V" with extents (3, 4)`; msg != want {
		t.Errorf("panic %q\nwant  %q", msg, want)
	}
	if catchPanic(func() { v.Line(-1) }) == nil {
		t.Error("Line(-1) did not panic")
	}
	ro := v.ReadOnly()
	if catchPanic(func() { ro.Line(0) }) == nil {
		t.Error("Line of a read-only view did not panic")
	}
}
