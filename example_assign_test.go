package kokkos_test

import (
	"errors"
	"fmt"

	"github.com/gokkos/kokkos"
)

// Kokkos's assignments between views whose compile-time extents differ,
// from the View documentation: View<int*[10]> a3 = View<int**>(N, M), which
// fails at run time unless M == 10; View<int[4][10]> a8 = a3, unless N == 4;
// and View<int**> a2 = a3. A compile-time extent is an array element type
// in gokkos; AssignView shares the elements, copying none.
func ExampleAssignView() {
	b := kokkos.Must(kokkos.NewView2[int]("B", 4, 10))
	b.Set(2, 7, 27)

	var a3 kokkos.View1[[10]int] // View<int*[10]> a3 = b;
	if err := kokkos.AssignView(&a3, b); err != nil {
		panic(err)
	}
	fmt.Println("a3:", a3.Extent(0), a3.At(2)[7], a3.Label())

	var a8 kokkos.View0[[4][10]int] // View<int[4][10]> a8 = a3;
	if err := kokkos.AssignView(&a8, a3); err != nil {
		panic(err)
	}
	a8.Ptr()[3][9] = 39 // a write through a8 is a write to b
	fmt.Println("a8:", a8.At()[2][7], b.At(3, 9))

	var a2 kokkos.View2[int] // View<int**> a2 = a3;
	if err := kokkos.AssignView(&a2, a3); err != nil {
		panic(err)
	}
	fmt.Println("a2:", a2.Extent(0), a2.Extent(1), a2.At(2, 7))

	// M != 10 is a run-time failure, as in Kokkos.
	var bad kokkos.View1[[10]int]
	err := kokkos.AssignView(&bad, kokkos.Must(kokkos.NewView2[int]("C", 4, 8)))
	fmt.Println(errors.Is(err, kokkos.ErrShape))
	fmt.Println(err)
	// Output:
	// a3: 4 27 B
	// a8: 27 39
	// a2: 4 10 27
	// true
	// kokkos: AssignView of view "C" with extents (4, 8) and strides (8, 1) (LayoutRight) of int to a View1[[10]int]: extent 1 is 8, the length of the array it folds into is 10
}
