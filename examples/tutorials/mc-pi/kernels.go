package main

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

// xorshift returns state s advanced by one step of XorShift64.
//
//kokkos:kernel
func xorshift(s uint64) uint64 {
	t := s
	t ^= t >> 12
	t ^= t << 25
	t ^= t >> 27
	return t
}

// unit is XorShift64's Drand of state s: its output in [0, 1].
//
//kokkos:kernel
func unit(s uint64) float64 {
	return float64(s*2685821657736338717-1) / maxURand64
}

// indexState is the generator state of index i: splitmix64 of the seed
// and i, never zero.
//
//kokkos:kernel
func indexState(seed uint64, i int) uint64 {
	z := seed + uint64(i)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	if z == 0 {
		z = zeroState
	}
	return z
}

// Darts throws groups darts at the unit square with a generator of its
// own, XorShift64 from indexState(seed, i), and adds to acc those that
// land within rad of the origin, as the tutorial's GenRandom with a
// state per index instead of one from the pool.
//
//kokkos:kernel
func Darts(i int, seed uint64, groups int, rad float64, acc *int64) {
	s := indexState(seed, i)
	for range groups {
		s = xorshift(s)
		x := unit(s)
		s = xorshift(s)
		y := unit(s)
		if x*x+y*y <= rad*rad {
			*acc += 1
		}
	}
}
