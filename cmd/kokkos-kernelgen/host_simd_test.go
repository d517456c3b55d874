package main

import (
	"strings"
	"testing"
)

// TestSIMDLoops checks which inner loops become calls of the vector
// helpers: sums and dot products of integers always, of floats only in
// fastmath kernels, and element-wise maps, each in the copy for unit
// strides only, from the loop's first element for its count.
func TestSIMDLoops(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

//kokkos:kernel
func Dot(i int, y kokkos.View1[float64], A kokkos.View2[float64], x kokkos.View1[float64], m int) {
	s := 0.0
	for j := range m {
		s += A.At(i, j) * x.At(j)
	}
	y.Set(i, s)
}

//kokkos:kernel fastmath
func DotFast(i int, y kokkos.View1[float64], A kokkos.View2[float64], x kokkos.View1[float64], lo, hi int) {
	s := 0.0
	for j := lo + 1; j <= hi; j++ {
		s += A.At(i, j) * x.At(j)
	}
	y.Set(i, s)
}

//kokkos:kernel
func Ints(i int, y kokkos.View1[int32], a kokkos.View2[int32], m int) {
	var s int32
	for j := range m {
		s += a.At(i, j)
	}
	y.Set(i, s)
}

//kokkos:kernel
func Map(i int, c, a, b kokkos.View2[float32], m int) {
	for j := 2; j < m; j++ {
		c.Set(i, j, a.At(i, j)*b.At(i, j))
	}
}

//kokkos:kernel nocheck
func MapNocheck(i int, c, a, b kokkos.View2[int64], m int) {
	for j := range m {
		c.Set(i, j, a.At(i, j)-b.At(i, j))
	}
}

//kokkos:kernel
func Not(i int, y kokkos.View1[int32], a kokkos.View2[int32], b kokkos.View1[int64], c kokkos.View2[float64], m int) {
	var s int32
	for j := 0; j < m; j += 2 {
		s += a.At(i, j)
	}
	for j := range m {
		s += a.At(i, j)
		s += 1
	}
	for j := range m {
		s += a.At(i, 0) * a.At(i, j)
	}
	for j := range m {
		s += a.At(j, j)
	}
	var t int64
	for j := range m {
		t += b.At(j) * int64(j)
	}
	for j := range m {
		c.Set(i, j, c.At(i, j)/c.At(i, j))
	}
	for j := range m {
		c.Set(i, j, c.At(i, j)+1)
	}
	y.Set(i, s+int32(t))
}

//kokkos:kernel
func NotAcc(i int, a kokkos.View2[int32], m int, acc *int32) {
	for j := range m {
		*acc += a.At(i, j)
	}
}
`})
	for _, c := range []struct {
		name      string
		want, not []string
	}{
		{"Dot", nil, []string{"gkkernel.Dot"}},
		{"DotFast", []string{
			"if gkS_A_1 == 8 && gkS_x_0 == 8 {",
			"if gkN := hi - lo; gkN > 0 {\ns = gkkernel.DotFloat64(s, gkunsafe.Add(gkP_A, gkQ0+(lo+1)*8), gkunsafe.Add(gkP_x, (lo+1)*8), gkN)\n}",
		}, nil},
		{"Ints", []string{"if gkN := m; gkN > 0 {\ns = gkkernel.SumInt32(s, gkunsafe.Add(gkP_a, gkQ0+(0)*4), gkN)\n}"}, nil},
		{"Map", []string{"if gkN := m - 2; gkN > 0 {\ngkkernel.MulFloat32(gkunsafe.Add(gkP_c, gkQ0+(2)*4), gkunsafe.Add(gkP_a, gkQ1+(2)*4), gkunsafe.Add(gkP_b, gkQ2+(2)*4), gkN)\n}"}, nil},
		{"MapNocheck", []string{"gkkernel.SubInt64(gkunsafe.Add(gkP_c, gkQ0+(0)*8)"}, nil},
		{"Not", []string{"gkS_a_1 == 4"}, []string{"gkkernel.Sum", "gkkernel.Dot", "gkkernel.Add", "gkkernel.Div"}},
		{"NotAcc", []string{"gkS_a_1 == 4"}, []string{"gkkernel.Sum"}},
	} {
		b := binder(t, out, c.name)
		for _, w := range c.want {
			if !strings.Contains(stripLines(b), w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, b)
			}
		}
		for _, w := range c.not {
			if strings.Contains(b, w) {
				t.Errorf("%s: %q in\n%s", c.name, w, b)
			}
		}
		// The copies for any strides keep their loops.
		if c.want != nil && !strings.Contains(b, "for j :=") {
			t.Errorf("%s: no scalar loop left in\n%s", c.name, b)
		}
	}
}

// stripLines returns s without its line directives and its lines'
// leading tabs.
func stripLines(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimLeft(l, "\t")
		for {
			i := strings.Index(l, "/*line ")
			if i < 0 {
				break
			}
			j := strings.Index(l[i:], "*/")
			l = l[:i] + strings.TrimLeft(l[i+j+2:], " ")
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// TestDirectiveFastmath checks that fastmath marks a kernel, together
// with nocheck, and is refused on a helper at the directive's position.
func TestDirectiveFastmath(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

//kokkos:kernel fastmath nocheck
func A(i int, x kokkos.View1[float64]) { x.Set(i, 1) }

//kokkos:kernel
func B(i int, x kokkos.View1[float64]) { x.Set(i, 1) }
`})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.kernels) != 2 || !p.kernels[0].fastmath || !p.kernels[0].nocheck || p.kernels[1].fastmath {
		t.Errorf("kernels %v, want A fastmath and nocheck, and B", p.kernels)
	}
	src := "//kokkos:kernel fastmath\nfunc half(x float64) float64 { return x / 2 }\n"
	_, err = loadSource(".", map[string]string{"k.go": "package k\n\nimport \"github.com/gokkos/kokkos\"\n\nvar _ kokkos.View1[int8]\n" + src})
	if want := "k.go:6:1: kernel half: fastmath applies to kernels, and half is a helper"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}
