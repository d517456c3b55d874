package main

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// YAx adds row j's share of y^T*A*x to acc: y(j) times the dot product of
// row j of A with x, as the lambda of the tutorial's exercise 4. The
// kernel takes A in either layout: with LayoutRight a thread walks its row
// contiguously (the host's good layout), with LayoutLeft neighbouring
// threads read neighbouring addresses (the GPU's coalesced one).
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
