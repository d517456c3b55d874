//go:build longtest

package kokkos

import (
	"errors"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// paths16 runs f once on each path that 16-byte atomics take here: the
// CMPXCHG16B path (amd64 without the race detector, on a processor that has
// the instruction) and the lock path, forced for the subtest.
func paths16(t *testing.T, f func(t *testing.T)) {
	t.Run("cx16", func(t *testing.T) {
		if !cx16 {
			t.Skipf("no CMPXCHG16B path on %s (race detector on: %v)", runtime.GOARCH, raceEnabled)
		}
		f(t)
	})
	t.Run("locks", func(t *testing.T) {
		forceLocks16(t)
		f(t)
	})
}

// forceLocks16 makes every 16-byte atomic take the lock path until the test
// ends. No other goroutine may run a 16-byte atomic meanwhile: an element's
// operations must all take one path.
func forceLocks16(t testing.TB) {
	old := cx16
	cx16 = false
	t.Cleanup(func() { cx16 = old })
}

// heap16 returns n complex128 elements on the heap, where Go aligns them to
// 16 bytes (a slice on the stack is only 8-byte aligned).
func heap16(n int) []complex128 {
	v := Must(NewView1[complex128]("heap", n))
	return v.Data()
}

// TestAtomic16Path checks which path the build takes: CMPXCHG16B on amd64
// without the race detector (every amd64 processor Go runs on in practice
// has it), the lock path elsewhere.
func TestAtomic16Path(t *testing.T) {
	want := runtime.GOARCH == "amd64" && !raceEnabled
	if cx16 != want {
		t.Errorf("cx16 = %v on %s with race detector %v, want %v", cx16, runtime.GOARCH, raceEnabled, want)
	}
	if !cx16 {
		return
	}
	// the assembly itself, on an aligned word pair
	w := heap16(2)
	p := unsafe.Pointer(&w[1])
	if uintptr(p)%16 != 0 {
		t.Fatalf("a []complex128 element at %p is not 16-byte aligned", p)
	}
	store16CX(p, 0x0123456789abcdef, 0xfedcba9876543210)
	if lo, hi := load16CX(p); lo != 0x0123456789abcdef || hi != 0xfedcba9876543210 {
		t.Fatalf("load16CX = %#x, %#x", lo, hi)
	}
	if c0, c1, ok := cas16CX(p, 1, 0xfedcba9876543210, 5, 6); ok || c0 != 0x0123456789abcdef || c1 != 0xfedcba9876543210 {
		t.Fatalf("cas16CX with the low word different: swapped %v, found %#x, %#x", ok, c0, c1)
	}
	if _, _, ok := cas16CX(p, 0x0123456789abcdef, 1, 5, 6); ok {
		t.Fatalf("cas16CX swapped with the high word different")
	}
	if c0, c1, ok := cas16CX(p, 0x0123456789abcdef, 0xfedcba9876543210, 5, 6); !ok || c0 != 0x0123456789abcdef || c1 != 0xfedcba9876543210 {
		t.Fatalf("cas16CX of equal words: swapped %v, found %#x, %#x", ok, c0, c1)
	}
	if lo, hi := peek16CX(p); lo != 5 || hi != 6 {
		t.Fatalf("peek16CX = %#x, %#x", lo, hi)
	}
	if lo, hi := load16CX(p); lo != 5 || hi != 6 || w[0] != 0 {
		t.Fatalf("after cas16CX: %#x, %#x, neighbour %v", lo, hi, w[0])
	}
}

// TestAtomic16AddConcurrent adds complex128 values from many goroutines to
// the elements of an Atomic view, through Ref.Add, Ref.Sub and AtomicAdd,
// and checks every sum exactly: the values are multiples of 1/4 small
// enough that every partial sum is exact in any order.
func TestAtomic16AddConcurrent(t *testing.T) {
	paths16(t, func(t *testing.T) {
		const elems, goroutines, per = 5, 8, 4000
		v := Must(NewView1[complex128]("sum", elems, WithTraits(Atomic)))
		plain := Must(v.AsTraits(0))
		rng := rand.New(rand.NewPCG(16, 1))
		vals := make([][]complex128, goroutines)
		var want [elems]complex128
		for g := range vals {
			vals[g] = make([]complex128, per)
			for i := range vals[g] {
				x := complex(float64(rng.IntN(1<<20)-1<<19)/4, float64(rng.IntN(1<<16)+1)/4)
				vals[g][i] = x
				want[(g+i)%elems] += x
			}
		}
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for i, x := range vals[g] {
					e := (g + i) % elems
					switch i % 3 {
					case 0:
						v.Ref(e).Add(x)
					case 1:
						v.Ref(e).Sub(-x)
					default:
						AtomicAdd(plain.Ptr(e), x)
					}
				}
			})
		}
		wg.Wait()
		for e := range elems {
			if got := v.Ref(e).Load(); got != want[e] {
				t.Errorf("element %d = %v, want %v", e, got, want[e])
			}
		}
	})
}

// TestAtomic16UpdateStruct runs Ref.Update from many goroutines on a
// struct{ a, b float64 }: each update moves a up by one and adds the old a
// to b, so that b ends as 0 + 1 + ... + (n-1) only if every update saw both
// halves of one value and no update was lost. It also stores and loads
// [2]float64 elements while others update them, and checks that no load
// sees half of a store.
func TestAtomic16UpdateStruct(t *testing.T) {
	type pair struct{ a, b float64 }
	paths16(t, func(t *testing.T) {
		const goroutines, per = 8, 3000
		v := Must(NewView2[pair]("pairs", 2, 3, WithTraits(Atomic)))
		var wg sync.WaitGroup
		for g := range goroutines {
			wg.Go(func() {
				for i := range per {
					r := v.Ref((g+i)%2, (g*i)%3)
					r.Update(func(o pair) pair { return pair{o.a + 1, o.b + o.a} })
				}
			})
		}
		wg.Wait()
		var total float64
		for i := range 2 {
			for j := range 3 {
				p := v.Ref(i, j).Load()
				if n := p.a; p.b != n*(n-1)/2 {
					t.Errorf("element (%d, %d) = %+v: b is not 0 + 1 + ... + (a-1)", i, j, p)
				}
				total += p.a
			}
		}
		if total != goroutines*per {
			t.Errorf("%v updates counted, want %d", total, goroutines*per)
		}

		w := Must(NewView1[[2]float64]("w", 4, WithTraits(Atomic)))
		for e := range 4 {
			w.Ref(e).Store([2]float64{float64(e), -float64(e)})
		}
		var torn sync.Once
		for g := range goroutines {
			wg.Go(func() {
				for i := range per {
					e := (g + i) % 4
					if g%2 == 0 {
						x := float64(i*goroutines + g)
						w.Ref(e).Store([2]float64{x, -x})
					} else if x := w.Ref(e).Load(); x[1] != -x[0] {
						torn.Do(func() { t.Errorf("element %d loaded as %v: half of one store and half of another", e, x) })
					}
				}
			})
		}
		wg.Wait()
	})
}

// TestAtomic16CompareExchange applies random AtomicCompareExchange,
// AtomicExchange, AtomicStore and AtomicLoad calls to complex128 elements
// and the same steps to a serial model, and compares bit patterns after
// each: values come from a small set with +0, -0 and a NaN, so that the
// expected value matches often, and -0 against +0 must not match while a
// NaN matches itself.
func TestAtomic16CompareExchange(t *testing.T) {
	nan := cmplx.NaN()
	set := []complex128{0, complex(math.Copysign(0, -1), 0), 1 + 2i, -3.5i, nan, complex(1e300, -1e-300), 7}
	bits := func(c complex128) [16]byte { return bitcast[[16]byte](c) }
	paths16(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(16, 2))
		x := heap16(4)
		model := make([]complex128, 4)
		if uintptr(unsafe.Pointer(&x[0]))%16 != 0 {
			t.Fatalf("heap elements at %p", &x[0])
		}
		for step := range 20000 {
			e := rng.IntN(len(x))
			a, b := set[rng.IntN(len(set))], set[rng.IntN(len(set))]
			var got, want complex128
			switch op := rng.IntN(4); op {
			case 0:
				got = AtomicCompareExchange(&x[e], a, b)
				want = model[e]
				if bits(want) == bits(a) {
					model[e] = b
				}
			case 1:
				got, want = AtomicExchange(&x[e], a), model[e]
				model[e] = a
			case 2:
				AtomicStore(&x[e], a)
				model[e] = a
			default:
				got, want = AtomicLoad(&x[e]), model[e]
			}
			if bits(got) != bits(want) || bits(x[e]) != bits(model[e]) {
				t.Fatalf("step %d on element %d: returned %v, element %v; model %v, %v", step, e, got, x[e], want, model[e])
			}
		}
	})
}

// TestAtomic16CompareExchangeConcurrent has goroutines claim the values of a
// counter held in a complex128 (real part: next value, imaginary part: its
// negation) by compare-and-swap loops: every value is claimed once, and no
// swap ever stores over a torn pair.
func TestAtomic16CompareExchangeConcurrent(t *testing.T) {
	paths16(t, func(t *testing.T) {
		const goroutines, per = 6, 2000
		p := &heap16(1)[0]
		claimed := make([]int32, goroutines*per)
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(func() {
				for range per {
					for {
						o := AtomicLoad(p)
						if imag(o) != -real(o) {
							t.Errorf("torn value %v", o)
							return
						}
						n := real(o) + 1
						if AtomicCompareExchange(p, o, complex(n, -n)) == o {
							AtomicAdd(&claimed[int(real(o))], 1)
							break
						}
					}
				}
			})
		}
		wg.Wait()
		for i, n := range claimed {
			if n != 1 {
				t.Fatalf("value %d claimed %d times", i, n)
			}
		}
	})
}

// TestAtomic16ComplexDouble is ported from
// core/unit_test/TestAtomicOperations_complexdouble.hpp (with the checks of
// atomic_op_test in core/unit_test/TestAtomicOperations.hpp): for old
// values i from -5 to 10 and updates 16 - i (Kokkos::complex<double> of a
// real number), each of atomic_op, atomic_fetch_op and atomic_op_fetch of
// add, sub, mul, div and load/store, on three elements of a view, gives
// op(old, update) in the element, the old value from the fetch form and the
// new one from the op-fetch form. The same runs on random complex values,
// and through Ref.
func TestAtomic16ComplexDouble(t *testing.T) {
	type test struct {
		name string
		op   func(o, u complex128) complex128
		// atomic applies the three forms to p0, p1 and p2 and returns
		// the old value from the fetch form and the new one from the
		// op-fetch form.
		atomic func(p0, p1, p2 *complex128, u complex128) (old, new complex128)
	}
	tests := []test{
		{"add", func(o, u complex128) complex128 { return o + u }, func(p0, p1, p2 *complex128, u complex128) (complex128, complex128) {
			AtomicAdd(p0, u)
			return AtomicFetchAdd(p1, u), AtomicAddFetch(p2, u)
		}},
		{"sub", func(o, u complex128) complex128 { return o - u }, func(p0, p1, p2 *complex128, u complex128) (complex128, complex128) {
			AtomicSub(p0, u)
			return AtomicFetchSub(p1, u), AtomicSubFetch(p2, u)
		}},
		{"mul", func(o, u complex128) complex128 { return o * u }, func(p0, p1, p2 *complex128, u complex128) (complex128, complex128) {
			AtomicMul(p0, u)
			return AtomicFetchMul(p1, u), AtomicMulFetch(p2, u)
		}},
		{"div", func(o, u complex128) complex128 { return o / u }, func(p0, p1, p2 *complex128, u complex128) (complex128, complex128) {
			AtomicDiv(p0, u)
			return AtomicFetchDiv(p1, u), AtomicDivFetch(p2, u)
		}},
		{"load/store", func(_, u complex128) complex128 { return u }, func(p0, p1, p2 *complex128, u complex128) (complex128, complex128) {
			old := AtomicLoad(p0)
			AtomicStore(p0, u)
			AtomicStore(p2, u)
			AtomicStore(p1, u)
			return old, u
		}},
	}
	refForms := map[string]func(r Ref[complex128], u complex128) complex128{
		"add": Ref[complex128].Add, "sub": Ref[complex128].Sub, "mul": Ref[complex128].Mul, "div": Ref[complex128].Div,
		"load/store": func(r Ref[complex128], u complex128) complex128 { o := r.Load(); r.Store(u); return o },
	}
	check := func(t *testing.T, tc test, old, update complex128) {
		t.Helper()
		d := Must(NewView1[complex128]("op_data", 3))
		Fill(d, old)
		want := tc.op(old, update)
		gotOld, gotNew := tc.atomic(d.Ptr(0), d.Ptr(1), d.Ptr(2), update)
		for e := range 3 {
			if d.At(e) != want {
				t.Errorf("atomic %s of %v by %v: element %d = %v, want %v", tc.name, old, update, e, d.At(e), want)
			}
		}
		if gotOld != old || gotNew != want {
			t.Errorf("atomic %s of %v by %v: fetch form gave %v, op-fetch form %v; want %v, %v", tc.name, old, update, gotOld, gotNew, old, want)
		}
		a := Must(NewView1[complex128]("ref", 1, WithTraits(Atomic)))
		a.Ref(0).Store(old)
		if o := refForms[tc.name](a.Ref(0), update); o != old || a.Ref(0).Load() != want {
			t.Errorf("Ref %s of %v by %v: returned %v, element %v; want %v, %v", tc.name, old, update, o, a.Ref(0).Load(), old, want)
		}
	}
	paths16(t, func(t *testing.T) {
		const start, end = -5, 11
		for i := start; i < end; i++ {
			old, update := complex(float64(i), 0), complex(float64(end-i-start), 0)
			for _, tc := range tests {
				check(t, tc, old, update)
			}
		}
		rng := rand.New(rand.NewPCG(16, 3))
		random := func() complex128 { return complex(rng.NormFloat64()*100, rng.NormFloat64()*100) }
		for range 200 {
			old, update := random(), random()
			for _, tc := range tests {
				check(t, tc, old, update)
			}
		}
	})
}

// TestAtomic16Views checks the Atomic trait on 16-byte elements: it takes
// complex128, [2]float64, a struct of two float64 and [16]byte on every
// view kind, allocates their elements 16-byte aligned, and still keeps
// plain access out; Min, Max and the bit operations do not fit complex128,
// and a Ref of a read-only view can only Load.
func TestAtomic16Views(t *testing.T) {
	for n := 1; n <= 40; n++ {
		c := Must(NewView1[complex128]("c", n, WithTraits(Atomic)))
		f := Must(NewView2[[2]float64]("f", n, 2, WithTraits(Atomic), LayoutLeft))
		b := Must(NewDynRankView[[16]byte]("b", []int{n, 1, 2}, WithTraits(Atomic)))
		o := Must(NewOffsetView1[struct{ a, b float64 }]("o", Bounds(-n, 0), WithTraits(Atomic)))
		for _, p := range []unsafe.Pointer{unsafe.Pointer(c.Ref(0).p), unsafe.Pointer(f.Ref(0, 0).p), unsafe.Pointer(b.Ref(0, 0, 0).p), unsafe.Pointer(o.Ref(-n).p)} {
			if uintptr(p)%16 != 0 {
				t.Fatalf("%d elements: an Atomic view of 16-byte elements starts at %p, not 16-byte aligned", n, p)
			}
		}
	}
	c := Must(NewView1[complex128]("c", 3, WithTraits(Atomic)))
	c.Ref(2).Store(1 + 1i)
	c.Ref(2).Mul(1i)
	if got := c.Ref(2).Inc(); got != -1+1i || c.Ref(2).Dec() != 1i || c.Ref(2).Load() != -1+1i {
		t.Fatalf("Mul, Inc and Dec of complex128: %v", c.Ref(2).Load())
	}
	rw := Must(NewView1[complex128]("c", 2))
	ro := rw.ReadOnly()
	for _, cs := range []struct {
		f    func()
		want string
	}{
		{func() { c.At(0) }, `of view "c", which has the Atomic trait`},
		{func() { c.Ref(0).Min(1) }, `Min through a Ref of view "c" needs an integer or floating-point element type, not complex128`},
		{func() { c.Ref(0).Xor(1) }, `Xor through a Ref of view "c" needs an integer element type, not complex128`},
		{func() { ro.Ref(0).Add(1) }, `Add through a Ref of read-only view "c"`},
	} {
		if msg := panicMessage(cs.f); !strings.Contains(msg, cs.want) {
			t.Errorf("panic %q, want %q", msg, cs.want)
		}
	}
	if ro.Ref(1).Load() != 0 {
		t.Errorf("Load through a read-only Ref")
	}
	// AsTraits(Atomic) of a plain complex128 view, and the trait refused
	// for 16-byte types holding Go pointers
	x := Must(NewView1[complex128]("x", 2))
	if xa, err := x.AsTraits(Atomic); err != nil {
		t.Fatalf("AsTraits(Atomic) of complex128: %v", err)
	} else if xa.Ref(1).Add(2i); x.At(1) != 2i {
		t.Fatalf("x(1) = %v after Add through the Atomic alias", x.At(1))
	}
	if _, err := NewView1[string]("s", 2, WithTraits(Atomic)); !errors.Is(err, ErrElementType) || !strings.Contains(err.Error(), "string holds Go pointers") {
		t.Errorf("Atomic view of string (16 bytes with a pointer): %v", err)
	}
}

// TestAtomic16Misaligned wraps complex128 elements at an address 8 bytes
// past a multiple of 16, as a slice of a struct can place them: the Atomic
// trait takes them, and they take the lock path, so that concurrent adds
// are exact there too; alignAtomic16 moves such elements to an aligned
// copy.
func TestAtomic16Misaligned(t *testing.T) {
	buf := make([]float64, 2*8+1)
	off := 0
	if uintptr(unsafe.Pointer(&buf[0]))%16 == 0 {
		off = 1
	}
	mis := unsafe.Slice((*complex128)(unsafe.Pointer(&buf[off])), 8)
	if uintptr(unsafe.Pointer(&mis[0]))%16 != 8 {
		t.Fatalf("the test slice starts at %p", &mis[0])
	}
	v := Must(WrapView1(mis, 8, WithLabel("mis"), WithTraits(Atomic)))
	const goroutines, per = 6, 2000
	var want [8]complex128
	for g := range goroutines {
		for i := range per {
			want[(g+i)%8] += complex(0.5, -float64(i%3))
		}
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range per {
				v.Ref((g + i) % 8).Add(complex(0.5, -float64(i%3)))
			}
		})
	}
	wg.Wait()
	for e := range 8 {
		if got := v.Ref(e).Load(); got != want[e] {
			t.Errorf("misaligned element %d = %v, want %v", e, got, want[e])
		}
	}
	p := Must(WrapView1(mis, 8, WithLabel("plain")))
	if old := p.Ref(3).Update(func(c complex128) complex128 { return c * 2 }); p.At(3) != 2*old {
		t.Errorf("Update of a misaligned element without the trait: %v from %v", p.At(3), old)
	}
	a := alignAtomic16(mis)
	if uintptr(unsafe.Pointer(&a[0]))%16 != 0 || len(a) != len(mis) || a[7] != 0 {
		t.Errorf("alignAtomic16 gave %d elements at %p", len(a), &a[0])
	}
	if al := heap16(3); &alignAtomic16(al)[0] != &al[0] {
		t.Errorf("alignAtomic16 copied an aligned slice")
	}
}

// TestAtomic16LockTable checks that the lock table spreads neighbouring
// 16-byte elements over its locks and that every lock sits on a cache line
// of its own.
func TestAtomic16LockTable(t *testing.T) {
	if s := unsafe.Sizeof(lock16{}); s%64 != 0 {
		t.Errorf("a lock of the table takes %d bytes, not whole cache lines", s)
	}
	x := make([]complex128, lockCount)
	used := map[*lock16]bool{}
	for i := range x {
		used[lockOf(unsafe.Pointer(&x[i]))] = true
	}
	if len(used) < lockCount/2 {
		t.Errorf("%d neighbouring elements share %d of %d locks", len(x), len(used), lockCount)
	}
}

// TestAtomic16SpecialValues checks Add, Sub, Mul and Div of complex128
// against Go's operators on signed zeros, infinities and NaNs, through the
// Atomic functions and Ref, on both paths: the bit patterns match, except
// that a NaN result only needs to be a NaN (Go's own + may take either
// operand's NaN).
func TestAtomic16SpecialValues(t *testing.T) {
	negZero := math.Copysign(0, -1)
	inf, nan := math.Inf(1), math.NaN()
	parts := []float64{0, negZero, 1.5, -2, inf, -inf, nan, 1e-310}
	var vals []complex128
	for _, re := range parts {
		for _, im := range parts {
			vals = append(vals, complex(re, im))
		}
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	ops := []struct {
		name string
		go_  func(o, v complex128) complex128
		fn   func(p *complex128, v complex128) complex128
		ref  func(r Ref[complex128], v complex128) complex128
	}{
		{"add", func(o, v complex128) complex128 { return o + v }, AtomicFetchAdd[complex128], Ref[complex128].Add},
		{"sub", func(o, v complex128) complex128 { return o - v }, AtomicFetchSub[complex128], Ref[complex128].Sub},
		{"mul", func(o, v complex128) complex128 { return o * v }, AtomicFetchMul[complex128], Ref[complex128].Mul},
		{"div", func(o, v complex128) complex128 { return o / v }, AtomicFetchDiv[complex128], Ref[complex128].Div},
	}
	paths16(t, func(t *testing.T) {
		x := heap16(1)
		a := Must(NewView1[complex128]("a", 1, WithTraits(Atomic)))
		for _, op := range ops {
			for _, o := range vals {
				for _, v := range vals {
					want := op.go_(o, v)
					x[0] = o
					a.Ref(0).Store(o)
					old, rold := op.fn(&x[0], v), op.ref(a.Ref(0), v)
					got, rgot := x[0], a.Ref(0).Load()
					if !same(real(got), real(want)) || !same(imag(got), imag(want)) || !same(real(rgot), real(want)) || !same(imag(rgot), imag(want)) ||
						bitcast[[16]byte](old) != bitcast[[16]byte](o) || bitcast[[16]byte](rold) != bitcast[[16]byte](o) {
						t.Fatalf("%s of %v by %v: Atomic function %v (returned %v), Ref %v (returned %v); want %v", op.name, o, v, got, old, rgot, rold, want)
					}
				}
			}
		}
	})
}

// TestAtomicComplexFunctions checks the Atomic functions on complex64 and on
// named complex types against Go's operators on random values: the forms
// that the widened constraint admits for complex numbers.
func TestAtomicComplexFunctions(t *testing.T) {
	type phasor complex128
	type small complex64
	rng := rand.New(rand.NewPCG(16, 4))
	for range 100 {
		a := complex(float64(rng.IntN(200)-100)/8, float64(rng.IntN(200)-100)/8)
		b := complex(float64(rng.IntN(200)-100)/8+0.5, float64(rng.IntN(200)-100)/8)
		p := phasor(a)
		if o := AtomicFetchMul(&p, phasor(b)); o != phasor(a) || p != phasor(a*b) {
			t.Fatalf("AtomicFetchMul of phasor %v by %v: %v, returned %v", a, b, p, o)
		}
		if n := AtomicDivFetch(&p, phasor(b)); n != p || p != phasor(a*b/b) {
			t.Fatalf("AtomicDivFetch of phasor: %v", p)
		}
		s := small(complex64(a))
		if o := AtomicExchange(&s, small(complex64(b))); o != small(complex64(a)) || s != small(complex64(b)) {
			t.Fatalf("AtomicExchange of complex64: %v, returned %v", s, o)
		}
		if AtomicSubFetch(&s, small(complex64(a))) != small(complex64(b)-complex64(a)) || AtomicLoad(&s) != small(complex64(b)-complex64(a)) {
			t.Fatalf("AtomicSubFetch of complex64: %v", s)
		}
		if got := AtomicCompareExchange(&s, 0, 1); got == 0 && s != 1 || got != 0 && s != got {
			t.Fatalf("AtomicCompareExchange of complex64: %v, returned %v", s, got)
		}
		if AtomicAddFetch(&s, 2i) != s || AtomicFetchDiv(&s, 2) != 2*s {
			t.Fatalf("AtomicAddFetch, AtomicFetchDiv of complex64: %v", s)
		}
	}
}

// TestAtomicAnySize checks elements of sizes without a machine atomic (3,
// 12, 24 and 40 bytes): concurrent Updates of an Atomic view lose nothing
// and tear nothing, and Store, Load and the compare-and-swap agree with a
// serial model, as desul's lock-based atomics for such types
// (tpls/desul/include/desul/atomics/Lock_Based_Fetch_Op.hpp).
func TestAtomicAnySize(t *testing.T) {
	type rgb [3]byte
	type vec3 struct{ X, Y, Z float64 }
	type five [5]float64
	rng := rand.New(rand.NewPCG(3, 35))
	v := Must(NewView1[vec3]("V", 4, WithTraits(Atomic)))
	c := Must(NewView1[rgb]("C", 7, WithTraits(Atomic)))
	f := Must(NewView1[five]("F", 3, WithTraits(Atomic)))
	q := Must(NewView1[[3]float32]("Q", 5, WithTraits(Atomic)))
	const n = 4000
	ParallelFor("upd", Range(0, n).WithChunk(1), func(i int) {
		v.Ref(i % 4).Update(func(o vec3) vec3 { return vec3{o.X + 1, o.Y + 2, o.Z + 3} })
		c.Ref(i % 7).Update(func(o rgb) rgb { return rgb{o[0] + 1, o[1] + 2, o[2] + 3} })
		f.Ref(i % 3).Update(func(o five) five {
			for k := range o {
				o[k] += float64(k)
			}
			return o
		})
	})
	for i := range 4 {
		if got, want := v.Ref(i).Load(), (vec3{n / 4, 2 * n / 4, 3 * n / 4}); got != want {
			t.Errorf("vec3 %d: %v, want %v", i, got, want)
		}
	}
	for i := range 7 {
		k := n / 7
		if i < n%7 {
			k++
		}
		if got, want := c.Ref(i).Load(), (rgb{byte(k), byte(2 * k), byte(3 * k)}); got != want {
			t.Errorf("rgb %d: %v, want %v", i, got, want)
		}
	}
	for i := range 3 {
		m := float64(n / 3)
		if i < n%3 {
			m++
		}
		got := f.Ref(i).Load()
		for k := range got {
			if got[k] != m*float64(k) {
				t.Errorf("five %d[%d]: %v, want %v", i, k, got[k], m*float64(k))
			}
		}
	}
	// Store, Load and the compare-and-swap against a serial model.
	model := make([][3]float32, 5)
	for range 2000 {
		i := rng.IntN(5)
		x := [3]float32{rng.Float32(), rng.Float32(), float32(rng.IntN(3))}
		switch rng.IntN(3) {
		case 0:
			q.Ref(i).Store(x)
			model[i] = x
		case 1:
			old := q.Ref(i).Update(func(o [3]float32) [3]float32 { return [3]float32{o[1], o[0], o[2] + x[2]} })
			if old != model[i] {
				t.Fatalf("Update returned %v, model %v", old, model[i])
			}
			model[i] = [3]float32{model[i][1], model[i][0], model[i][2] + x[2]}
		default:
			guess := model[i]
			if rng.IntN(2) == 0 {
				guess = x
			}
			ok := casLocked(q.Ref(i).p, guess, x)
			if ok != (guess == model[i]) {
				t.Fatalf("compare-and-swap of %v on %v: %v", guess, model[i], ok)
			}
			if ok {
				model[i] = x
			}
		}
		if got := q.Ref(i).Load(); got != model[i] {
			t.Fatalf("element %d: %v, model %v", i, got, model[i])
		}
	}
	// Add on a type it does not fit still panics, pointing to Update.
	if msg := panicMessage(func() { v.Ref(0).Add(vec3{}) }); !strings.Contains(msg, "Update takes any function") {
		t.Errorf("Add on a struct: %q", msg)
	}
}
