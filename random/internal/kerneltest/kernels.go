// Package kerneltest holds Go kernels that draw from package random's
// pools, and runs them on the host, on the fake device (the kernel
// description's interpreter) and, when one is present, on a GPU.
package kerneltest

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/random"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// Draws64 takes a generator from pool and makes one draw of every kind
// with it, storing row i of u (the integers, as their bits) and of f (the
// floats), then gives it back.
//
//kokkos:kernel
func Draws64(i int, pool random.XorShift64Pool, u kokkos.View2[uint64], f kokkos.View2[float64]) {
	g := pool.GetState()
	u.Set(i, 0, g.Urand64())
	u.Set(i, 1, uint64(g.Urand()))
	u.Set(i, 2, uint64(g.UrandN(1000)))
	u.Set(i, 3, uint64(g.UrandRange(7, 100)))
	u.Set(i, 4, g.Urand64N(1000000000000))
	u.Set(i, 5, g.Urand64Range(5, 1000000000000000))
	u.Set(i, 6, uint64(g.Rand()))
	u.Set(i, 7, uint64(g.RandN(999)))
	u.Set(i, 8, uint64(g.RandRange(-50, 50)))
	u.Set(i, 9, uint64(g.Rand64()))
	u.Set(i, 10, uint64(g.Rand64N(1000000000000000)))
	u.Set(i, 11, uint64(g.Rand64Range(-1000000000000, 1000000000000)))
	f.Set(i, 0, float64(g.Frand()))
	f.Set(i, 1, float64(g.FrandN(2.5)))
	f.Set(i, 2, float64(g.FrandRange(-1, 3)))
	f.Set(i, 3, g.Drand())
	f.Set(i, 4, g.DrandN(2.5))
	f.Set(i, 5, g.DrandRange(-1, 3))
	f.Set(i, 6, g.Normal())
	f.Set(i, 7, g.NormalMeanStd(1.5, 2))
	pool.FreeState(g)
}

// Draws1024 is Draws64 with a pool of XorShift1024 generators.
//
//kokkos:kernel
func Draws1024(i int, pool random.XorShift1024Pool, u kokkos.View2[uint64], f kokkos.View2[float64]) {
	g := pool.GetState()
	u.Set(i, 0, g.Urand64())
	u.Set(i, 1, uint64(g.Urand()))
	u.Set(i, 2, uint64(g.UrandN(1000)))
	u.Set(i, 3, uint64(g.UrandRange(7, 100)))
	u.Set(i, 4, g.Urand64N(1000000000000))
	u.Set(i, 5, g.Urand64Range(5, 1000000000000000))
	u.Set(i, 6, uint64(g.Rand()))
	u.Set(i, 7, uint64(g.RandN(999)))
	u.Set(i, 8, uint64(g.RandRange(-50, 50)))
	u.Set(i, 9, uint64(g.Rand64()))
	u.Set(i, 10, uint64(g.Rand64N(1000000000000000)))
	u.Set(i, 11, uint64(g.Rand64Range(-1000000000000, 1000000000000)))
	f.Set(i, 0, float64(g.Frand()))
	f.Set(i, 1, float64(g.FrandN(2.5)))
	f.Set(i, 2, float64(g.FrandRange(-1, 3)))
	f.Set(i, 3, g.Drand())
	f.Set(i, 4, g.DrandN(2.5))
	f.Set(i, 5, g.DrandRange(-1, 3))
	f.Set(i, 6, g.Normal())
	f.Set(i, 7, g.NormalMeanStd(1.5, 2))
	pool.FreeState(g)
}

// Darts throws groups darts at the unit square for index i, with a
// generator of pool, and adds to acc those within the unit circle: the
// Kokkos tutorial's random-number exercise.
//
//kokkos:kernel
func Darts(i int, pool random.XorShift64Pool, groups int, acc *int64) {
	g := pool.GetState()
	for range groups {
		x := g.Drand()
		y := g.Drand()
		if x*x+y*y <= 1 {
			*acc += 1
		}
	}
	pool.FreeState(g)
}

// DartsSkip is Darts but for the indices that skip divides, which give the
// generator back at once and return: a body that returns takes and gives
// back its generator at each index, also on the host (the host chunk of
// Darts takes it once per chunk).
//
//kokkos:kernel
func DartsSkip(i int, pool random.XorShift64Pool, groups, skip int, acc *int64) {
	g := pool.GetState()
	if i%skip == 0 {
		pool.FreeState(g)
		return
	}
	for range groups {
		x := g.Drand()
		y := g.Drand()
		if x*x+y*y <= 1 {
			*acc += 1
		}
	}
	pool.FreeState(g)
}

// Grid draws a(i, j) from a generator of pool over a rank-2 range: on
// the host each tile takes the generator once.
//
//kokkos:kernel
func Grid(i, j int, pool random.XorShift1024Pool, a kokkos.View2[float64]) {
	g := pool.GetState()
	a.Set(i, j, g.Drand())
	pool.FreeState(g)
}

// TwoPools holds a generator of each of two pools at once and stores a
// Urand64 of each in row i of out.
//
//kokkos:kernel
func TwoPools(i int, a random.XorShift64Pool, b random.XorShift1024Pool, out kokkos.View2[uint64]) {
	g := a.GetState()
	h := b.GetState()
	out.Set(i, 0, g.Urand64())
	out.Set(i, 1, h.Urand64())
	b.FreeState(h)
	a.FreeState(g)
}
