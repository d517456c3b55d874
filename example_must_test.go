package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// The methods that return another view or describe one take value
// receivers, so they chain on Must's result; element access, the shape
// queries and the subviews need a variable.
func ExampleMust_chain() {
	r := kokkos.Must(kokkos.NewView2[float64]("R", 2, 3)).ReadOnly()
	label := kokkos.Must(kokkos.NewView1[int]("x", 8)).Label()
	o := kokkos.Must(kokkos.NewOffsetView1[float64]("O", kokkos.Bounds(-2, 2))).View()

	v := kokkos.Must(kokkos.NewView1[float64]("v", 3)) // stored first: At, Set, Line and the subviews take a pointer
	v.Set(2, 1.5)
	a := kokkos.Must(kokkos.NewView2[float64]("A", 4, 5))
	row := a.Subview1(1, kokkos.All)
	d := kokkos.Must(kokkos.NewDynRankView[float64]("D", []int{2, 3}))
	dsub := d.Subview(1, kokkos.All)
	fmt.Println(r.IsReadOnly(), row.Extent(0), label, dsub.Rank(), o.Extent(0), v.Line())
	// Output: true 5 x 1 5 [0 0 1.5]
}
