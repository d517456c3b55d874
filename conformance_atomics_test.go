package kokkos_test

import (
	"testing"

	"github.com/gokkos/kokkos"
)

// An atomicForms is one op of TestAtomicOperations.hpp: its three forms on
// three elements holding old, and the value op(old, update) Kokkos expects.
type atomicForms[T kokkos.Number] struct {
	name string
	run  func(op, fetchOp, opFetch *T, update T) (oldVal, newVal T)
	op   func(old, update T) T
}

func numberForms[T kokkos.Number]() []atomicForms[T] {
	return []atomicForms[T]{
		{"add", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicAdd(a, u)
			return kokkos.AtomicFetchAdd(b, u), kokkos.AtomicAddFetch(c, u)
		}, func(o, u T) T { return o + u }},
		{"sub", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicSub(a, u)
			return kokkos.AtomicFetchSub(b, u), kokkos.AtomicSubFetch(c, u)
		}, func(o, u T) T { return o - u }},
		{"max", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicMax(a, u)
			return kokkos.AtomicFetchMax(b, u), kokkos.AtomicMaxFetch(c, u)
		}, func(o, u T) T { return max(o, u) }},
		{"min", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicMin(a, u)
			return kokkos.AtomicFetchMin(b, u), kokkos.AtomicMinFetch(c, u)
		}, func(o, u T) T { return min(o, u) }},
		{"mul", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicMul(a, u)
			return kokkos.AtomicFetchMul(b, u), kokkos.AtomicMulFetch(c, u)
		}, func(o, u T) T { return o * u }},
		{"div", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicDiv(a, u)
			return kokkos.AtomicFetchDiv(b, u), kokkos.AtomicDivFetch(c, u)
		}, func(o, u T) T { return o / u }},
		{"load/store", func(a, b, c *T, u T) (T, T) {
			o := kokkos.AtomicLoad(a)
			kokkos.AtomicStore(a, u)
			kokkos.AtomicStore(b, u)
			kokkos.AtomicStore(c, u)
			return o, u
		}, func(_, u T) T { return u }},
	}
}

func integerForms[T kokkos.Integer]() []atomicForms[T] {
	return append(numberForms[T](), []atomicForms[T]{
		{"mod", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicMod(a, u)
			return kokkos.AtomicFetchMod(b, u), kokkos.AtomicModFetch(c, u)
		}, func(o, u T) T { return o % u }},
		{"and", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicAnd(a, u)
			return kokkos.AtomicFetchAnd(b, u), kokkos.AtomicAndFetch(c, u)
		}, func(o, u T) T { return o & u }},
		{"or", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicOr(a, u)
			return kokkos.AtomicFetchOr(b, u), kokkos.AtomicOrFetch(c, u)
		}, func(o, u T) T { return o | u }},
		{"xor", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicXor(a, u)
			return kokkos.AtomicFetchXor(b, u), kokkos.AtomicXorFetch(c, u)
		}, func(o, u T) T { return o ^ u }},
		{"nand", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicNand(a, u)
			return kokkos.AtomicFetchNand(b, u), kokkos.AtomicNandFetch(c, u)
		}, func(o, u T) T { return ^(o & u) }},
		{"lshift", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicLshift(a, uint(u))
			return kokkos.AtomicFetchLshift(b, uint(u)), kokkos.AtomicLshiftFetch(c, uint(u))
		}, func(o, u T) T { return o << uint(u) }},
		{"rshift", func(a, b, c *T, u T) (T, T) {
			kokkos.AtomicRshift(a, uint(u))
			return kokkos.AtomicFetchRshift(b, uint(u)), kokkos.AtomicRshiftFetch(c, uint(u))
		}, func(o, u T) T { return o >> uint(u) }},
		{"inc", func(a, b, c *T, _ T) (T, T) {
			kokkos.AtomicInc(a)
			return kokkos.AtomicFetchInc(b), kokkos.AtomicIncFetch(c)
		}, func(o, _ T) T { return o + 1 }},
		{"dec", func(a, b, c *T, _ T) (T, T) {
			kokkos.AtomicDec(a)
			return kokkos.AtomicFetchDec(b), kokkos.AtomicDecFetch(c)
		}, func(o, _ T) T { return o - 1 }},
	}...)
}

// runAtomicForms is atomic_op_test: for old in [start, end) and update
// end-old+start, each form on its own element of a View<T[3]>, run in a
// one-index ParallelFor, must leave op(old, update), and the fetch and
// op-fetch forms return old and op(old, update). Div and mod skip a zero
// update; shifts skip a negative update (and lshift a negative old), as
// Kokkos's test does, since C++ leaves those undefined.
func runAtomicForms[T kokkos.Number](t *testing.T, forms []atomicForms[T], start, end int) {
	t.Helper()
	data := kokkos.Must(kokkos.NewView1[T]("op_data", 3))
	for i := start; i < end; i++ {
		old, update := T(i), T(end-i+start)
		for _, f := range forms {
			switch f.name {
			case "div", "mod":
				if update == 0 {
					continue
				}
			case "lshift":
				if end-i+start < 0 || i < 0 {
					continue
				}
			case "rshift":
				if end-i+start < 0 {
					continue
				}
			}
			kokkos.Fill(data, old)
			var gotOld, gotNew T
			kokkos.ParallelFor("atomic_op", kokkos.Range(0, 1), func(int) {
				gotOld, gotNew = f.run(data.Ptr(0), data.Ptr(1), data.Ptr(2), update)
			})
			want := f.op(old, update)
			if data.At(0) != want || data.At(1) != want || data.At(2) != want || gotOld != old || gotNew != want {
				t.Errorf("%T %s of %v with %v: elements %v %v %v, returned %v %v; want %v, returned %v %v",
					old, f.name, old, update, data.At(0), data.At(1), data.At(2), gotOld, gotNew, want, old, want)
			}
		}
	}
}

// Kokkos: core/unit_test/TestAtomicOperations_int.hpp, atomic_operations_int.
func TestConformanceAtomicsOperationsInt(t *testing.T) {
	runAtomicForms(t, integerForms[int32](), -5, 11)
}

// Kokkos: core/unit_test/TestAtomicOperations_longint.hpp, atomic_operations_long.
func TestConformanceAtomicsOperationsLongInt(t *testing.T) {
	runAtomicForms(t, integerForms[int64](), -5, 11)
	runAtomicForms(t, integerForms[int](), -5, 11)
}

// Kokkos: core/unit_test/TestAtomicOperations_unsignedint.hpp,
// atomic_operations_unsigned (without desul's inc_mod and dec_mod, which
// gokkos does not have).
func TestConformanceAtomicsOperationsUnsignedInt(t *testing.T) {
	runAtomicForms(t, integerForms[uint32](), 0, 11)
}

// Kokkos: core/unit_test/TestAtomicOperations_unsignedlongint.hpp,
// atomic_operations_unsignedlong.
func TestConformanceAtomicsOperationsUnsignedLongInt(t *testing.T) {
	runAtomicForms(t, integerForms[uint64](), 0, 11)
	runAtomicForms(t, integerForms[uint](), 0, 11)
}

// Kokkos: core/unit_test/TestAtomicOperations_double.hpp, atomic_operations_double.
func TestConformanceAtomicsOperationsDouble(t *testing.T) {
	runAtomicForms(t, numberForms[float64](), -5, 11)
}

// Kokkos: core/unit_test/TestAtomicOperations_float.hpp, atomic_operations_float.
func TestConformanceAtomicsOperationsFloat(t *testing.T) {
	runAtomicForms(t, numberForms[float32](), -5, 11)
}

// Kokkos: core/unit_test/TestAtomicViews.hpp, PlusEqualAtomicViewTest and
// MinusEqualAtomicViewTest: the even and odd indices of 0..n-1 added to
// (subtracted from) two elements of an Atomic view.
func TestConformanceAtomicsViewPlusMinusEqual(t *testing.T) {
	const n = 1000003
	for _, sign := range []int64{1, -1} {
		r := kokkos.Must(kokkos.NewView1[int64]("even_odd_result", 2, kokkos.WithTraits(kokkos.Atomic)))
		kokkos.ParallelFor("plus_equal", kokkos.Range(0, n), func(i int) {
			if sign > 0 {
				r.Ref(i % 2).Add(int64(i))
			} else {
				r.Ref(i % 2).Sub(int64(i))
			}
		})
		var even, odd int64
		for i := range int64(n) {
			if i%2 == 0 {
				even += sign * i
			} else {
				odd += sign * i
			}
		}
		if r.Ref(0).Load() != even || r.Ref(1).Load() != odd {
			t.Errorf("sign %d: %d %d, want %d %d", sign, r.Ref(0).Load(), r.Ref(1).Load(), even, odd)
		}
	}
}

// Kokkos: core/unit_test/TestAtomicViews.hpp, TimesEqualAtomicViewTest and
// DivEqualAtomicViewTest: an Atomic scalar multiplied (divided) by the
// inputs 1 and 2 (2 at every 24th index) of indices 1..n-1.
func TestConformanceAtomicsViewTimesDivEqual(t *testing.T) {
	const n, remainder = 100000, 23
	input := func(i int) float64 {
		if i%(remainder+1) == remainder {
			return 2
		}
		return 1
	}
	times := kokkos.Must(kokkos.NewView0[float64]("result_view", kokkos.WithTraits(kokkos.Atomic)))
	div := kokkos.Must(kokkos.NewView0[float64]("result_view", kokkos.WithTraits(kokkos.Atomic)))
	times.Ref().Store(1)
	div.Ref().Store(12121212121)
	kokkos.ParallelFor("times_equal", kokkos.Range(1, n), func(i int) {
		times.Ref().Mul(input(i))
		div.Ref().Div(3 - input(i)) // Kokkos's check divides by 1 where the input is 2
	})
	wantT, wantD := 1.0, 12121212121.0
	for i := 2; i < n; i++ {
		wantT *= input(i)
		wantD /= 3 - input(i)
	}
	if times.Ref().Load() != wantT || div.Ref().Load() != wantD {
		t.Errorf("times %v, div %v; want %v, %v", times.Ref().Load(), div.Ref().Load(), wantT, wantD)
	}
}

// Kokkos: core/unit_test/TestAtomicViews.hpp, ModEqualAtomicViewTest,
// RSEqualAtomicViewTest, LSEqualAtomicViewTest, AndEqual, OrEqual and
// XOrEqualAtomicViewTest: integer updates of Atomic elements from a
// parallel loop against the sequential result.
func TestConformanceAtomicsViewIntegerEqual(t *testing.T) {
	const n, remainder = 100000, 23
	v := kokkos.Must(kokkos.NewView1[int64]("result_view", 6, kokkos.WithTraits(kokkos.Atomic)))
	init := []int64{12121212121, 1 << 50, 1, 0, 0, 0}
	for k, x := range init {
		v.Ref(k).Store(x)
	}
	shift := func(i int) bool { return i%(remainder+1) == remainder }
	kokkos.ParallelFor("integer_equal", kokkos.Range(0, n), func(i int) {
		if i > 0 && shift(i) {
			v.Ref(0).Mod(23 << (i % 5))
			v.Ref(1).Rshift(1)
			v.Ref(2).Lshift(1)
		}
		v.Ref(3).Or(int64(i) & 0xff)
		v.Ref(4).Xor(int64(i))
		v.Ref(5).Nand(0) // ^(x & 0) is -1 every time
	})
	want := append([]int64(nil), init...)
	for i := range n {
		if i > 0 && shift(i) {
			want[1] >>= 1
			want[2] <<= 1
		}
		want[3] |= int64(i) & 0xff
		want[4] ^= int64(i)
	}
	want[5] = -1
	// each divisor 23<<k divides the larger ones, so the Mods give x % 23
	// in any order
	want[0] = 12121212121 % 23
	for k := range want {
		if got := v.Ref(k).Load(); got != want[k] {
			t.Errorf("element %d: %d, want %d", k, got, want[k])
		}
	}
}
