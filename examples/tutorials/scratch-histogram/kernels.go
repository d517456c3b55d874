package main

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// bins is the number of bins of the histogram: small enough for a team's
// scratch pad and a thread's local array.
const bins = 16

// Values sets v(i, j) to its bin, below bins: splitmix64 of the element's
// row-major position (the C++ program computes the same).
//
//kokkos:kernel
func Values(i, j int, v kokkos.View2[int32]) {
	z := uint64(i*v.Extent(1)+j) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	v.Set(i, j, int32(z%bins))
}
