package main

import (
	"strings"
	"testing"
)

// binder returns the host binder of kernel name in the generated file out.
func binder(t *testing.T, out, name string) string {
	t.Helper()
	i := strings.Index(out, "func gkHost"+name+"(")
	if i < 0 {
		t.Fatalf("no binder for %s", name)
	}
	rest := out[i:]
	if j := strings.Index(rest[1:], "\nfunc "); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}

// TestDirectiveArgs checks the arguments of //kokkos:kernel: nocheck
// marks a kernel, anything else (and nocheck on a helper) is refused at
// the directive's position, and a directive glued to a word is none.
func TestDirectiveArgs(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

//kokkos:kernel nocheck
func A(i int, x kokkos.View1[float64]) { x.Set(i, 1) }

//kokkos:kernel
func B(i int, x kokkos.View1[float64]) { x.Set(i, 1) }

//kokkos:kernelnocheck
func C(i int, x kokkos.View1[float64]) { x.Set(i, 1) }
`})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.kernels) != 2 || !p.kernels[0].nocheck || p.kernels[1].nocheck {
		t.Errorf("kernels %v, want A nocheck and B", p.kernels)
	}
	for _, c := range []struct{ src, want string }{
		{"//kokkos:kernel nocheck fast\nfunc A(i int, x kokkos.View1[float64]) { x.Set(i, 1) }\n",
			`k.go:6:1: kernel A: unknown argument "fast" of //kokkos:kernel (they are nocheck`},
		{"// A doc.\n//\n//kokkos:kernel\tNoCheck\nfunc A(i int, x kokkos.View1[float64]) { x.Set(i, 1) }\n",
			`k.go:8:1: kernel A: unknown argument "NoCheck"`},
		{"//kokkos:kernel nocheck\nfunc half(x float64) float64 { return x / 2 }\n",
			"k.go:6:1: kernel half: nocheck applies to kernels, and half is a helper"},
	} {
		_, err := loadSource(".", map[string]string{"k.go": "package k\n\nimport \"github.com/gokkos/kokkos\"\n\nvar _ kokkos.View1[int8]\n" + c.src})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

// TestLoopChecks checks which loops get a test before them, what it
// tests, and that the copy behind it has plain accesses while the other
// keeps the accessors.
func TestLoopChecks(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

//kokkos:kernel
func YAx(i int, y kokkos.View1[float64], A kokkos.View2[float64], x kokkos.View1[float64], m int) {
	s := 0.0
	for j := range m {
		s += A.At(i, j) * x.At(j)
	}
	y.Set(i, s)
}

//kokkos:kernel
func Forms(i int, x kokkos.View1[int64], lo, hi int, acc *int64) {
	for k := lo; k <= hi; k++ {
		*acc += x.At(k)
	}
	for k := lo; k < hi; k += 4 {
		*acc += x.At(3*k + 2)
	}
	for k := hi; k >= lo; k-- {
		*acc += x.At(k + 100)
	}
	for k := lo; k < hi; k += hi {
		*acc += x.At(k + 200)
	}
	for k := lo; k < hi; k = k + 1 {
		*acc += x.At(k + 300)
	}
	for k := lo; k < hi; k++ {
		k += int(x.At(k + 400))
	}
	m := hi
	for k := lo; k < m; k++ {
		m--
		*acc += x.At(k + 500)
	}
	for k := range int32(hi) {
		*acc += x.At(int(k) + 600)
	}
	for k := range hi {
		*acc += x.At(k * k)
	}
}

//kokkos:kernel
func Nest(i int, w kokkos.View2[float64], cnt kokkos.View1[int32], n, m int, acc *float64) {
	for a := range n {
		for b := range m {
			*acc += w.At(a, b)
		}
	}
	for a := range n {
		c := int(cnt.At(a))
		for b := a; b < c; b++ {
			*acc += w.At(a+1, b)
		}
	}
}

//kokkos:kernel nocheck
func Gather(i int, x kokkos.View2[float64], nb kokkos.View2[int32], f kokkos.View1[float64]) {
	s := 0.0
	for k := range nb.Extent(1) {
		j := int(nb.At(i, k))
		s += x.At(j, 0) - x.At(i, 0)
	}
	f.Set(i, s)
	kokkos.AtomicAdd(f.Ptr(int(nb.At(i, 0))), 1)
}
`})
	yax := binder(t, out, "YAx")
	for _, want := range []string{
		"if i < A.Extent(0) && i >= 0 && m-1 < A.Extent(1) && m-1 < x.Extent(0) && uint(A.Extent(0)+1<<40) <= 1<<41",
		"uint(m+1<<40) <= 1<<41",
		// Three copies: unit strides, any strides, checked; the row's
		// offset computed before the loop.
		"if gkS_A_1 == 8 && gkS_x_0 == 8 {",
		"gkQ0 := (i) * gkS_A_0\n",
		"s += float64((*(*float64)(gkunsafe.Add(gkP_A, gkQ0+j*8))) * (*(*float64)(gkunsafe.Add(gkP_x, j*8))))",
		"s += float64((*(*float64)(gkunsafe.Add(gkP_A, gkQ1+j*(gkS_A_1)))) * (*(*float64)(gkunsafe.Add(gkP_x, j*(gkS_x_0)))))",
		"s += float64(A.At(i, j) * x.At(j))", // the else copy
		"/*line k.go:8:2*/ for j := range m {",
		"} /*line k.go:10:3*/",
		"gkS_A_1 := A.ByteStride(1)", "gkP_A := A.Base(gkL)",
	} {
		if !strings.Contains(yax, want) {
			t.Errorf("YAx lacks %q", want)
		}
	}
	if n := strings.Count(yax, "/*line k.go:8:2*/ for j := range m {"); n != 9 {
		t.Errorf("YAx has %d copies of its loop, want 9 (three in each of the chunk's three copies)", n)
	}

	forms := binder(t, out, "Forms")
	for _, want := range []string{
		"if hi < x.Extent(0) && lo >= 0 && uint(hi+1<<40) <= 1<<41", // k <= hi
		"if 3*hi-1 < x.Extent(0) && 3*lo+2 >= 0",                    // 3k+2 over k < hi, step 4
		":= (2) * gkS_x_0\n", "+k*24)))", "+k*(3*gkS_x_0))))",
	} {
		if !strings.Contains(forms, want) {
			t.Errorf("Forms lacks %q", want)
		}
	}
	// The loops whose range is not known keep their checks everywhere.
	for _, c := range []string{"k + 100", "k + 200", "k + 300", "k + 400", "k + 500", "int(k) + 600", "k * k"} {
		if strings.Contains(forms, "gkP_x, ("+c+")") {
			t.Errorf("Forms: x.At(%s) is unchecked", c)
		}
		if n := strings.Count(forms, "x.At("+c+")"); n != 1 {
			t.Errorf("Forms: x.At(%s) written %d times, want once (the chunk has one copy)", c, n)
		}
	}

	nest := binder(t, out, "Nest")
	// The first nest: one test before the outer loop, for both.
	test := "if m-1 < w.Extent(1) && n-1 < w.Extent(0) && uint(m+1<<40) <= 1<<41 && uint(n+1<<40) <= 1<<41"
	if i, j := strings.Index(nest, test), strings.Index(nest, "for a := range n {"); i < 0 || j < i {
		t.Errorf("Nest: the first nest is not tested before its outer loop (%d, %d)", i, j)
	}
	// The second: c changes in the outer loop, so the inner one is
	// tested, for w at a+1 and b in [a, c).
	if !strings.Contains(nest, "if a >= 0 && a+1 < w.Extent(0) && a+1 >= 0 && c-1 < w.Extent(1)") {
		t.Errorf("Nest: the inner loop of the second nest has no test of its own")
	}
	// cnt.At(a) is checked before the outer loop.
	if !strings.Contains(nest, "if n-1 < cnt.Extent(0) &&") || !strings.Contains(nest, "c := int((*(*int32)(gkunsafe.Add(gkP_cnt, a*4))))") {
		t.Errorf("Nest: cnt.At(a) is not checked before the outer loop of the second nest")
	}

	g := binder(t, out, "Gather")
	i := strings.Index(g, "if !gkL.Checks() {")
	if i < 0 {
		t.Fatalf("Gather has no unchecked code:\n%s", g)
	}
	unchecked := g[i : i+strings.Index(g[i:], "\n\t}\n")]
	checked := g[i+len(unchecked):]
	for _, bad := range []string{".At(", ".Set(", ".Ptr(", "Extent(0)"} {
		if strings.Contains(unchecked, bad) {
			t.Errorf("Gather's unchecked code calls %s", bad)
		}
	}
	for _, want := range []string{
		// The neighbor list's row is an offset computed before the loop,
		// its column's stride a constant where it is the element's size.
		"if gkS_nb_1 == 4 {", "gkQ0 := (i) * 4\n", "j := int((*(*int32)(gkunsafe.Add(gkP_nb, gkQ0+k*4))))",
		"(*(*float64)(gkunsafe.Add(gkP_x, (j)*gkS_x_0+(0)*gkS_x_1)))",
		"gkkokkos.AtomicAdd((*float64)(gkunsafe.Add(gkP_f, (int((*(*int32)(gkunsafe.Add(gkR",
		"for k := range nb.Extent(1) {",
	} {
		if !strings.Contains(unchecked, want) {
			t.Errorf("Gather's unchecked code lacks %q", want)
		}
	}
	for _, want := range []string{"x.At(j, 0)", "f.Ptr(int(nb.At(i, 0)))", "gkHi <= f.Extent(0) &&"} {
		if !strings.Contains(checked, want) {
			t.Errorf("Gather's checked code lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

// TestRowStrides checks the copy of the body for views of small rows
// indexed by constants: their row's stride folded to the size of a row
// laid out right, before the copy of unit strides and the generic one.
func TestRowStrides(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

//kokkos:kernel
func Axpy3(i int, y, x kokkos.View2[float64], a float64) {
	y.Set(i, 0, y.At(i, 0)+a*x.At(i, 0))
	y.Set(i, 2, y.At(i, 2)+a*x.At(i, 2))
}

//kokkos:kernel
func Pairs(i int, r kokkos.View1[float32], p kokkos.View3[float32]) {
	r.Set(i, p.At(i, 0, 1)+p.At(i, 1, 0))
}

//kokkos:kernel
func Cols(i, j int, r kokkos.View2[float32], p kokkos.View3[float32]) {
	r.Set(i, j, p.At(i, j, 1))
}
`})
	axpy := binder(t, out, "Axpy3")
	if i, j := strings.Index(axpy, "if gkS_x_0 == 24 && gkS_y_0 == 24 {"), strings.Index(axpy, "} else if gkS_x_0 == 8 && gkS_y_0 == 8 {"); i < 0 || j < i {
		t.Errorf("Axpy3: no copy for rows of 3 before the one of unit strides (%d, %d)", i, j)
	}
	if !strings.Contains(axpy, "gkunsafe.Add(gkR0, (i)*24)") || !strings.Contains(axpy, "gkR1 := gkunsafe.Add(gkP_x, (0)*gkS_x_1)") {
		t.Errorf("Axpy3: the rows' copy does not address through row bases and the stride 24")
	}
	// Rows of 2 × 2 float32 in a rank-3 view, and a rank-1 view.
	if !strings.Contains(binder(t, out, "Pairs"), "if gkS_p_0 == 16 && gkS_r_0 == 4 {") {
		t.Errorf("Pairs: no copy for rows of 2 × 2")
	}
	// The innermost index j indexes p's middle dimension, whose rows are
	// of 2; the copy for the order where i is innermost has none (j is
	// not a constant).
	cols := binder(t, out, "Cols")
	if strings.Count(cols, "gkS_p_1 == 8 &&") != 1 || strings.Count(cols, "if gkS_p_") != 3 {
		t.Errorf("Cols: rows' copies %d, want one, for the order where j is innermost", strings.Count(cols, "gkS_p_1 == 8 &&"))
	}
	if t.Failed() {
		t.Log(out)
	}
}
