package main

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// YAx adds row j's share of y^T*A*x to acc: y(j) times the dot product of
// row j of A with x, the inner loop run by the index's own thread, as the
// lambda of the tutorial's exercises 2 and 3.
//
//kokkos:kernel
func YAx(j int, y kokkos.View1[float64], A kokkos.View2[float64], x kokkos.View1[float64], acc *float64) {
	m := A.Extent(1)
	s := 0.0
	for i := range m {
		s += A.At(j, i) * x.At(i)
	}
	*acc += y.At(j) * s
}
