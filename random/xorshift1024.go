package random

import "fmt"

// XorShift1024 is Kokkos's Random_XorShift1024: a generator of sixteen
// 64-bit words and a position p, xorshift1024* (shifts 31, 11, 30) whose
// outputs are the new word times 1181783497276652981. Its draws give the
// bits that Kokkos 4.6.1's give from the same state, draw for draw (Normal
// may differ in the last place: see XorShift64.Normal). Its period is
// 2^1024-1, against 2^64-1 for XorShift64, at the cost of 136 bytes of
// state.
//
// A generator is a value. Take one from a pool with GetState (or
// GetStateAt), draw from it, and give it back with the pool's FreeState,
// which stores the advanced state; or make one of a state of your own with
// NewXorShift1024. Its methods have pointer receivers, as they advance the
// state: call them on a variable.
type XorShift1024 struct {
	state [16]uint64
	p     int32
	idx   int32 // the pool's index of the state, -1 for none
	held  bool  // GetState acquired idx, which FreeState releases
}

// NewXorShift1024 returns the generator of the given words and position
// p (in [0, 16)), as Kokkos's Random_XorShift1024 reads a pool's state.
// It belongs to no pool. The words must not all be zero. It panics for p
// outside [0, 16).
func NewXorShift1024(state [16]uint64, p int) XorShift1024 {
	if p < 0 || p >= 16 {
		panic(fmt.Sprintf("random: NewXorShift1024: position %d outside [0, 16)", p))
	}
	return XorShift1024{state: state, p: int32(p), idx: -1}
}

// State returns the generator's sixteen words and position:
// NewXorShift1024(g.State()) draws what g draws next.
func (g XorShift1024) State() ([16]uint64, int) { return g.state, int(g.p) }

// Index returns the index of the generator's state in its pool (Kokkos's
// state_idx_), or -1 for a generator that belongs to no pool.
func (g XorShift1024) Index() int { return int(g.idx) }

// next advances the state by one xorshift1024 step and returns the new
// word.
func (g *XorShift1024) next() uint64 {
	s0 := g.state[g.p]
	g.p = (g.p + 1) & 15
	s1 := g.state[g.p]
	s1 ^= s1 << 31
	s1 ^= s1 >> 11
	s0 ^= s0 >> 30
	s := s0 ^ s1
	g.state[g.p] = s
	return s
}

// Urand draws a uint32 in [0, MaxUrand]. It is Kokkos's urand().
func (g *XorShift1024) Urand() uint32 {
	return uint32(g.next() * 1181783497276652981 >> 16)
}

// Urand64 draws a uint64 in [0, MaxUrand64]. It is Kokkos's urand64().
func (g *XorShift1024) Urand64() uint64 {
	return g.next()*1181783497276652981 - 1
}

// UrandN draws a uint32 in [0, r), rejecting the draws at or above the
// largest multiple of r. It is Kokkos's urand(range). It panics for r == 0.
func (g *XorShift1024) UrandN(r uint32) uint32 {
	if r == 0 {
		panic("random: XorShift1024.UrandN(0): the range [0, 0) is empty")
	}
	lim := MaxUrand / r * r
	x := g.Urand()
	for x >= lim {
		x = g.Urand()
	}
	return x % r
}

// UrandRange draws a uint32 in [start, end): UrandN(end-start)+start, with
// unsigned wrap-around as Kokkos's urand(start, end). It panics for
// start == end.
func (g *XorShift1024) UrandRange(start, end uint32) uint32 {
	if start == end {
		panic("random: XorShift1024.UrandRange: start == end, the range is empty")
	}
	return g.UrandN(end-start) + start
}

// Urand64N draws a uint64 in [0, r). It is Kokkos's urand64(range). It
// panics for r == 0.
func (g *XorShift1024) Urand64N(r uint64) uint64 {
	if r == 0 {
		panic("random: XorShift1024.Urand64N(0): the range [0, 0) is empty")
	}
	lim := MaxUrand64 / r * r
	x := g.Urand64()
	for x >= lim {
		x = g.Urand64()
	}
	return x % r
}

// Urand64Range draws a uint64 in [start, end). It is Kokkos's
// urand64(start, end). It panics for start == end.
func (g *XorShift1024) Urand64Range(start, end uint64) uint64 {
	if start == end {
		panic("random: XorShift1024.Urand64Range: start == end, the range is empty")
	}
	return g.Urand64N(end-start) + start
}

// Rand draws an int32 in [0, MaxRand]: Urand()/2. It is Kokkos's rand().
func (g *XorShift1024) Rand() int32 { return int32(g.Urand() / 2) }

// RandN draws an int32 in [0, |r|) (Go's and C++'s % keep the sign of the
// draw). It is Kokkos's rand(range). It panics for r == 0.
func (g *XorShift1024) RandN(r int32) int32 {
	if r == 0 {
		panic("random: XorShift1024.RandN(0): the range [0, 0) is empty")
	}
	lim := MaxRand / r * r
	x := g.Rand()
	for x >= lim {
		x = g.Rand()
	}
	return x % r
}

// RandRange draws an int32 in [start, end): RandN(end-start)+start. It is
// Kokkos's rand(start, end). It panics for start == end.
func (g *XorShift1024) RandRange(start, end int32) int32 {
	if start == end {
		panic("random: XorShift1024.RandRange: start == end, the range is empty")
	}
	return g.RandN(end-start) + start
}

// Rand64 draws an int64 in [0, MaxRand64]: Urand64()/2. It is Kokkos's
// rand64().
func (g *XorShift1024) Rand64() int64 { return int64(g.Urand64() / 2) }

// Rand64N draws an int64 in [0, |r|). It is Kokkos's rand64(range). It
// panics for r == 0.
func (g *XorShift1024) Rand64N(r int64) int64 {
	if r == 0 {
		panic("random: XorShift1024.Rand64N(0): the range [0, 0) is empty")
	}
	lim := MaxRand64 / r * r
	x := g.Rand64()
	for x >= lim {
		x = g.Rand64()
	}
	return x % r
}

// Rand64Range draws an int64 in [start, end). It is Kokkos's
// rand64(start, end). It panics for start == end.
func (g *XorShift1024) Rand64Range(start, end int64) int64 {
	if start == end {
		panic("random: XorShift1024.Rand64Range: start == end, the range is empty")
	}
	return g.Rand64N(end-start) + start
}

// Frand draws a float32 in [0, 1]: Urand64() rounded to float32, over
// 2^64 (a draw near 2^64 rounds to 1). It is Kokkos's frand().
func (g *XorShift1024) Frand() float32 { return frand32(g.Urand64()) }

// FrandN draws a float32 in [0, r]: r*Urand64()/2^64 in float32. It is
// Kokkos's frand(range).
func (g *XorShift1024) FrandN(r float32) float32 {
	return float32(r*u64ToF32(g.Urand64())) / maxUrand64F32
}

// FrandRange draws a float32 in [start, end]: FrandN(end-start)+start. It
// is Kokkos's frand(start, end).
func (g *XorShift1024) FrandRange(start, end float32) float32 {
	return g.FrandN(end-start) + start
}

// Drand draws a float64 in [0, 1]: Urand64() rounded to float64, over
// 2^64. It is Kokkos's drand().
func (g *XorShift1024) Drand() float64 { return drand64(g.Urand64()) }

// DrandN draws a float64 in [0, r]: r*Urand64()/2^64. It is Kokkos's
// drand(range).
func (g *XorShift1024) DrandN(r float64) float64 {
	return float64(r*u64ToF64(g.Urand64())) / maxUrand64F
}

// DrandRange draws a float64 in [start, end]: DrandN(end-start)+start. It
// is Kokkos's drand(start, end).
func (g *XorShift1024) DrandRange(start, end float64) float64 {
	return g.DrandN(end-start) + start
}

// Normal draws a standard normal float64 by the Box-Muller method from two
// Drand draws. It is Kokkos's normal(); see XorShift64.Normal.
func (g *XorShift1024) Normal() float64 {
	u := g.Drand()
	v := g.Drand()
	return boxMuller(u, v)
}

// NormalMeanStd draws a normal float64 of the given mean and standard
// deviation: mean + Normal()*stddev. It is Kokkos's normal(mean, std_dev).
func (g *XorShift1024) NormalMeanStd(mean, stddev float64) float64 {
	return mean + float64(g.Normal()*stddev)
}
