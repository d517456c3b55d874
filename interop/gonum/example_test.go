package gonum_test

import (
	"errors"
	"fmt"

	"github.com/gokkos/kokkos"
	kgonum "github.com/gokkos/kokkos/interop/gonum"
	"gonum.org/v1/gonum/mat"
)

// A row-major view, and a subview of it with a row stride larger than its
// number of columns, become gonum matrices over the same memory.
func ExampleDense() {
	a := kokkos.Must(kokkos.NewView2[float64]("A", 3, 4))
	for i := range 3 {
		for j := range 4 {
			a.Set(i, j, float64(10*i+j))
		}
	}
	s := a.Subview2(kokkos.Pair(1, 3), kokkos.Pair(1, 3)) // 2×2, row stride 4
	m, err := kgonum.Dense(s)
	if err != nil {
		panic(err)
	}
	fmt.Println("stride:", m.RawMatrix().Stride)
	fmt.Println(mat.Formatted(m))
	m.Set(0, 0, -1) // seen through the view
	fmt.Println("A(1, 1):", a.At(1, 1))
	// Output:
	// stride: 4
	// ⎡11  12⎤
	// ⎣21  22⎦
	// A(1, 1): -1
}

// A column-major view is the transpose of a row-major matrix: Transpose
// hands it to gonum without copying, CopyDense copies it.
func ExampleTranspose() {
	l := kokkos.Must(kokkos.NewView2[float64]("L", 2, 3, kokkos.LayoutLeft))
	for i := range 2 {
		for j := range 3 {
			l.Set(i, j, float64(10*i+j))
		}
	}
	if _, err := kgonum.Dense(l); errors.Is(err, kokkos.ErrLayout) {
		fmt.Println("Dense refuses LayoutLeft")
	}
	t, err := kgonum.Transpose(l)
	if err != nil {
		panic(err)
	}
	var p mat.Dense
	p.Mul(t, t.T()) // L·Lᵀ, 2×2
	fmt.Println(mat.Formatted(&p))
	// Output:
	// Dense refuses LayoutLeft
	// ⎡  5   35⎤
	// ⎣ 35  365⎦
}

// A result written into a LayoutLeft view: Transpose(c) is cᵀ, a
// row-major matrix over c's memory, so storing the transposed product
// Bᵀ·Aᵀ = (A·B)ᵀ there leaves A·B in c, without a copy.
func ExampleTranspose_product() {
	a := kokkos.Must(kokkos.NewView2[float64]("A", 2, 3)) // LayoutRight
	b := kokkos.Must(kokkos.NewView2[float64]("B", 3, 2, kokkos.LayoutLeft))
	for i := range 2 {
		for j := range 3 {
			a.Set(i, j, float64(i+j))
			b.Set(j, i, float64(1+i*j))
		}
	}
	c := kokkos.Must(kokkos.NewView2[float64]("C", 2, 2, kokkos.LayoutLeft))
	am, err := kgonum.Dense(a)
	if err != nil {
		panic(err)
	}
	bt, err := kgonum.Transpose(b)
	if err != nil {
		panic(err)
	}
	ct, err := kgonum.Transpose(c)
	if err != nil {
		panic(err)
	}
	ct.Matrix.(*mat.Dense).Mul(bt.T(), am.T()) // cᵀ = Bᵀ·Aᵀ, so c = A·B
	fmt.Println(c.At(0, 0), c.At(0, 1))
	fmt.Println(c.At(1, 0), c.At(1, 1))
	// Output:
	// 3 8
	// 6 14
}

// Gonum has no read-only matrix: a read-only view is refused unless the
// caller asks for a copy.
func ExampleCopyDense() {
	a := kokkos.Must(kokkos.NewView2[float64]("A", 2, 2))
	a.Set(0, 1, 3)
	r := a.ReadOnly()
	_, err := kgonum.Dense(r)
	fmt.Println(errors.Is(err, kokkos.ErrReadOnly))
	m, err := kgonum.CopyDense(r)
	if err != nil {
		panic(err)
	}
	fmt.Println(m.At(0, 1))
	// Output:
	// true
	// 3
}

// A gonum matrix, a slice of a larger one included, becomes a view over
// its storage.
func ExampleFromDense() {
	big := mat.NewDense(3, 4, []float64{
		0, 1, 2, 3,
		4, 5, 6, 7,
		8, 9, 10, 11,
	})
	m := big.Slice(1, 3, 1, 3).(*mat.Dense)
	v, err := kgonum.FromDense(m, "M")
	if err != nil {
		panic(err)
	}
	fmt.Println(v.Layout(), v.Extent(0), v.Extent(1), v.Strides()[:2], v.At(1, 1))
	// Output: LayoutRight 2 2 [4 1] 10
}

// A column of a row-major matrix is a strided View1: it becomes a
// VecDense whose Inc is the row stride, over the same memory.
func ExampleVecDense() {
	a := kokkos.Must(kokkos.NewView2[float64]("A", 3, 4))
	for i := range 3 {
		a.Set(i, 2, float64(i+1))
	}
	col := a.Subview1(kokkos.All, 2)
	x, err := kgonum.VecDense(col)
	if err != nil {
		panic(err)
	}
	fmt.Println(x.RawVector().Inc, mat.Dot(x, x))
	x.ScaleVec(10, x) // writes through to A
	fmt.Println(a.At(2, 2))
	// Output:
	// 4 14
	// 30
}
