package kerneltest

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// Each test of the suite computes what a kernel should give by calling
// the kernel, an ordinary Go function, directly in a plain loop on views
// of its own, and compares with kernel.For, Reduce or Scan at every place.
//
// On the host (the pool and Serial) the comparison is exact, bit for bit:
// the host kernel is the same Go code. On a GPU it is exact for integers
// and for + - * / and math.Sqrt (the CUDA translation keeps Go's integer
// semantics and turns fused multiply-adds off), NaN matching any NaN; the
// other math functions are CUDA's, which agree with Go's within a few
// units in the last place: the tests allow 2 ulp for the elementary
// functions and 4 for Pow, Gamma, Erf, Erfc and the inverse hyperbolic
// functions, whose errors on either side are larger. Floating-point
// reductions and scans add in another order on a GPU and are compared
// there within a relative tolerance.

// refPlace is where the references run: the host, on views of their own.
var refPlace = where{"reference", nil, kokkos.HostSpace}

// each calls f with every index of extents ext, the last index fastest.
func each(ext []int, f func(idx []int)) {
	total := 1
	for _, e := range ext {
		total *= e
	}
	idx := make([]int, len(ext))
	for range total {
		f(idx)
		for r := len(idx) - 1; r >= 0; r-- {
			idx[r]++
			if idx[r] < ext[r] {
				break
			}
			idx[r] = 0
		}
	}
}

// fill stores gen() at every index of the host view v.
func fill[T any](v kokkos.View[T], gen func() T) {
	d := kokkos.DynRankFrom(v)
	each(d.Extents(), func(idx []int) { *d.Ptr(idx...) = gen() })
}

// randInt returns a generator of integers of type T with random bits.
func randInt[T kokkos.Integer](rng *rand.Rand) func() T {
	return func() T { return T(rng.Uint64()) }
}

// randFloat returns a generator of floats in [lo, hi).
func randFloat[T kokkos.Float](rng *rand.Rand, lo, hi float64) func() T {
	return func() T { return T(lo + (hi-lo)*rng.Float64()) }
}

// at returns a copy of v in w's memory space, with v's layout (compact):
// each place, the reference among them, gets views of its own to write.
func at[V interface{ kokkos.View[T] }, T any](t *testing.T, w where, v V, mirror func(V, ...kokkos.Option) (V, error)) V {
	t.Helper()
	d, err := mirror(v, kokkos.InSpace(w.mem))
	if err != nil {
		t.Fatal(err)
	}
	keep(t, &d)
	if err := kokkos.DeepCopy[T](d, v); err != nil {
		t.Fatal(err)
	}
	return d
}

// launched reports whether a launch at w succeeded: it fails the test on
// an error, but for a device launch of a kernel that has no CUDA
// translation (views of 8- or 16-bit elements), which it logs.
func launched(t *testing.T, w where, err error) bool {
	t.Helper()
	if err == nil {
		return true
	}
	if w.mem != kokkos.HostSpace && errors.Is(err, kernel.ErrNoDevice) {
		t.Logf("%s: %v", w.name, err)
		return false
	}
	t.Fatalf("%s: %v", w.name, err)
	return false
}

// check compares view got, written at place w, with want at every index:
// bit for bit on the host; on a device within ulps units in the last
// place for floats (0: the same bits, any NaN matching any NaN). With
// several ulps, the last index picks one (a column of results per
// function).
func check[T kokkos.Number](t *testing.T, w where, what string, got, want kokkos.View[T], ulps ...uint64) {
	t.Helper()
	fence(t, w)
	sh := kokkos.ShapeOf(got)
	h, err := kokkos.NewDynRankView[T]("got", sh.Extents)
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy[T](h, got); err != nil {
		t.Fatal(err)
	}
	ref := kokkos.DynRankFrom(want)
	if !equalInts(ref.Extents(), sh.Extents) {
		t.Fatalf("%s: %s has extents %v, want %v", w.name, what, sh.Extents, ref.Extents())
	}
	bad := 0
	each(sh.Extents, func(idx []int) {
		u := uint64(0)
		if len(ulps) == 1 {
			u = ulps[0]
		} else if len(ulps) > 1 {
			u = ulps[idx[len(idx)-1]]
		}
		g, x := h.At(idx...), ref.At(idx...)
		if !same(w.gpu(), g, x, u) && bad < 5 {
			bad++
			t.Errorf("%s: %s%v = %v, want %v", w.name, what, idx, g, x)
		}
	})
	if bad > 0 {
		t.FailNow()
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// same reports whether a and b agree: with the same bits, or on a device
// (device set) both NaN or, for floats, within ulps units in the last
// place.
func same[T kokkos.Number](device bool, a, b T, ulps uint64) bool {
	switch x := any(a).(type) {
	case float64:
		y := any(b).(float64)
		if math.Float64bits(x) == math.Float64bits(y) {
			return true
		}
		return device && (math.IsNaN(x) && math.IsNaN(y) || ulps > 0 && ulpDiff(x, y) <= ulps)
	case float32:
		y := any(b).(float32)
		if math.Float32bits(x) == math.Float32bits(y) {
			return true
		}
		return device && (x != x && y != y || ulps > 0 && ulpDiff32(x, y) <= ulps)
	}
	return a == b
}

// ulpDiff is the number of float64 values from a to b (0 from -0 to +0),
// the largest uint64 when only one is NaN.
func ulpDiff(a, b float64) uint64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		if math.IsNaN(a) && math.IsNaN(b) {
			return 0
		}
		return math.MaxUint64
	}
	key := func(x float64) int64 {
		u := math.Float64bits(x)
		if u>>63 != 0 {
			return -int64(u &^ (1 << 63))
		}
		return int64(u)
	}
	ka, kb := key(a), key(b)
	if ka < kb {
		ka, kb = kb, ka
	}
	return uint64(ka - kb)
}

// ulpDiff32 is ulpDiff for float32.
func ulpDiff32(a, b float32) uint64 {
	if a != a || b != b {
		if a != a && b != b {
			return 0
		}
		return math.MaxUint64
	}
	key := func(x float32) int64 {
		u := math.Float32bits(x)
		if u>>31 != 0 {
			return -int64(u &^ (1 << 31))
		}
		return int64(u)
	}
	ka, kb := key(a), key(b)
	if ka < kb {
		ka, kb = kb, ka
	}
	return uint64(ka - kb)
}

// sameTotal compares a reduction's result at w with the reference's:
// exactly on the host, and on a device within rel (relative to want) for
// floats.
func sameTotal[T kokkos.Number](w where, got, want T, rel float64) bool {
	if w.mem == kokkos.HostSpace {
		return same(false, got, want, 0)
	}
	switch any(got).(type) {
	case float32, float64:
		g, x := float64(got), float64(want)
		return g == x || math.Abs(g-x) <= rel*math.Abs(x)
	}
	return got == want
}

func TestWrapNarrow(t *testing.T) {
	rng := rand.New(rand.NewPCG(101, 1))
	const n = 3001
	a8 := kokkos.Must(kokkos.NewView1[int8]("a8", n))
	a16 := kokkos.Must(kokkos.NewView1[int16]("a16", n))
	b8 := kokkos.Must(kokkos.NewView1[uint8]("b8", n))
	b16 := kokkos.Must(kokkos.NewView1[uint16]("b16", n))
	fill(a8, randInt[int8](rng))
	fill(a16, randInt[int16](rng))
	fill(b8, randInt[uint8](rng))
	fill(b16, randInt[uint16](rng))
	const k = -7
	r8, r16 := at(t, refPlace, a8, kokkos.CreateMirror), at(t, refPlace, a16, kokkos.CreateMirror)
	s8, s16 := at(t, refPlace, b8, kokkos.CreateMirror), at(t, refPlace, b16, kokkos.CreateMirror)
	for i := range n {
		WrapNarrow(i, r8, r16, s8, s16, k)
	}
	for _, w := range places(t) {
		g8, g16 := at(t, w, a8, kokkos.CreateMirror), at(t, w, a16, kokkos.CreateMirror)
		h8, h16 := at(t, w, b8, kokkos.CreateMirror), at(t, w, b16, kokkos.CreateMirror)
		if !launched(t, w, kernel.For("wrapnarrow", kokkos.Range(0, n).On(w.space), WrapNarrow, g8, g16, h8, h16, k)) {
			continue
		}
		check(t, w, "a8", g8, r8)
		check(t, w, "a16", g16, r16)
		check(t, w, "b8", h8, s8)
		check(t, w, "b16", h16, s16)
	}
}

func TestWrapWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(102, 1))
	const n = 3001
	a32 := kokkos.Must(kokkos.NewView1[int32]("a32", n))
	a64 := kokkos.Must(kokkos.NewView1[int64]("a64", n))
	b32 := kokkos.Must(kokkos.NewView1[uint32]("b32", n))
	b64 := kokkos.Must(kokkos.NewView1[uint64]("b64", n))
	fill(a32, randInt[int32](rng))
	fill(a64, randInt[int64](rng))
	fill(b32, randInt[uint32](rng))
	fill(b64, randInt[uint64](rng))
	a64.Set(0, math.MinInt64)
	a32.Set(0, math.MinInt32)
	for _, k := range []int32{-3, 12345} {
		r32, r64 := at(t, refPlace, a32, kokkos.CreateMirror), at(t, refPlace, a64, kokkos.CreateMirror)
		s32, s64 := at(t, refPlace, b32, kokkos.CreateMirror), at(t, refPlace, b64, kokkos.CreateMirror)
		for i := range n {
			WrapWide(i, r32, r64, s32, s64, k)
		}
		for _, w := range places(t) {
			g32, g64 := at(t, w, a32, kokkos.CreateMirror), at(t, w, a64, kokkos.CreateMirror)
			h32, h64 := at(t, w, b32, kokkos.CreateMirror), at(t, w, b64, kokkos.CreateMirror)
			if !launched(t, w, kernel.For("wrapwide", kokkos.Range(0, n).On(w.space), WrapWide, g32, g64, h32, h64, k)) {
				continue
			}
			check(t, w, "a32", g32, r32)
			check(t, w, "a64", g64, r64)
			check(t, w, "b32", h32, s32)
			check(t, w, "b64", h64, s64)
		}
	}
}

func TestDivRem(t *testing.T) {
	rng := rand.New(rand.NewPCG(103, 1))
	const n = 4000
	a := kokkos.Must(kokkos.NewView1[int64]("a", n))
	b := kokkos.Must(kokkos.NewView1[int64]("b", n))
	// Odd divisors are nonzero at every width; the first rows divide the
	// most negative value of each width by -1, which wraps.
	special := [][2]int64{
		{math.MinInt64, -1}, {math.MinInt32, -1}, {math.MinInt16, -1}, {math.MinInt8, -1},
		{-7, 2 | 1}, {7, -3}, {-7, -3}, {math.MaxInt64, -1}, {math.MinInt64, 3}, {-1, math.MinInt64 + 1},
	}
	for i := range n {
		x, y := rng.Int64(), rng.Int64()|1
		switch i % 4 {
		case 1:
			y = (rng.Int64N(401) - 200) | 1
		case 2:
			x, y = rng.Int64N(2001)-1000, (rng.Int64N(41)-20)|1
		}
		if i < len(special) {
			x, y = special[i][0], special[i][1]
		}
		a.Set(i, x)
		b.Set(i, y)
	}
	want := kokkos.Must(kokkos.NewView2[int64]("want", n, 15))
	for i := range n {
		DivRem(i, a, b, want)
	}
	for _, w := range places(t) {
		out := kokkos.Must(kokkos.NewView2[int64]("out", n, 15, kokkos.InSpace(w.mem)))
		keep(t, &out)
		if launched(t, w, kernel.For("divrem", kokkos.Range(0, n).On(w.space), DivRem, at(t, w, a, kokkos.CreateMirror), at(t, w, b, kokkos.CreateMirror), out)) {
			check(t, w, "out", out, want)
		}
	}
}

func TestShifts(t *testing.T) {
	rng := rand.New(rand.NewPCG(104, 1))
	const n = 4000
	a := kokkos.Must(kokkos.NewView1[int64]("a", n))
	s := kokkos.Must(kokkos.NewView1[int32]("s", n))
	fill(a, randInt[int64](rng))
	fill(s, func() int32 { return rng.Int32N(100) }) // the width and more among the counts
	want := kokkos.Must(kokkos.NewView2[int64]("want", n, 17))
	for i := range n {
		Shifts(i, a, s, want)
	}
	for _, w := range places(t) {
		out := kokkos.Must(kokkos.NewView2[int64]("out", n, 17, kokkos.InSpace(w.mem)))
		keep(t, &out)
		if launched(t, w, kernel.For("shifts", kokkos.Range(0, n).On(w.space), Shifts, at(t, w, a, kokkos.CreateMirror), at(t, w, s, kokkos.CreateMirror), out)) {
			check(t, w, "out", out, want)
		}
	}
}

func TestFloatOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(105, 1))
	const n = 4000
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	y := kokkos.Must(kokkos.NewView1[float64]("y", n))
	f := kokkos.Must(kokkos.NewView1[float32]("f", n))
	g := kokkos.Must(kokkos.NewView1[float32]("g", n))
	fill(x, func() float64 { return rng.NormFloat64() * 10 })
	fill(y, func() float64 { return rng.NormFloat64() * 1e-3 })
	fill(f, randFloat[float32](rng, -100, 100))
	fill(g, randFloat[float32](rng, -1, 1))
	w64 := kokkos.Must(kokkos.NewView2[float64]("w64", n, 7))
	w32 := kokkos.Must(kokkos.NewView2[float32]("w32", n, 8))
	for i := range n {
		FloatOps(i, x, y, f, g, w64, w32)
	}
	for _, w := range places(t) {
		o64 := kokkos.Must(kokkos.NewView2[float64]("o64", n, 7, kokkos.InSpace(w.mem)))
		keep(t, &o64)
		o32 := kokkos.Must(kokkos.NewView2[float32]("o32", n, 8, kokkos.InSpace(w.mem)))
		keep(t, &o32)
		if launched(t, w, kernel.For("floatops", kokkos.Range(0, n).On(w.space), FloatOps,
			at(t, w, x, kokkos.CreateMirror), at(t, w, y, kokkos.CreateMirror),
			at(t, w, f, kokkos.CreateMirror), at(t, w, g, kokkos.CreateMirror), o64, o32)) {
			check(t, w, "o64", o64, w64)
			check(t, w, "o32", o32, w32)
		}
	}
}

func TestConvert(t *testing.T) {
	rng := rand.New(rand.NewPCG(106, 1))
	const n = 4000
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	m := kokkos.Must(kokkos.NewView1[int64]("m", n))
	fill(x, randFloat[float64](rng, -99.9, 99.9))
	fill(m, randInt[int64](rng))
	for i := 0; i < n; i += 3 {
		m.Set(i, rng.Int64N(1<<40)-1<<39)
	}
	wi := kokkos.Must(kokkos.NewView2[int64]("wi", n, 18))
	wf := kokkos.Must(kokkos.NewView2[float64]("wf", n, 10))
	for i := range n {
		Convert(i, x, m, wi, wf)
	}
	for _, w := range places(t) {
		oi := kokkos.Must(kokkos.NewView2[int64]("oi", n, 18, kokkos.InSpace(w.mem)))
		keep(t, &oi)
		of := kokkos.Must(kokkos.NewView2[float64]("of", n, 10, kokkos.InSpace(w.mem)))
		keep(t, &of)
		if launched(t, w, kernel.For("convert", kokkos.Range(0, n).On(w.space), Convert, at(t, w, x, kokkos.CreateMirror), at(t, w, m, kokkos.CreateMirror), oi, of)) {
			check(t, w, "oi", oi, wi)
			check(t, w, "of", of, wf)
		}
	}
}

func TestBranches(t *testing.T) {
	rng := rand.New(rand.NewPCG(107, 1))
	const n = 5000
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	fill(x, randFloat[float64](rng, -1, 1))
	start := kokkos.Must(kokkos.NewView1[int64]("start", n))
	fill(start, func() int64 { return 1 + rng.Int64N(1_000_000) })
	blocks := kokkos.Must(kokkos.NewView3[int32]("blocks", n, 8, 9))
	fill(blocks, func() int32 { return rng.Int32N(20) })
	const limit, target = 150, 7
	code := kokkos.Must(kokkos.NewView1[int32]("code", n))
	steps := kokkos.Must(kokkos.NewView1[int32]("steps", n))
	found := kokkos.Must(kokkos.NewView1[int32]("found", n))
	for i := range n {
		Classify(i, x, code)
		Collatz(i, start, steps, limit)
		FirstMatch(i, blocks, target, found)
	}
	for _, w := range places(t) {
		gc := kokkos.Must(kokkos.NewView1[int32]("code", n, kokkos.InSpace(w.mem)))
		keep(t, &gc)
		gs := kokkos.Must(kokkos.NewView1[int32]("steps", n, kokkos.InSpace(w.mem)))
		keep(t, &gs)
		gf := kokkos.Must(kokkos.NewView1[int32]("found", n, kokkos.InSpace(w.mem)))
		keep(t, &gf)
		p := kokkos.Range(0, n).On(w.space)
		if launched(t, w, kernel.For("classify", p, Classify, at(t, w, x, kokkos.CreateMirror), gc)) {
			check(t, w, "code", gc, code)
		}
		if launched(t, w, kernel.For("collatz", p, Collatz, at(t, w, start, kokkos.CreateMirror), gs, limit)) {
			check(t, w, "steps", gs, steps)
		}
		if launched(t, w, kernel.For("firstmatch", p, FirstMatch, at(t, w, blocks, kokkos.CreateMirror), target, gf)) {
			check(t, w, "found", gf, found)
		}
	}
}

func TestLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(108, 1))
	const n = 3000
	x := kokkos.Must(kokkos.NewView1[int64]("x", n))
	fill(x, func() int64 { return rng.Int64N(2001) - 1000 })
	for _, loops := range []int{0, 1, 13, 40} {
		want := kokkos.Must(kokkos.NewView2[int64]("want", n, 4))
		for i := range n {
			Loops(i, x, loops, want)
		}
		for _, w := range places(t) {
			out := kokkos.Must(kokkos.NewView2[int64]("out", n, 4, kokkos.InSpace(w.mem)))
			keep(t, &out)
			if launched(t, w, kernel.For("loops", kokkos.Range(0, n).On(w.space), Loops, at(t, w, x, kokkos.CreateMirror), loops, out)) {
				check(t, w, fmt.Sprintf("n %d: out", loops), out, want)
			}
		}
	}
}

func TestHelpers(t *testing.T) {
	rng := rand.New(rand.NewPCG(109, 1))
	const n = 3000
	a := kokkos.Must(kokkos.NewView1[int32]("a", n))
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	fill(a, func() int32 { return rng.Int32N(101) - 50 })
	fill(x, randFloat[float64](rng, -1, 1))
	for _, flip := range []bool{false, true} {
		wo := kokkos.Must(kokkos.NewView1[float64]("wo", n))
		wc := kokkos.Must(kokkos.NewView1[int32]("wc", n))
		for i := range n {
			Helpers(i, a, x, wo, wc, flip)
		}
		for _, w := range places(t) {
			out := kokkos.Must(kokkos.NewView1[float64]("out", n, kokkos.InSpace(w.mem)))
			keep(t, &out)
			cnt := kokkos.Must(kokkos.NewView1[int32]("cnt", n, kokkos.InSpace(w.mem)))
			keep(t, &cnt)
			if launched(t, w, kernel.For("helpers", kokkos.Range(0, n).On(w.space), Helpers, at(t, w, a, kokkos.CreateMirror), at(t, w, x, kokkos.CreateMirror), out, cnt, flip)) {
				check(t, w, "out", out, wo)
				check(t, w, "cnt", cnt, wc)
			}
		}
	}
}

// specials are the inputs where the math functions have special cases.
var specials = []float64{
	math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2, 3, -3, 2.5, -3.5,
	math.SmallestNonzeroFloat64, -math.MaxFloat64, 1e-310,
}

func TestMathUnary(t *testing.T) {
	rng := rand.New(rand.NewPCG(110, 1))
	const n = 4000
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	fill(x, randFloat[float64](rng, -1, 1))
	for i, v := range specials {
		x.Set(i, v)
	}
	const cols = 30
	// ulps per column (see the top of this file): exact for Sqrt, Abs and
	// the roundings, 4 for the inverse hyperbolic functions, Erf, Erfc and
	// Gamma, 2 for the others.
	ulps := make([]uint64, cols)
	for c := range ulps {
		ulps[c] = 2
	}
	for _, c := range []int{0, 21, 22, 23, 24, 25, 26} {
		ulps[c] = 0
	}
	for _, c := range []int{18, 19, 20, 27, 28, 29} {
		ulps[c] = 4
	}
	// Go's own math functions are not all within a few ulp of the exact
	// result: on the H100, Log2 near 1 (Go computes Log(x)/Ln2), Acos, Erfc, Gamma
	// and Tan of huge arguments differed from CUDA's by 13 to 26 ulp, CUDA's
	// being the closer. The device is compared within 64 ulp for them.
	for _, c := range []int{6, 11, 13, 28, 29} {
		ulps[c] = 64
	}
	want := kokkos.Must(kokkos.NewView2[float64]("want", n, cols))
	for i := range n {
		MathUnary(i, x, want)
	}
	// Go's math.Log, Log2 and Log10 on amd64 are wrong for subnormal
	// arguments (math.Log(5e-324) is -709.09, not -744.44); CUDA's are
	// right. The device is compared with the exact values there.
	wantDev := kokkos.Must(kokkos.NewView2[float64]("want", n, cols))
	kokkos.DeepCopy(wantDev, want)
	for i := range n {
		for c, f := range map[int]func(float64) float64{5: math.Log, 6: math.Log2, 7: math.Log10} {
			a := math.Abs(x.At(i)) * []float64{1, 100, 1000}[c-5]
			if a != 0 && a < 0x1p-1022 {
				// log(a) = log(a * 2^64) - 64 log(2), in the function's base.
				wantDev.Set(i, c, f(a*0x1p64)-64*f(2))
			}
		}
	}
	for _, w := range places(t) {
		out := kokkos.Must(kokkos.NewView2[float64]("out", n, cols, kokkos.InSpace(w.mem)))
		keep(t, &out)
		if launched(t, w, kernel.For("mathunary", kokkos.Range(0, n).On(w.space), MathUnary, at(t, w, x, kokkos.CreateMirror), out)) {
			if w.gpu() {
				check(t, w, "out", out, wantDev, ulps...)
			} else {
				check(t, w, "out", out, want, ulps...)
			}
		}
	}
}

func TestMathBinary(t *testing.T) {
	rng := rand.New(rand.NewPCG(111, 1))
	ns := len(specials)
	n := ns*ns + 2000
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	y := kokkos.Must(kokkos.NewView1[float64]("y", n))
	z := kokkos.Must(kokkos.NewView1[float64]("z", n))
	fill(x, func() float64 { return rng.NormFloat64() * 4 })
	fill(y, func() float64 { return rng.NormFloat64() * 4 })
	fill(z, func() float64 { return rng.NormFloat64() })
	for i := range ns * ns {
		x.Set(i, specials[i/ns])
		y.Set(i, specials[i%ns])
		z.Set(i, specials[(i*7)%ns])
	}
	// Atan2 and Hypot 2 ulp, Pow 4, the others exact.
	ulps := []uint64{2, 4, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0}
	want := kokkos.Must(kokkos.NewView2[float64]("want", n, len(ulps)))
	for i := range n {
		MathBinary(i, x, y, z, want)
	}
	for _, w := range places(t) {
		out := kokkos.Must(kokkos.NewView2[float64]("out", n, len(ulps), kokkos.InSpace(w.mem)))
		keep(t, &out)
		if launched(t, w, kernel.For("mathbinary", kokkos.Range(0, n).On(w.space), MathBinary,
			at(t, w, x, kokkos.CreateMirror), at(t, w, y, kokkos.CreateMirror), at(t, w, z, kokkos.CreateMirror), out)) {
			check(t, w, "out", out, want, ulps...)
		}
	}
}

func TestMathSpecial(t *testing.T) {
	rng := rand.New(rand.NewPCG(112, 1))
	const n = 1000
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	fill(x, func() float64 { return rng.NormFloat64() * 3 })
	for i, v := range specials {
		x.Set(i, v)
	}
	// Pow 4 ulp (its special cases are exact), the others exact.
	ulps := make([]uint64, 20)
	for c := 9; c <= 16; c++ {
		ulps[c] = 4
	}
	wf := kokkos.Must(kokkos.NewView1[int32]("wf", n))
	want := kokkos.Must(kokkos.NewView2[float64]("want", n, 20))
	for i := range n {
		MathSpecial(i, x, wf, want)
	}
	for _, w := range places(t) {
		flags := kokkos.Must(kokkos.NewView1[int32]("flags", n, kokkos.InSpace(w.mem)))
		keep(t, &flags)
		out := kokkos.Must(kokkos.NewView2[float64]("out", n, 20, kokkos.InSpace(w.mem)))
		keep(t, &out)
		if launched(t, w, kernel.For("mathspecial", kokkos.Range(0, n).On(w.space), MathSpecial, at(t, w, x, kokkos.CreateMirror), flags, out)) {
			check(t, w, "flags", flags, wf)
			check(t, w, "out", out, want, ulps...)
		}
	}
}

func TestMinMax(t *testing.T) {
	rng := rand.New(rand.NewPCG(113, 1))
	sp := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1, -1, 0.5}
	ns := len(sp)
	n := ns*ns + 2000
	f := kokkos.Must(kokkos.NewView1[float32]("f", n))
	g := kokkos.Must(kokkos.NewView1[float32]("g", n))
	a := kokkos.Must(kokkos.NewView1[int32]("a", n))
	b := kokkos.Must(kokkos.NewView1[int32]("b", n))
	fill(f, randFloat[float32](rng, -2, 2))
	fill(g, randFloat[float32](rng, -2, 2))
	fill(a, randInt[int32](rng))
	fill(b, func() int32 { return rng.Int32N(41) - 20 })
	for i := range ns * ns {
		f.Set(i, sp[i/ns])
		g.Set(i, sp[i%ns])
	}
	w32 := kokkos.Must(kokkos.NewView2[float32]("w32", n, 6))
	wi := kokkos.Must(kokkos.NewView2[int64]("wi", n, 5))
	for i := range n {
		MinMax(i, f, g, a, b, w32, wi)
	}
	for _, w := range places(t) {
		o32 := kokkos.Must(kokkos.NewView2[float32]("o32", n, 6, kokkos.InSpace(w.mem)))
		keep(t, &o32)
		oi := kokkos.Must(kokkos.NewView2[int64]("oi", n, 5, kokkos.InSpace(w.mem)))
		keep(t, &oi)
		if launched(t, w, kernel.For("minmax", kokkos.Range(0, n).On(w.space), MinMax,
			at(t, w, f, kokkos.CreateMirror), at(t, w, g, kokkos.CreateMirror),
			at(t, w, a, kokkos.CreateMirror), at(t, w, b, kokkos.CreateMirror), o32, oi)) {
			check(t, w, "o32", o32, w32)
			check(t, w, "oi", oi, wi)
		}
	}
}

func TestAtomicInts(t *testing.T) {
	rng := rand.New(rand.NewPCG(114, 1))
	const n, nb = 5000, 7
	x := kokkos.Must(kokkos.NewView1[int64]("x", n))
	fill(x, randInt[int64](rng))
	// The bins start at each operation's identity (or a counter's start).
	s32 := kokkos.Must(kokkos.NewView1[int32]("s32", 3*nb+2))
	s64 := kokkos.Must(kokkos.NewView1[int64]("s64", 3*nb+4))
	u32 := kokkos.Must(kokkos.NewView1[uint32]("u32", 3*nb+1))
	u64 := kokkos.Must(kokkos.NewView1[uint64]("u64", 3*nb+3))
	for b := range nb {
		s32.Set(2*nb+b, math.MaxInt32)
		s64.Set(2*nb+b, math.MinInt64)
		u64.Set(b, math.MaxUint64)
		u64.Set(nb+b, math.MaxUint64)
	}
	s64.Set(3*nb+2, -1)
	s64.Set(3*nb+3, math.MaxInt64)
	u32.Set(3*nb, n+5)
	u64.Set(3*nb+1, 1<<40)
	r32, r64 := at(t, refPlace, s32, kokkos.CreateMirror), at(t, refPlace, s64, kokkos.CreateMirror)
	q32, q64 := at(t, refPlace, u32, kokkos.CreateMirror), at(t, refPlace, u64, kokkos.CreateMirror)
	for i := range n {
		AtomicInts(i, x, r32, r64, q32, q64, nb)
	}
	for _, w := range places(t) {
		g32, g64 := at(t, w, s32, kokkos.CreateMirror), at(t, w, s64, kokkos.CreateMirror)
		h32, h64 := at(t, w, u32, kokkos.CreateMirror), at(t, w, u64, kokkos.CreateMirror)
		if launched(t, w, kernel.For("atomicints", kokkos.Range(0, n).On(w.space), AtomicInts, at(t, w, x, kokkos.CreateMirror), g32, g64, h32, h64, nb)) {
			check(t, w, "s32", g32, r32)
			check(t, w, "s64", g64, r64)
			check(t, w, "u32", h32, q32)
			check(t, w, "u64", h64, q64)
		}
	}
}

func TestAtomicFloats(t *testing.T) {
	rng := rand.New(rand.NewPCG(115, 1))
	const n, nb = 4000, 5
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	fill(x, randFloat[float64](rng, -1, 1))
	f64 := kokkos.Must(kokkos.NewView1[float64]("f64", 6*nb))
	f32 := kokkos.Must(kokkos.NewView1[float32]("f32", 5*nb))
	for b := range nb {
		f64.Set(2*nb+b, math.Inf(1))
		f64.Set(3*nb+b, math.Inf(-1))
		f64.Set(4*nb+b, math.Inf(-1))
		f64.Set(5*nb+b, 2)
		f32.Set(nb+b, float32(math.Inf(1)))
		f32.Set(2*nb+b, float32(math.Inf(-1)))
		f32.Set(4*nb+b, -1)
	}
	r64, r32 := at(t, refPlace, f64, kokkos.CreateMirror), at(t, refPlace, f32, kokkos.CreateMirror)
	for i := range n {
		AtomicFloats(i, x, r64, r32, nb)
	}
	for _, w := range places(t) {
		g64, g32 := at(t, w, f64, kokkos.CreateMirror), at(t, w, f32, kokkos.CreateMirror)
		if launched(t, w, kernel.For("atomicfloats", kokkos.Range(0, n).On(w.space), AtomicFloats, at(t, w, x, kokkos.CreateMirror), g64, g32, nb)) {
			// The sums are of small integers and quarters: exact in any order.
			check(t, w, "f64", g64, r64)
			check(t, w, "f32", g32, r32)
		}
	}
}

// reduce1 checks a rank-1 reduction kernel fn over a (copied to each
// place), with args after it, against kokkos.ParallelReduce calling ref.
func reduce1[T kokkos.Number, E any](t *testing.T, name string, r func() kokkos.Reducer[T], fn any, ref func(i int, acc *T), rel float64, a kokkos.View1[E], args ...any) {
	t.Helper()
	n := a.Extent(0)
	want := kokkos.ParallelReduce("ref", kokkos.Range(0, n), r(), ref)
	for _, w := range places(t) {
		got, err := kernel.Reduce(name, kokkos.Range(0, n).On(w.space), r(), fn, append([]any{at(t, w, a, kokkos.CreateMirror)}, args...)...)
		if !launched(t, w, err) {
			continue
		}
		if !sameTotal(w, got, want, rel) {
			t.Errorf("%s: %s = %v, want %v", w.name, name, got, want)
		}
	}
}

func TestReduceRank1(t *testing.T) {
	rng := rand.New(rand.NewPCG(116, 1))
	const n = 10007
	i64 := kokkos.Must(kokkos.NewView1[int64]("i64", n))
	f64 := kokkos.Must(kokkos.NewView1[float64]("f64", n))
	f32 := kokkos.Must(kokkos.NewView1[float32]("f32", n))
	i32 := kokkos.Must(kokkos.NewView1[int32]("i32", n))
	u32 := kokkos.Must(kokkos.NewView1[uint32]("u32", n))
	u64 := kokkos.Must(kokkos.NewView1[uint64]("u64", n))
	fill(i64, randInt[int64](rng))
	fill(f64, randFloat[float64](rng, -1, 1))
	fill(f32, randFloat[float32](rng, -1000, 1000))
	fill(i32, randInt[int32](rng))
	fill(u32, func() uint32 { return ^(uint32(1) << (16 + rng.IntN(16))) })
	fill(u64, func() uint64 { return 1 << rng.IntN(40) })
	reduce1(t, "sum", kokkos.Sum[int64], SumInt64, func(i int, acc *int64) { SumInt64(i, i64, acc) }, 0, i64)
	reduce1(t, "prod", kokkos.Prod[float64], ProdFloat64, func(i int, acc *float64) { ProdFloat64(i, f64, acc) }, 1e-12, f64)
	reduce1(t, "min", kokkos.Min[float32], MinFloat32, func(i int, acc *float32) { MinFloat32(i, f32, acc) }, 0, f32)
	reduce1(t, "max", kokkos.Max[int32], MaxInt32, func(i int, acc *int32) { MaxInt32(i, i32, acc) }, 0, i32)
	reduce1(t, "band", kokkos.BAnd[uint32], AndUint32, func(i int, acc *uint32) { AndUint32(i, u32, acc) }, 0, u32)
	reduce1(t, "bor", kokkos.BOr[uint64], OrUint64, func(i int, acc *uint64) { OrUint64(i, u64, acc) }, 0, u64)
	for _, th := range []float64{0.5, 2} {
		all := kokkos.ParallelReduce("ref", kokkos.Range(0, n), kokkos.LAnd(), func(i int, acc *bool) { AllBelow(i, f64, th, acc) })
		anyOf := kokkos.ParallelReduce("ref", kokkos.Range(0, n), kokkos.LOr(), func(i int, acc *bool) { AnyAbove(i, f64, th, acc) })
		if all != (th == 2) || anyOf != (th == 0.5) {
			t.Fatalf("threshold %v: reference all below %v, any above %v", th, all, anyOf)
		}
		for _, w := range places(t) {
			d := at(t, w, f64, kokkos.CreateMirror)
			got, err := kernel.Reduce("land", kokkos.Range(0, n).On(w.space), kokkos.LAnd(), AllBelow, d, th)
			if launched(t, w, err) && got != all {
				t.Errorf("%s: all below %v = %v, want %v", w.name, th, got, all)
			}
			got, err = kernel.Reduce("lor", kokkos.Range(0, n).On(w.space), kokkos.LOr(), AnyAbove, d, th)
			if launched(t, w, err) && got != anyOf {
				t.Errorf("%s: any above %v = %v, want %v", w.name, th, got, anyOf)
			}
		}
	}
}

// mdPolicies returns MDRange policies over [0, ext) in both inner orders
// and the default, with and without tiles.
func mdPolicies(ext, tiles []int) []kokkos.MDRangePolicy {
	lo := make([]int, len(ext))
	var ps []kokkos.MDRangePolicy
	for _, it := range []kokkos.Iterate{kokkos.IterateDefault, kokkos.IterateLeft, kokkos.IterateRight} {
		p := kokkos.MDRange(lo, ext).Order(it, it)
		ps = append(ps, p, p.Tile(tiles...))
	}
	return ps
}

// reduceMD checks an MDRange reduction kernel fn over a against the
// closure-based reduction of the same policy, which ref runs.
func reduceMD[T kokkos.Number, V interface{ kokkos.View[E] }, E any](t *testing.T, name string, r func() kokkos.Reducer[T], fn any, ref func(p kokkos.MDRangePolicy) T, rel float64, ext, tiles []int, a V, mirror func(V, ...kokkos.Option) (V, error)) {
	t.Helper()
	for _, p := range mdPolicies(ext, tiles) {
		want := ref(p)
		for _, w := range places(t) {
			got, err := kernel.Reduce(name, p.On(w.space), r(), fn, at(t, w, a, mirror))
			if !launched(t, w, err) {
				continue
			}
			if !sameTotal(w, got, want, rel) {
				t.Errorf("%s %v: %s = %v, want %v", w.name, p, name, got, want)
			}
		}
	}
}

func TestReduceMDRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(117, 1))
	a3 := kokkos.Must(kokkos.NewView3[float64]("a3", 5, 6, 7, kokkos.LayoutLeft))
	a4 := kokkos.Must(kokkos.NewView4[int32]("a4", 3, 4, 5, 6))
	a5 := kokkos.Must(kokkos.NewView5[int64]("a5", 2, 3, 4, 3, 2, kokkos.LayoutLeft))
	a6 := kokkos.Must(kokkos.NewView6[float32]("a6", 2, 3, 2, 3, 2, 2))
	b6 := kokkos.Must(kokkos.NewView6[float64]("b6", 2, 2, 3, 2, 3, 2, kokkos.LayoutLeft))
	fill(a3, randFloat[float64](rng, -1, 1))
	fill(a4, func() int32 { return rng.Int32N(1000) - 500 })
	fill(a5, randInt[int64](rng))
	fill(a6, randFloat[float32](rng, -10, 10))
	fill(b6, randFloat[float64](rng, -1, 1))
	reduceMD(t, "sum3", kokkos.Sum[float64], Sum3, func(p kokkos.MDRangePolicy) float64 {
		return kokkos.ParallelReduceMD("ref", p, kokkos.Sum[float64](), func(i, j, k int, acc *float64) { Sum3(i, j, k, a3, acc) })
	}, 1e-12, []int{5, 6, 7}, []int{2, 3, 4}, a3, kokkos.CreateMirror)
	reduceMD(t, "max4", kokkos.Max[int32], Max4, func(p kokkos.MDRangePolicy) int32 {
		return kokkos.ParallelReduceMD("ref", p, kokkos.Max[int32](), func(i, j, k, l int, acc *int32) { Max4(i, j, k, l, a4, acc) })
	}, 0, []int{3, 4, 5, 6}, []int{2, 2, 3, 4}, a4, kokkos.CreateMirror)
	reduceMD(t, "sum5", kokkos.Sum[int64], Sum5, func(p kokkos.MDRangePolicy) int64 {
		return kokkos.ParallelReduceMD("ref", p, kokkos.Sum[int64](), func(i0, i1, i2, i3, i4 int, acc *int64) { Sum5(i0, i1, i2, i3, i4, a5, acc) })
	}, 0, []int{2, 3, 4, 3, 2}, []int{1, 2, 3, 2, 2}, a5, kokkos.CreateMirror)
	reduceMD(t, "min6", kokkos.Min[float32], Min6, func(p kokkos.MDRangePolicy) float32 {
		return kokkos.ParallelReduceMD("ref", p, kokkos.Min[float32](), func(i0, i1, i2, i3, i4, i5 int, acc *float32) { Min6(i0, i1, i2, i3, i4, i5, a6, acc) })
	}, 0, []int{2, 3, 2, 3, 2, 2}, []int{1, 2, 2, 2, 1, 2}, a6, kokkos.CreateMirror)
	reduceMD(t, "prod6", kokkos.Prod[float64], Prod6, func(p kokkos.MDRangePolicy) float64 {
		return kokkos.ParallelReduceMD("ref", p, kokkos.Prod[float64](), func(i0, i1, i2, i3, i4, i5 int, acc *float64) { Prod6(i0, i1, i2, i3, i4, i5, b6, acc) })
	}, 1e-12, []int{2, 2, 3, 2, 3, 2}, []int{2, 1, 2, 2, 2, 1}, b6, kokkos.CreateMirror)
}

func TestScans(t *testing.T) {
	rng := rand.New(rand.NewPCG(118, 1))
	for _, n := range []int{1, 1000, 20001} {
		in32 := kokkos.Must(kokkos.NewView1[int32]("in32", n))
		in64 := kokkos.Must(kokkos.NewView1[float64]("in64", n))
		fill(in32, randInt[int32](rng))
		fill(in64, randFloat[float64](rng, -1, 1))
		w32 := kokkos.Must(kokkos.NewView1[int32]("w32", n))
		w64 := kokkos.Must(kokkos.NewView1[float64]("w64", n))
		t32 := kokkos.ParallelScan("ref", kokkos.Range(0, n), kokkos.Sum[int32](), func(i int, acc *int32, final bool) { ScanInclusive32(i, in32, w32, acc, final) })
		t64 := kokkos.ParallelScan("ref", kokkos.Range(0, n), kokkos.Sum[float64](), func(i int, acc *float64, final bool) { ScanExclusive64(i, in64, w64, acc, final) })
		abs := 0.0
		for i := range n {
			abs += math.Abs(in64.At(i))
		}
		for _, w := range places(t) {
			o32 := kokkos.Must(kokkos.NewView1[int32]("o32", n, kokkos.InSpace(w.mem)))
			keep(t, &o32)
			o64 := kokkos.Must(kokkos.NewView1[float64]("o64", n, kokkos.InSpace(w.mem)))
			keep(t, &o64)
			p := kokkos.Range(0, n).On(w.space)
			got32, err := kernel.Scan("inclusive", p, kokkos.Sum[int32](), ScanInclusive32, at(t, w, in32, kokkos.CreateMirror), o32)
			if launched(t, w, err) {
				if got32 != t32 {
					t.Errorf("%s n %d: inclusive total %d, want %d", w.name, n, got32, t32)
				}
				check(t, w, "inclusive", o32, w32)
			}
			got64, err := kernel.Scan("exclusive", p, kokkos.Sum[float64](), ScanExclusive64, at(t, w, in64, kokkos.CreateMirror), o64)
			if !launched(t, w, err) {
				continue
			}
			if w.mem == kokkos.HostSpace {
				if got64 != t64 {
					t.Errorf("%s n %d: exclusive total %v, want %v", w.name, n, got64, t64)
				}
				check(t, w, "exclusive", o64, w64)
				continue
			}
			// Another order of addition: within a bound relative to the
			// sum of the magnitudes.
			tol := 1e-12 * abs
			h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(o64))
			if math.Abs(got64-t64) > tol {
				t.Errorf("%s n %d: exclusive total %v, want %v", w.name, n, got64, t64)
			}
			for i := range n {
				if math.Abs(h.At(i)-w64.At(i)) > tol {
					t.Fatalf("%s n %d: exclusive(%d) = %v, want %v", w.name, n, i, h.At(i), w64.At(i))
				}
			}
		}
	}
}

func TestLayoutsAndStrides(t *testing.T) {
	rng := rand.New(rand.NewPCG(119, 1))
	const n0, n1 = 23, 31
	const a = 1.25
	// y: LayoutLeft, then every other column of a larger buffer (explicit
	// strides); x: LayoutRight, then a block of a larger LayoutLeft view;
	// both read-only.
	yl := kokkos.Must(kokkos.NewView2[float64]("yl", n0, n1, kokkos.LayoutLeft))
	ys := kokkos.Must(kokkos.NewView2[float64]("ys", n0, n1, kokkos.WithStrides(2*n1, 2)))
	xr := kokkos.Must(kokkos.NewView2[float64]("xr", n0, n1))
	xp := kokkos.Must(kokkos.NewView2[float64]("xp", n0+3, n1+5, kokkos.LayoutLeft))
	for _, v := range []kokkos.View2[float64]{yl, ys, xr, xp} {
		fill(v, randFloat[float64](rng, -1, 1))
	}
	type pair struct {
		name string
		y    func(w where) kokkos.View2[float64]
		x    func(w where) kokkos.View2[float64]
	}
	left := func(w where) kokkos.View2[float64] { return at(t, w, yl, kokkos.CreateMirror) }
	strided := func(w where) kokkos.View2[float64] {
		v := kokkos.Must(kokkos.NewView2[float64]("ys", n0, n1, kokkos.WithStrides(2*n1, 2), kokkos.InSpace(w.mem)))
		keep(t, &v)
		if err := kokkos.DeepCopy[float64](v, ys); err != nil {
			t.Fatal(err)
		}
		return v
	}
	right := func(w where) kokkos.View2[float64] {
		v := at(t, w, xr, kokkos.CreateMirror)
		return v.ReadOnly()
	}
	block := func(w where) kokkos.View2[float64] {
		p := at(t, w, xp, kokkos.CreateMirror)
		s := p.Subview2(kokkos.Pair(1, n0+1), kokkos.Pair(2, n1+2))
		return s.ReadOnly()
	}
	for _, c := range []pair{{"left+right", left, right}, {"strided+block", strided, block}, {"left+block", left, block}, {"strided+right", strided, right}} {
		for _, it := range []kokkos.Iterate{kokkos.IterateLeft, kokkos.IterateRight} {
			// The reference: compact copies of y, the host x.
			ry := c.y(refPlace)
			rx := c.x(refPlace)
			for i := range n0 {
				for j := range n1 {
					Axpy2(i, j, ry, rx, a)
				}
			}
			for _, w := range places(t) {
				y := c.y(w)
				p := kokkos.MDRange([]int{0, 0}, []int{n0, n1}).Order(it, it).Tile(4, 4).On(w.space)
				if launched(t, w, kernel.For("axpy2", p, Axpy2, y, c.x(w), a)) {
					check(t, w, c.name+" y", y, ry)
				}
			}
		}
	}

	// A column of a LayoutRight view, a row of a LayoutLeft one: rank-1
	// views with a stride; the rest of the parent stays as it was.
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		par := kokkos.Must(kokkos.NewView2[float64]("par", n0, n1, lay))
		fill(par, randFloat[float64](rng, -1, 1))
		line := func(v *kokkos.View2[float64]) kokkos.View1[float64] {
			if lay == kokkos.LayoutRight {
				return v.Subview1(kokkos.All, 3)
			}
			return v.Subview1(2, kokkos.All)
		}
		ref := at(t, refPlace, par, kokkos.CreateMirror)
		rl := line(&ref)
		for i := range rl.Extent(0) {
			Scale1(i, rl, -3)
		}
		for _, w := range places(t) {
			d := at(t, w, par, kokkos.CreateMirror)
			l := line(&d)
			if launched(t, w, kernel.For("scale1", kokkos.Range(0, l.Extent(0)).On(w.space), Scale1, l, -3)) {
				check(t, w, fmt.Sprintf("%v parent", lay), d, ref)
			}
		}
	}
}

func TestScalars(t *testing.T) {
	const n = 1000
	const m = uint64(0xF000_0000_0000_0000)
	for _, neg := range []bool{false, true} {
		wo := kokkos.Must(kokkos.NewView1[int64]("wo", n))
		wf := kokkos.Must(kokkos.NewView1[float32]("wf", n))
		for i := range n {
			Scalars(i, wo, wf, neg, -3, 65535, 0.5, 7, m)
		}
		for _, w := range places(t) {
			out := kokkos.Must(kokkos.NewView1[int64]("out", n, kokkos.InSpace(w.mem)))
			keep(t, &out)
			f := kokkos.Must(kokkos.NewView1[float32]("f", n, kokkos.InSpace(w.mem)))
			keep(t, &f)
			// Untyped constants for the int8, uint16, float32 and int parameters.
			if launched(t, w, kernel.For("scalars", kokkos.Range(0, n).On(w.space), Scalars, out, f, neg, -3, 65535, 0.5, 7, m)) {
				check(t, w, "out", out, wo)
				check(t, w, "f", f, wf)
			}
		}
	}
}

// forMD checks an MDRange For kernel over every policy of mdPolicies and
// both layouts: launch runs the kernel at w with views of layout lay and
// returns its output, ref the kernel in a closure over the reference's.
func forMD[V interface{ kokkos.View[T] }, T kokkos.Number](t *testing.T, name string, ext, tiles []int,
	launch func(w where, p kokkos.MDRangePolicy, lay kokkos.Layout) (V, error), ref func(p kokkos.MDRangePolicy, lay kokkos.Layout) V) {
	t.Helper()
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		for _, p := range mdPolicies(ext, tiles) {
			want := ref(p, lay)
			for _, w := range places(t) {
				out, err := launch(w, p.On(w.space), lay)
				if launched(t, w, err) {
					check(t, w, fmt.Sprintf("%s %v %v", name, lay, p), out, want)
				}
			}
		}
	}
}

func TestMDRangeRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(120, 1))
	{
		const n0, n1 = 13, 17
		a := kokkos.Must(kokkos.NewView2[float64]("a", n0, n1))
		b := kokkos.Must(kokkos.NewView2[int32]("b", n0, n1, kokkos.LayoutLeft))
		fill(a, randFloat[float64](rng, -1, 1))
		fill(b, func() int32 { return rng.Int32N(201) - 100 })
		forMD(t, "mix2", []int{n0, n1}, []int{4, 8}, func(w where, p kokkos.MDRangePolicy, lay kokkos.Layout) (kokkos.View2[float64], error) {
			out := kokkos.Must(kokkos.NewView2[float64]("out", n0, n1, lay, kokkos.InSpace(w.mem)))
			keep(t, &out)
			return out, kernel.For("mix2", p, Mix2, out, at(t, w, a, kokkos.CreateMirror), at(t, w, b, kokkos.CreateMirror))
		}, func(p kokkos.MDRangePolicy, lay kokkos.Layout) kokkos.View2[float64] {
			out := kokkos.Must(kokkos.NewView2[float64]("out", n0, n1, lay))
			kokkos.ParallelForMD("ref", p, func(i, j int) { Mix2(i, j, out, a, b) })
			return out
		})
	}
	{
		ext := []int{5, 6, 7}
		a := kokkos.Must(kokkos.NewView3[int64]("a", 5, 6, 7))
		fill(a, func() int64 { return rng.Int64N(1<<40) - 1<<39 })
		forMD(t, "mix3", ext, []int{2, 3, 4}, func(w where, p kokkos.MDRangePolicy, lay kokkos.Layout) (kokkos.View3[int64], error) {
			out := kokkos.Must(kokkos.NewView3[int64]("out", 5, 6, 7, lay, kokkos.InSpace(w.mem)))
			keep(t, &out)
			return out, kernel.For("mix3", p, Mix3, out, at(t, w, a, kokkos.CreateMirror))
		}, func(p kokkos.MDRangePolicy, lay kokkos.Layout) kokkos.View3[int64] {
			out := kokkos.Must(kokkos.NewView3[int64]("out", 5, 6, 7, lay))
			kokkos.ParallelForMD("ref", p, func(i, j, k int) { Mix3(i, j, k, out, a) })
			return out
		})
	}
	{
		ext := []int{3, 4, 5, 6}
		a := kokkos.Must(kokkos.NewView4[float32]("a", 3, 4, 5, 6, kokkos.LayoutLeft))
		fill(a, randFloat[float32](rng, -1, 1))
		const s = 1.5
		forMD(t, "mix4", ext, []int{2, 2, 3, 4}, func(w where, p kokkos.MDRangePolicy, lay kokkos.Layout) (kokkos.View4[float32], error) {
			out := kokkos.Must(kokkos.NewView4[float32]("out", 3, 4, 5, 6, lay, kokkos.InSpace(w.mem)))
			keep(t, &out)
			return out, kernel.For("mix4", p, Mix4, out, at(t, w, a, kokkos.CreateMirror), s)
		}, func(p kokkos.MDRangePolicy, lay kokkos.Layout) kokkos.View4[float32] {
			out := kokkos.Must(kokkos.NewView4[float32]("out", 3, 4, 5, 6, lay))
			kokkos.ParallelForMD("ref", p, func(i, j, k, l int) { Mix4(i, j, k, l, out, a, s) })
			return out
		})
	}
	{
		ext := []int{3, 2, 4, 3, 2}
		a := kokkos.Must(kokkos.NewView5[int32]("a", 3, 2, 4, 3, 2))
		fill(a, randInt[int32](rng))
		forMD(t, "mix5", ext, []int{2, 1, 3, 2, 2}, func(w where, p kokkos.MDRangePolicy, lay kokkos.Layout) (kokkos.View5[int32], error) {
			out := kokkos.Must(kokkos.NewView5[int32]("out", 3, 2, 4, 3, 2, lay, kokkos.InSpace(w.mem)))
			keep(t, &out)
			return out, kernel.For("mix5", p, Mix5, out, at(t, w, a, kokkos.CreateMirror))
		}, func(p kokkos.MDRangePolicy, lay kokkos.Layout) kokkos.View5[int32] {
			out := kokkos.Must(kokkos.NewView5[int32]("out", 3, 2, 4, 3, 2, lay))
			kokkos.ParallelForMD("ref", p, func(i0, i1, i2, i3, i4 int) { Mix5(i0, i1, i2, i3, i4, out, a) })
			return out
		})
	}
	{
		ext := []int{2, 3, 2, 3, 2, 3}
		a := kokkos.Must(kokkos.NewView6[float64]("a", 2, 3, 2, 3, 2, 3, kokkos.LayoutLeft))
		fill(a, randFloat[float64](rng, -1, 1))
		forMD(t, "mix6", ext, []int{1, 2, 2, 2, 1, 3}, func(w where, p kokkos.MDRangePolicy, lay kokkos.Layout) (kokkos.View6[float64], error) {
			out := kokkos.Must(kokkos.NewView6[float64]("out", 2, 3, 2, 3, 2, 3, lay, kokkos.InSpace(w.mem)))
			keep(t, &out)
			return out, kernel.For("mix6", p, Mix6, out, at(t, w, a, kokkos.CreateMirror))
		}, func(p kokkos.MDRangePolicy, lay kokkos.Layout) kokkos.View6[float64] {
			out := kokkos.Must(kokkos.NewView6[float64]("out", 2, 3, 2, 3, 2, 3, lay))
			kokkos.ParallelForMD("ref", p, func(i0, i1, i2, i3, i4, i5 int) { Mix6(i0, i1, i2, i3, i4, i5, out, a) })
			return out
		})
	}
}

// BenchmarkMix3 times a rank-3 MDRange kernel against the same function
// called from a closure, per index, as kokkos.ParallelForMD's body.
func BenchmarkMix3(b *testing.B) {
	const n0, n1, n2 = 64, 64, 64
	a := kokkos.Must(kokkos.NewView3[int64]("a", n0, n1, n2))
	out := kokkos.Must(kokkos.NewView3[int64]("out", n0, n1, n2))
	rng := rand.New(rand.NewPCG(121, 1))
	fill(a, randInt[int64](rng))
	p := kokkos.MDRange([]int{0, 0, 0}, []int{n0, n1, n2})
	b.Run("kernel", func(b *testing.B) {
		b.SetBytes(2 * 8 * n0 * n1 * n2)
		for b.Loop() {
			if err := kernel.For("mix3", p, Mix3, out, a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("closure", func(b *testing.B) {
		b.SetBytes(2 * 8 * n0 * n1 * n2)
		for b.Loop() {
			kokkos.ParallelForMD("mix3", p, func(i, j, k int) { Mix3(i, j, k, out, a) })
		}
	})
}
