package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mdLocals returns the values a binder computes before its innermost
// loops (gkVn := value), each once, sorted.
func mdLocals(binder string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`gkV\d+ := (.*)`).FindAllStringSubmatch(binder, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestMDHoist checks which parts of the bodies of MDRange kernels the
// host loops compute once per line: in each inner order, those that only
// the outer indices and the scalar parameters change and that cannot
// fail, and not a part with the innermost index, a view access, a call,
// an assigned local, an integer quotient or shift by a variable, or a
// bare name or constant; and none in a rank-1 kernel.
func TestMDHoist(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": `package k

import (
	"math"

	"github.com/gokkos/kokkos"
)

//kokkos:kernel
func Write(i, j int, a kokkos.View2[float64]) {
	a.Set(i, j, float64(i)*0.5+float64(j))
}

//kokkos:kernel
func Kept(i, j int, a kokkos.View2[float64], b kokkos.View1[float64], d int, s float64) {
	x := float64(d)
	x += 1
	a.Set(i, j, b.At(i)*2+float64(i/d)+float64(i<<d)+math.Sqrt(s)+x*s+float64(i%d)+s+2*3)
}

//kokkos:kernel
func Ints(i, j int, a kokkos.View2[int32], n int, m uint8) {
	a.Set(i, j, int32(i*n/3+i%5-(i>>2))^int32(j)+int32(m&^3|1))
}

//kokkos:kernel
func Sum(i, j, k int, a kokkos.View3[float32], h float32, acc *float32) {
	*acc += a.At(i, j, k) * (float32(i)*h + float32(j)/h - float32(k))
}

//kokkos:kernel
func One(i int, a kokkos.View1[float64], s float64) {
	a.Set(i, float64(i)*s+s*s)
}
`})
	for _, c := range []struct {
		name  string
		right []string // the values before the innermost loop, last index innermost
		left  []string // first index innermost
	}{
		{"Write", []string{"float64(float64(i) * 0.5)"}, []string{"float64(j)"}},
		// i/d, i<<d and i%d may panic; math.Sqrt is a call; x is assigned.
		{"Kept", []string{"float64(d)"}, []string{"float64(d)"}},
		{"Ints", []string{"int32(i*n/3 + i%5 - (i >> 2))", "int32(m&^3 | 1)"}, []string{"int32(j)", "int32(m&^3 | 1)"}},
		{"Sum", []string{"float32(float32(i)*h) + float32(j)/h"}, []string{"float32(j) / h", "float32(k)"}},
	} {
		b := binder(t, out, c.name)
		i := strings.Index(b, "\n\treturn func(")
		if i < 0 {
			t.Fatalf("%s: no left-order chunk in\n%s", c.name, b)
		}
		if got := mdLocals(b[:i]); !slices.Equal(got, c.right) {
			t.Errorf("%s: right order computes %q before the innermost loop, want %q", c.name, got, c.right)
		}
		if got := mdLocals(b[i:]); !slices.Equal(got, c.left) {
			t.Errorf("%s: left order computes %q before the innermost loop, want %q", c.name, got, c.left)
		}
	}
	if b := binder(t, out, "One"); strings.Contains(b, "gkV") {
		t.Errorf("rank-1 kernel One computes values before its loop:\n%s", b)
	}
	// The body reads the locals in place of the parts.
	if b := binder(t, out, "Write"); !strings.Contains(b, "(gkV0 + float64(j))") || !strings.Contains(b, "(float64(float64(i)*0.5) + gkV0)") {
		t.Errorf("Write's body does not read gkV0:\n%s", b)
	}
}
