package main

import (
	"strings"
	"testing"
)

// TestGenerateScan checks the host code and the description of nested
// scans: the body inlined in loops over the thread's share around a
// TeamScan (a vector scan: one loop), acc a local pointing to the
// running join, final the pass, return continue, the total assigned; the
// Team not declared when only the scans use it; a declared total after
// the block; the nestedscan nodes.
func TestGenerateScan(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

//kokkos:kernel
func Scans(t kernel.Team, out kokkos.View1[float64], a kokkos.View1[float64]) {
	s := kernel.TeamThreadScan(t, 0, a.Extent(0), kokkos.Sum[float64](), func(i int, acc *float64, final bool) {
		if a.At(i) < 0 {
			return
		}
		*acc += a.At(i)
		if final {
			out.Set(i, *acc)
		}
	})
	kernel.ThreadVectorScan(t, 1, 3, kokkos.Max[float64](), func(_ int, p *float64, _ bool) { *p = max(*p, s) })
}
`})
	for _, want := range []string{
		"return func(gkM *gkkokkos.TeamMember) {\n\t\tout, a := out, a\n\t\t/*line k.go:",
		"/*line k.go:10:2*/ var gkSV188 float64\n",
		"gkSB, gkSE := gkkokkos.TeamThreadRange(gkM, 0, a.Extent(0)).Share()",
		"gkSR := gkkokkos.Sum[float64]()",
		"gkSP, gkST = gkkokkos.TeamScan(gkM, gkSR, gkSS)",
		"for i := gkSB; i < gkSE; i++ {",
		"acc := &gkSS",
		"final := gkSF == 1",
		"\t\t\t\t\t\t\tcontinue\n",
		"gkSV188 = gkST\n",
		"s := gkSV188 /*line k.go:18:4*/",
		"gkSB, gkSE := gkkokkos.ThreadVectorRange(gkM, 1, 3).Share()",
		"gkSS := gkkokkos.Max[float64]().Identity()",
		"for gkSI := gkSB; gkSI < gkSE; gkSI++ {",
		"p := &gkSS",
		"*p = max(*p, s)",
		"(nestedscan thread i (int 0) (extent a 0) Sum float64 acc final ((new s float64))",
		"(continue)",
		"(nestedscan vector _ (int 1) (int 3) Max float64 p _ ()",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("generated code lacks %q:\n%s", want, out)
			break
		}
	}
	for _, bad := range []string{"kernel.TeamThreadScan", "TeamOf(gkM)", "func(i int"} {
		if strings.Contains(out, bad) {
			t.Errorf("generated code has %q:\n%s", bad, out)
		}
	}
}
