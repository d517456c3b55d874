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
