package csv_test

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/interop/csv"
)

// A CSV with a header into a view of float64, and back.
func ExampleRead() {
	in := "t,x,y\n0,1.5,2\n1,1.75,2.5\n"
	v, names, err := csv.Read[float64](strings.NewReader(in), "samples", csv.Options{Header: true})
	if err != nil {
		panic(err)
	}
	fmt.Println(names, v.Extent(0), v.Extent(1), v.At(1, 2))
	if err := csv.Write(os.Stdout, v, csv.Options{Header: true, Names: names, Comma: ';'}); err != nil {
		panic(err)
	}
	// Output:
	// [t x y] 2 3 2.5
	// t;x;y
	// 0;1.5;2
	// 1;1.75;2.5
}

// A bad field is an error naming its line and column.
func ExampleRead_error() {
	_, _, err := csv.Read[int32](strings.NewReader("1,2\n3,4.5\n"), "counts", csv.Options{})
	fmt.Println(errors.Is(err, csv.ErrField))
	fmt.Println(err)
	// Output:
	// true
	// csv: reading view "counts": line 2, column 2 (byte 3): "4.5" is not a valid int32: invalid syntax
}

// Any layout writes: here a column-major subview.
func ExampleWrite() {
	a := kokkos.Must(kokkos.NewView2[int64]("A", 3, 3, kokkos.LayoutLeft))
	for i := range 3 {
		for j := range 3 {
			a.Set(i, j, int64(10*i+j))
		}
	}
	_ = csv.Write(os.Stdout, a.Subview2(kokkos.Pair(1, 3), kokkos.All), csv.Options{})
	// Output:
	// 10,11,12
	// 20,21,22
}
