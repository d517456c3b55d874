package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

// HistToken counts row i of v into the copy of the histogram its thread
// holds: the row of dup of the id it acquires from tok, with plain
// increments, as the tutorial's duplicated loop does with
// omp_get_thread_num. dup needs a row per id of tok.
//
//kokkos:kernel
func HistToken(i int, tok kokkos.UniqueToken, v kokkos.View2[int32], dup kokkos.View2[int32]) {
	id := tok.Acquire()
	for j := range v.Extent(1) {
		*dup.Ptr(id, int(v.At(i, j)))++
	}
	tok.Release(id)
}

// dupForm names the form of duplicated in the output.
const dupForm = "unique-token kernel"

// duplicated counts v into r through dup, a copy of the histogram per id
// of tok (at least tok.Size() rows), at place (tok is a token of its
// execution space, the views are in its memory): it zeroes the copies,
// runs HistToken over the rows, then adds the copies to r (Contribute).
func duplicated(place tut.Place, tok kokkos.UniqueToken, v kokkos.View2[int32], r kokkos.View1[int32], dup kokkos.View2[int32]) error {
	if err := kokkos.Fill(dup, 0); err != nil {
		return err
	}
	sp := place.Space()
	if err := kernel.For("Duplicated Loop", kokkos.Range(0, v.Extent(0)).On(sp), HistToken, tok, v.ReadOnly(), dup); err != nil {
		return err
	}
	return kernel.For("Reduce Loop", kokkos.Range(0, r.Extent(0)).On(sp), Contribute, dup.ReadOnly(), r)
}
