package main

import (
	"strings"
	"testing"
)

// TestGenerateViewHelpers checks helpers that take views: the writes they
// make mark the kernel's views written, through a chain of helpers; the
// host body calls their host copies on the accessors; the description
// passes the views by name.
func TestGenerateViewHelpers(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": `package k

import (
	"math"

	"github.com/gokkos/kokkos"
)

//kokkos:kernel
func inc(c kokkos.View1[int64], k int) { kokkos.AtomicInc(c.Ptr(k)) }

//kokkos:kernel
func count(c kokkos.View1[int64], r kokkos.View1[float64], i int) float64 {
	inc(c, i%c.Extent(0))
	return math.Sqrt(r.At(i))
}

//kokkos:kernel
func read(r kokkos.View1[float64], i int) float64 { return r.At(i) * 2 }

//kokkos:kernel
func K(i int, c kokkos.View1[int64], r kokkos.View1[float64], out kokkos.View1[float64]) {
	out.Set(i, count(c, r, i)+read(r, i))
}
`})
	for _, want := range []string{
		`{Name: "c", View: true, Write: true}`,
		`{Name: "r", View: true, Write: false}`,
		"func gkHinc(c *gkkernel.A1[int64], k int) {",
		"gkkokkos.AtomicInc(c.Ptr(k))",
		"func gkHcount(c *gkkernel.A1[int64], r *gkkernel.A1[float64], i int) float64 {",
		"gkHinc(c, i%c.Extent(0))",
		"return gkmath.Sqrt(r.At(i))",
		"func gkHread(r *gkkernel.A1[float64], i int) float64 {",
		"float64(r.At(i) * 2)",
		"gkHcount(&c, &r, i) + gkHread(&r, i)",
		"(func count ((c view1[int64]) (r view1[float64]) (i int)) (float64)",
		"(do (call inc c (rem int i (extent c 0))))",
		"(call count c r i)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the generated file lacks %s", want)
		}
	}
	if t.Failed() {
		t.Log(out)
	}
}

func TestCheckViewHelpersRefuse(t *testing.T) {
	_, err := loadSource(".", map[string]string{"k.go": `package k

import "github.com/gokkos/kokkos"

type s struct{ x int }

//kokkos:kernel
func (a s) at(v kokkos.View1[float64]) float64 { return v.At(a.x) }
`})
	if err == nil || !strings.Contains(err.Error(), "k.go:8:15: kernel s.at: a helper method cannot take views; write a function") {
		t.Errorf("a helper method of views: %v", err)
	}
}
