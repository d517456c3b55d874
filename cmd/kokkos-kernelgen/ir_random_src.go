package main

// randomSource is the device side of package random's generators, in the
// kernel subset: a kernel's generator g (g := pool.GetState()) is, in the
// description, a local of struct kokkosRandomXorShift64 (or ...1024) whose
// field I is its state's index, and each draw g.M(args) a call of the
// helper method gkm_kokkosRandomXorShift64_M. The methods compute what
// random's own do (random/xorshift64.go, random/xorshift1024.go), without
// their panics: a zero range is not checked on the device. The host kernel
// calls random's methods themselves.
const randomSource = `package kokkosrandom

import (
	"math"

	"github.com/gokkos/kokkos"
)

type kokkosRandomXorShift64 struct {
	S uint64
	I int
}

type kokkosRandomXorShift1024 struct {
	S [16]uint64
	P int32
	I int
}

//kokkos:kernel
func kokkosRandomLoad64(states kokkos.View2[uint64], id int) kokkosRandomXorShift64 {
	return kokkosRandomXorShift64{S: states.At(id, 0), I: id}
}

//kokkos:kernel
func kokkosRandomStore64(states kokkos.View2[uint64], g kokkosRandomXorShift64) {
	states.Set(g.I, 0, g.S)
}

//kokkos:kernel
func kokkosRandomLoad1024(states kokkos.View2[uint64], id int) kokkosRandomXorShift1024 {
	var g kokkosRandomXorShift1024
	for k := range 16 {
		g.S[k] = states.At(id, k)
	}
	g.P = int32(states.At(id, 16))
	g.I = id
	return g
}

//kokkos:kernel
func kokkosRandomStore1024(states kokkos.View2[uint64], g kokkosRandomXorShift1024) {
	for k := range 16 {
		states.Set(g.I, k, g.S[k])
	}
	states.Set(g.I, 16, uint64(g.P))
}

//kokkos:kernel
func kokkosRandomBoxMuller(u, v float64) float64 {
	r := math.Sqrt(-2.0 * math.Log(u))
	theta := v * (2 * 3.141592653589793238462643383279502884)
	return r * math.Cos(theta)
}

//kokkos:kernel
func (g *kokkosRandomXorShift64) next() uint64 {
	s := g.S
	s ^= s >> 12
	s ^= s << 25
	s ^= s >> 27
	g.S = s
	return s
}

//kokkos:kernel
func (g *kokkosRandomXorShift1024) next() uint64 {
	s0 := g.S[g.P]
	g.P = (g.P + 1) & 15
	s1 := g.S[g.P]
	s1 ^= s1 << 31
	s1 ^= s1 >> 11
	s0 ^= s0 >> 30
	s := s0 ^ s1
	g.S[g.P] = s
	return s
}
`

// randomDraws is the draws of both generators, written once for GEN (the
// struct) and MUL (the multiplier) each: random's methods as the device
// runs them.
const randomDraws = `
//kokkos:kernel
func (g *GEN) Urand() uint32 { return uint32(g.next() * MUL >> 16) }

//kokkos:kernel
func (g *GEN) Urand64() uint64 { return g.next()*MUL - 1 }

//kokkos:kernel
func (g *GEN) UrandN(r uint32) uint32 {
	lim := 4294967295 / r * r
	x := g.Urand()
	for x >= lim {
		x = g.Urand()
	}
	return x % r
}

//kokkos:kernel
func (g *GEN) UrandRange(start, end uint32) uint32 { return g.UrandN(end-start) + start }

//kokkos:kernel
func (g *GEN) Urand64N(r uint64) uint64 {
	lim := 18446744073709551615 / r * r
	x := g.Urand64()
	for x >= lim {
		x = g.Urand64()
	}
	return x % r
}

//kokkos:kernel
func (g *GEN) Urand64Range(start, end uint64) uint64 { return g.Urand64N(end-start) + start }

//kokkos:kernel
func (g *GEN) Rand() int32 { return int32(g.Urand() / 2) }

//kokkos:kernel
func (g *GEN) RandN(r int32) int32 {
	lim := 2147483647 / r * r
	x := g.Rand()
	for x >= lim {
		x = g.Rand()
	}
	return x % r
}

//kokkos:kernel
func (g *GEN) RandRange(start, end int32) int32 { return g.RandN(end-start) + start }

//kokkos:kernel
func (g *GEN) Rand64() int64 { return int64(g.Urand64() / 2) }

//kokkos:kernel
func (g *GEN) Rand64N(r int64) int64 {
	lim := 9223372036854775807 / r * r
	x := g.Rand64()
	for x >= lim {
		x = g.Rand64()
	}
	return x % r
}

//kokkos:kernel
func (g *GEN) Rand64Range(start, end int64) int64 { return g.Rand64N(end-start) + start }

//kokkos:kernel
func (g *GEN) Frand() float32 { return float32(g.Urand64()) / 0x1p64 }

//kokkos:kernel
func (g *GEN) FrandN(r float32) float32 { return float32(r*float32(g.Urand64())) / 0x1p64 }

//kokkos:kernel
func (g *GEN) FrandRange(start, end float32) float32 { return g.FrandN(end-start) + start }

//kokkos:kernel
func (g *GEN) Drand() float64 { return float64(g.Urand64()) / 0x1p64 }

//kokkos:kernel
func (g *GEN) DrandN(r float64) float64 { return float64(r*float64(g.Urand64())) / 0x1p64 }

//kokkos:kernel
func (g *GEN) DrandRange(start, end float64) float64 { return g.DrandN(end-start) + start }

//kokkos:kernel
func (g *GEN) Normal() float64 {
	u := g.Drand()
	v := g.Drand()
	return kokkosRandomBoxMuller(u, v)
}

//kokkos:kernel
func (g *GEN) NormalMeanStd(mean, stddev float64) float64 { return mean + float64(g.Normal()*stddev) }
`
