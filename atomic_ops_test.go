package kokkos

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// An atomicCase is one update op in its three forms, with a sequential
// reference: ref(o, v) is the value an element holding o holds after the
// update with v. Shift ops take v as their count; Inc and Dec ignore v.
type atomicCase[T Number] struct {
	name    string
	plain   func(*T, T)
	fetch   func(*T, T) T
	opFetch func(*T, T) T
	refm    func(r Ref[T], v T) T // the Ref method, returning the old value
	ref     func(o, v T) T
}

// numberCases returns the ops every Number type has.
func numberCases[T Number]() []atomicCase[T] {
	return []atomicCase[T]{
		{"Add", AtomicAdd[T], AtomicFetchAdd[T], AtomicAddFetch[T], Ref[T].Add, func(o, v T) T { return o + v }},
		{"Sub", AtomicSub[T], AtomicFetchSub[T], AtomicSubFetch[T], Ref[T].Sub, func(o, v T) T { return o - v }},
		{"Mul", AtomicMul[T], AtomicFetchMul[T], AtomicMulFetch[T], Ref[T].Mul, func(o, v T) T { return o * v }},
		{"Div", AtomicDiv[T], AtomicFetchDiv[T], AtomicDivFetch[T], Ref[T].Div, func(o, v T) T { return o / v }},
		{"Min", AtomicMin[T], AtomicFetchMin[T], AtomicMinFetch[T], Ref[T].Min, func(o, v T) T {
			if o < v {
				return o
			}
			return v
		}},
		{"Max", AtomicMax[T], AtomicFetchMax[T], AtomicMaxFetch[T], Ref[T].Max, func(o, v T) T {
			if o > v {
				return o
			}
			return v
		}},
		{"Inc", func(p *T, _ T) { AtomicInc(p) }, func(p *T, _ T) T { return AtomicFetchInc(p) },
			func(p *T, _ T) T { return AtomicIncFetch(p) }, func(r Ref[T], _ T) T { return r.Inc() }, func(o, _ T) T { return o + 1 }},
		{"Dec", func(p *T, _ T) { AtomicDec(p) }, func(p *T, _ T) T { return AtomicFetchDec(p) },
			func(p *T, _ T) T { return AtomicDecFetch(p) }, func(r Ref[T], _ T) T { return r.Dec() }, func(o, _ T) T { return o - 1 }},
		{"Store", AtomicStore[T], AtomicExchange[T], func(p *T, v T) T { AtomicStore(p, v); return AtomicLoad(p) },
			func(r Ref[T], v T) T { o := r.Load(); r.Store(v); return o }, func(_, v T) T { return v }},
	}
}

// integerCases returns numberCases and the integer-only ops.
func integerCases[T Integer]() []atomicCase[T] {
	return append(numberCases[T](), []atomicCase[T]{
		{"Mod", AtomicMod[T], AtomicFetchMod[T], AtomicModFetch[T], Ref[T].Mod, func(o, v T) T { return o % v }},
		{"And", AtomicAnd[T], AtomicFetchAnd[T], AtomicAndFetch[T], Ref[T].And, func(o, v T) T { return o & v }},
		{"Or", AtomicOr[T], AtomicFetchOr[T], AtomicOrFetch[T], Ref[T].Or, func(o, v T) T { return o | v }},
		{"Xor", AtomicXor[T], AtomicFetchXor[T], AtomicXorFetch[T], Ref[T].Xor, func(o, v T) T { return o ^ v }},
		{"Nand", AtomicNand[T], AtomicFetchNand[T], AtomicNandFetch[T], Ref[T].Nand, func(o, v T) T { return ^(o & v) }},
		{"Lshift", func(p *T, v T) { AtomicLshift(p, uint(v)) }, func(p *T, v T) T { return AtomicFetchLshift(p, uint(v)) },
			func(p *T, v T) T { return AtomicLshiftFetch(p, uint(v)) }, func(r Ref[T], v T) T { return r.Lshift(uint(v)) },
			func(o, v T) T { return o << uint(v) }},
		{"Rshift", func(p *T, v T) { AtomicRshift(p, uint(v)) }, func(p *T, v T) T { return AtomicFetchRshift(p, uint(v)) },
			func(p *T, v T) T { return AtomicRshiftFetch(p, uint(v)) }, func(r Ref[T], v T) T { return r.Rshift(uint(v)) },
			func(o, v T) T { return o >> uint(v) }},
	}...)
}

// TestAtomicOpsReference runs every op in every form, and as a Ref method,
// on every integer and floating-point type, on random old values and
// operands (with infinities, NaNs and signed zeros for floats, and shift
// counts up to 70), in each slot of a small array so that 1- and 2-byte
// elements sit at every offset of their word, against the sequential
// reference; the neighbours must keep their values.
func TestAtomicOpsReference(t *testing.T) {
	testOpsReference(t, integerCases[int](), randInt[int])
	testOpsReference(t, integerCases[int8](), randInt[int8])
	testOpsReference(t, integerCases[int16](), randInt[int16])
	testOpsReference(t, integerCases[int32](), randInt[int32])
	testOpsReference(t, integerCases[int64](), randInt[int64])
	testOpsReference(t, integerCases[uint](), randInt[uint])
	testOpsReference(t, integerCases[uint8](), randInt[uint8])
	testOpsReference(t, integerCases[uint16](), randInt[uint16])
	testOpsReference(t, integerCases[uint32](), randInt[uint32])
	testOpsReference(t, integerCases[uint64](), randInt[uint64])
	testOpsReference(t, integerCases[uintptr](), randInt[uintptr])
	testOpsReference(t, numberCases[float32](), randFloat[float32])
	testOpsReference(t, numberCases[float64](), randFloat[float64])
}

// randInt returns a random T: small values (where shifts, Mod and Div do
// something visible) and full-width ones.
func randInt[T Integer](rng *rand.Rand) T {
	switch rng.IntN(3) {
	case 0:
		return T(rng.IntN(71))
	case 1:
		return T(rng.IntN(41)) - 20
	}
	return T(rng.Uint64())
}

// randFloat returns a random T, special values included.
func randFloat[T Float](rng *rand.Rand) T {
	switch rng.IntN(10) {
	case 0:
		return T(math.NaN())
	case 1:
		return T(math.Inf(1 - 2*rng.IntN(2)))
	case 2:
		return T(math.Copysign(0, float64(1-2*rng.IntN(2))))
	case 3:
		return T(rng.IntN(21) - 10)
	}
	return T(rng.NormFloat64() * 100)
}

func testOpsReference[T Number](t *testing.T, cases []atomicCase[T], random func(*rand.Rand) T) {
	rng := rand.New(rand.NewPCG(uint64(unsafe.Sizeof(T(0))), 41))
	const slots = 5
	v := Must(NewView1[T](fmt.Sprintf("%T", T(0)), slots, WithTraits(Atomic)))
	same := func(a, b T) bool { return bitsOf(a) == bitsOf(b) }
	for _, c := range cases {
		for range 200 {
			var a [slots]T
			for k := range a {
				a[k] = random(rng)
			}
			x, o := random(rng), random(rng)
			if c.name == "Lshift" || c.name == "Rshift" {
				x = T(rng.IntN(71))
			}
			k := rng.IntN(slots)
			a[k] = o
			if !isFloat[T]() && x == 0 && (c.name == "Div" || c.name == "Mod") {
				before := a
				msg := panicMessage(func() { c.fetch(&a[k], x) })
				if !strings.Contains(msg, "by an integer zero") || a != before {
					t.Fatalf("%T %s by 0: panic %q, array %v, want %v", o, c.name, msg, a, before)
				}
				continue
			}
			want := c.ref(o, x)
			check := func(form string, got, wantRet T, arr [slots]T) {
				t.Helper()
				for j := range arr {
					w := a[j]
					if j == k {
						w = want
					}
					if !same(arr[j], w) {
						t.Fatalf("%T %s (%s) of %v with %v at %d: array %v, want %v at %d", o, c.name, form, o, x, k, arr, w, j)
					}
				}
				if !same(got, wantRet) {
					t.Fatalf("%T %s (%s) of %v with %v: returned %v, want %v", o, c.name, form, o, x, got, wantRet)
				}
			}
			b := a
			c.plain(&b[k], x)
			check("plain", want, want, b)
			b = a
			check("fetch", c.fetch(&b[k], x), o, b)
			b = a
			check("op fetch", c.opFetch(&b[k], x), want, b)
			for j := range a {
				v.Ref(j).Store(a[j])
			}
			old := c.refm(v.Ref(k), x)
			for j := range b {
				b[j] = v.Ref(j).Load()
			}
			check("Ref", old, o, b)
		}
	}
}

// TestAtomicOpsConcurrent updates neighbouring elements of every type from
// many goroutines at once, each op on its own element, and checks the exact
// results: counts for Inc, Dec and the Fetch forms' returns, the set bits
// of Or, And and Xor, the extremes of Min and Max, powers of two for Mul
// and Div, and a shift that moves one bit per update.
func TestAtomicOpsConcurrent(t *testing.T) {
	testOpsConcurrent[int8](t)
	testOpsConcurrent[uint8](t)
	testOpsConcurrent[int16](t)
	testOpsConcurrent[uint16](t)
	testOpsConcurrent[int32](t)
	testOpsConcurrent[uint32](t)
	testOpsConcurrent[int64](t)
	testOpsConcurrent[uint64](t)
	testOpsConcurrent[int](t)
	testOpsConcurrent[uintptr](t)
	testFloatConcurrent[float32](t)
	testFloatConcurrent[float64](t)
}

func testOpsConcurrent[T Integer](t *testing.T) {
	const g, n = 8, 7 // goroutines, updates each; 8 bits are enough for every op
	var e [10]T
	e[2] = ^T(0)
	e[5] = 1 << 6 // Div by 2 (6 times) leaves 1; Mul by 2 from 1 reaches 1<<6
	e[6] = 1
	one := T(1)
	e[8] = one << 6
	var fetched [g * n]bool
	var wg sync.WaitGroup
	for w := range g {
		wg.Go(func() {
			for i := range n {
				u := w*n + i
				AtomicInc(&e[0])
				fetched[AtomicFetchInc(&e[9])] = true
				AtomicOr(&e[1], T(1)<<(u%8))
				AtomicAndFetch(&e[2], ^(T(1) << (u % 8)))
				AtomicXor(&e[3], 1)
				AtomicMax(&e[4], T(u))
				if u < 6 {
					AtomicDiv(&e[5], 2)
					AtomicMulFetch(&e[6], 2)
					AtomicRshift(&e[8], 1)
				}
				AtomicDecFetch(&e[7])
			}
		})
	}
	wg.Wait()
	var low T // the low 8 bits (all bits of an 8-bit T)
	for b := range 8 {
		low |= one << b
	}
	want := [10]T{g * n, low, ^low, 0, g*n - 1, 1, 1 << 6, -T(g * n), 1, g * n}
	if e != want {
		t.Errorf("%T: %v, want %v", e[0], e, want)
	}
	for u, ok := range fetched {
		if !ok {
			t.Errorf("%T: AtomicFetchInc never returned %d", e[0], u)
		}
	}
}

func testFloatConcurrent[T Float](t *testing.T) {
	const g, n = 8, 1000
	var e [4]T
	e[1] = 1
	e[3] = T(math.Inf(1))
	var wg sync.WaitGroup
	for w := range g {
		wg.Go(func() {
			for i := range n {
				AtomicAddFetch(&e[0], 0.5)
				if i%100 == 0 {
					AtomicMul(&e[1], 2)
				}
				AtomicDec(&e[2])
				AtomicMin(&e[3], T(w*n+i))
			}
		})
	}
	wg.Wait()
	if want := [4]T{g * n / 2, T(math.Ldexp(1, g*n/100)), -g * n, 0}; e != want {
		t.Errorf("%T: %v, want %v", e[0], e, want)
	}
}

// TestRefOpsConcurrent updates four neighbouring 1-byte elements of an
// Atomic view, one word, through Ref's new methods from many goroutines at
// once: the counts of Inc and Dec, the bits of Nand and the product of Mul
// must be exact.
func TestRefOpsConcurrent(t *testing.T) {
	v := Must(NewView1[uint8]("bytes", 4, WithTraits(Atomic)))
	v.Ref(2).Store(0xff)
	v.Ref(3).Store(1)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := range 25 {
				v.Ref(0).Inc()
				v.Ref(1).Dec()
				v.Ref(2).Nand(0xff) // flips every bit: 200 flips leave 0xff
				if i == 0 {
					v.Ref(3).Mul(2)
				}
			}
		})
	}
	wg.Wait()
	if got := [4]uint8{v.Ref(0).Load(), v.Ref(1).Load(), v.Ref(2).Load(), v.Ref(3).Load()}; got != [4]uint8{200, 56, 0xff, 0} {
		t.Errorf("%v, want [200 56 255 0]", got)
	}
}
