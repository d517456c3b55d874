package dal

import "github.com/gokkos/kokkos"

// The hooks into package kokkos, for the external tests.

var NewAllocation = newAllocation

func ViewFromAllocation1[T any](a *kokkos.Allocation, off, n int, data []T) (kokkos.View1[T], error) {
	return viewFromAllocation1(a, off, n, data)
}

func View1Storage[T any](v *kokkos.View1[T]) (*kokkos.Allocation, int, []T) {
	return view1Storage(v)
}
