package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

func ExamplePairOf() {
	a := kokkos.Must(kokkos.NewView2[int]("A", 3, 6))
	for j := range 6 {
		a.Set(1, j, 10+j)
	}
	// Kokkos: subview(a, i, make_pair(lo, hi)) with bounds of type uint8
	lo, hi := uint8(2), uint8(5)
	row := a.Subview1(int32(1), kokkos.PairOf(lo, hi))
	fmt.Println(row.Data(), row.Layout())
	// Output: [12 13 14] LayoutRight
}

func ExampleLayoutSpec_leadingDimension() {
	// A 3x4 column-major matrix with leading dimension 10, as BLAS's lda.
	spec := kokkos.LayoutSpec{Layout: kokkos.LayoutLeft, Extents: []int{3, 4}, Strides: []int{1, 10}}
	a := kokkos.Must(kokkos.NewView2From[float64]("A", spec))
	fmt.Println(a.Layout(), a.Stride(0), a.Stride(1), a.Span())
	// Output: LayoutLeft 1 10 33
}
