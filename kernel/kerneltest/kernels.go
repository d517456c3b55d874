// Package kerneltest holds Go kernels that the tests of package kernel
// run on the host and, where there is one, on a GPU, against the same
// loops written as closures.
package kerneltest

import (
	"math"

	"github.com/gokkos/kokkos"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

//kokkos:kernel
func Triad(i int, a, b, c kokkos.View1[float64], s float64) {
	a.Set(i, b.At(i)+s*c.At(i))
}

//kokkos:kernel
func Dot(i int, a, b kokkos.View1[float64], acc *float64) {
	*acc += a.At(i) * b.At(i)
}

//kokkos:kernel
func SetC(i, j int, c kokkos.View2[float64], a, b kokkos.View1[float64]) {
	c.Set(i, j, a.At(i)*b.At(j))
}

//kokkos:kernel
func PrefixSum(i int, in, out kokkos.View1[int64], acc *int64, final bool) {
	*acc += in.At(i)
	if final {
		out.Set(i, *acc)
	}
}

// Stencil7 is the 7-point Laplacian of in at the interior points of out.
//
//kokkos:kernel
func Stencil7(i, j, k int, out, in kokkos.View3[float64], h float64) {
	if i == 0 || j == 0 || k == 0 || i == in.Extent(0)-1 || j == in.Extent(1)-1 || k == in.Extent(2)-1 {
		return
	}
	c := in.At(i, j, k)
	s := in.At(i-1, j, k) + in.At(i+1, j, k) + in.At(i, j-1, k) + in.At(i, j+1, k) + in.At(i, j, k-1) + in.At(i, j, k+1)
	out.Set(i, j, k, scale(s-6*c, h))
}

//kokkos:kernel
func scale(x, h float64) float64 { return x / (h * h) }

// Soft applies a soft threshold and a few math functions to x.
//
//kokkos:kernel
func Soft(i int, y kokkos.View1[float32], x kokkos.View1[float64], t float64) {
	v := x.At(i)
	switch {
	case v > t:
		v -= t
	case v < -t:
		v += t
	default:
		v = 0
	}
	y.Set(i, float32(math.Sqrt(math.Abs(v))+math.Floor(v)))
}

// Histogram counts the values of x in nb bins over [0, 1).
//
//kokkos:kernel
func Histogram(i int, x kokkos.View1[float64], bins kokkos.View1[int64], nb int) {
	b := int(x.At(i) * float64(nb))
	b = min(max(b, 0), nb-1)
	kokkos.AtomicAdd(bins.Ptr(b), 1)
}

// MaxAbs2 is the largest absolute value of a rank-2 view.
//
//kokkos:kernel
func MaxAbs2(i, j int, a kokkos.View2[float64], acc *float64) {
	*acc = max(*acc, math.Abs(a.At(i, j)))
}

// Lap7 is the 7-point Laplacian of in at (i, j, k), for a launch over the
// interior points.
//
//kokkos:kernel
func Lap7(i, j, k int, out, in kokkos.View3[float64], h2 float64) {
	s := in.At(i-1, j, k) + in.At(i+1, j, k) + in.At(i, j-1, k) + in.At(i, j+1, k) + in.At(i, j, k-1) + in.At(i, j, k+1)
	out.Set(i, j, k, (s-6*in.At(i, j, k))/h2)
}
