package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// Kokkos's DynRankView example: two rank-1 views and their outer product in a
// LayoutLeft rank-2 view, each rank chosen at run time.
func ExampleDynRankView() {
	n0, n1 := 3, 2
	a, _ := kokkos.NewDynRankView[float64]("A", []int{n0})
	b, _ := kokkos.NewDynRankView[float64]("B", []int{n1})
	for i := range n0 {
		a.Set1(i, float64(i))
	}
	for i := range n1 {
		b.Set1(i, float64(i+1))
	}
	c, _ := kokkos.NewDynRankView[float64]("C", []int{n0, n1}, kokkos.LayoutLeft)
	constA, constB := a.ReadOnly(), b.ReadOnly()
	for i1 := range n1 {
		for i0 := range n0 {
			c.Set2(i0, i1, constA.At1(i0)*constB.At1(i1))
		}
	}
	fmt.Println(c.Rank(), c.Extent(0), c.Extent(1), c.Extent(2), c.Layout())
	fmt.Println(c.At2(2, 1), c.At(2, 0), c.Access(1, 1, 0))
	// Output:
	// 2 3 2 1 LayoutLeft
	// 4 2 2
}

func ExampleDynRankView_View2() {
	d, _ := kokkos.NewDynRankView[int]("D", []int{2, 3})
	v, err := d.View2()
	fmt.Println(v.Extent(1), err)
	_, err = d.View3()
	fmt.Println(err)
	// Output:
	// 3 <nil>
	// kokkos: View3 of DynRankView "D": the view has rank 2, View3 needs rank 3
}

func ExampleDynRankView_Subview() {
	d, _ := kokkos.NewDynRankView[int]("D", []int{3, 4, 5})
	d.Set3(1, 2, 3, 7)
	s := d.Subview(1, kokkos.All, kokkos.Pair(2, 5))
	fmt.Println(s.Rank(), s.Extent(0), s.Extent(1), s.Layout(), s.At2(2, 1))
	// Output: 2 4 3 LayoutStride 7
}

// As in Kokkos, the dimensions past the rank have extent 1: an accessor
// takes at least Rank indices, those past the rank being 0, and Access and
// Subview default missing trailing indices to 0.
func ExampleDynRankView_Access() {
	d, _ := kokkos.NewDynRankView[int]("D", []int{2, 3})
	for i := range 2 {
		for j := range 3 {
			d.Set2(i, j, 10*i+j)
		}
	}
	fmt.Println(d.Extent(2), d.At3(1, 2, 0), d.At(1, 2, 0, 0), d.Access(1))
	col := d.Subview(kokkos.All)                // d(:, 0)
	row := d.Subview(1, kokkos.All, kokkos.All) // past the rank, All adds no dimension
	fmt.Println(col.Rank(), col.At1(1), row.Rank(), row.At1(2))
	defer func() { fmt.Println(recover()) }()
	d.At3(1, 2, 1)
	// Output:
	// 1 12 12 10
	// 1 10 1 12
	// kokkos: index (1, 2, 1) out of bounds for rank-2 DynRankView "D" with extents (2, 3): indices past the rank must be 0
}
