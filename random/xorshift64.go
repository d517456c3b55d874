package random

// XorShift64 is Kokkos's Random_XorShift64: a generator of one 64-bit
// xorshift state (shifts 12, 25, 27) whose outputs are the state times
// 2685821657736338717. Its draws give the bits that Kokkos 4.6.1's give
// from the same state, draw for draw (Normal may differ in the last
// place: see Normal).
//
// A generator is a small value. Take one from a pool with GetState (or
// GetStateAt), draw from it, and give it back with the pool's FreeState,
// which stores the advanced state; or make one of a state of your own with
// NewXorShift64. Its methods have pointer receivers, as they advance the
// state: call them on a variable.
//
// The zero XorShift64 has state 0, which xorshift never leaves; use
// NewXorShift64, which replaces 0 as Kokkos does.
type XorShift64 struct {
	state uint64
	idx   int32 // the pool's index of the state, -1 for none
	held  bool  // GetState acquired idx, which FreeState releases
}

// zeroState replaces a zero seed or state, as Kokkos does: xorshift never
// leaves zero.
const zeroState = 1318319

// The largest outputs of the plain draws, Kokkos's MAX_URAND, MAX_URAND64,
// MAX_RAND and MAX_RAND64.
const (
	MaxUrand   = 1<<32 - 1
	MaxUrand64 = 1<<64 - 1
	MaxRand    = 1<<31 - 1
	MaxRand64  = 1<<63 - 1
)

// maxUrand64F and maxUrand64F32 are MaxUrand64 converted to float64 and
// float32, as Kokkos's static_cast<double>(MAX_URAND64): both are 2^64.
const (
	maxUrand64F   float64 = 0x1p64
	maxUrand64F32 float32 = 0x1p64
)

// twoPi is Kokkos's 2 * Kokkos::numbers::pi_v<double>.
const twoPi = 2 * 3.141592653589793238462643383279502884

// NewXorShift64 returns the generator of the given state, 1318319 in place
// of 0, as Kokkos's Random_XorShift64(state) constructor. It belongs to no
// pool.
func NewXorShift64(state uint64) XorShift64 {
	if state == 0 {
		state = zeroState
	}
	return XorShift64{state: state, idx: -1}
}

// State returns the generator's current state: a generator of it,
// NewXorShift64(g.State()), draws what g draws next.
func (g XorShift64) State() uint64 { return g.state }

// Index returns the index of the generator's state in its pool (Kokkos's
// state_idx_), or -1 for a generator that belongs to no pool.
func (g XorShift64) Index() int { return int(g.idx) }

// next advances the state by one xorshift step and returns it.
func (g *XorShift64) next() uint64 {
	s := g.state
	s ^= s >> 12
	s ^= s << 25
	s ^= s >> 27
	g.state = s
	return s
}

// Urand draws a uint32 in [0, MaxUrand]. It is Kokkos's urand().
func (g *XorShift64) Urand() uint32 {
	return uint32(g.next() * 2685821657736338717 >> 16)
}

// Urand64 draws a uint64 in [0, MaxUrand64]. It is Kokkos's urand64().
func (g *XorShift64) Urand64() uint64 {
	return g.next()*2685821657736338717 - 1
}

// UrandN draws a uint32 in [0, r), rejecting the draws at or above the
// largest multiple of r. It is Kokkos's urand(range). It panics for r == 0.
func (g *XorShift64) UrandN(r uint32) uint32 {
	if r == 0 {
		panic("random: XorShift64.UrandN(0): the range [0, 0) is empty")
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
func (g *XorShift64) UrandRange(start, end uint32) uint32 {
	if start == end {
		panic("random: XorShift64.UrandRange: start == end, the range is empty")
	}
	return g.UrandN(end-start) + start
}

// Urand64N draws a uint64 in [0, r). It is Kokkos's urand64(range). It
// panics for r == 0.
func (g *XorShift64) Urand64N(r uint64) uint64 {
	if r == 0 {
		panic("random: XorShift64.Urand64N(0): the range [0, 0) is empty")
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
func (g *XorShift64) Urand64Range(start, end uint64) uint64 {
	if start == end {
		panic("random: XorShift64.Urand64Range: start == end, the range is empty")
	}
	return g.Urand64N(end-start) + start
}

// Rand draws an int32 in [0, MaxRand]: Urand()/2. It is Kokkos's rand().
func (g *XorShift64) Rand() int32 { return int32(g.Urand() / 2) }

// RandN draws an int32 in [0, |r|) (Go's and C++'s % keep the sign of the
// draw). It is Kokkos's rand(range). It panics for r == 0.
func (g *XorShift64) RandN(r int32) int32 {
	if r == 0 {
		panic("random: XorShift64.RandN(0): the range [0, 0) is empty")
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
func (g *XorShift64) RandRange(start, end int32) int32 {
	if start == end {
		panic("random: XorShift64.RandRange: start == end, the range is empty")
	}
	return g.RandN(end-start) + start
}

// Rand64 draws an int64 in [0, MaxRand64]: Urand64()/2. It is Kokkos's
// rand64().
func (g *XorShift64) Rand64() int64 { return int64(g.Urand64() / 2) }

// Rand64N draws an int64 in [0, |r|). It is Kokkos's rand64(range). It
// panics for r == 0.
func (g *XorShift64) Rand64N(r int64) int64 {
	if r == 0 {
		panic("random: XorShift64.Rand64N(0): the range [0, 0) is empty")
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
func (g *XorShift64) Rand64Range(start, end int64) int64 {
	if start == end {
		panic("random: XorShift64.Rand64Range: start == end, the range is empty")
	}
	return g.Rand64N(end-start) + start
}

// Frand draws a float32 in [0, 1]: Urand64() rounded to float32, over
// 2^64 (a draw near 2^64 rounds to 1). It is Kokkos's frand().
func (g *XorShift64) Frand() float32 { return frand32(g.Urand64()) }

// FrandN draws a float32 in [0, r]: r*Urand64()/2^64 in float32. It is
// Kokkos's frand(range).
func (g *XorShift64) FrandN(r float32) float32 {
	return float32(r*u64ToF32(g.Urand64())) / maxUrand64F32
}

// FrandRange draws a float32 in [start, end]: FrandN(end-start)+start. It
// is Kokkos's frand(start, end).
func (g *XorShift64) FrandRange(start, end float32) float32 {
	return g.FrandN(end-start) + start
}

// Drand draws a float64 in [0, 1]: Urand64() rounded to float64, over
// 2^64. It is Kokkos's drand().
func (g *XorShift64) Drand() float64 { return drand64(g.Urand64()) }

// DrandN draws a float64 in [0, r]: r*Urand64()/2^64. It is Kokkos's
// drand(range).
func (g *XorShift64) DrandN(r float64) float64 {
	return float64(r*u64ToF64(g.Urand64())) / maxUrand64F
}

// DrandRange draws a float64 in [start, end]: DrandN(end-start)+start. It
// is Kokkos's drand(start, end).
func (g *XorShift64) DrandRange(start, end float64) float64 {
	return g.DrandN(end-start) + start
}

// Normal draws a standard normal float64 by the Box-Muller method from two
// Drand draws u, v: sqrt(-2 log u) cos(2 pi v). It is Kokkos's normal().
// Its draws of the state are Kokkos's; the value may differ from the C++
// one in the last place or so, as Go's math.Log and math.Cos are not the C
// library's.
func (g *XorShift64) Normal() float64 {
	u := g.Drand()
	v := g.Drand()
	return boxMuller(u, v)
}

// NormalMeanStd draws a normal float64 of the given mean and standard
// deviation: mean + Normal()*stddev. It is Kokkos's normal(mean, std_dev).
func (g *XorShift64) NormalMeanStd(mean, stddev float64) float64 {
	return mean + float64(g.Normal()*stddev)
}
