package kokkos_test

import (
	"errors"
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
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

func ExampleResize() {
	v, _ := kokkos.NewView2[int]("v", 2, 2)
	v.Set(1, 1, 7)
	if err := kokkos.Resize(&v, [2]int{3, 3}); err != nil {
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

// Two rows of a LayoutLeft matrix interleave in memory but share no
// element: DeepCopy copies one into the other. A row and a column share
// an element and are refused.
func ExampleDeepCopy_rows() {
	a, _ := kokkos.NewView2[int]("A", 3, 3, kokkos.LayoutLeft)
	for i := range 3 {
		for j := range 3 {
			a.Set(i, j, 10*i+j)
		}
	}
	if err := kokkos.DeepCopy(a.Subview1(0, kokkos.All), a.Subview1(2, kokkos.All)); err != nil {
		fmt.Println(err)
	}
	fmt.Println(a.At(0, 0), a.At(0, 1), a.At(0, 2))

	err := kokkos.DeepCopy(a.Subview1(1, kokkos.All), a.Subview1(kokkos.All, 1))
	fmt.Println(errors.Is(err, kokkos.ErrOverlap))
	// Output:
	// 20 21 22
	// true
}

// The element of a rank-0 view copied into a Go variable on an
// asynchronous instance: the variable holds it once the instance is
// fenced.
func ExampleDeepCopyToScalarOn() {
	v, _ := kokkos.NewView0[float64]("v")
	v.Set(2.5)
	inst := kokkos.DefaultHostExecutionSpace().NewInstance()
	var x float64
	if err := kokkos.DeepCopyToScalarOn(inst, &x, kokkos.View[float64](v)); err != nil {
		fmt.Println(err)
	}
	if err := inst.Fence(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(x)
	// Output:
	// 2.5
}

// A mirror in another space, copied on an instance: the new view is
// labelled as its source, or as WithLabel says, and holds the elements
// once the instance is fenced.
func ExampleCreateMirrorViewAndCopyOn() {
	space := backendtest.FakeDevice(false) // a memory space the host cannot access
	v, _ := kokkos.NewView1[int]("v", 3)
	for i := range 3 {
		v.Set(i, i+1)
	}
	inst := kokkos.DefaultHostExecutionSpace().NewInstance()
	d, err := kokkos.CreateMirrorViewAndCopyOn(inst, v, kokkos.InSpace(space), kokkos.WithLabel("v on the device"))
	if err != nil {
		fmt.Println(err)
	}
	defer d.Release()
	if err := inst.Fence(); err != nil {
		fmt.Println(err)
	}
	h, _ := kokkos.CreateMirrorViewAndCopy(d)
	fmt.Println(d.Label(), h.Label(), h.Data())
	// Output:
	// v on the device v on the device [1 2 3]
}

// A mirror takes its label, layout and traits from its source: the
// options that would set them are refused.
func ExampleCreateMirror_options() {
	v, _ := kokkos.NewView1[float64]("v", 4)
	_, err := kokkos.CreateMirror(v, kokkos.WithLabel("m"))
	fmt.Println(errors.Is(err, kokkos.ErrOption))
	fmt.Println(err)
	// Output:
	// true
	// kokkos: CreateMirror of view "v" with extents (4): option WithLabel("m") is not allowed: a mirror is labelled with its source's label + "_mirror"; CreateMirrorViewAndCopy takes a label
}
