package random

import "math"

// The conversions of a uint64 draw to floating point below round as Go's
// (and C++'s) float64(x) and float32(x) do, to nearest, ties to even, but
// without a branch: the compiler's own conversion of a uint64 tests the
// top bit and jumps, a jump that a draw takes half of the time at random.
// A float64 is the sum of the exact conversions of the two halves; a
// float32 (whose 24 bits would round the high half) converts a draw of the
// top bit set halved, keeping its lowest bit as a sticky bit so that it
// rounds as the full value would (the signed conversion then sees 63
// bits, more than a float32's 24), and the result doubled back, exactly,
// by the scale.

// halve returns x unchanged below 2^63 and x/2 with its lowest bit kept
// (sticky) above, as an int64 that converts exactly as x rounds, and t,
// the top bit of x: the signed conversion of the result times 2^t is the
// rounded x.
func halve(x uint64) (int64, uint64) {
	t := x >> 63
	return int64(x>>t | x&t), t
}

// drand64 is float64(x) / 2^64, Kokkos's drand() of the draw x, rounded
// the same: its high and low 32 bits convert exactly, their scalings by
// 2^-32 and 2^-64 are exact, and the sum of the two rounds once, as x
// does (fewer instructions than halve).
func drand64(x uint64) float64 {
	return float64(x>>32)*0x1p-32 + float64(uint32(x))*0x1p-64
}

// frand32 is float32(x) / 2^64 in float32, Kokkos's frand() of the draw x.
func frand32(x uint64) float32 {
	z, t := halve(x)
	return float32(z) * math.Float32frombits(0x1f800000+uint32(t)<<23)
}

// u64ToF64 is float64(x), as drand64 computes it.
func u64ToF64(x uint64) float64 {
	return float64(x>>32)*0x1p32 + float64(uint32(x))
}

// u64ToF32 is float32(x).
func u64ToF32(x uint64) float32 {
	z, t := halve(x)
	return float32(z) * math.Float32frombits(0x3f800000+uint32(t)<<23)
}
