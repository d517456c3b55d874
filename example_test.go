package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

func ExampleNewView2() {
	c, err := kokkos.NewView2[float64]("C", 3, 4, kokkos.LayoutLeft)
	if err != nil {
		panic(err)
	}
	c.Set(2, 1, 7.5)
	fmt.Println(c.Label(), c.Rank(), c.Extent(0), c.Extent(1), c.Layout())
	fmt.Println("strides and span:", c.Strides())
	fmt.Println(c.At(2, 1))
	// Output:
	// C 2 3 4 LayoutLeft
	// strides and span: [1 3 12]
	// 7.5
}

func ExampleMust() {
	v := kokkos.Must(kokkos.NewView1[int]("counts", 5))
	v.Set(4, 9)
	fmt.Println(v.Data())
	// Output: [0 0 0 0 9]
}

func ExampleView3_Subview2() {
	a := kokkos.Must(kokkos.NewView3[int]("A", 4, 5, 6))
	for i := range 4 {
		for j := range 5 {
			for k := range 6 {
				a.Set(i, j, k, 100*i+10*j+k)
			}
		}
	}
	// Kokkos: subview(a, 2, ALL, make_pair(1, 4)) keeps LayoutRight: a
	// result of rank 2 whose last argument is a range, with a row stride of 6
	s := a.Subview2(2, kokkos.All, kokkos.Pair(1, 4))
	fmt.Println(s.Extent(0), s.Extent(1), s.Layout(), s.At(3, 0))
	// Kokkos: subview(a, 1, 2, ALL) keeps LayoutRight: its row is a slice
	row := a.Subview1(1, 2, kokkos.All)
	fmt.Println(row.Layout(), row.Data())
	// Output:
	// 5 3 LayoutRight 231
	// LayoutRight [120 121 122 123 124 125]
}

func ExampleView2_ReadOnly() {
	a := kokkos.Must(kokkos.NewView2[float64]("A", 2, 2))
	r := a.ReadOnly()
	defer func() { fmt.Println("recovered:", recover()) }()
	r.Set(0, 1, 3)
	// Output: recovered: kokkos: write to read-only view "A" at index (0, 1)
}

func ExampleView2_AsLayout() {
	a := kokkos.Must(kokkos.NewView2[float64]("A", 3, 4))
	s, _ := a.AsLayout(kokkos.LayoutStride)
	fmt.Println(s.Layout(), s.Strides())
	_, err := a.AsLayout(kokkos.LayoutLeft)
	fmt.Println(err)
	// Output:
	// LayoutStride [4 1 12]
	// kokkos: view "A" cannot become LayoutLeft: a LayoutRight view of rank 2 converts only to LayoutStride (only rank-1 views convert between LayoutLeft and LayoutRight)
}

func ExampleWrapView2() {
	data := []float64{1, 2, 3, 4, 5, 6}
	m, err := kokkos.WrapView2(data, 2, 3, kokkos.WithLabel("M"))
	if err != nil {
		panic(err)
	}
	m.Set(1, 2, 60)
	fmt.Println(data, m.UseCount())
	_, err = kokkos.WrapView2(data, 3, 3)
	fmt.Println(err)
	// Output:
	// [1 2 3 4 5 60] 0
	// kokkos: wrapping a slice as view "" with extents (3, 3): the slice holds 6 elements, the view needs 9
}

func ExampleView2_Row() {
	a := kokkos.Must(kokkos.NewView2[float64]("A", 2, 3))
	for i := range 2 {
		row := a.Row(i) // a plain slice over a's memory
		for j := range row {
			row[j] = float64(10*i + j)
		}
	}
	fmt.Println(a.At(1, 2))
	// Output: 12
}
