package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestStreamChunks checks which 1-D kernels' chunks become one call of an
// elementwise helper, in the copy whose accesses are proved in range and
// of unit stride (and in a nocheck kernel's unchecked chunk), from the
// chunk's first index for its length (a float dot product without
// fastmath as the ordered one); and which stay loops: float sums without
// fastmath, two statements, mixed element types, integer scales
// and triads, other operators, accesses not at the kernel's index, rank
// 2, and scalars that are neither parameters nor constants.
func TestStreamChunks(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

//kokkos:kernel
func Copy(i int, a, c kokkos.View1[float64]) { c.Set(i, a.At(i)) }

//kokkos:kernel
func CopyShift(i int, a, c kokkos.View1[int32]) { c.Set(i, a.At(i+1)) }

//kokkos:kernel
func Scale32(i int, b, c kokkos.View1[float32], s float32) { b.Set(i, c.At(i)*s) }

//kokkos:kernel
func ScaleConst(i int, b, c kokkos.View1[float64]) { b.Set(i, (2.5 * c.At(i))) }

//kokkos:kernel
func AddInt(i int, a, b, c kokkos.View1[int32]) { c.Set(i, a.At(i)+b.At(i)) }

//kokkos:kernel
func Sub64(i int, a, b, c kokkos.View1[int64]) { c.Set(i, a.At(i)-b.At(i)) }

//kokkos:kernel
func Triad(i int, a, b, c kokkos.View1[float64], s float64) { a.Set(i, s*c.At(i)+b.At(i)) }

//kokkos:kernel nocheck
func TriadNocheck(i int, a, b, c kokkos.View1[float32], s float32) { a.Set(i, b.At(i)+s*c.At(i)) }

//kokkos:kernel
func Nstream(i int, a, b, c kokkos.View1[float64], s float64) { *a.Ptr(i) += b.At(i) + s*c.At(i) }

//kokkos:kernel fastmath
func DotFast(i int, a, b kokkos.View1[float64], acc *float64) { *acc += a.At(i) * b.At(i) }

//kokkos:kernel
func SumInt(i int, a kokkos.View1[int64], acc *int64) { *acc += a.At(i) }

//kokkos:kernel
func Dot(i int, a, b kokkos.View1[float64], acc *float64) { *acc += a.At(i) * b.At(i) }

//kokkos:kernel
func Dot32(i int, a, b kokkos.View1[float32], acc *float32) { *acc += a.At(i) * b.At(i) }

//kokkos:kernel
func SumFloat(i int, a kokkos.View1[float64], acc *float64) { *acc += a.At(i) }

//kokkos:kernel
func Two(i int, a, c kokkos.View1[float64]) {
	c.Set(i, a.At(i))
	c.Set(i, a.At(i))
}

//kokkos:kernel
func Mixed(i int, a, c kokkos.View1[float64], b kokkos.View1[float32]) { c.Set(i, a.At(i)+float64(b.At(i))) }

//kokkos:kernel
func TriadInt(i int, a, b, c kokkos.View1[int32], s int32) { a.Set(i, b.At(i)+s*c.At(i)) }

//kokkos:kernel
func ScaleInt(i int, a, c kokkos.View1[int64], s int64) { a.Set(i, s*c.At(i)) }

//kokkos:kernel
func Div(i int, a, b, c kokkos.View1[float64]) { c.Set(i, a.At(i)/b.At(i)) }

//kokkos:kernel
func TriadSub(i int, a, b, c kokkos.View1[float64], s float64) { a.Set(i, b.At(i)-s*c.At(i)) }

//kokkos:kernel
func Fixed(i int, a, c kokkos.View1[float64]) { c.Set(i, a.At(0)) }

//kokkos:kernel
func Index(i int, a, c kokkos.View1[float64]) { c.Set(i, float64(i)*a.At(i)) }

//kokkos:kernel
func NstreamSet(i int, a, b, c kokkos.View1[float64], s float64) { a.Set(i, a.At(i)+b.At(i)+s*c.At(i)) }

//kokkos:kernel
func Rank2(i, j int, a, c kokkos.View2[float64]) { c.Set(i, j, a.At(i, j)) }
`})
	const (
		pa = "gkunsafe.Add(gkP_a, (gkLo)*8)"
		pb = "gkunsafe.Add(gkP_b, (gkLo)*8)"
		pc = "gkunsafe.Add(gkP_c, (gkLo)*8)"
	)
	for _, c := range []struct {
		name string
		want []string // "" for none: the chunk stays a loop
	}{
		{"Copy", []string{"if gkS_a_0 == 8 && gkS_c_0 == 8 {\nif gkLo < gkHi {\ngkkernel.Copy[float64](" + pc + ", " + pa + ", gkHi-gkLo)\n}"}},
		{"CopyShift", []string{"gkkernel.Copy[int32](gkunsafe.Add(gkP_c, (gkLo)*4), gkunsafe.Add(gkP_a, (gkLo+1)*4), gkHi-gkLo)"}},
		{"Scale32", []string{"gkkernel.ScaleFloat32(gkunsafe.Add(gkP_b, (gkLo)*4), gkunsafe.Add(gkP_c, (gkLo)*4), s, gkHi-gkLo)"}},
		{"ScaleConst", []string{"gkkernel.ScaleFloat64(" + pb + ", " + pc + ", float64(2.5), gkHi-gkLo)"}},
		{"AddInt", []string{"gkkernel.AddInt32(gkunsafe.Add(gkP_c, (gkLo)*4), gkunsafe.Add(gkP_a, (gkLo)*4), gkunsafe.Add(gkP_b, (gkLo)*4), gkHi-gkLo)"}},
		{"Sub64", []string{"gkkernel.SubInt64(" + pc + ", " + pa + ", " + pb + ", gkHi-gkLo)"}},
		{"Triad", []string{"gkkernel.TriadFloat64(" + pa + ", " + pb + ", " + pc + ", s, gkHi-gkLo)"}},
		{"TriadNocheck", []string{"gkkernel.TriadFloat32(gkunsafe.Add(gkP_a, (gkLo)*4), gkunsafe.Add(gkP_b, (gkLo)*4), gkunsafe.Add(gkP_c, (gkLo)*4), s, gkHi-gkLo)"}},
		{"Nstream", []string{"gkkernel.NstreamFloat64(" + pa + ", " + pb + ", " + pc + ", s, gkHi-gkLo)"}},
		{"DotFast", []string{"gkAcc = gkkernel.DotFloat64(gkAcc, " + pa + ", " + pb + ", gkHi-gkLo)"}},
		{"SumInt", []string{"gkAcc = gkkernel.SumInt64(gkAcc, " + pa + ", gkHi-gkLo)"}},
		{"Dot", []string{"gkAcc = gkkernel.DotOrderedFloat64(gkAcc, " + pa + ", " + pb + ", gkHi-gkLo)"}},
		{"Dot32", []string{"gkAcc = gkkernel.DotOrderedFloat32(gkAcc, gkunsafe.Add(gkP_a, (gkLo)*4), gkunsafe.Add(gkP_b, (gkLo)*4), gkHi-gkLo)"}},
		{"SumFloat", nil}, {"Two", nil}, {"Mixed", nil}, {"TriadInt", nil}, {"ScaleInt", nil}, {"Div", nil},
		{"TriadSub", nil}, {"Fixed", nil}, {"Index", nil}, {"NstreamSet", nil}, {"Rank2", nil},
	} {
		b := stripLines(binder(t, out, c.name))
		for _, w := range c.want {
			if !strings.Contains(b, w) {
				t.Errorf("%s: no %q in\n%s", c.name, w, b)
			}
		}
		if c.want == nil && streamCall.MatchString(b) {
			t.Errorf("%s: a helper in\n%s", c.name, b)
		}
		// The checked loop, and the copy for any strides, stay.
		if n := strings.Count(b, "for i := gkLo; i < gkHi; i++ {"); c.want != nil && n < 2 {
			t.Errorf("%s: %d loops left in\n%s", c.name, n, b)
		}
	}
	// The unchecked chunk of a nocheck kernel calls the helper too.
	if b := binder(t, out, "TriadNocheck"); strings.Count(b, "gkkernel.TriadFloat32(") != 2 {
		t.Errorf("TriadNocheck: want the helper in the checked and the unchecked chunks:\n%s", b)
	}
}

// streamCall matches a call of an elementwise helper.
var streamCall = regexp.MustCompile(`gkkernel\.(Copy|Scale|Add|Sub|Mul|Triad|Nstream|Dot|Sum)`)
