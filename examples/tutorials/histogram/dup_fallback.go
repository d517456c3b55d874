//go:build !kernels_pending

package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// dupForm names the form of duplicated in the output.
const dupForm = "per-worker kernel"

// dupCopies is the number of copies of the histogram duplicated needs:
// one per worker of the host pool.
func dupCopies() int { return kokkos.DefaultHostExecutionSpace().Concurrency() }

// duplicated counts v into r through dup, a copy of the histogram per
// worker of the host pool (dupCopies rows): it zeroes the copies, runs
// HistDup with one index per worker, each counting its block of rows,
// then adds the copies to r (Contribute). kernels_token.go holds the
// per-row form with a unique token, as the C++ program's.
func duplicated(v kokkos.View2[int32], r kokkos.View1[int32], dup kokkos.View2[int32]) error {
	nw := dup.Extent(0)
	if err := kokkos.Fill(dup, 0); err != nil {
		return err
	}
	if err := kernel.For("Duplicated Loop", kokkos.Range(0, nw), HistDup, v.ReadOnly(), dup); err != nil {
		return err
	}
	return kernel.For("Reduce Loop", kokkos.Range(0, r.Extent(0)), Contribute, dup.ReadOnly(), r)
}
