package main

import (
	"github.com/gokkos/kokkos/random"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// Draws takes a generator from pool, adds draws of its Drand to acc and
// gives it back, as the C++ program's functor does with get_state, drand
// and free_state.
//
//kokkos:kernel
func Draws(i int, pool random.XorShift64Pool, draws int, acc *float64) {
	g := pool.GetState()
	for range draws {
		*acc += g.Drand()
	}
	pool.FreeState(g)
}
