package main

import (
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// localAllowedSrc uses every form of local arrays and structs.
const localAllowedSrc = `package k

import (
	"math"

	"github.com/gokkos/kokkos"
)

type vec struct{ X, Y, Z float64 }

type cell struct {
	n    int32
	on   bool
	hist [4]uint8
	at   vec
}

type state struct{ s uint64 }

//kokkos:kernel
func (a vec) norm() float64 { return math.Sqrt(a.X*a.X + a.Y*a.Y + a.Z*a.Z) }

//kokkos:kernel
func (a vec) plus(b vec) vec { return vec{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

//kokkos:kernel
func (r *state) next() uint64 {
	r.s ^= r.s << 7
	return r.s
}

//kokkos:kernel
func (r *state) twice() uint64 { return r.next() + r.next() }

//kokkos:kernel
func total(a [4]int32) (s int32) {
	for k := range a {
		s += a[k]
	}
	return s
}

//kokkos:kernel
func grid() [2][3]float64 { return [2][3]float64{{1, 2, 3}, {2: 1}} }

//kokkos:kernel
func Use(i int, out kokkos.View1[float64], n kokkos.View1[int32], seed uint64) {
	var h [4]int32
	a := [3]float64{1, 2, float64(i)}
	h[i%len(h)]++
	h[3] += int32(len(a))
	b := a
	b[0] = -1
	var c cell
	c.hist[i&3] = 7
	c.at.Y = a[2]
	c.on = b[0] < 0
	d := cell{n: 2, at: vec{Z: 1}}
	d = c
	r := state{seed | 1}
	x := r.next()
	x += r.twice()
	for k := range h {
		h[k] += int32(k)
	}
	for k := range len(a) {
		a[k] *= 2
	}
	for _, e := range a {
		x += uint64(e)
	}
	g := [2][3]float64{{1, 2, 3}}
	g[1][2] = vec{1, 2, 2}.plus(c.at).norm()
	n.Set(i, total(h)+d.n+int32(d.hist[i&3]))
	out.Set(i, a[0]+b[0]+g[1][2]+float64(x>>60))
}
`

func TestCheckLocalAllows(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": localAllowedSrc})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.checkBodies(); err != nil {
		t.Fatal(err)
	}
	names, irs := describeAll(t, p, true)
	if len(names) != 1 {
		t.Fatalf("kernels %v", names)
	}
	text := irs["Use"]
	for _, want := range []string{
		"(struct cell (n int32) (on bool) (hist [4]uint8) (at vec))",
		"(func gkm_state_next ((r *state)) (uint64)",
		"(func gkm_state_twice ((r *state)) (uint64)",
		"(call gkm_state_next (addr r))",
		"(opassign xor (field r s) (shl uint64 (field r s) (uint64 7)))",
		"(func grid () ([2][3]float64)",
		"(lit [2][3]float64 (lit [3]float64 (float64 1) (float64 2) (float64 3)) (lit [3]float64 (float64 0) (float64 0) (float64 1)))",
		"(inc (index h (rem int i (int 4))))",
		"(opassign add (index h (int 3)) (int32 3))",
		"(assign ((new d cell)) ((lit cell (int32 2) (bool false) (lit [4]uint8) (lit vec (float64 0) (float64 0) (float64 1)))))",
		"(assign ((field (field c at) Y)) ((index a (int 2))))",
		"(range (new k int) int (int 4)",
		"(block\n      (var ((gkr69c2 [3]float64)) (a))\n      (range (new gkk69c2 int) int (int 3)\n        (body\n          (var ((e float64)) ((index gkr69c2 gkk69c2)))\n          (opassign add x (conv uint64 e)))))",
		"(assign ((index (index g (int 1)) (int 2))) ((call gkm_vec_norm (call gkm_vec_plus (lit vec (float64 1) (float64 2) (float64 2)) (field c at)))))",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the description lacks %s:\n%s", want, text)
		}
	}
	k, err := kernelir.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kernelir.NewMachine(k, kernelir.View{Data: make([]float64, 1), Extents: []int{1}, Strides: []int{1}},
		kernelir.View{Data: make([]int32, 1), Extents: []int{1}, Strides: []int{1}}, uint64(3)); err != nil {
		t.Fatal(err)
	}
	// The hash of Use covers its helpers' methods and the struct types.
	for _, f := range []string{"vec.norm", "vec.plus", "state.next", "state.twice", "total"} {
		if !strings.Contains(strings.Join(p.helperNames(p.kernels[len(p.kernels)-1]), " "), f) {
			t.Errorf("helperNames lacks %s: %v", f, p.helperNames(p.kernels[len(p.kernels)-1]))
		}
	}
	if got := strings.Join(p.structNames(p.kernels[len(p.kernels)-1]), ","); got != "type cell,type state,type vec" {
		t.Errorf("structNames = %s", got)
	}
}

// TestCheckLocalRefuses checks the refusals of the forms outside the
// subset, with their positions and messages.
func TestCheckLocalRefuses(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

type named [3]int

type withString struct{ s string }

type withView struct{ v kokkos.View1[float64] }

type withPtr struct{ p *int }

type inner struct{ x int }

type embeds struct{ inner }

type rng struct{ s uint64 }

func (r rng) plain() uint64 { return r.s }

//kokkos:kernel
func (r *rng) next() uint64 { r.s++; return r.s }

//kokkos:kernel
func (r rng) peek() uint64 { return r.s }

//kokkos:kernel
func (r *rng) leak() uint64 {
	q := r
	return q.s
}

//kokkos:kernel
func set(a [2]int) int {
	a[0] = 1
	return a[0]
}

//kokkos:kernel
func K(i int, v kokkos.View1[float64]) {
	var s []float64
	var n named
	var w withString
	var x withView
	var y withPtr
	var e embeds
	a := [2]int{1, 2}
	b := [2]int{3, 4}
	_ = a == b
	k, z := 0, 0
	for k, z = range a {
	}
	_, _ = k, z
	var vs [2]kokkos.View1[float64]
	r := rng{1}
	_ = r.plain()
	_ = rng{2}.peek()
	_ = rng(r)
	_ = v.At(i) + float64(r.next())
	_, _, _, _, _, _, _ = s, n, w, x, y, e, vs
}
`})
	if err == nil {
		err = p.checkBodies()
	}
	if err == nil {
		t.Fatal("no refusals")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		got = append(got, l[strings.Index(l, "k.go:"):])
	}
	const local = "a struct in a kernel holds numbers, bool, arrays and structs of them"
	want := []string{
		refused("k.go:29:7", "rng.leak", "the pointer r as a value", "read and write its fields, or call its methods"),
		refused("k.go:30:9", "rng.leak", "the field q.s", "use scalars"),
		refused("k.go:35:2", "set", "an assignment to part of parameter a", "copy it to a local"),
		refused("k.go:41:8", "K", "a slice", "use a view"),
		refused("k.go:42:8", "K", "a value of named array type named", "use the array type [3]int"),
		refused("k.go:43:8", "K", "the struct withString with field s of type string", local),
		refused("k.go:44:8", "K", "the struct withView with field v of type kokkos.View1[float64]", local),
		refused("k.go:45:8", "K", "the struct withPtr with field p of type *int", local),
		refused("k.go:46:8", "K", "the struct embeds with the embedded field inner", "name the field"),
		refused("k.go:49:6", "K", "a comparison of arrays or structs", "compare the elements or fields"),
		refused("k.go:51:9", "K", "a range over an array assigning its values", "declare them, for k, v := range a"),
		refused("k.go:54:9", "K", "an array of views", "pass each view as a parameter"),
		refused("k.go:56:6", "K", "a call of method r.plain", "mark the method //kokkos:kernel"),
		refused("k.go:58:6", "K", "the conversion rng(...)", "write a literal of its fields or elements"),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestCheckLocalShapes checks the refused parameters of helpers and
// kernels.
func TestCheckLocalShapes(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"type s struct{ x string }\n\n//kokkos:kernel\nfunc h(a s) int { return 0 }\n",
			"k.go:9:8: kernel h: helper parameter a has type k.s; a helper takes scalars (int, int8..int64, uint8..uint64, float32, float64, bool), arrays and structs of them: the struct s with field x of type string is not allowed in a kernel (a struct in a kernel holds numbers, bool, arrays and structs of them)"},
		{"//kokkos:kernel\nfunc h(a int) []int { return nil }\n",
			"k.go:7:15: kernel h: helper result has type []int; a helper returns scalars, arrays and structs of them"},
		{"type s struct{ x int; on bool }\n\n//kokkos:kernel\nfunc K(i int, v kokkos.View1[float64], p s) {}\n",
			"k.go:9:40: kernel K: parameter p of type s: it holds a bool; a struct parameter is passed as its bytes, as C lays them out (pass the fields as scalars, or use an integer)"},
		{"type s struct{ x []int }\n\n//kokkos:kernel\nfunc K(i int, v kokkos.View1[float64], p s) {}\n",
			"k.go:9:40: kernel K: parameter p: the struct s with field x of type []int is not allowed in a kernel (a struct in a kernel holds numbers, bool, arrays and structs of them)"},
		{"//kokkos:kernel\nfunc K(i int, v kokkos.View1[float64], p struct{ x int }) {}\n",
			"k.go:7:40: kernel K: parameter p: a value of unnamed struct type is not allowed in a kernel (declare a struct type at package level)"},
		{"type n int\n\n//kokkos:kernel\nfunc (x n) h() int { return 0 }\n",
			"k.go:9:1: kernel h: a method of k.n cannot be a helper; a helper method has a receiver of a struct type"},
	} {
		_, err := loadSource(".", map[string]string{"k.go": "package k\n\nimport \"github.com/gokkos/kokkos\"\n\nvar _ kokkos.View1[int]\n" + c.src})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}

// TestStructParam checks a kernel's struct parameter: its description and
// the layout check of its type.
func TestStructParam(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

type in struct {
	b int8
	c [3]int16
}

type prm struct {
	a  float32
	k  int64
	in in
}

//kokkos:kernel
func K(i int, v kokkos.View1[float64], p prm) { v.Set(i, float64(p.a)+float64(p.in.c[i%3])) }
`})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.checkBodies(); err != nil {
		t.Fatal(err)
	}
	_, irs := describeAll(t, p, true)
	for _, want := range []string{"(struct in (b int8) (c [3]int16))\n(struct prm (a float32) (k int64) (in in))\n", "(scalar p prm)"} {
		if !strings.Contains(irs["K"], want) {
			t.Errorf("the description lacks %q:\n%s", want, irs["K"])
		}
	}
}
