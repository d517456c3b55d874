package main

import "github.com/gokkos/kokkos"

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// HistAtomic counts row i of v into r, one atomic increment per value, as
// the tutorial's atomic_loop.
//
//kokkos:kernel
func HistAtomic(i int, v kokkos.View2[int32], r kokkos.View1[int32]) {
	for j := range v.Extent(1) {
		kokkos.AtomicAdd(r.Ptr(int(v.At(i, j))), 1)
	}
}

// Contribute adds the copies' counts of bin i to r(i).
//
//kokkos:kernel
func Contribute(i int, dup kokkos.View2[int32], r kokkos.View1[int32]) {
	s := r.At(i)
	for w := range dup.Extent(0) {
		s += dup.At(w, i)
	}
	r.Set(i, s)
}

// Value is the tutorial's random bin of element (i, j) of an n-row
// matrix, the same in the C++ program: splitmix64 of the element's
// row-major position, modulo n.
//
//kokkos:kernel
func Value(i, j, m, n int) int32 {
	z := uint64(i*m+j) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return int32(z % uint64(n))
}

// Values sets v(i, j) to Value(i, j, M, N).
//
//kokkos:kernel
func Values(i, j int, v kokkos.View2[int32]) {
	v.Set(i, j, Value(i, j, v.Extent(1), v.Extent(0)))
}
