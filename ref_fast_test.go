package kokkos

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// refStep is one Inc, Dec or Add through a Ref, and the same update on a
// plain value, for TestRefIncDecAdd.
type refStep[T Number] struct {
	name string
	ref  func(r Ref[T], x T) T
	ref0 func(old, x T) T
}

func refSteps[T Number]() []refStep[T] {
	return []refStep[T]{
		{"Inc", func(r Ref[T], _ T) T { return r.Inc() }, func(o, _ T) T { return o + 1 }},
		{"Dec", func(r Ref[T], _ T) T { return r.Dec() }, func(o, _ T) T { return o - 1 }},
		{"Add", func(r Ref[T], x T) T { return r.Add(x) }, func(o, x T) T { return o + x }},
	}
}

// checkRefSteps applies random Inc, Dec and Add updates to random elements
// of a view of random values, through Ref, and the same updates to a plain
// slice, and compares the old values returned and the final elements.
func checkRefSteps[T Number](t *testing.T, name string, gen func(*rand.Rand) T, opts ...Option) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, uint64(len(name))))
	const n = 37
	v := Must(NewView1[T](name, n, opts...))
	want := make([]T, n)
	for i := range want {
		want[i] = gen(rng)
		v.Ref(i).Store(want[i])
	}
	steps := refSteps[T]()
	for range 2000 {
		i, s, x := rng.IntN(n), steps[rng.IntN(len(steps))], gen(rng)
		if old := s.ref(v.Ref(i), x); old != want[i] {
			t.Fatalf("%s: %s at %d returned %v, want %v", name, s.name, i, old, want[i])
		}
		want[i] = s.ref0(want[i], x)
	}
	for i := range want {
		if got := v.Ref(i).Load(); got != want[i] {
			t.Fatalf("%s: element %d = %v, want %v", name, i, got, want[i])
		}
	}
}

// TestRefIncDecAdd checks Inc, Dec and Add through Ref against a plain loop
// on random values: 8-byte integers, whose cases the methods write out
// (near the extremes too, where they wrap), and the types that go through
// the helpers of each size.
func TestRefIncDecAdd(t *testing.T) {
	checkRefSteps(t, "i64", func(r *rand.Rand) int64 { return int64(r.Uint64()) }, WithTraits(Atomic))
	checkRefSteps(t, "i64plain", func(r *rand.Rand) int64 { return r.Int64N(100) - 50 })
	checkRefSteps(t, "u64", func(r *rand.Rand) uint64 { return r.Uint64() }, WithTraits(Atomic))
	checkRefSteps(t, "int", func(r *rand.Rand) int { return int(r.Uint64()) })
	checkRefSteps(t, "uintptr", func(r *rand.Rand) uintptr { return uintptr(r.Uint64()) }, WithTraits(Atomic))
	checkRefSteps(t, "i32", func(r *rand.Rand) int32 { return int32(r.Uint32()) }, WithTraits(Atomic))
	checkRefSteps(t, "u16", func(r *rand.Rand) uint16 { return uint16(r.Uint32()) }, WithTraits(Atomic))
	checkRefSteps(t, "f64", func(r *rand.Rand) float64 { return float64(r.IntN(1000)) / 8 }, WithTraits(Atomic))
	checkRefSteps(t, "f32", func(r *rand.Rand) float32 { return float32(r.IntN(1000)) / 8 })

	// concurrent updates of few elements lose none
	v := Must(NewView1[int64]("C", 3, WithTraits(Atomic)))
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for k := range 1000 {
				v.Ref(k % 3).Inc()
				v.Ref((k + g) % 3).Add(int64(g))
				v.Ref(k % 3).Dec()
			}
		})
	}
	wg.Wait()
	sum := v.Ref(0).Load() + v.Ref(1).Load() + v.Ref(2).Load()
	if sum != 1000*(0+1+2+3) {
		t.Fatalf("concurrent updates: sum %d, want %d", sum, 1000*6)
	}
}

// TestRefIncDecAddChecks checks that the decoding of the flags at the
// start of every Ref method (ready) keeps every check: a read-only view,
// the zero Ref, a misaligned 8-byte element and an element type that is
// not a number each panic with the operation and the view's label.
func TestRefIncDecAddChecks(t *testing.T) {
	ro := Must(NewView1[int64]("RO", 4, WithTraits(Atomic))).ReadOnly()
	u := Must(NewView1[uint64]("U", 4)).ReadOnly()
	var zero Ref[int64]
	buf := make([]byte, 8*5+1)
	misaligned := unsafe.Slice((*int64)(unsafe.Pointer(&buf[1])), 5)
	w := Must(WrapView1(misaligned, 4, WithLabel("w")))
	pr := Must(NewView1[[2]int32]("P", 2))
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { ro.Ref(1).Inc() }, `Inc through a Ref of read-only view "RO"`},
		{func() { ro.Ref(1).Dec() }, `Dec through a Ref of read-only view "RO"`},
		{func() { ro.Ref(1).Add(3) }, `Add through a Ref of read-only view "RO"`},
		{func() { u.Ref(3).Inc() }, `Inc through a Ref of read-only view "U"`},
		{func() { zero.Inc() }, `Inc through the zero Ref`},
		{func() { zero.Dec() }, `Dec through the zero Ref`},
		{func() { zero.Add(1) }, `Add through the zero Ref`},
		{func() { w.Ref(2).Inc() }, `Inc through a Ref of view "w": the 8-byte element at`},
		{func() { w.Ref(2).Add(1) }, `Add through a Ref of view "w": the 8-byte element at`},
		{func() { w.Ref(0).Dec() }, `Dec through a Ref of view "w": the 8-byte element at`},
		{func() { pr.Ref(1).Inc() }, `Inc through a Ref of view "P" needs an integer, floating-point or complex element type, not [2]int32`},
		{func() { ro.Ref(4) }, `out of bounds for view "RO" with extents (4)`},
	} {
		if msg := panicMessage(c.f); !strings.Contains(msg, c.want) {
			t.Errorf("panic %q, want %q", msg, c.want)
		}
	}
	// Every other update, through the same decoding.
	for _, c := range []struct {
		op string
		f  func(Ref[int64])
	}{
		{"Store", func(r Ref[int64]) { r.Store(5) }},
		{"Update", func(r Ref[int64]) { r.Update(func(o int64) int64 { return o + 5 }) }},
		{"Sub", func(r Ref[int64]) { r.Sub(5) }},
		{"Mul", func(r Ref[int64]) { r.Mul(5) }},
		{"Div", func(r Ref[int64]) { r.Div(5) }},
		{"Mod", func(r Ref[int64]) { r.Mod(5) }},
		{"Min", func(r Ref[int64]) { r.Min(-5) }},
		{"Max", func(r Ref[int64]) { r.Max(5) }},
		{"And", func(r Ref[int64]) { r.And(5) }},
		{"Or", func(r Ref[int64]) { r.Or(5) }},
		{"Xor", func(r Ref[int64]) { r.Xor(5) }},
		{"Nand", func(r Ref[int64]) { r.Nand(5) }},
		{"Lshift", func(r Ref[int64]) { r.Lshift(5) }},
		{"Rshift", func(r Ref[int64]) { r.Rshift(5) }},
	} {
		for _, d := range []struct {
			r    Ref[int64]
			want string
		}{
			{ro.Ref(1), ` through a Ref of read-only view "RO"`},
			{zero, ` through the zero Ref`},
			{w.Ref(2), ` through a Ref of view "w": the 8-byte element at`},
		} {
			if msg := panicMessage(func() { c.f(d.r) }); !strings.Contains(msg, c.op+d.want) {
				t.Errorf("panic %q, want %q", msg, c.op+d.want)
			}
		}
	}
	if ro.Ref(1).Load() != 0 || misaligned[2] != 0 {
		t.Fatal("a refused update changed the element")
	}
}
