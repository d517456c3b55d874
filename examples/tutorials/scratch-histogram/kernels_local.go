package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

// HistLocal counts block k of v (rows rows) into a local array, with
// plain increments, then adds it to r with one atomic per bin.
//
//kokkos:kernel
func HistLocal(k int, v kokkos.View2[int32], r kokkos.View1[int32], rows int) {
	var h [bins]int32
	lo := k * rows
	hi := min(lo+rows, v.Extent(0))
	for i := lo; i < hi; i++ {
		for j := range v.Extent(1) {
			h[v.At(i, j)]++
		}
	}
	for b := range bins {
		kokkos.AtomicAdd(r.Ptr(b), h[b])
	}
}

// localForm names the form of localArray in the output.
const localForm = "kernel"

// localArray launches HistLocal over blocks of rows rows.
func localArray(place tut.Place, v kokkos.View2[int32], r kokkos.View1[int32], rows int) error {
	p := kokkos.Range(0, (v.Extent(0)+rows-1)/rows).On(place.Space())
	return kernel.For("local-array histogram", p, HistLocal, v.ReadOnly(), r, rows)
}
