package main

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// Ones sets v(i) to 1 (a RangePolicy kernel: init_y and init_x).
//
//kokkos:kernel
func Ones(i int, v kokkos.View1[float64]) {
	v.Set(i, 1)
}

// OnesA sets A(j, i) to 1 over a 2-D MDRangePolicy (init_A).
//
//kokkos:kernel
func OnesA(j, i int, A kokkos.View2[float64]) {
	A.Set(j, i, 1)
}

// YAx adds row j's share of y^T*A*x to acc, as in yax.
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
