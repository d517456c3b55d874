package main

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// Factorial is the tutorial's parallel_scan functor as a scan kernel with
// kokkos.Prod: an exclusive product scan of i+1, so that out(i) = i!.
// With final true, acc holds the product of the indices before i.
//
//kokkos:kernel
func Factorial(i int, out kokkos.View1[float64], acc *float64, final bool) {
	if final {
		out.Set(i, *acc)
	}
	*acc *= float64(i + 1)
}
