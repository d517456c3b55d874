//go:build !kernels_pending

package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

// rngForm names the generator countHits uses in the output.
const rngForm = "XorShift64 per index"

// countHits throws n*groups darts at place, groups per index of a range
// of n, each index with a generator of its own seeded from seed (Darts),
// and returns how many landed within rad.
func countHits(place tut.Place, seed uint64, n, groups int, rad float64) (int64, error) {
	return kernel.Reduce("MC-pi-estimate", kokkos.Range(0, n).On(place.Space()), kokkos.Sum[int64](), Darts, seed, groups, rad)
}
