package main

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// Keys sets v(i) to a double in [0, 1): the top 53 bits of splitmix64 of
// i (the C++ program computes the same).
//
//kokkos:kernel
func Keys(i int, v kokkos.View1[float64]) {
	z := uint64(i) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	v.Set(i, float64(z>>11)*0x1.0p-53)
}
