package main

// XorShift64 is a Go port of Kokkos's Random_XorShift64 generator: one
// 64-bit xorshift state (shifts 12, 25, 27) whose outputs are the state
// times 2685821657736338717. Its methods are values' methods, so that it
// can live in a kernel as a local: Next returns the generator advanced by
// one step, and Urand64, Urand, Rand and Drand read the current state's
// output, so that Kokkos's gen.drand() is g = g.Next(); g.Drand(). The
// methods are kernel helpers: DartsPool calls them on the device too.
type XorShift64 struct{ State uint64 }

// Next returns g advanced by one xorshift step.
//
//kokkos:kernel
func (g XorShift64) Next() XorShift64 {
	s := g.State
	s ^= s >> 12
	s ^= s << 25
	s ^= s >> 27
	return XorShift64{s}
}

// Urand64 is the state's 64-bit output (Kokkos's urand64 after the step).
//
//kokkos:kernel
func (g XorShift64) Urand64() uint64 { return g.State*2685821657736338717 - 1 }

// Urand is the state's 32-bit output (Kokkos's urand after the step).
//
//kokkos:kernel
func (g XorShift64) Urand() uint32 { return uint32(g.State * 2685821657736338717 >> 16) }

// Rand is the state's non-negative int32 output (Kokkos's rand).
//
//kokkos:kernel
func (g XorShift64) Rand() int32 { return int32(g.Urand() / 2) }

// Drand is the state's output in [0, 1] (Kokkos's drand).
//
//kokkos:kernel
func (g XorShift64) Drand() float64 { return float64(g.Urand64()) / maxURand64 }
