package kokkos

import (
	"fmt"
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// Kokkos: core/unit_test/TestViewMapping_a.hpp, test_view_mapping (the
// ViewOffset cases of LayoutLeft and LayoutRight, unpadded 2×3×4 and padded
// 2000×300×4 int32): the strides and span of the mapping; visiting the
// elements in the layout's order gives increasing offsets below the span
// (consecutive ones when unpadded); a LayoutStride view with the same
// strides maps every index to the same offset.
func TestConformanceViewMappingOffsets(t *testing.T) {
	for _, c := range []struct {
		ext  []int
		pad  bool
		want []int // LayoutLeft strides; LayoutRight's are their mirror
	}{
		{[]int{2, 3, 4}, false, []int{1, 2, 6}},
		{[]int{2000, 300, 4}, true, nil},
	} {
		for _, l := range []Layout{LayoutLeft, LayoutRight} {
			name := fmt.Sprintf("%v %v padded %v", l, c.ext, c.pad)
			opts := []Option{l}
			if c.pad {
				opts = append(opts, AllowPadding)
			}
			v, err := newViewR[int32]("off3", c.ext, opts...)
			if err != nil {
				t.Fatal(err)
			}
			d := v.viewDesc()
			str := d.strides()
			if c.want != nil {
				want := append([]int(nil), c.want...)
				if l == LayoutRight {
					want = []int{12, 4, 1}
				}
				if fmt.Sprint(str) != fmt.Sprint(want) || d.span() != 24 {
					t.Fatalf("%s: strides %v span %d, want %v and 24", name, str, d.span(), want)
				}
			}
			sv, err := newViewR[int32]("stride3", c.ext, WithStrides(str...))
			if err != nil {
				t.Fatal(err)
			}
			sd := sv.viewDesc()
			if sd.span() != d.span() {
				t.Fatalf("%s: LayoutStride span %d, want %d", name, sd.span(), d.span())
			}
			order := append([]int(nil), c.ext...)
			rev := l == LayoutLeft
			if rev {
				order = []int{c.ext[2], c.ext[1], c.ext[0]}
			}
			next := 0
			testutil.ForEachIndex(order, func(o []int) {
				idx := o
				if rev {
					idx = []int{o[2], o[1], o[0]}
				}
				off := offsetOf(str, idx)
				if off < next || !c.pad && off != next {
					t.Fatalf("%s: offset of %v is %d, expected at least %d", name, idx, off, next)
				}
				if s := offsetOf(sd.strides(), idx); s != off {
					t.Fatalf("%s: LayoutStride offset of %v is %d, want %d", name, idx, s, off)
				}
				next = off + 1
			})
			if next > d.span() {
				t.Fatalf("%s: last offset %d past the span %d", name, next-1, d.span())
			}
		}
	}
}
