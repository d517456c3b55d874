//go:build !kernels_pending

package main

import (
	"errors"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
)

// localForm names the form of localArray in the output; localOnDevice
// says that it runs on a GPU too.
const (
	localForm     = "closure"
	localOnDevice = false
)

// localArray counts v into r over blocks of rows rows, as a closure over
// kokkos.ParallelFor: each block counts into a local array with plain
// increments, then adds it to r with one atomic per bin. It runs on the
// host only; kernels_local.go holds the same as a kernel, behind the tag
// kernels_pending until the generator compiles local arrays.
func localArray(place tut.Place, v kokkos.View2[int32], r kokkos.View1[int32], rows int) error {
	if place.Stream != nil {
		return errors.New("the local-array closure runs on the host only")
	}
	n, m := v.Extent(0), v.Extent(1)
	kokkos.ParallelFor("local-array histogram", kokkos.Range(0, (n+rows-1)/rows), func(k int) {
		var h [bins]int32
		for i := k * rows; i < min(k*rows+rows, n); i++ {
			for j := range m {
				h[v.At(i, j)]++
			}
		}
		for b := range bins {
			kokkos.AtomicAdd(r.Ptr(b), h[b])
		}
	})
	return nil
}
