package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/random"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// DartsPool throws groups darts at the unit square with a generator taken
// from pool, as the tutorial's GenRandom with Random_XorShift64_Pool: the
// state it gets (get_state) is given back advanced when done
// (free_state). It adds to acc the darts that land within rad of the
// origin.
//
//kokkos:kernel
func DartsPool(i int, pool random.XorShift64Pool, groups int, rad float64, acc *int64) {
	g := pool.GetState()
	for range groups {
		x := g.Drand()
		y := g.Drand()
		if x*x+y*y <= rad*rad {
			*acc += 1
		}
	}
	pool.FreeState(g)
}

// rngForm names the generator poolHits uses in the output.
const rngForm = "XorShift64 pool"

// poolHits throws n*groups darts at place, groups per index of a range of
// n, with the generators of pool (a pool of place's execution space), and
// returns how many landed within rad; it leaves each state advanced past
// its draws.
func poolHits(place tut.Place, pool random.XorShift64Pool, n, groups int, rad float64) (int64, error) {
	return kernel.Reduce("MC-pi-estimate", kokkos.Range(0, n).On(place.Space()), kokkos.Sum[int64](), DartsPool, pool, groups, rad)
}

// warmUp launches DartsPool once on a GPU place, with a pool of its own,
// so that the timed launch does not include the kernel's first launch
// (its translation by NVRTC, or its load from the disk cache, which the
// C++ program pays when it is compiled). It does nothing on the host.
func warmUp(place tut.Place, rad float64) error {
	if place.Stream == nil {
		return nil
	}
	pool, err := random.NewXorShift64PoolSize(place.Space(), 1, 1)
	if err != nil {
		return err
	}
	defer pool.Release()
	_, err = poolHits(place, pool, 1, 1, rad)
	return err
}
