package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// sum adds the elements of any host view of any rank and kind. ShapeOf
// says what it was given; DynRankFrom gives access to the elements with as
// many indices as the rank.
func sum[T ~int | ~float64](v kokkos.View[T]) T {
	s := kokkos.ShapeOf(v)
	if s.Size == 0 {
		return 0
	}
	d := kokkos.DynRankFrom(v)
	idx := make([]int, s.Rank)
	var total T
	for {
		total += d.At(idx...)
		r := s.Rank - 1
		for ; r >= 0; r-- { // the next index, last dimension fastest
			if idx[r]++; idx[r] < s.Extents[r] {
				break
			}
			idx[r] = 0
		}
		if r < 0 {
			return total
		}
	}
}

// describe prints what ShapeOf reports of any view.
func describe[T any](v kokkos.View[T]) {
	s := kokkos.ShapeOf(v)
	fmt.Printf("%s: rank %d, extents %v, strides %v, begins %v, %v, size %d, span %d\n",
		s.Label, s.Rank, s.Extents, s.Strides, s.Begins, s.Layout, s.Size, s.Span)
}

// A function generic over View[T] takes every view kind: here a View2, a
// LayoutStride subview of it, an OffsetView1 and a DynRankView, as values
// or pointers.
func ExampleShapeOf() {
	a, _ := kokkos.NewView2[float64]("A", 3, 4)
	for i := range 3 {
		for j := range 4 {
			a.Set(i, j, float64(10*i+j))
		}
	}
	col := a.Subview1(kokkos.All, 2) // a(:, 2)
	o, _ := kokkos.NewOffsetView1[float64]("O", kokkos.Bounds(-1, 1))
	o.Set(-1, 1.5)
	d, _ := kokkos.NewDynRankView[float64]("D", []int{2, 2, 2}, kokkos.LayoutLeft)

	describe(a)
	describe(col)
	describe(o)
	describe(&d)
	fmt.Println(sum(a), sum(col), sum(&o), sum(d))
	// Output:
	// A: rank 2, extents [3 4], strides [4 1], begins [0 0], LayoutRight, size 12, span 12
	// A: rank 1, extents [3], strides [4], begins [0], LayoutStride, size 3, span 9
	// O: rank 1, extents [3], strides [1], begins [-1], LayoutRight, size 3, span 3
	// D: rank 3, extents [2 2 2], strides [1 2 4], begins [0 0 0], LayoutLeft, size 8, span 8
	// 138 36 1.5 0
}
