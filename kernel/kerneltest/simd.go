package kerneltest

import "github.com/gokkos/kokkos"

// The kernels below have inner loops that the host code writes as calls
// of the vector helpers of package kernel (kernel/simd.go) where their
// views are laid out along the loop: sums and dot products of integers,
// and of floats in kernels marked fastmath, and element-wise maps
// (simd_test.go checks each against the function called directly).

// DotFast is y = A x + 0.5 for the row i, over the columns [lo, hi) of A;
// its float sum may add in any order.
//
//kokkos:kernel fastmath
func DotFast(i int, y kokkos.View1[float64], A kokkos.View2[float64], x kokkos.View1[float64], lo, hi int) {
	s := 0.5
	for j := lo; j < hi; j++ {
		s += A.At(i, j) * x.At(j)
	}
	y.Set(i, s)
}

// SumFast32 sums the row i of a over the columns [0, m], in float32, in
// any order.
//
//kokkos:kernel fastmath
func SumFast32(i int, out kokkos.View1[float32], a kokkos.View2[float32], m int) {
	var s float32
	for j := 0; j <= m; j++ {
		s += a.At(i, j)
	}
	out.Set(i, s)
}

// DotFast32 is y = A x for the row i in float32, in any order.
//
//kokkos:kernel fastmath
func DotFast32(i int, y kokkos.View1[float32], A kokkos.View2[float32], x kokkos.View1[float32], m int) {
	var s float32
	for j := range m {
		s += A.At(i, j) * x.At(j)
	}
	y.Set(i, s)
}

// SumDotInts sums the row i of a from i and its products with the row
// of b, in int32, and the same of c and d in int64: integer sums, which
// wrap, vectorize without fastmath.
//
//kokkos:kernel
func SumDotInts(i int, out kokkos.View2[int64], a, b kokkos.View2[int32], c, d kokkos.View2[int64], m int) {
	s := int32(i)
	for j := range m {
		s += a.At(i, j)
	}
	var p int32
	for j := range m {
		p += a.At(i, j) * b.At(i, j)
	}
	var q int64
	for j := range m {
		q += c.At(i, j)
	}
	r := int64(-i)
	for j := range m {
		r += c.At(i, j) * d.At(i, j)
	}
	out.Set(i, 0, int64(s))
	out.Set(i, 1, int64(p))
	out.Set(i, 2, q)
	out.Set(i, 3, r)
}

// MapsF64 writes the row i of c as a op b (op 0: +, 1: -, 2: *) over the
// columns [1, m), then subtracts b from it in place.
//
//kokkos:kernel
func MapsF64(i int, c, a, b kokkos.View2[float64], op, m int) {
	switch op {
	case 0:
		for j := 1; j < m; j++ {
			c.Set(i, j, a.At(i, j)+b.At(i, j))
		}
	case 1:
		for j := 1; j < m; j++ {
			c.Set(i, j, a.At(i, j)-b.At(i, j))
		}
	default:
		for j := 1; j < m; j++ {
			c.Set(i, j, a.At(i, j)*b.At(i, j))
		}
	}
	for j := 1; j < m; j++ {
		c.Set(i, j, c.At(i, j)-b.At(i, j))
	}
}

// MapsInts writes the rows i of c and f as products and sums of the rows
// of a and b, and of d and e, in int32 and int64.
//
//kokkos:kernel
func MapsInts(i int, c, a, b kokkos.View2[int32], f, d, e kokkos.View2[int64], m int) {
	for j := range m {
		c.Set(i, j, a.At(i, j)*b.At(i, j))
	}
	for j := range m {
		f.Set(i, j, d.At(i, j)*e.At(i, j))
	}
	for j := range m {
		f.Set(i, j, f.At(i, j)+d.At(i, j))
	}
}

// MapF32 writes the row i of c as a + b in float32.
//
//kokkos:kernel
func MapF32(i int, c, a, b kokkos.View2[float32], m int) {
	for j := range m {
		c.Set(i, j, a.At(i, j)+b.At(i, j))
	}
}
