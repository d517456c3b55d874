package kernel

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The helpers of simd.go against the loops they stand for, on random data
// at every length to 70 and a long one, from unaligned starts: integers
// and maps exactly, float sums within 2 n u Σ|terms| (u the unit
// roundoff); maps whose destination overlaps a source.

type simdHelpers[T number] struct {
	sum           func(T, unsafe.Pointer, int) T
	dot           func(T, unsafe.Pointer, unsafe.Pointer, int) T
	add, sub, mul func(unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, int)
	gen           func(*rand.Rand) T
	u             float64 // the unit roundoff, 0 for integers
}

func testSIMD[T number](t *testing.T, h simdHelpers[T]) {
	rng := rand.New(rand.NewPCG(7, uint64(unsafe.Sizeof(T(0)))))
	lengths := []int{}
	for n := range 71 {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1000)
	for _, n := range lengths {
		for _, at := range []int{0, 1, 3} {
			a, b, c := make([]T, n+at+1), make([]T, n+at+1), make([]T, n+at+1)
			for i := range a {
				a[i], b[i], c[i] = h.gen(rng), h.gen(rng), h.gen(rng)
			}
			pa, pb := unsafe.Pointer(&a[at]), unsafe.Pointer(&b[at])
			s0 := h.gen(rng)
			sum, dot := s0, s0
			sumAbs, dotAbs := math.Abs(float64(s0)), math.Abs(float64(s0))
			for i := at; i < at+n; i++ {
				sum += a[i]
				dot += T(a[i] * b[i])
				sumAbs += math.Abs(float64(a[i]))
				dotAbs += math.Abs(float64(T(a[i] * b[i])))
			}
			near := func(what string, got, want T, abs float64) {
				t.Helper()
				if h.u == 0 && got != want || h.u != 0 && math.Abs(float64(got)-float64(want)) > 2*float64(n+1)*h.u*abs {
					t.Errorf("%s over %d from %d = %v, want %v", what, n, at, got, want)
				}
			}
			near("sum", h.sum(s0, pa, n), sum, sumAbs)
			near("dot", h.dot(s0, pa, pb, n), dot, dotAbs)
			for _, m := range []struct {
				name string
				f    func(unsafe.Pointer, unsafe.Pointer, unsafe.Pointer, int)
				op   func(x, y T) T
			}{
				{"add", h.add, func(x, y T) T { return x + y }},
				{"sub", h.sub, func(x, y T) T { return x - y }},
				{"mul", h.mul, func(x, y T) T { return T(x * y) }},
			} {
				want := append([]T(nil), c...)
				for i := at; i < at+n; i++ {
					want[i] = m.op(a[i], b[i])
				}
				got := append([]T(nil), c...)
				m.f(unsafe.Pointer(&got[at]), pa, pb, n)
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s over %d from %d: [%d] = %v, want %v", m.name, n, at, i, got[i], want[i])
					}
				}
				// In place, and onto a source shifted by one either way:
				// the loop's results, in its order.
				for _, shift := range []int{0, 1, -1} {
					if n == 0 || at+shift < 0 || at+shift+n > len(a) {
						continue
					}
					want := append([]T(nil), a...)
					for i := at; i < at+n; i++ {
						want[i+shift] = m.op(want[i], b[i])
					}
					got := append([]T(nil), a...)
					m.f(unsafe.Pointer(&got[at+shift]), unsafe.Pointer(&got[at]), pb, n)
					for i := range got {
						if got[i] != want[i] {
							t.Fatalf("%s over %d from %d, onto a shifted by %d: [%d] = %v, want %v", m.name, n, at, shift, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

func TestSIMDHelpers(t *testing.T) {
	t.Logf("vector forms: %v", SIMD)
	t.Run("float64", func(t *testing.T) {
		testSIMD(t, simdHelpers[float64]{SumFloat64, DotFloat64, AddFloat64, SubFloat64, MulFloat64,
			func(r *rand.Rand) float64 { return r.Float64()*2 - 1 }, 0x1p-53})
	})
	t.Run("float32", func(t *testing.T) {
		testSIMD(t, simdHelpers[float32]{SumFloat32, DotFloat32, AddFloat32, SubFloat32, MulFloat32,
			func(r *rand.Rand) float32 { return r.Float32()*2 - 1 }, 0x1p-24})
	})
	t.Run("int32", func(t *testing.T) {
		testSIMD(t, simdHelpers[int32]{SumInt32, DotInt32, AddInt32, SubInt32, MulInt32,
			func(r *rand.Rand) int32 { return int32(r.Uint32()) }, 0})
	})
	t.Run("int64", func(t *testing.T) {
		testSIMD(t, simdHelpers[int64]{SumInt64, DotInt64, AddInt64, SubInt64, MulInt64,
			func(r *rand.Rand) int64 { return int64(r.Uint64()) }, 0})
	})
}
