package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// DartsPool throws groups darts at the unit square with a generator taken
// from a pool, as the tutorial's GenRandom with Random_XorShift64_Pool:
// the state of the id it acquires from tok (get_state), given back
// advanced when done (free_state). It adds to acc the darts that land
// within rad of the origin.
//
//kokkos:kernel
func DartsPool(i int, tok kokkos.UniqueToken, states kokkos.View1[uint64], groups int, rad float64, acc *int64) {
	id := tok.Acquire()
	g := XorShift64{states.At(id)}
	for range groups {
		g = g.Next()
		x := g.Drand()
		g = g.Next()
		y := g.Drand()
		if x*x+y*y <= rad*rad {
			*acc += 1
		}
	}
	states.Set(id, g.State)
	tok.Release(id)
}

// rngForm names the generator countHits uses in the output.
const rngForm = "XorShift64 pool"

// newPool returns the states of a Random_XorShift64_Pool of one generator
// per id of tok, in place's memory, seeded from seed as Kokkos seeds one
// (PoolStates).
func newPool(place tut.Place, tok kokkos.UniqueToken, seed uint64) (kokkos.View1[uint64], error) {
	states, err := kokkos.NewView1[uint64]("Kokkos::Random_XorShift64::state", tok.Size(), kokkos.InSpace(place.Mem))
	if err != nil {
		return states, err
	}
	h, err := kokkos.CreateMirrorView(states)
	if err != nil {
		states.Release()
		return states, err
	}
	for i, s := range PoolStates(seed, tok.Size()) {
		h.Set(i, s)
	}
	if err := kokkos.DeepCopy[uint64](states, h); err != nil {
		states.Release()
		return states, err
	}
	return states, nil
}

// poolHits throws n*groups darts at place, groups per index of a range of
// n, with the generators of the pool states (a state per id of tok, a
// token of place's execution space), and returns how many landed within
// rad; it leaves each state advanced past the draws of its id.
func poolHits(place tut.Place, tok kokkos.UniqueToken, states kokkos.View1[uint64], n, groups int, rad float64) (int64, error) {
	return kernel.Reduce("MC-pi-estimate", kokkos.Range(0, n).On(place.Space()), kokkos.Sum[int64](), DartsPool, tok, states, groups, rad)
}

// countHits throws n*groups darts at place, groups per index of a range
// of n, with the generators of a pool of one state per id of a unique
// token of place's execution space, seeded from seed as Kokkos seeds a
// Random_XorShift64_Pool, and returns how many landed within rad.
func countHits(place tut.Place, seed uint64, n, groups int, rad float64) (int64, error) {
	tok := kokkos.NewUniqueToken(place.Space())
	states, err := newPool(place, tok, seed)
	if err != nil {
		return 0, err
	}
	defer states.Release()
	return poolHits(place, tok, states, n, groups, rad)
}
