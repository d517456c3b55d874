package kernelir

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sample is a description with every node: helpers of one and two
// results, each statement, each expression.
const sample = `kernelir 1
(func half ((x float64)) (float64)
  (body
    (return (div float64 x (float64 2)))))
(func split ((n int32) (_ bool)) ((q int32) (r int32))
  (body
    (assign (q r) ((div int32 n (int32 3)) (rem int32 n (int32 3))))
    (return q r)))
(func twice ((n int32)) (int32 int32)
  (body
    (return (call split n (bool true)))))
(kernel K reduce (index i)
  (view a float64 1 w)
  (view b int32 2 r)
  (scalar s float32)
  (scalar k int8)
  (acc int64)
  (body
    (var ((x float64) (y float64)) ((at a i) (float64 0.5)))
    (assign ((new z float64) x) ((call half x) (mul float64 x y)))
    (assign ((new q int32) (new r int32)) ((call twice (at b i (int 0)))))
    (opassign shl q (int 3))
    (inc r)
    (if (init (assign ((new c bool)) ((lt float64 x z)))) c
      (then (assign ((at a i)) ((math Sqrt (math Abs z)))))
      (else (if (not c) (then (return)))))
    (for (init (assign ((new j int)) ((int 0)))) (cond (lt int j (extent b 1))) (post (inc j))
      (body
        (switch (tag (at b i j))
          (case ((int32 1) (int32 2)) (continue))
          (default (opassign add (acc) (conv int64 (at b i j)))))))
    (range (new m int) int (int 4)
      (body (do (atomic FetchAdd a (i) (float64 1)))))
    (range _ int8 k (body (dec (acc))))
    (switch (case ((land (gt float32 s (float32 0.25)) (lor (ne int8 k (int8 -3)) (bool false)))) (return)))
    (assign (_ (acc)) ((neg float32 s) (max int64 (int64 -1) (conv int64 (cpl int8 k)) (acc))))
    (block (var ((w uint64)) ()) (assign (w) ((andnot uint64 w (shr uint64 (uint64 18446744073709551615) (int32 3))))))))
`

func TestPrintParse(t *testing.T) {
	k, err := Parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	text := Print(k)
	if squash(text) != squash(sample) {
		t.Errorf("Print differs from the text parsed:\n%s", text)
	}
	k2, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if Print(k2) != text {
		t.Errorf("Print(Parse(Print)) differs")
	}
	if got := PrintHelpers(k.Helpers) + PrintKernel(k); got != text {
		t.Errorf("PrintHelpers + PrintKernel differ from Print")
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		text string
		want error
		msg  string
	}{
		{"", ErrSyntax, "kernelir 1"},
		{"kernelir 2\n(kernel K for (index i) (body))", ErrVersion, "run go generate"},
		{"kernelir 1\n(kernel K for (index i) (body)", ErrSyntax, "unclosed"},
		{"kernelir 1\n(kernel K for (index i) (body)))", ErrSyntax, "unmatched"},
		{"kernelir 1\n", ErrSyntax, "no kernel"},
		{"kernelir 1\n(kernel K for (index i) (body (assign (x) ((int 1)))))", ErrInvalid, "undeclared x"},
		{"kernelir 1\n(kernel K for (index i) (body (assign (i) ((int 1)))))", ErrInvalid, "index or the final flag"},
		{"kernelir 1\n(kernel K for (index i) (body (break)))", ErrInvalid, "break outside"},
		{"kernelir 1\n(kernel K for (index i) (body (assign (_) ((add int i (int32 1))))))", ErrInvalid, "int32 where a int"},
		{"kernelir 1\n(kernel K for (index i) (view a float64 1 r) (body (assign ((at a i)) ((float64 1)))))", ErrInvalid, "not marked written"},
		{"kernelir 1\n(kernel K for (index i) (view a float64 2 w) (body (assign ((at a i)) ((float64 1)))))", ErrInvalid, "rank 2 indexed with 1"},
		{"kernelir 1\n(func f () () (body (do (call f))))\n(kernel K for (index i) (body))", ErrInvalid, "calls itself"},
		{"kernelir 1\n(kernel K for (index i) (body (assign (_) ((int8 300)))))", ErrSyntax, "literal of type int8"},
		{"kernelir 1\n(kernel K reduce (index i) (body))", ErrInvalid, "acc"},
		{"kernelir 1\n" + strings.Repeat("(", 1000), ErrSyntax, "nested deeper"},
	} {
		_, err := Parse(c.text)
		if !errors.Is(err, c.want) || !strings.Contains(fmtErr(err), c.msg) {
			t.Errorf("Parse(%.60q) = %v, want %v saying %q", c.text, err, c.want, c.msg)
		}
	}
}

// squash drops the layout of a text.
func squash(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(strings.ReplaceAll(s, "( ", "("), " )", ")")
}

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func FuzzParse(f *testing.F) {
	f.Add(sample)
	f.Add("kernelir 1\n(kernel K for (index i) (body))")
	f.Add("kernelir 1\n(kernel K scan (index i) (scalar n int) (acc int) (final f) (body (if f (then (opassign add (acc) n)))))")
	f.Add(teamSample) // team.go's nodes
	f.Add(teamHist)
	// The descriptions of kokkos-kernelgen's cases, every construct.
	if cases, err := os.ReadFile(filepath.Join("..", "..", "cmd", "kokkos-kernelgen", "testdata", "cuda_cases.ir.txt")); err == nil {
		for _, rec := range strings.Split(string(cases), "=== ")[1:] {
			_, text, _ := strings.Cut(rec, "\n")
			f.Add(text)
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		k, err := Parse(text)
		if err != nil {
			if !errors.Is(err, ErrSyntax) && !errors.Is(err, ErrVersion) && !errors.Is(err, ErrInvalid) {
				t.Fatalf("Parse error %v wraps no sentinel", err)
			}
			return
		}
		// A description that parses prints to a text that parses to itself.
		out := Print(k)
		k2, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Print(k)): %v\n%s", err, out)
		}
		if Print(k2) != out {
			t.Fatalf("Print is not stable:\n%s\n%s", out, Print(k2))
		}
	})
}

// TestMachineSample runs the sample kernel against the same computation
// written in Go.
func TestMachineSample(t *testing.T) {
	k, err := Parse(sample)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 1 + rng.IntN(5)
		a := make([]float64, n)
		b := make([]int32, n*3)
		for j := range a {
			a[j] = rng.Float64()*8 - 4
		}
		for j := range b {
			b[j] = int32(rng.IntN(7)) - 2
		}
		s, kk := float32(rng.Float64()), int8(rng.IntN(256))
		a2 := append([]float64(nil), a...)
		i := rng.IntN(n)
		var acc, acc2 int64 = rng.Int64N(100), 0
		acc2 = acc
		m, err := NewMachine(k, View{Data: a, Extents: []int{n}, Strides: []int{1}}, View{Data: b, Extents: []int{n, 3}, Strides: []int{3, 1}}, s, kk)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run([]int{i}, &acc, false); err != nil {
			t.Fatal(err)
		}
		sampleGo(i, a2, b, s, kk, &acc2)
		for j := range a {
			if math.Float64bits(a[j]) != math.Float64bits(a2[j]) {
				t.Fatalf("a[%d] = %v, want %v", j, a[j], a2[j])
			}
		}
		if acc != acc2 {
			t.Fatalf("acc = %d, want %d", acc, acc2)
		}
	}
}

func sampleGo(i int, a []float64, b []int32, s float32, k int8, acc *int64) {
	half := func(x float64) float64 { return x / 2 }
	split := func(n int32, _ bool) (q, r int32) {
		q, r = n/3, n%3
		return q, r
	}
	twice := func(n int32) (int32, int32) { return split(n, true) }
	x, y := a[i], 0.5
	z, x := half(x), x*y
	q, r := twice(b[i*3])
	q <<= 3
	r++
	_, _ = q, r
	if c := x < z; c {
		a[i] = math.Sqrt(math.Abs(z))
	} else if !c {
		return
	}
	for j := 0; j < 3; j++ {
		switch b[i*3+j] {
		case 1, 2:
			continue
		default:
			*acc += int64(b[i*3+j])
		}
	}
	for range 4 {
		a[i]++
	}
	for range k {
		*acc--
	}
	switch {
	case s > 0.25 && (k != -3 || false):
		return
	}
	*acc = max(-1, int64(^k), *acc)
}

// TestIntegerSemantics checks the operators on every integer type
// against Go's on random operands.
func TestIntegerSemantics(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		a, b := rng.Uint64(), rng.Uint64()
		if rng.IntN(4) == 0 {
			b = uint64(rng.IntN(5)) - 2
		}
		n := uint64(rng.IntN(80))
		checkInt[int8](t, a, b, n, Int8)
		checkInt[int16](t, a, b, n, Int16)
		checkInt[int32](t, a, b, n, Int32)
		checkInt[int64](t, a, b, n, Int64)
		checkInt[int](t, a, b, n, Int)
		checkInt[uint8](t, a, b, n, Uint8)
		checkInt[uint16](t, a, b, n, Uint16)
		checkInt[uint32](t, a, b, n, Uint32)
		checkInt[uint64](t, a, b, n, Uint64)
	}
}

type integer interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func checkInt[T integer](t *testing.T, ra, rb, n uint64, ty Type) {
	t.Helper()
	x, y := T(ra), T(rb)
	a, b := uint64(x), uint64(y)
	if ty.IsSigned() {
		a, b = uint64(int64(x)), uint64(int64(y))
	}
	want := map[string]T{"add": x + y, "sub": x - y, "mul": x * y, "and": x & y, "or": x | y, "xor": x ^ y, "andnot": x &^ y}
	if y != 0 {
		want["div"], want["rem"] = x/y, x%y
	}
	for op, w := range want {
		if got := binop(op, ty, a, b); got != norm(ty, uint64(w)) {
			t.Fatalf("%s %s %d %d = %d, want %d", ty, op, x, y, int64(got), w)
		}
	}
	if got, w := shift("shl", ty, a, n), x<<n; got != norm(ty, uint64(w)) {
		t.Fatalf("%s %d << %d = %d, want %d", ty, x, n, int64(got), w)
	}
	if got, w := shift("shr", ty, a, n), x>>n; got != norm(ty, uint64(w)) {
		t.Fatalf("%s %d >> %d = %d, want %d", ty, x, n, int64(got), w)
	}
	for op, w := range map[string]bool{"lt": x < y, "le": x <= y, "gt": x > y, "ge": x >= y, "eq": x == y, "ne": x != y} {
		if compare(op, ty, a, b) != w {
			t.Fatalf("%s %s %d %d", ty, op, x, y)
		}
	}
	if got, w := minMax(false, ty, a, b), min(x, y); got != norm(ty, uint64(w)) {
		t.Fatalf("min %s", ty)
	}
	if got, w := minMax(true, ty, a, b), max(x, y); got != norm(ty, uint64(w)) {
		t.Fatalf("max %s", ty)
	}
	if got, w := convert(Float32, ty, a), float32(x); math.Float64frombits(got) != float64(w) {
		t.Fatalf("float32(%s %d) = %v, want %v", ty, x, math.Float64frombits(got), w)
	}
	if got, w := convert(Int8, ty, a), int8(x); got != uint64(int64(w)) {
		t.Fatalf("int8(%s %d)", ty, x)
	}
	if got, w := convert(Uint16, ty, a), uint16(x); got != uint64(w) {
		t.Fatalf("uint16(%s %d)", ty, x)
	}
}

// TestDivideByZero: Go panics, the machine fails with ErrRun.
func TestDivideByZero(t *testing.T) {
	k, err := Parse("kernelir 1\n(kernel K for (index i) (view a int32 1 w) (body (assign ((at a i)) ((div int32 (int32 1) (at a i))))))")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMachine(k, View{Data: []int32{0}, Extents: []int{1}, Strides: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run([]int{0}, nil, false); !errors.Is(err, ErrRun) {
		t.Errorf("1/0 gave %v", err)
	}
	if err := m.Run([]int{1}, nil, false); !errors.Is(err, ErrRun) || !strings.Contains(err.Error(), "out of bounds") {
		t.Errorf("a.At(1) of a view of 1 gave %v", err)
	}
}

// TestFloatSemantics checks float32 and float64 operators, min and max.
func TestFloatSemantics(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1, -1}
	pick := func() float64 {
		if rng.IntN(5) == 0 {
			return specials[rng.IntN(len(specials))]
		}
		return (rng.Float64() - 0.5) * math.Exp(rng.Float64()*40-20)
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	for range 20000 {
		x, y := pick(), pick()
		want := map[string]float64{"add": x + y, "sub": x - y, "mul": x * y, "div": x / y}
		for op, w := range want {
			if got := math.Float64frombits(binop(op, Float64, math.Float64bits(x), math.Float64bits(y))); !same(got, w) {
				t.Fatalf("%v %s %v = %v, want %v", x, op, y, got, w)
			}
		}
		f, g := float32(x), float32(y)
		want32 := map[string]float32{"add": f + g, "sub": f - g, "mul": f * g, "div": f / g}
		for op, w := range want32 {
			if got := math.Float64frombits(binop(op, Float32, math.Float64bits(float64(f)), math.Float64bits(float64(g)))); !same(got, float64(w)) {
				t.Fatalf("float32 %v %s %v = %v, want %v", f, op, g, got, w)
			}
		}
		if got := math.Float64frombits(minMax(false, Float64, math.Float64bits(x), math.Float64bits(y))); !same(got, min(x, y)) {
			t.Fatalf("min(%v, %v) = %v", x, y, got)
		}
		if got := math.Float64frombits(minMax(true, Float64, math.Float64bits(x), math.Float64bits(y))); !same(got, max(x, y)) {
			t.Fatalf("max(%v, %v) = %v", x, y, got)
		}
		if got := math.Float64frombits(convert(Float32, Float64, math.Float64bits(x))); !same(got, float64(float32(x))) {
			t.Fatalf("float32(%v)", x)
		}
		if math.Abs(x) < 1e9 {
			if got := convert(Int32, Float64, math.Float64bits(x)); int32(got) != int32(x) {
				t.Fatalf("int32(%v) = %d", x, int32(got))
			}
		}
	}
}

// TestNamedResultsAndParams: a bare return gives the named results; a
// scalar parameter assigned is the call's own copy; a shadowing local
// hides a view's name.
func TestNamedResultsAndParams(t *testing.T) {
	k, err := Parse(Header + `(func f ((x int)) ((r int) (_ int))
  (body (assign (r) ((add int x (int 1)))) (return)))
(kernel K for (index i) (view a int 1 w) (scalar n int)
  (body
    (opassign mul n (int 3))
    (assign ((new q int) _) ((call f n)))
    (block (assign ((new a int)) ((int 7))) (opassign add q a))
    (assign ((at a i)) ((add int q n)))))`)
	if err != nil {
		t.Fatal(err)
	}
	data := []int{0, 0}
	m, err := NewMachine(k, View{Data: data, Extents: []int{2}, Strides: []int{1}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := m.Run([]int{i}, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	// n = 15 each call; q = 16 + 7.
	if data[0] != 38 || data[1] != 38 {
		t.Errorf("got %v, want [38 38]", data)
	}
	if _, err := NewMachine(k, View{Data: []int{0}, Extents: []int{2}, Strides: []int{1}}, 5); err == nil {
		t.Error("a view reaching past its data was bound")
	}
	if _, err := NewMachine(k, View{Data: data, Extents: []int{2}, Strides: []int{1}}, int32(5)); err == nil {
		t.Error("an int32 for an int parameter was bound")
	}
}
