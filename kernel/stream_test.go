package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The helpers of stream.go, and the maps of simd.go, against the loops
// they stand for, element by element: on random data with NaNs,
// infinities, zeros of both signs, subnormals and huge values mixed in,
// at every length to 67 and a long one, from every element offset in a
// 32-byte vector, as vectors, as vectors with non-temporal stores
// (streamBytes 0), and as the scalar loop (useAVX2 off); in place, and
// onto a source shifted by one either way (the loop's order then).

// streamCase is one helper: f as the generator calls it (s ignored where
// it takes none) and the loop's element c[j] from its old value and the
// sources' elements.
type streamCase[T number] struct {
	name string
	f    func(dst, p, q unsafe.Pointer, s T, n int)
	elem func(c, a, b, s T) T
}

func streamCases[T number](add, sub, mul func(dst, p, q unsafe.Pointer, n int), scale, triad, nstream func(dst, p, q unsafe.Pointer, s T, n int)) []streamCase[T] {
	cs := []streamCase[T]{
		{"copy", func(dst, p, _ unsafe.Pointer, _ T, n int) { Copy[T](dst, p, n) }, func(_, a, _, _ T) T { return a }},
		{"add", func(dst, p, q unsafe.Pointer, _ T, n int) { add(dst, p, q, n) }, func(_, a, b, _ T) T { return a + b }},
		{"sub", func(dst, p, q unsafe.Pointer, _ T, n int) { sub(dst, p, q, n) }, func(_, a, b, _ T) T { return a - b }},
		{"mul", func(dst, p, q unsafe.Pointer, _ T, n int) { mul(dst, p, q, n) }, func(_, a, b, _ T) T { return T(a * b) }},
	}
	if scale != nil {
		cs = append(cs,
			streamCase[T]{"scale", scale, func(_, a, _, s T) T { return T(s * a) }},
			streamCase[T]{"triad", triad, func(_, a, b, s T) T { return a + T(s*b) }},
			streamCase[T]{"nstream", nstream, func(c, a, b, s T) T { return c + (a + T(s*b)) }})
	}
	return cs
}

// same reports whether x and y have the same bits, or are both NaN (Go
// leaves which NaN an operation on two NaNs gives unspecified).
func same[T number](x, y T) bool {
	switch v := any(x).(type) {
	case float64:
		w := any(y).(float64)
		return math.Float64bits(v) == math.Float64bits(w) || v != v && w != w
	case float32:
		w := any(y).(float32)
		return math.Float32bits(v) == math.Float32bits(w) || v != v && w != w
	}
	return x == y
}

func testStream[T number](t *testing.T, gen func(*rand.Rand) T, cases []streamCase[T]) {
	size := int(unsafe.Sizeof(T(0)))
	rng := rand.New(rand.NewPCG(11, uint64(size)))
	lengths := []int{}
	for n := range 68 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1001)
	modes := []struct {
		name   string
		avx2   bool
		stream int
	}{{"vector", useAVX2, math.MaxInt}, {"stream", useAVX2, 0}, {"scalar", false, math.MaxInt}}
	defer func(a bool, s int) { useAVX2, streamBytes = a, s }(useAVX2, streamBytes)
	for _, mode := range modes {
		useAVX2, streamBytes = mode.avx2, mode.stream
		for _, c := range cases {
			for _, n := range lengths {
				for at := range 32 / size {
					buf := func() []T {
						x := make([]T, n+32/size+2)
						for i := range x {
							x[i] = gen(rng)
						}
						return x
					}
					a, b, dst := buf(), buf(), buf()
					s := gen(rng)
					// Into a separate destination, at an offset of its
					// own, and in place (dst = a).
					for _, dat := range []int{at, (at + 1) % (32 / size)} {
						want := append([]T(nil), dst...)
						for i := range n {
							want[dat+i] = c.elem(dst[dat+i], a[at+i], b[at+i], s)
						}
						got := append([]T(nil), dst...)
						c.f(unsafe.Pointer(&got[dat]), unsafe.Pointer(&a[at]), unsafe.Pointer(&b[at]), s, n)
						check(t, mode.name, c.name, n, at, "", got, want)
					}
					// Onto a shifted by -1, 0, +1: the loop's order.
					for _, shift := range []int{0, 1, -1} {
						if n == 0 || at+shift < 0 {
							continue
						}
						want := append([]T(nil), a...)
						for i := range n {
							want[at+shift+i] = c.elem(want[at+shift+i], want[at+i], b[at+i], s)
						}
						got := append([]T(nil), a...)
						c.f(unsafe.Pointer(&got[at+shift]), unsafe.Pointer(&got[at]), unsafe.Pointer(&b[at]), s, n)
						check(t, mode.name, c.name, n, at, fmt.Sprintf(" onto a shifted by %d", shift), got, want)
					}
				}
			}
		}
	}
}

func check[T number](t *testing.T, mode, name string, n, at int, how string, got, want []T) {
	t.Helper()
	for i := range got {
		if !same(got[i], want[i]) {
			t.Fatalf("%s %s over %d from %d%s: [%d] = %v, want %v", mode, name, n, at, how, i, got[i], want[i])
		}
	}
}

// special mixes values that round, overflow and propagate NaNs into
// random data.
func special(r *rand.Rand, x float64) float64 {
	switch r.IntN(16) {
	case 0:
		return math.NaN()
	case 1:
		return math.Inf(1)
	case 2:
		return math.Inf(-1)
	case 3:
		return math.Copysign(0, -1)
	case 4:
		return 0
	case 5:
		return 0x1p-1070 // subnormal
	case 6:
		return 0x1.fffffffffffffp1023
	}
	return x
}

func TestStreamHelpers(t *testing.T) {
	t.Logf("AVX2: %v", useAVX2)
	t.Run("float64", func(t *testing.T) {
		testStream(t, func(r *rand.Rand) float64 { return special(r, r.NormFloat64()*1e3) },
			streamCases[float64](AddFloat64, SubFloat64, MulFloat64, scaleFloat64q, TriadFloat64, NstreamFloat64))
	})
	t.Run("float32", func(t *testing.T) {
		testStream(t, func(r *rand.Rand) float32 {
			x := special(r, r.NormFloat64()*1e3)
			if x == 0x1p-1070 {
				return 0x1p-140
			}
			return float32(x)
		}, streamCases[float32](AddFloat32, SubFloat32, MulFloat32, scaleFloat32q, TriadFloat32, NstreamFloat32))
	})
	t.Run("int32", func(t *testing.T) {
		testStream(t, func(r *rand.Rand) int32 { return int32(r.Uint32()) }, streamCases[int32](AddInt32, SubInt32, MulInt32, nil, nil, nil))
	})
	t.Run("int64", func(t *testing.T) {
		testStream(t, func(r *rand.Rand) int64 { return int64(r.Uint64()) }, streamCases[int64](AddInt64, SubInt64, MulInt64, nil, nil, nil))
	})
}

// scaleFloat64q and scaleFloat32q are the scales in the form of the other
// cases (q unused).
func scaleFloat64q(dst, p, _ unsafe.Pointer, s float64, n int) { ScaleFloat64(dst, p, s, n) }
func scaleFloat32q(dst, p, _ unsafe.Pointer, s float32, n int) { ScaleFloat32(dst, p, s, n) }
