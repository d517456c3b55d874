package kernelir

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"
)

// localSample uses every composite node: arrays (of arrays), structs with
// array fields, literals, parts as targets, helpers of struct parameters
// and results, a helper with a pointer parameter.
const localSample = `kernelir 1
(struct vec3 (X float64) (Y float64) (Z float64))
(struct rng (s uint64))
(func dot ((a vec3) (b vec3)) (float64)
  (body
    (return (add float64 (add float64 (mul float64 (field a X) (field b X)) (mul float64 (field a Y) (field b Y))) (mul float64 (field a Z) (field b Z))))))
(func scale ((a vec3) (f float64)) (vec3)
  (body
    (return (lit vec3 (mul float64 (field a X) f) (mul float64 (field a Y) f) (mul float64 (field a Z) f)))))
(func next ((r *rng)) (uint64)
  (body
    (opassign xor (field r s) (shr uint64 (field r s) (int 12)))
    (opassign xor (field r s) (shl uint64 (field r s) (int 25)))
    (opassign xor (field r s) (shr uint64 (field r s) (int 27)))
    (return (mul uint64 (field r s) (uint64 2685821657736338717)))))
(struct box (lo [3]float64) (n int32))
(kernel K for (index i)
  (view out float64 1 w)
  (view hist int32 1 w)
  (view in int32 1 r)
  (scalar seed uint64)
  (body
    (var ((h [4]int32)) ())
    (range (new k int) int (int 8)
      (body (opassign add (index h (rem int (add int i k) (int 4))) (at in (rem int (add int i k) (extent in 0))))))
    (var ((m [2][2]int32)) ())
    (assign ((index (index m (int 1)) (int 0))) ((index h (int 3))))
    (assign ((new g [2][2]int32)) (m))
    (inc (index (index g (int 1)) (int 0)))
    (var ((v vec3)) ((lit vec3 (float64 1) (conv float64 i) (float64 -2))))
    (assign ((field v Z)) ((add float64 (field v Z) (float64 0.5))))
    (var ((w vec3)) ((call scale v (float64 3))))
    (var ((b box)) ())
    (assign ((index (field b lo) (int 2))) ((call dot v w)))
    (assign ((new r rng)) ((lit rng (add uint64 seed (conv uint64 i)))))
    (var ((x uint64)) ((call next (addr r))))
    (assign (x) ((add uint64 x (call next (addr r)))))
    (assign ((at out i)) ((add float64 (index (field b lo) (int 2)) (conv float64 (shr uint64 x (int 40))))))
    (assign ((at out i)) ((add float64 (at out i) (conv float64 (add int32 (index (index m (int 1)) (int 0)) (index (index g (int 1)) (int 0)))))))
    (range (new k int) int (int 4)
      (body (do (atomic Add hist (k) (index h k)))))))
`

// localRef is the Go of localSample's kernel.
func localRef(i int, out []float64, hist []int32, in []int32, seed uint64) {
	var h [4]int32
	for k := range 8 {
		h[(i+k)%4] += in[(i+k)%len(in)]
	}
	var m [2][2]int32
	m[1][0] = h[3]
	g := m
	g[1][0]++
	type vec3 struct{ X, Y, Z float64 }
	v := vec3{1, float64(i), -2}
	v.Z = v.Z + 0.5
	w := vec3{v.X * 3, v.Y * 3, v.Z * 3}
	var b struct {
		lo [3]float64
		n  int32
	}
	b.lo[2] = v.X*w.X + v.Y*w.Y + v.Z*w.Z
	r := seed + uint64(i)
	next := func() uint64 {
		r ^= r >> 12
		r ^= r << 25
		r ^= r >> 27
		return r * 2685821657736338717
	}
	x := next()
	x = x + next()
	out[i] = b.lo[2] + float64(x>>40)
	out[i] = out[i] + float64(m[1][0]+g[1][0])
	for k := range 4 {
		hist[k] += h[k]
	}
}

func TestLocalPrintParse(t *testing.T) {
	k, err := Parse(localSample)
	if err != nil {
		t.Fatal(err)
	}
	text := Print(k)
	k2, err := Parse(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if Print(k2) != text {
		t.Errorf("Print(Parse(Print)) differs:\n%s", Print(k2))
	}
	if !strings.Contains(text, "(struct box (lo [3]float64) (n int32))") || !strings.Contains(text, "(func next ((r *rng)) (uint64)") {
		t.Errorf("Print lost a type:\n%s", text)
	}
}

func TestLocalRun(t *testing.T) {
	k, err := Parse(localSample)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 37
	in := make([]int32, n)
	for j := range in {
		in[j] = rng.Int32N(1000) - 500
	}
	seed := rng.Uint64()
	out, hist := make([]float64, n), make([]int32, 4)
	wantOut, wantHist := make([]float64, n), make([]int32, 4)
	m, err := NewMachine(k, View{Data: out, Extents: []int{n}, Strides: []int{1}}, View{Data: hist, Extents: []int{4}, Strides: []int{1}},
		View{Data: in, Extents: []int{n}, Strides: []int{1}}, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := m.Run([]int{i}, nil, false); err != nil {
			t.Fatal(err)
		}
		localRef(i, wantOut, wantHist, in, seed)
	}
	for i := range n {
		if math.Float64bits(out[i]) != math.Float64bits(wantOut[i]) {
			t.Errorf("out[%d] = %v, want %v", i, out[i], wantOut[i])
		}
	}
	for j := range hist {
		if hist[j] != wantHist[j] {
			t.Errorf("hist[%d] = %d, want %d", j, hist[j], wantHist[j])
		}
	}
}

func TestLocalIndexOutOfRange(t *testing.T) {
	k, err := Parse(`kernelir 1
(kernel K for (index i)
  (view a int32 1 w)
  (body
    (var ((h [16]int32)) ())
    (assign ((index h (mul int (sub int i (int 1)) (int 15)))) ((int32 7)))
    (assign ((at a i)) ((index h (int 0))))))
`)
	if err != nil {
		t.Fatal(err)
	}
	a := make([]int32, 4)
	m, err := NewMachine(k, View{Data: a, Extents: []int{4}, Strides: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	for i, ok := range []bool{false, true, true, false} {
		err := m.Run([]int{i}, nil, false)
		if ok != (err == nil) || err != nil && !errors.Is(err, ErrRun) {
			t.Errorf("index %d: %v", i, err)
		}
		if i == 0 && (err == nil || !strings.Contains(err.Error(), "index out of range [-15] with length 16")) {
			t.Errorf("index 0: %v", err)
		}
	}
	if a[1] != 7 || a[2] != 0 {
		t.Errorf("a = %v, want a[1] 7 and a[2] 0", a)
	}
}

func TestLocalStructParam(t *testing.T) {
	k, err := Parse(`kernelir 1
(struct pair (a float32) (b [2]int32))
(kernel K for (index i)
  (view o float64 1 w)
  (scalar p pair)
  (body (assign ((at o i)) ((add float64 (conv float64 (field p a)) (conv float64 (index (field p b) (rem int i (int 2)))))))))
`)
	if err != nil {
		t.Fatal(err)
	}
	type pair struct {
		a float32
		b [2]int32
	}
	o := make([]float64, 2)
	m, err := NewMachine(k, View{Data: o, Extents: []int{2}, Strides: []int{1}}, pair{1.5, [2]int32{3, -4}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := m.Run([]int{i}, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	if o[0] != 4.5 || o[1] != -2.5 {
		t.Errorf("o = %v", o)
	}
	if _, err := NewMachine(k, View{Data: o, Extents: []int{2}, Strides: []int{1}}, struct{ a float64 }{1}); err == nil {
		t.Errorf("a struct of other fields was accepted")
	}
}

func TestLocalInvalid(t *testing.T) {
	head := "kernelir 1\n(struct s (X float64))\n"
	for _, c := range []struct{ body, msg string }{
		{"(var ((h [4]int32)) ()) (assign ((index h (int 4))) ((int32 1)))", "constant index 4 of a [4]int32"},
		{"(var ((h [4]int32)) ()) (assign (h) ((int32 1)))", "an assignment of a int32 to a [4]int32"},
		{"(var ((v s)) ()) (assign ((field v Y)) ((float64 1)))", "s has no field Y"},
		{"(var ((v s)) ()) (var ((y float64)) ((add float64 (field v X) (int 1))))", "a int where a float64 is wanted"},
		{"(var ((v s)) ((lit s (float64 1) (float64 2))))", "a literal of 2 fields of a s"},
		{"(var ((v s) (w s)) ()) (var ((b bool)) ((eq s v w)))", "comparison of s"},
		{"(var ((p *s)) ())", "a variable p of type *s"},
		{"(var ((x float64)) ()) (var ((y int)) ((index x (int 0))))", "an index of a float64"},
	} {
		_, err := Parse(head + "(kernel K for (index i) (body " + c.body + "))\n")
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.body, err, c.msg)
		}
	}
	if _, err := Parse("kernelir 1\n(struct s (X float64))\n(struct s (Y float64))\n(kernel K for (index i) (body))\n"); !errors.Is(err, ErrSyntax) {
		t.Errorf("two structs s: %v", err)
	}
	if _, err := Parse("kernelir 1\n(kernel K for (index i) (body (var ((h [0]int32)) ())))\n"); err == nil {
		t.Errorf("[0]int32 accepted")
	}
}

// viewHelpers has helpers that read and write views given by the kernel,
// and pass them on.
const viewHelpers = `kernelir 1
(func bump ((h view1[int32]) (k int) (by int32)) ()
  (body (do (atomic Add h (k) by))))
(func put ((o view2[float64]) (i int) (x float64)) ()
  (body (assign ((at o i (sub int (extent o 1) (int 1)))) (x))))
(func both ((h view1[int32]) (o view2[float64]) (i int) (in view1[float64])) (float64)
  (body
    (do (call bump h (rem int i (extent h 0)) (int32 2)))
    (do (call put o i (mul float64 (at in i) (float64 2))))
    (return (at in i))))
`

func TestViewHelpers(t *testing.T) {
	k, err := Parse(viewHelpers + `(kernel K for (index i)
  (view hist int32 1 w)
  (view out float64 2 w)
  (view in float64 1 r)
  (body
    (var ((x float64)) ((call both hist out i in)))
    (assign ((at out i (int 0))) ((add float64 x (float64 1))))))
`)
	if err != nil {
		t.Fatal(err)
	}
	text := Print(k)
	if k2, err := Parse(text); err != nil || Print(k2) != text {
		t.Fatalf("round trip: %v\n%s", err, text)
	}
	const n = 7
	hist, out, in := make([]int32, 3), make([]float64, 2*n), make([]float64, n)
	for i := range in {
		in[i] = float64(i) + 0.25
	}
	m, err := NewMachine(k, View{Data: hist, Extents: []int{3}, Strides: []int{1}}, View{Data: out, Extents: []int{n, 2}, Strides: []int{2, 1}},
		View{Data: in, Extents: []int{n}, Strides: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if err := m.Run([]int{i}, nil, false); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		if out[2*i] != in[i]+1 || out[2*i+1] != 2*in[i] {
			t.Errorf("out row %d = %v, want %v %v", i, out[2*i:2*i+2], in[i]+1, 2*in[i])
		}
	}
	if hist[0] != 6 || hist[1] != 4 || hist[2] != 4 {
		t.Errorf("hist = %v", hist)
	}
	// A view the kernel does not mark written, given to a helper that
	// writes it; a view of another type; a view as a value.
	for _, c := range []struct{ kernel, msg string }{
		{"(kernel K for (index i) (view h int32 1 r) (body (do (call bump h i (int32 1)))))", "view h, which is not marked written, given to bump, which writes it"},
		{"(kernel K for (index i) (view h int64 1 w) (body (do (call bump h i (int32 1)))))", "view h, rank 1 of int64, given to bump's parameter of type view1[int32]"},
		{"(kernel K for (index i) (view h int32 1 w) (body (do (call bump (int 1) i (int32 1)))))", "argument 1 of bump is not a view"},
		{"(func f ((h view1[int32])) () (body (var ((g view1[int32])) (h))))\n(kernel K for (index i) (view h int32 1 w) (body (do (call f h))))", "a variable g of type view1[int32]"},
	} {
		_, err := Parse(viewHelpers + c.kernel + "\n")
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %q", c.kernel, err, c.msg)
		}
	}
}

func TestLayout(t *testing.T) {
	type inner struct {
		b int8
		c [3]int16
	}
	type outer struct {
		a  float32
		k  int64
		in inner
		u  uint8
		f  [2]float64
		z  int32
	}
	in, err := StructOf("inner", []Field{{"b", Int8}, {"c", must(ArrayOf(Int16, 3))}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := StructOf("outer", []Field{{"a", Float32}, {"k", Int64}, {"in", in}, {"u", Uint8}, {"f", must(ArrayOf(Float64, 2))}, {"z", Int32}})
	if err != nil {
		t.Fatal(err)
	}
	var x outer
	size, align := Layout(out)
	if size != int(unsafe.Sizeof(x)) || align != int(unsafe.Alignof(x)) {
		t.Errorf("Layout = %d, %d; Go's %d, %d", size, align, unsafe.Sizeof(x), unsafe.Alignof(x))
	}
	want := []uintptr{unsafe.Offsetof(x.a), unsafe.Offsetof(x.k), unsafe.Offsetof(x.in) + unsafe.Offsetof(x.in.b),
		unsafe.Offsetof(x.in) + unsafe.Offsetof(x.in.c), unsafe.Offsetof(x.in) + unsafe.Offsetof(x.in.c) + 2, unsafe.Offsetof(x.in) + unsafe.Offsetof(x.in.c) + 4,
		unsafe.Offsetof(x.u), unsafe.Offsetof(x.f), unsafe.Offsetof(x.f) + 8, unsafe.Offsetof(x.z)}
	got := Scalars(out)
	if len(got) != len(want) {
		t.Fatalf("Scalars = %v", got)
	}
	for n := range want {
		if got[n].Offset != int(want[n]) {
			t.Errorf("scalar %d at %d, Go's at %d", n, got[n].Offset, want[n])
		}
	}
	// The Machine reads a struct parameter from its bytes as from the
	// Go value.
	x = outer{a: -1.5, k: -7, in: inner{b: -3, c: [3]int16{1, -2, 3}}, u: 200, f: [2]float64{0.25, -8}, z: -9}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&x)), unsafe.Sizeof(x))
	fromBytes, ok := aggFromBytes(out, b)
	fromGo, ok2 := aggFromGo(out, x)
	if !ok || !ok2 || fmt.Sprint(fromBytes) != fmt.Sprint(fromGo) {
		t.Errorf("from bytes %v, from Go %v", fromBytes, fromGo)
	}
}

func must(t Type, err error) Type {
	if err != nil {
		panic(err)
	}
	return t
}
