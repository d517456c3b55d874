package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// A 2-D stencil with the tile form: one call per tile, and a plain slice
// loop over the contiguous dimension inside it, its lines cut to the tile
// and to one length so that the inner loop has no bounds checks.
func ExampleParallelForTiles() {
	const n0, n1 = 4, 6
	in := kokkos.Must(kokkos.NewView2[float64]("in", n0, n1))
	out := kokkos.Must(kokkos.NewView2[float64]("out", n0, n1))
	for i := range n0 {
		line := in.Line(i)
		for j := range line {
			line[j] = float64(i * j)
		}
	}
	// Interior points: out = average of the four neighbours.
	p := kokkos.MDRange([]int{1, 1}, []int{n0 - 1, n1 - 1})
	kokkos.ParallelForTiles("stencil", p, func(lo, hi [2]int) {
		j0, j1 := lo[1], hi[1]
		for i := lo[0]; i < hi[0]; i++ {
			o := out.Line(i)[j0:j1]
			up, down := in.Line(i - 1)[j0:j1], in.Line(i + 1)[j0:j1]
			mid := in.Line(i)[j0-1 : j1+1] // one more point at each end
			up, down, mid = up[:len(o)], down[:len(o)], mid[:len(o)+2]
			for j := range o {
				o[j] = (up[j] + down[j] + mid[j] + mid[j+2]) / 4
			}
		}
	})
	fmt.Println(out.Line(1), out.Line(2))
	// Output: [0 1 2 3 4 0] [0 2 4 6 8 0]
}

func ExampleParallelReduceTiles() {
	a := kokkos.Must(kokkos.NewView2[int]("a", 3, 1000))
	for i := range 3 {
		for j := range 1000 {
			a.Set(i, j, i+j)
		}
	}
	sum := kokkos.ParallelReduceTiles("sum", kokkos.MDRange([]int{0, 0}, []int{3, 1000}), kokkos.Sum[int](),
		func(lo, hi [2]int, acc *int) {
			s := *acc
			for i := lo[0]; i < hi[0]; i++ {
				for _, x := range a.Line(i)[lo[1]:hi[1]] {
					s += x
				}
			}
			*acc = s
		})
	fmt.Println(sum)
	// Output: 1501500
}

// Line gives the contiguous line whatever the layout: a row of a
// LayoutRight view, a column of a LayoutLeft one.
func ExampleView2_Line() {
	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		v := kokkos.Must(kokkos.NewView2[int]("v", 2, 3, l))
		for i := range 2 {
			for j := range 3 {
				v.Set(i, j, 10*i+j)
			}
		}
		d := v.LineDim()
		for j := range v.Extent(1 - d) {
			fmt.Print(v.Line(j), " ")
		}
		fmt.Println(l, "lines along dimension", d)
	}
	// Output:
	// [0 1 2] [10 11 12] LayoutRight lines along dimension 1
	// [0 10] [1 11] [2 12] LayoutLeft lines along dimension 0
}

func ExampleView3_LineDim() {
	a := kokkos.Must(kokkos.NewView3[float64]("a", 4, 5, 6))
	plane := a.Subview2(kokkos.All, 2, kokkos.All) // strides 30, 1
	cut := a.Subview2(kokkos.All, kokkos.All, 3)   // strides 30, 6: no lines
	fmt.Println(a.LineDim(), plane.LineDim(), cut.LineDim())
	// Output: 2 1 -1
}

// A rank-3 box: the body runs the innermost loop over a contiguous line.
func ExampleParallelForTiles_rank3() {
	a := kokkos.Must(kokkos.NewView3[int]("a", 2, 3, 4))
	kokkos.ParallelForTiles("fill", kokkos.MDRange([]int{0, 0, 0}, []int{2, 3, 4}), func(lo, hi [3]int) {
		for i := lo[0]; i < hi[0]; i++ {
			for j := lo[1]; j < hi[1]; j++ {
				line := a.Line(i, j)
				for k := lo[2]; k < hi[2]; k++ {
					line[k] = 100*i + 10*j + k
				}
			}
		}
	})
	fmt.Println(a.Line(1, 2))
	// Output: [120 121 122 123]
}

func ExampleParallelReduceTiles_rank3() {
	p := kokkos.MDRange([]int{0, 0, 0}, []int{10, 20, 30})
	count := kokkos.ParallelReduceTiles("count", p, kokkos.Sum[int](), func(lo, hi [3]int, acc *int) {
		*acc += (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])
	})
	fmt.Println(count)
	// Output: 6000
}

// Ranks 4 to 6 take the same body with longer arrays.
func ExampleParallelForTiles_rank4() {
	p := kokkos.MDRange([]int{0, 0, 0, 0}, []int{2, 3, 4, 5}).On(kokkos.Serial{})
	tiles, indices := 0, 0
	kokkos.ParallelForTiles("count", p, func(lo, hi [4]int) {
		tiles++
		indices += (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]) * (hi[3] - lo[3])
	})
	fmt.Println(tiles, indices) // 120 indices fit in one default tile
	// Output: 1 120
}

func ExampleView3_Line() {
	a := kokkos.Must(kokkos.NewView3[int]("a", 2, 3, 4, kokkos.LayoutLeft))
	a.Set(1, 2, 3, 7)
	fmt.Println(a.LineDim(), a.Line(2, 3)) // the column a(:, 2, 3)
	// Output: 0 [0 7]
}
