package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// A LayoutRight view copied into a LayoutLeft one, then a column of it
// filled through a subview.
func ExampleDeepCopy() {
	a, _ := kokkos.NewView2[int]("A", 2, 3)
	for i := range 2 {
		for j := range 3 {
			a.Set(i, j, 10*i+j)
		}
	}
	b, _ := kokkos.NewView2[int]("B", 2, 3, kokkos.LayoutLeft)
	if err := kokkos.DeepCopy(b, a); err != nil {
		fmt.Println(err)
	}
	fmt.Println(b.Data())

	if err := kokkos.Fill(b.Subview1(kokkos.All, 1), -1); err != nil {
		fmt.Println(err)
	}
	fmt.Println(b.Data())

	c, _ := kokkos.NewView2[int]("C", 3, 2)
	fmt.Println(kokkos.DeepCopy(c, a))
	// Output:
	// [0 10 1 11 2 12]
	// [0 10 -1 -1 2 12]
	// kokkos: DeepCopy from view "A" with extents (2, 3) to view "C" with extents (3, 2): the extents differ
}

// A host mirror of a view: for a view the host can access,
// CreateMirrorView returns the view itself.
func ExampleCreateMirrorView() {
	v, _ := kokkos.NewView1[float64]("v", 4)
	m, _ := kokkos.CreateMirrorView(v)
	fmt.Println(m.Equal(v))

	c, _ := kokkos.CreateMirror(v)
	fmt.Println(c.Label(), c.Equal(v))
	// Output:
	// true
	// v_mirror false
}

func ExampleResize2() {
	v, _ := kokkos.NewView2[int]("v", 2, 2)
	v.Set(1, 1, 7)
	if err := kokkos.Resize2(&v, 3, 3); err != nil {
		fmt.Println(err)
	}
	fmt.Println(v.Label(), v.Extent(0), v.Extent(1), v.At(1, 1), v.At(2, 2))
	// Output:
	// v 3 3 7 0
}

func ExampleDeepCopyToScalar() {
	v, _ := kokkos.NewView0[float64]("x")
	_ = kokkos.Fill(v, 2.5)
	var x float64
	_ = kokkos.DeepCopyToScalar(&x, v)
	fmt.Println(x)
	// Output:
	// 2.5
}

func ExampleDeepCopyConvert() {
	f, _ := kokkos.NewView1[float64]("f", 3)
	f.Set(0, 1.9)
	f.Set(1, -2.5)
	f.Set(2, 3)
	i, _ := kokkos.NewView1[int]("i", 3)
	_ = kokkos.DeepCopyConvert(i, f)
	fmt.Println(i.At(0), i.At(1), i.At(2))
	// Output:
	// 1 -2 3
}
