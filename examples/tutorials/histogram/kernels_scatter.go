package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

// HistScatter counts row i of v into sv through its accessor, as the
// tutorial's scatter_view_loop: on the host pool each chunk of rows
// updates the copy of the id its accessor holds, with plain increments;
// on a GPU every update is an atomic of the histogram.
//
//kokkos:kernel
func HistScatter(i int, v kokkos.View2[int32], sv containers.ScatterView1[containers.ScatterSum, int32]) {
	a := sv.Access()
	for j := range v.Extent(1) {
		a.Add(int(v.At(i, j)), 1)
	}
}

// scatterView counts v into r through sv, a ScatterView of r, at place,
// as the C++ program's scatter_view_loop: it resets the copies (keeping r,
// which a non-duplicated ScatterView updates in place), runs HistScatter
// over the rows and contributes the copies into r.
func scatterView(place tut.Place, sv containers.ScatterView1[containers.ScatterSum, int32], v kokkos.View2[int32], r kokkos.View1[int32]) error {
	if err := sv.ResetExcept(r); err != nil {
		return err
	}
	if err := kernel.For("ScatterView Loop", kokkos.Range(0, v.Extent(0)).On(place.Space()), HistScatter, v.ReadOnly(), sv); err != nil {
		return err
	}
	if err := place.Fence(); err != nil {
		return err
	}
	return sv.ContributeInto(r)
}

// scatterViewClosure is scatterView with a closure of
// kokkos.ParallelForChunks for HistScatter, on the host: one accessor per
// chunk of rows.
func scatterViewClosure(sv containers.ScatterView1[containers.ScatterSum, int32], v kokkos.View2[int32], r kokkos.View1[int32]) error {
	if err := sv.ResetExcept(r); err != nil {
		return err
	}
	data, m := kokkos.ReadOnlyData[int32](v), v.Extent(1)
	kokkos.ParallelForChunks("ScatterView Loop", kokkos.Range(0, v.Extent(0)), func(lo, hi int) {
		a := sv.Access()
		defer a.Release()
		for _, b := range data[lo*m : hi*m] {
			a.Add(int(b), 1)
		}
	})
	return sv.ContributeInto(r)
}
