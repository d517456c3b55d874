package main

// maxURand64 is Kokkos's MAX_URAND64 as a float64 (2^64).
const maxURand64 = 18446744073709551615.0

// zeroState replaces a zero seed or state, as Kokkos does: xorshift
// never leaves zero.
const zeroState = 1318319

// NewXorShift64 returns the generator of the given state (zeroState for
// 0), as Kokkos's Random_XorShift64 constructor.
func NewXorShift64(state uint64) XorShift64 {
	if state == 0 {
		state = zeroState
	}
	return XorShift64{state}
}

// PoolStates returns the n states of a Random_XorShift64_Pool initialized
// with seed, as Kokkos's init makes them: a generator of the seed skips 17
// outputs, then each state takes the low 16 bits of four more rand
// outputs.
func PoolStates(seed uint64, n int) []uint64 {
	if seed == 0 {
		seed = zeroState
	}
	g := NewXorShift64(seed)
	rand := func() uint64 {
		g = g.Next()
		return uint64(g.Rand())
	}
	for range 17 {
		rand()
	}
	s := make([]uint64, n)
	for i := range s {
		n1, n2, n3, n4 := rand(), rand(), rand(), rand()
		s[i] = n1&0xffff | (n2&0xffff)<<16 | (n3&0xffff)<<32 | (n4&0xffff)<<48
	}
	return s
}
