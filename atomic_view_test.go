//go:build longtest

package kokkos

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// TestAtomicViewUpdates runs concurrent read-modify-write updates on view
// elements through Ref, on views with the Atomic trait and without it,
// under ParallelFor on the pool, and checks them against serial counts.
func TestAtomicViewUpdates(t *testing.T) {
	pool := NewThreads(4)
	defer pool.Close()
	counts := Must(NewView1[int64]("counts", 2, WithTraits(Atomic)))
	ParallelFor("increment", Range(0, 100000).On(pool).WithChunk(7), func(i int) {
		counts.Ref(i % 2).Add(1)
	})
	if counts.Ref(0).Load() != 50000 || counts.Ref(1).Load() != 50000 {
		t.Fatalf("counts = %d, %d; want 50000 each", counts.Ref(0).Load(), counts.Ref(1).Load())
	}

	// a histogram of random values with float64 atomics, against a serial
	// count, on a view with the trait and one without
	rng := rand.New(rand.NewPCG(31, 32))
	vals := make([]float64, 20000)
	for i := range vals {
		vals[i] = rng.Float64()
	}
	var ref [2][5]float64
	for i, x := range vals {
		ref[i%2][int(x*5)]++
	}
	for _, traits := range []Trait{Atomic, 0} {
		hist := Must(NewView2[float64]("hist", 2, 5, WithTraits(traits)))
		ParallelFor("hist", Range(0, len(vals)).On(pool), func(i int) {
			b := int(vals[i] * 5)
			hist.Ref(i%2, b).Add(1)
			hist.Ref(i%2, b).Max(0) // a no-op max keeps the count
		})
		for r := range 2 {
			for b := range 5 {
				if got := hist.Ref(r, b).Load(); got != ref[r][b] {
					t.Fatalf("traits %v: hist(%d, %d) = %v, want %v", traits, r, b, got, ref[r][b])
				}
			}
		}
	}

	// Store from many goroutines stores whole values
	last := Must(NewView1[float64]("last", 1, WithTraits(Atomic)))
	ParallelFor("store", Range(0, 10000).On(pool), func(i int) { last.Ref(0).Store(float64(i) + 0.5) })
	if x := last.Ref(0).Load(); x < 0 || x >= 10000 || x-0.5 != float64(int(x)) {
		t.Fatalf("torn value %v", x)
	}
}

// TestAtomicLostIncrements ports the Kokkos idiom v(0) += 1 on an Atomic
// view. Written as *v.Ptr(0) += 1 it lost increments (199,924 of 200,000 were
// seen); Ptr now panics on such a view, naming Ref, and the port through
// Ref keeps every increment. Set(At(0)+1), which lost more, panics too.
func TestAtomicLostIncrements(t *testing.T) {
	const n = 200000
	av := Must(NewView1[int64]("AV", 1, WithTraits(Atomic)))
	for _, c := range []struct {
		name string
		body func(int)
		want []string
	}{
		{"*Ptr += 1", func(int) { *av.Ptr(0) += 1 }, []string{`Ptr(0) of view "AV"`, "Atomic trait", "use Ref(0)"}},
		{"Set(At+1)", func(int) { av.Set(0, av.At(0)+1) }, []string{`At(0) of view "AV"`, "Atomic trait", "Ref(0).Load()"}},
	} {
		msg := panicMessage(func() { ParallelFor("inc", Range(0, n).WithChunk(1), c.body) })
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: panic %q, want it to contain %q", c.name, msg, w)
			}
		}
	}
	ParallelFor("inc", Range(0, n).WithChunk(1), func(int) { av.Ref(0).Add(1) })
	if got := av.Ref(0).Load(); got != n {
		t.Fatalf("after %d concurrent Ref(0).Add(1): %d", n, got)
	}
}

// TestAtomicRefAddConcurrent adds random values from many goroutines to the
// elements of Atomic views of every size and kind of number, neighbours of
// 1- and 2-byte elements included, and compares with serial sums in the
// same type (integers wrap; the float values are multiples of 1/4 small
// enough for every partial sum to be exact).
func TestAtomicRefAddConcurrent(t *testing.T) {
	testRefAdd[int8](t, func(r *rand.Rand) int8 { return int8(r.IntN(255) - 127) })
	testRefAdd[uint8](t, func(r *rand.Rand) uint8 { return uint8(1 + r.IntN(255)) })
	testRefAdd[int16](t, func(r *rand.Rand) int16 { return int16(r.IntN(65535) - 32767) })
	testRefAdd[uint16](t, func(r *rand.Rand) uint16 { return uint16(1 + r.IntN(65535)) })
	testRefAdd[int32](t, func(r *rand.Rand) int32 { return int32(r.Uint32()) | 1 })
	testRefAdd[uint32](t, func(r *rand.Rand) uint32 { return r.Uint32() | 1 })
	testRefAdd[int64](t, func(r *rand.Rand) int64 { return int64(r.Uint64()) | 1 })
	testRefAdd[uint64](t, func(r *rand.Rand) uint64 { return r.Uint64() | 1 })
	testRefAdd[int](t, func(r *rand.Rand) int { return int(r.Uint64()) | 1 })
	testRefAdd[float32](t, func(r *rand.Rand) float32 { return float32(r.IntN(400)-200) / 4 })
	testRefAdd[float64](t, func(r *rand.Rand) float64 { return float64(r.IntN(1<<20)-1<<19) / 4 })
	type celsius float64
	testRefAdd[celsius](t, func(r *rand.Rand) celsius { return celsius(r.IntN(400)+1) / 4 })
}

func testRefAdd[T Number](t *testing.T, random func(*rand.Rand) T) {
	t.Helper()
	const elems, goroutines, per = 7, 8, 3000
	v := Must(NewView1[T]("sum", elems, WithTraits(Atomic)))
	vals := make([][]T, goroutines)
	var want [elems]T
	rng := rand.New(rand.NewPCG(uint64(unsafe.Sizeof(want[0])), 5))
	for g := range vals {
		vals[g] = make([]T, per)
		for i := range vals[g] {
			vals[g][i] = random(rng)
			want[(g+i)%elems] += vals[g][i]
		}
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i, x := range vals[g] {
				if i%2 == 0 {
					v.Ref((g + i) % elems).Add(x)
				} else {
					v.Ref((g + i) % elems).Sub(-x)
				}
			}
		})
	}
	wg.Wait()
	for e := range elems {
		if got := v.Ref(e).Load(); got != want[e] {
			t.Errorf("%T: element %d = %v, want %v", want[0], e, got, want[e])
		}
	}
}

// TestAtomicRefUpdateConcurrent runs compare-and-swap loops from many
// goroutines on elements that are not numbers: an 8-byte struct whose two
// halves must move together, and a 2-byte array, and checks that no update
// was lost or torn.
func TestAtomicRefUpdateConcurrent(t *testing.T) {
	type pair struct{ Lo, Hi int32 }
	type bytes2 [2]uint8
	const goroutines, per = 8, 4000
	p := Must(NewView1[pair]("pair", 3, WithTraits(Atomic)))
	b := Must(NewView1[bytes2]("bytes", 5, WithTraits(Atomic)))
	rng := rand.New(rand.NewPCG(7, 8))
	steps := make([][]int32, goroutines)
	var want [3]pair
	var wantB [5]bytes2
	for g := range steps {
		steps[g] = make([]int32, per)
		for i := range steps[g] {
			k := int32(1 + rng.IntN(1000))
			steps[g][i] = k
			e := &want[(g+i)%3]
			e.Lo += k
			e.Hi -= 3 * k
			f := &wantB[(g*7+i)%5]
			f[0] += uint8(k)
			f[1] ^= uint8(k)
		}
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i, k := range steps[g] {
				old := p.Ref((g + i) % 3).Update(func(o pair) pair { return pair{o.Lo + k, o.Hi - 3*k} })
				if old.Hi != -3*old.Lo {
					t.Errorf("torn pair %+v", old)
					return
				}
				b.Ref((g*7 + i) % 5).Update(func(o bytes2) bytes2 { return bytes2{o[0] + uint8(k), o[1] ^ uint8(k)} })
			}
		})
	}
	wg.Wait()
	for e := range want {
		if got := p.Ref(e).Load(); got != want[e] {
			t.Errorf("pair %d = %+v, want %+v", e, got, want[e])
		}
	}
	for e := range wantB {
		if got := b.Ref(e).Load(); got != wantB[e] {
			t.Errorf("bytes %d = %v, want %v", e, got, wantB[e])
		}
	}
}

// TestAtomicRefMinMaxBits runs Min, Max, And, Or and Xor from many
// goroutines on random values of several sizes and kinds, against the
// serial result, and checks the old values the methods return.
func TestAtomicRefMinMaxBits(t *testing.T) {
	testRefMinMax[int8](t, func(r *rand.Rand) int8 { return int8(r.Uint32()) })
	testRefMinMax[uint16](t, func(r *rand.Rand) uint16 { return uint16(r.Uint32()) })
	testRefMinMax[int32](t, func(r *rand.Rand) int32 { return int32(r.Uint32()) })
	testRefMinMax[int64](t, func(r *rand.Rand) int64 { return int64(r.Uint64()) })
	testRefMinMax[uint64](t, func(r *rand.Rand) uint64 { return r.Uint64() })
	testRefMinMax[float32](t, func(r *rand.Rand) float32 { return float32(r.NormFloat64()) })
	testRefMinMax[float64](t, func(r *rand.Rand) float64 { return r.NormFloat64() * 1e6 })
	testRefBits[uint8](t, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) })
	testRefBits[int16](t, func(r *rand.Rand) int16 { return int16(r.Uint32()) })
	testRefBits[uint32](t, func(r *rand.Rand) uint32 { return r.Uint32() })
	testRefBits[int64](t, func(r *rand.Rand) int64 { return int64(r.Uint64()) })

	// each method returns the old value
	v := Must(NewView1[int32]("ops", 1, WithTraits(Atomic)))
	r := v.Ref(0)
	r.Store(12)
	check := func(op string, old, wantOld, wantNow int32) {
		t.Helper()
		if old != wantOld || r.Load() != wantNow {
			t.Errorf("%s returned %d, holds %d; want %d, %d", op, old, r.Load(), wantOld, wantNow)
		}
	}
	check("Add", r.Add(5), 12, 17)
	check("Sub", r.Sub(3), 17, 14)
	check("Min", r.Min(9), 14, 9)
	check("Min", r.Min(11), 9, 9)
	check("Max", r.Max(30), 9, 30)
	check("And", r.And(0x1c), 30, 28)
	check("Or", r.Or(3), 28, 31)
	check("Xor", r.Xor(5), 31, 26)
	check("Update", r.Update(func(o int32) int32 { return o * 2 }), 26, 52)
}

func testRefMinMax[T Number](t *testing.T, random func(*rand.Rand) T) {
	t.Helper()
	const goroutines, per = 6, 2000
	v := Must(NewView1[T]("mm", 2, WithTraits(Atomic)))
	rng := rand.New(rand.NewPCG(uint64(unsafe.Sizeof(*new(T))), 11))
	vals := make([][]T, goroutines)
	lo, hi := random(rng), random(rng)
	v.Ref(0).Store(lo)
	v.Ref(1).Store(hi)
	for g := range vals {
		vals[g] = make([]T, per)
		for i := range vals[g] {
			x := random(rng)
			vals[g][i] = x
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for _, x := range vals[g] {
				if old := v.Ref(0).Min(x); old < lo {
					t.Errorf("%T Min returned %v below the minimum %v", x, old, lo)
				}
				v.Ref(1).Max(x)
			}
		})
	}
	wg.Wait()
	if v.Ref(0).Load() != lo || v.Ref(1).Load() != hi {
		t.Errorf("%T: min %v max %v, want %v %v", lo, v.Ref(0).Load(), v.Ref(1).Load(), lo, hi)
	}
}

func testRefBits[T Integer](t *testing.T, random func(*rand.Rand) T) {
	t.Helper()
	const goroutines, per = 6, 2000
	v := Must(NewView1[T]("bits", 3, WithTraits(Atomic)))
	rng := rand.New(rand.NewPCG(uint64(unsafe.Sizeof(*new(T))), 13))
	bits := 8 * int(unsafe.Sizeof(*new(T)))
	a, o, x := ^T(0), random(rng), random(rng)
	o &= random(rng) // a few bits set
	v.Ref(0).Store(a)
	v.Ref(1).Store(o)
	v.Ref(2).Store(x)
	vals := make([][][3]T, goroutines)
	for g := range vals {
		vals[g] = make([][3]T, per)
		for i := range vals[g] {
			// And and Or change one random bit once in a while, so
			// that neither saturates before the end; Xor flips many
			m := [3]T{^T(0), 0, random(rng)}
			if rng.IntN(per) < 2 {
				m[0] = ^(T(1) << rng.IntN(bits))
				m[1] = T(1) << rng.IntN(bits)
			}
			vals[g][i] = m
			a &= m[0]
			o |= m[1]
			x ^= m[2]
		}
	}
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for _, m := range vals[g] {
				v.Ref(0).And(m[0])
				v.Ref(1).Or(m[1])
				v.Ref(2).Xor(m[2])
			}
		})
	}
	wg.Wait()
	if v.Ref(0).Load() != a || v.Ref(1).Load() != o || v.Ref(2).Load() != x {
		t.Errorf("%T: and %v or %v xor %v, want %v %v %v", a, v.Ref(0).Load(), v.Ref(1).Load(), v.Ref(2).Load(), a, o, x)
	}
}

// TestAtomicViewLoadStoreRace has one goroutine store while another loads
// the same element of an Atomic view, the access the race detector flagged
// when At was a plain load; run it with -race.
func TestAtomicViewLoadStoreRace(t *testing.T) {
	av := Must(NewView1[int64]("AV", 1, WithTraits(Atomic)))
	o := Must(NewOffsetView1[float32]("O", Bounds(-1, 1), WithTraits(Atomic)))
	d := Must(NewDynRankView[uint16]("D", []int{2, 2}, WithTraits(Atomic)))
	var wg sync.WaitGroup
	var seen [2]int64
	for g := range 2 {
		wg.Go(func() {
			for i := range 10000 {
				if g == 0 {
					av.Ref(0).Store(int64(i))
					o.Ref(-1).Store(float32(i))
					d.Ref2(1, 0).Store(uint16(i))
					d.Ref(1, 1).Store(uint16(i))
				} else {
					seen[g] = max(seen[g], av.Ref(0).Load()+int64(o.Ref(-1).Load())+int64(d.Ref2(1, 0).Load())+int64(d.Ref(1, 1).Load()))
				}
			}
		})
	}
	wg.Wait()
	if seen[1] < 0 || seen[1] > 4*9999 {
		t.Fatalf("loaded %d", seen[1])
	}
}

// TestAtomicViewPanics checks that every plain access to a view with the
// Atomic trait panics, naming the view and Ref, for the three view kinds,
// their subviews and the conversions between them, and that Ref works on
// each.
func TestAtomicViewPanics(t *testing.T) {
	v := Must(NewView2[float64]("A2", 3, 4, WithTraits(Atomic)))
	o := Must(OffsetView2Of(v, [2]int{-1, 5}))
	d := DynRankFrom[float64](v)
	v2 := Must(d.View2())
	ov := o.View()
	sub := v.Subview1(1, All)
	dsub := d.Subview(All, 2)
	for _, c := range []struct {
		name string
		f    func()
		want string
	}{
		{"View2.At", func() { v.At(1, 2) }, `At(1, 2) of view "A2", which has the Atomic trait`},
		{"View2.Set", func() { v.Set(1, 2, 1) }, `Set(1, 2) of view "A2", which has the Atomic trait`},
		{"View2.Ptr", func() { v.Ptr(1, 2) }, `Ptr(1, 2) of view "A2", which has the Atomic trait`},
		{"View2.Access", func() { v.Access(1, 2, 0) }, `Access of view "A2", which has the Atomic trait: every access to its elements must be atomic; read with Ref(i...).Load()`},
		{"View2.Data", func() { v.Data() }, `Data of view "A2", which has the Atomic trait: every access to its elements must be atomic; a pointer or slice would allow plain loads and stores; use Ref(i...) and its methods Load, Store, Add, Sub, Min, Max, And, Or, Xor and Update`},
		{"View2.Row", func() { v.Row(1) }, `Row of view "A2", which has the Atomic trait`},
		{"View2.Col", func() { v.Col(1) }, `Col of view "A2", which has the Atomic trait`},
		{"View2 out of bounds", func() { v.At(3, 0) }, `index (3, 0) out of bounds for view "A2"`},
		{"Subview1.At", func() { sub.At(0) }, `At(0) of view "A2", which has the Atomic trait`},
		{"Subview1.Data", func() { sub.Data() }, `Data of view "A2"`},
		{"OffsetView2.At", func() { o.At(0, 6) }, `At(0, 6) of view "A2", which has the Atomic trait: every access to its elements must be atomic; read with Ref(0, 6).Load()`},
		{"OffsetView2.Set", func() { o.Set(0, 6, 1) }, `Set(0, 6) of view "A2", which has the Atomic trait: every access to its elements must be atomic; write with Ref(0, 6).Store(x)`},
		{"OffsetView2.Ptr", func() { o.Ptr(0, 6) }, `Ptr(0, 6) of view "A2"`},
		{"OffsetView2.Data", func() { o.Data() }, `Data of view "A2"`},
		{"OffsetView2 out of range", func() { o.At(2, 6) }, `index (2, 6) out of bounds for view "A2" with index ranges [-1, 1] x [5, 8]`},
		{"OffsetView2.View().At", func() { ov.At(0, 0) }, `At(0, 0) of view "A2"`},
		{"DynRankView.At2", func() { d.At2(1, 2) }, `At(1, 2) of view "A2", which has the Atomic trait`},
		{"DynRankView.Set2", func() { d.Set2(1, 2, 0) }, `Set(1, 2) of view "A2"`},
		{"DynRankView.Ptr2", func() { d.Ptr2(1, 2) }, `Ptr(1, 2) of view "A2"`},
		{"DynRankView.At", func() { d.At(1, 2) }, `At(1, 2) of view "A2"`},
		{"DynRankView.Set", func() { d.Set(0, 1, 2) }, `Set(1, 2) of view "A2"`},
		{"DynRankView.Ptr", func() { d.Ptr(1, 2) }, `Ptr(1, 2) of view "A2"`},
		{"DynRankView.Access", func() { d.Access(1, 2) }, `Access of view "A2", which has the Atomic trait`},
		{"DynRankView.Data", func() { d.Data() }, `Data of view "A2"`},
		{"DynRankView.At1 wrong rank", func() { d.At1(1) }, `At1 of rank-2 DynRankView "A2"`},
		{"DynRankView.Subview.At1", func() { dsub.At1(0) }, `At(0) of view "A2"`},
		{"DynRankView.View2().At", func() { v2.At(0, 0) }, `At(0, 0) of view "A2"`},
		{"Ref out of bounds", func() { v.Ref(0, 4) }, `index (0, 4) out of bounds for view "A2" with extents (3, 4)`},
		{"OffsetView2.Ref out of range", func() { o.Ref(-2, 5) }, `index (-2, 5) out of bounds for view "A2"`},
		{"DynRankView.Ref2 out of bounds", func() { d.Ref2(3, 0) }, `index (3, 0) out of bounds for view "A2"`},
		{"DynRankView.Ref1 wrong rank", func() { d.Ref1(0) }, `Ref1 of rank-2 DynRankView "A2"`},
		{"DynRankView.Ref3 past the rank", func() { d.Ref3(0, 0, 1) }, `index (0, 0, 1) out of bounds for rank-2 DynRankView "A2"`},
		{"DynRankView.Ref wrong arity", func() { d.Ref(0) }, `Ref of rank-2 DynRankView "A2" with 1 indices`},
	} {
		msg := panicMessage(c.f)
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: panic %q, want %q", c.name, msg, c.want)
		}
	}
	// every kind reaches the same elements through Ref
	v.Ref(1, 2).Store(1.5)
	o.Ref(0, 7).Add(2)
	d.Ref2(1, 2).Add(4)
	d.Ref(1, 2).Sub(0.5)
	sub.Ref(2).Max(-1)
	dsub.Ref1(1).Min(100)
	if got := v2.Ref(1, 2).Load(); got != 7 {
		t.Fatalf("element (1, 2) = %v, want 7", got)
	}
	// a read-only Atomic view can only Load through Ref
	ro := v.ReadOnly()
	if ro.Ref(1, 2).Load() != 7 {
		t.Fatal("Load through a read-only view")
	}
	for name, f := range map[string]func(){
		"Store": func() { ro.Ref(1, 2).Store(0) }, "Add": func() { ro.Ref(1, 2).Add(1) },
		"Update": func() { ro.Ref(1, 2).Update(func(x float64) float64 { return x }) },
	} {
		if msg := panicMessage(f); !strings.Contains(msg, name+` through a Ref of read-only view "A2"`) {
			t.Errorf("%s on a read-only Ref: %q", name, msg)
		}
	}
	// DeepCopy moves the elements of an Atomic view, to and from a plain one
	h := Must(NewView2[float64]("H", 3, 4))
	if err := DeepCopy(&h, v); err != nil || h.At(1, 2) != 7 {
		t.Fatalf("DeepCopy from an Atomic view: %v, %v", err, h.At(1, 2))
	}
	h.Set(0, 0, -3)
	if err := DeepCopy(&v, h); err != nil || v.Ref(0, 0).Load() != -3 {
		t.Fatalf("DeepCopy into an Atomic view: %v", err)
	}
}

// TestAtomicElementTypes checks which element types the Atomic trait takes:
// types of any non-zero size without Go pointers. The others are refused
// with an error that wraps ErrElementType and names the type, for every
// constructor kind, as is a wrapped slice whose elements are misaligned.
func TestAtomicElementTypes(t *testing.T) {
	type celsius float64
	type rgba struct{ R, G, B, A uint8 }
	type withPtr struct {
		N int32
		P *int32
	}
	type three [3]byte
	ok := []func() error{
		func() error { _, err := NewView1[int8]("a", 2, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[uint16]("a", 2, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[bool]("a", 2, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[rgba]("a", 2, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[[2]int32]("a", 2, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[complex64]("a", 2, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[celsius]("a", 2, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[uintptr]("a", 2, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[complex128]("a", 2, WithTraits(Atomic)); return err },
		func() error { _, err := NewView3[[2]float64]("a", 1, 2, 3, WithTraits(Atomic)); return err },
		func() error { _, err := NewDynRankView[[16]byte]("a", []int{2}, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[[3]float64]("c", 4, WithTraits(Atomic)); return err },
		func() error { _, err := NewView1[three]("b", 4, WithTraits(Atomic)); return err },
		func() error { _, err := NewView3[[4]float64]("f", 1, 2, 3, WithTraits(Atomic)); return err },
		func() error { _, err := NewDynRankView[[2]complex128]("d", []int{2}, WithTraits(Atomic)); return err },
	}
	for i, f := range ok {
		if err := f(); err != nil {
			t.Errorf("accepted type %d: %v", i, err)
		}
	}
	misaligned := unsafe.Slice((*[4]byte)(unsafe.Pointer(&make([]byte, 20)[1])), 4)
	for _, c := range []struct {
		err  error
		want string
	}{
		{err2(NewView1[*int]("p", 4, WithTraits(Atomic))), `view "p" with extents (4): the Atomic trait needs elements that Ref can update atomically: element type *int holds Go pointers, which an atomic store would write without the garbage collector's write barrier`},
		{err2(NewView1[map[int]int]("m", 4, WithTraits(Atomic))), `element type map[int]int holds Go pointers`},
		{err2(NewView1[string]("s", 4, WithTraits(Atomic))), `element type string holds Go pointers`},
		{err2(NewView1[[]int]("s", 4, WithTraits(Atomic))), `element type []int holds Go pointers`},
		{err2(NewView1[any]("i", 4, WithTraits(Atomic))), `element type interface {} holds Go pointers`},
		{err2(NewView1[withPtr]("w", 4, WithTraits(Atomic))), `element type kokkos.withPtr holds Go pointers`},
		{err2(NewView1[unsafe.Pointer]("u", 4, WithTraits(Atomic))), `element type unsafe.Pointer holds Go pointers`},
		{err2(NewView1[struct{}]("e", 4, WithTraits(Atomic))), `the Atomic trait needs elements that Ref can update atomically: element type struct {} has no bytes to update`},
		{err2(WrapView1(make([]*int, 4), 4, WithTraits(Atomic))), `element type *int holds Go pointers`},
		{err2(NewOffsetView1[*int]("o", Bounds(-1, 1), WithTraits(Atomic))), `element type *int`},
		{err2(WrapView1(misaligned, 4, WithLabel("w"), WithTraits(Atomic))), `needs elements aligned to their size: the first 4-byte element of type [4]uint8 lies at`},
	} {
		if !errors.Is(c.err, ErrElementType) || !strings.Contains(fmt.Sprint(c.err), c.want) {
			t.Errorf("error %v, want ErrElementType and %q", c.err, c.want)
		}
	}
	// the same misaligned slice makes a view without the trait, whose Ref
	// refuses to act
	w := Must(WrapView1(misaligned, 4, WithLabel("w")))
	if msg := panicMessage(func() { w.Ref(1).Load() }); !strings.Contains(msg, `Load through a Ref of view "w": the 4-byte element at`) {
		t.Errorf("misaligned Ref: %q", msg)
	}
}

// TestRefMisuse checks the panics of Ref methods that do not fit the element
// type or the Ref, on views without the Atomic trait, where any element type
// is allowed.
func TestRefMisuse(t *testing.T) {
	s := Must(NewView1[string]("S", 2))
	c := Must(NewView1[[3]float64]("C", 2))
	pr := Must(NewView1[[2]int32]("P", 2))
	f := Must(NewView1[float64]("F", 2))
	b := Must(NewView1[bool]("B", 2))
	cx := Must(NewView1[complex64]("X", 2))
	var zero Ref[int64]
	for _, cs := range []struct {
		f    func()
		want string
	}{
		{func() { s.Ref(0).Load() }, `Load through a Ref of view "S": element type string holds Go pointers`},
		{func() { s.Ref(0).Store("x") }, `Store through a Ref of view "S"`},
		{func() { c.Ref(1).Add([3]float64{1}) }, `Add through a Ref of view "C" needs an integer, floating-point or complex element type, not [3]float64; Update takes any function`},
		{func() { pr.Ref(0).Add([2]int32{1, 2}) }, `Add through a Ref of view "P" needs an integer, floating-point or complex element type, not [2]int32; Update takes any function`},
		{func() { f.Ref(0).And(1) }, `And through a Ref of view "F" needs an integer element type, not float64`},
		{func() { f.Ref(0).Xor(1) }, `Xor through a Ref of view "F" needs an integer`},
		{func() { cx.Ref(0).Min(1) }, `Min through a Ref of view "X" needs an integer or floating-point element type, not complex64`},
		{func() { b.Ref(0).Or(true) }, `Or through a Ref of view "B" needs an integer element type, not bool`},
		{func() { zero.Load() }, `Load through the zero Ref`},
	} {
		if msg := panicMessage(cs.f); !strings.Contains(msg, cs.want) {
			t.Errorf("panic %q, want %q", msg, cs.want)
		}
	}
	// what does fit works, on views without the trait too
	b.Ref(1).Store(true)
	cx.Ref(1).Add(1 + 2i)
	cx.Ref(1).Sub(0.5i)
	pr.Ref(1).Update(func(o [2]int32) [2]int32 { return [2]int32{o[1] + 1, o[0] - 1} })
	if !b.At(1) || b.At(0) || cx.At(1) != 1+1.5i || pr.At(1) != [2]int32{1, -1} {
		t.Fatalf("bool %v, complex64 %v, pair %v", b.At(1), cx.At(1), pr.At(1))
	}
	f.Set(1, math.Inf(1))
	// as Kokkos's atomic_fetch_min: the element stays only when it is less
	// than x, so a NaN x replaces it
	if old := f.Ref(1).Min(math.NaN()); !math.IsInf(old, 1) || !math.IsNaN(f.At(1)) {
		t.Fatalf("Min with NaN: returned %v, element %v; want +Inf, NaN", old, f.At(1))
	}
}

// TestRefEdgeCases covers a view that did not record its element type's
// kind (as views with flagForeign), an element type of size 0, and the
// allocation of Atomic views of 1- and 2-byte elements in whole aligned
// 4-byte words, so that the compare-and-swap on an element's word stays
// within the view's own memory.
func TestRefEdgeCases(t *testing.T) {
	raw := view1Of(desc[int32]{data: make([]int32, 4), rank: 1, ext: [MaxRank]int{4}, str: [MaxRank]int{1}, rec: newAllocation("raw", HostSpace, 16, nil)}, 0)
	if old := raw.Ref(2).Add(-7); old != 0 || raw.Ref(2).Max(3) != -7 || raw.At(2) != 3 {
		t.Fatalf("Ref of a view without its element kind: %d", raw.At(2))
	}
	e := Must(NewView1[struct{}]("E", 3))
	if msg := panicMessage(func() { e.Ref(1).Load() }); !strings.Contains(msg, `Load through a Ref of view "E": element type struct {} has no bytes to update`) {
		t.Errorf("Ref of a zero-size element: %q", msg)
	}
	for n := 1; n <= 9; n++ {
		b := Must(NewView1[int8]("b", n, WithTraits(Atomic)))
		h := Must(NewView2[uint16]("h", 1, n, WithTraits(Atomic)))
		if uintptr(unsafe.Pointer(b.Ref(0).p))%4 != 0 || uintptr(unsafe.Pointer(h.Ref(0, 0).p))%4 != 0 {
			t.Errorf("%d elements: an Atomic view of 1- or 2-byte elements does not start on a 4-byte word", n)
		}
	}
}
