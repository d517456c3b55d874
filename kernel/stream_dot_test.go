package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The ordered dot products against the loop s += a[j]*b[j], bit for bit:
// at every length to 80 and some long ones, from every element offset in
// a 32-byte vector, as vectors and as the scalar loop (useAVX2 off), on
// data whose magnitudes spread over 2^±40 (so that any other order of
// the additions rounds differently), with NaNs, infinities, zeros of both
// signs and subnormals mixed in at a rate that leaves most sums finite,
// and on all-negative-zero products from s = -0.
func testDotOrdered[T float32 | float64](t *testing.T, f func(s T, p, q unsafe.Pointer, n int) T) {
	size := int(unsafe.Sizeof(T(0)))
	rng := rand.New(rand.NewPCG(13, uint64(size)))
	gen := func(rare int) T {
		if rng.IntN(rare) == 0 {
			x := special(rng, 1)
			if size == 4 && x == 0x1p-1070 {
				return 0x1p-140
			}
			return T(x)
		}
		return T(math.Ldexp(rng.NormFloat64(), rng.IntN(81)-40))
	}
	lengths := []int{}
	for n := range 81 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1001, 4099)
	defer func(a bool) { useAVX2 = a }(useAVX2)
	var reordered bool
	for _, mode := range []struct {
		name string
		avx2 bool
	}{{"vector", useAVX2}, {"scalar", false}} {
		useAVX2 = mode.avx2
		for _, rare := range []int{1 << 30, 500, 8} {
			for _, n := range lengths {
				for at := range 32 / size {
					a, b := make([]T, n+at), make([]T, n+at)
					for i := range a {
						a[i], b[i] = gen(rare), gen(rare)
					}
					s := gen(rare)
					want := s
					for i := range n {
						want += T(a[at+i] * b[at+i])
					}
					var pa, pb unsafe.Pointer
					if n > 0 {
						pa, pb = unsafe.Pointer(&a[at]), unsafe.Pointer(&b[at])
					}
					if got := f(s, pa, pb, n); !same(got, want) {
						t.Fatalf("%s, specials 1 in %d, over %d from %d: %v, want %v", mode.name, rare, n, at, got, want)
					}
					// Pairwise sums of the same products differ from the
					// loop's somewhere, or the data would not tell.
					if n >= 64 && rare > n {
						h := n / 2
						var x, y T
						for i := range h {
							x += T(a[at+i] * b[at+i])
						}
						for i := h; i < n; i++ {
							y += T(a[at+i] * b[at+i])
						}
						reordered = reordered || !same(s+(x+y), want)
					}
				}
			}
		}
		// Negative zeros: -0 plus the products -0*x stays -0.
		for _, n := range []int{7, 8, 33, 1000} {
			a, b := make([]T, n), make([]T, n)
			for i := range a {
				a[i], b[i] = T(math.Copysign(0, -1)), T(1+rng.Float64())
			}
			neg := T(math.Copysign(0, -1))
			if got := f(neg, unsafe.Pointer(&a[0]), unsafe.Pointer(&b[0]), n); got != 0 || !math.Signbit(float64(got)) {
				t.Fatalf("%s: -0 plus %d products -0: %v (sign bit %v), want -0", mode.name, n, got, math.Signbit(float64(got)))
			}
		}
	}
	if !reordered {
		t.Fatal("no sum whose order changes its bits: the data does not test the order")
	}
}

func TestDotOrdered(t *testing.T) {
	t.Logf("AVX2: %v", useAVX2)
	t.Run("float64", func(t *testing.T) { testDotOrdered(t, DotOrderedFloat64) })
	t.Run("float32", func(t *testing.T) { testDotOrdered(t, DotOrderedFloat32) })
}
