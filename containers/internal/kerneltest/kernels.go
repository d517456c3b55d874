// Package kerneltest holds Go kernels that take ScatterViews of package
// containers; its tests run them on the host, on the fake device of
// package backendtest (kernelir's interpreter) and on a GPU.
package kerneltest

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// Bin is x's bin among nb.
//
//kokkos:kernel
func Bin(x int64, nb int) int { return int(uint64(x) % uint64(nb)) }

// ScatterHist counts x(i)'s bin into sv, adds x(i) to the bin of i and
// takes 2 from the bin of x(i)+1, through one accessor, then adds 3 to
// bin 0 through sv.Access() directly.
//
//kokkos:kernel
func ScatterHist(i int, x kokkos.View1[int64], sv containers.ScatterView1[containers.ScatterSum, int64], nb int) {
	a := sv.Access()
	a.Add(Bin(x.At(i), nb), 1)
	a.Update(i%nb, x.At(i)%100)
	if x.At(i) < 0 {
		return
	}
	a.Sub(Bin(x.At(i)+1, nb), 2)
	sv.Access().Add(0, 3)
}

// ScatterProd2 multiplies element (i%n0, j%n1) of sv by x(i, j), or
// divides it when x(i, j) > 1.05.
//
//kokkos:kernel
func ScatterProd2(i, j int, x kokkos.View2[float64], sv containers.ScatterView2[containers.ScatterProd, float64], n0, n1 int) {
	a := sv.Access()
	v := x.At(i, j)
	if v > 1.05 {
		a.Div(i%n0, j%n1, v)
	} else {
		a.Mul(i%n0, j%n1, v)
	}
}

// ScatterMinMax3 keeps, in the cells (i%2, j%3, k%4), the least of x and
// the greatest of y.
//
//kokkos:kernel
func ScatterMinMax3(i, j, k int, x kokkos.View3[float32], y kokkos.View3[int32], lo containers.ScatterView3[containers.ScatterMin, float32], hi containers.ScatterView3[containers.ScatterMax, int32]) {
	l := lo.Access()
	h := hi.Access()
	for r := range 2 {
		l.Update((i+r)%2, j%3, k%4, x.At(i, j, k))
		h.Update((i+r)%2, j%3, k%4, y.At(i, j, k))
	}
}

// ScatterCount adds x(i) to bin x(i)%nb of sv and counts the indices.
//
//kokkos:kernel
func ScatterCount(i int, x kokkos.View1[int64], sv containers.ScatterView1[containers.ScatterSum, float64], nb int, acc *int64) {
	a := sv.Access()
	a.Add(Bin(x.At(i), nb), float64(x.At(i)%1000)/8)
	*acc += 1
}

// ScatterGrid adds x(i) to cell (i%n0, (i/n0)%n1) of sv and takes 0.25
// from cell (i%n0, 0), without the host's checks.
//
//kokkos:kernel nocheck
func ScatterGrid(i int, x kokkos.View1[float64], sv containers.ScatterView2[containers.ScatterSum, float64], n0, n1 int) {
	a := sv.Access()
	a.Add(i%n0, (i/n0)%n1, x.At(i))
	a.Sub(i%n0, 0, 0.25)
}
