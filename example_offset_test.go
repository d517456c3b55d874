package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

func ExampleNewOffsetView3() {
	ov, _ := kokkos.NewOffsetView3[int]("someLabel", kokkos.Bounds(-1, 1), kokkos.Bounds(-2, 2), kokkos.Bounds(-3, 3))
	fmt.Println(ov.Begins(), ov.Begin(0), ov.End(0), ov.Extent(2))
	ov.Set(-1, -2, -3, 5)
	v := ov.View() // the same elements and label, indexed from 0
	fmt.Println(v.At(0, 0, 0), v.Label())
	// Output:
	// [-1 -2 -3] -1 2 7
	// 5 someLabel
}

func ExampleOffsetView2Of() {
	b, _ := kokkos.NewView2[float64]("somelabel", 10, 20)
	ov, _ := kokkos.OffsetView2Of(b, [2]int{-10, -20})
	ov.Set(-1, -1, 3.5)
	fmt.Println(ov.Begin(0), ov.End(0)-1, ov.Begin(1), ov.End(1)-1, b.At(9, 19))
	defer func() { fmt.Println(recover()) }()
	ov.At(0, 0)
	// Output:
	// -10 -1 -20 -1 3.5
	// kokkos: index (0, 0) out of bounds for view "somelabel" with index ranges [-10, -1] x [-20, -1]
}

func ExampleOffsetView3_Subview2() {
	sliceMe, _ := kokkos.NewOffsetView3[float64]("offsetToSlice", kokkos.Bounds(-10, 20), kokkos.Bounds(-20, 30), kokkos.Bounds(-30, 40))
	s := sliceMe.Subview2(0, kokkos.All, kokkos.Pair(-30, -21))
	fmt.Println(s.Rank(), s.Begin(0), s.End(0), s.Begin(1), s.End(1))
	// Output: 2 -20 31 0 9
}

// Kokkos's OffsetView(ptr, begins, ends) over caller memory: the indices of
// dimension r run from begins[r] to ends[r]-1.
func ExampleWrapOffsetView2() {
	data := []float64{1, 2, 3, 4, 5, 6}
	ov, err := kokkos.WrapOffsetView2(data, [2]int{-1, 10}, [2]int{1, 13})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ov.Extent(0), ov.Extent(1), ov.At(-1, 10), ov.At(0, 12), ov.UseCount())
	ov.Set(0, 11, 50)
	fmt.Println(data)
	_, err = kokkos.WrapOffsetView2(data, [2]int{0, 0}, [2]int{-1, 3})
	fmt.Println(err)
	// Output:
	// 2 3 1 6 0
	// [1 2 3 4 50 6]
	// kokkos: offset view "": end -1 of dimension 0 is before its begin 0; give end >= begin
}

// A subview of an offset view with only indices is a rank-0 view.
func ExampleOffsetView2_Subview0() {
	ov, _ := kokkos.NewOffsetView2[int]("o", kokkos.Bounds(-2, 2), kokkos.Bounds(1, 3))
	ov.Set(-2, 3, 7)
	s := ov.Subview0(-2, 3)
	fmt.Println(s.Rank(), s.At(), s.Label())
	// Output: 0 7 o
}

// Row and Line give a contiguous line of an offset view as a slice; the
// fixed indices are counted from the begins, the slice from 0.
func ExampleOffsetView2_Row() {
	ov, _ := kokkos.NewOffsetView2[int]("o", kokkos.Bounds(-1, 0), kokkos.Bounds(10, 12))
	for i := ov.Begin(0); i < ov.End(0); i++ {
		for j := ov.Begin(1); j < ov.End(1); j++ {
			ov.Set(i, j, 100*i+j)
		}
	}
	fmt.Println(ov.Row(-1), ov.Line(0), ov.LineDim())
	// Output: [-90 -89 -88] [10 11 12] 1
}
