package random

import (
	"math/rand/v2"
	"testing"
)

// TestConvert checks the branch-free conversions against Go's float64(x)
// and float32(x), which round to nearest, ties to even, on random draws
// and on the values around the roundings' edges.
func TestConvert(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	xs := []uint64{0, 1, 2, 1<<53 - 1, 1 << 53, 1<<53 + 1, 1<<63 - 1, 1 << 63, 1<<63 + 1, 1<<64 - 1, 1<<64 - 2}
	for _, b := range []uint{24, 25, 53, 54, 62, 63, 64} {
		// Halfway and next to halfway between representable values.
		for _, k := range []uint{1, 2, 3} {
			if b >= k {
				base := uint64(1)<<(b-1) | uint64(1)<<(b-1-min(b-1, 24))
				xs = append(xs, base, base+1, base-1, base|uint64(1)<<(b-k-1))
			}
		}
	}
	for range 200000 {
		x := r.Uint64()
		xs = append(xs, x, x>>r.IntN(64), x|1<<63, x&^(1<<11-1)|1<<10, x&^(1<<40-1)|1<<39)
	}
	for _, x := range xs {
		if got, want := u64ToF64(x), float64(x); got != want {
			t.Fatalf("u64ToF64(%#x) = %v, want %v", x, got, want)
		}
		if got, want := u64ToF32(x), float32(x); got != want {
			t.Fatalf("u64ToF32(%#x) = %v, want %v", x, got, want)
		}
		if got, want := drand64(x), float64(x)/maxUrand64F; got != want {
			t.Fatalf("drand64(%#x) = %v, want %v", x, got, want)
		}
		if got, want := frand32(x), float32(x)/maxUrand64F32; got != want {
			t.Fatalf("frand32(%#x) = %v, want %v", x, got, want)
		}
	}
}
