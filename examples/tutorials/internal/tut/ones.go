package tut

import "github.com/gokkos/kokkos"

// Ones2 sets every element of v to 1 through a host mirror (v itself when
// it is in host memory) and kokkos.DeepCopy, as the exercises fill their
// views on create_mirror_view's mirrors and deep_copy them.
func Ones2(v kokkos.View2[float64]) error {
	h, err := kokkos.CreateMirrorView(v)
	if err != nil {
		return err
	}
	for i := range h.Extent(0) {
		for j := range h.Extent(1) {
			h.Set(i, j, 1)
		}
	}
	return kokkos.DeepCopy[float64](v, h)
}

// Ones1 is Ones2 for a view of rank 1.
func Ones1(v kokkos.View1[float64]) error {
	h, err := kokkos.CreateMirrorView(v)
	if err != nil {
		return err
	}
	for i := range h.Extent(0) {
		h.Set(i, 1)
	}
	return kokkos.DeepCopy[float64](v, h)
}

// Ones3 is Ones2 for a view of rank 3.
func Ones3(v kokkos.View3[float64]) error {
	h, err := kokkos.CreateMirrorView(v)
	if err != nil {
		return err
	}
	for i := range h.Extent(0) {
		for j := range h.Extent(1) {
			for k := range h.Extent(2) {
				h.Set(i, j, k, 1)
			}
		}
	}
	return kokkos.DeepCopy[float64](v, h)
}
