package main

import (
	"strings"
	"testing"
)

// scatterHeader is a package that imports kokkos and containers.
const scatterHeader = `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

var _ kokkos.View1[float64]
var _ containers.ScatterSum
`

// scatterSrc has kernels that use ScatterView parameters every way the
// subset allows.
const scatterSrc = scatterHeader + `
//kokkos:kernel
func Hist(i int, x kokkos.View1[int32], sv containers.ScatterView1[containers.ScatterSum, int64]) {
	a := sv.Access()
	a.Add(int(x.At(i)), 2)
	a.Sub(i, 1)
	a.Update(0, 3)
	sv.Access().Add(1, 1)
}

//kokkos:kernel
func Prod(i, j int, sv containers.ScatterView2[containers.ScatterProd, float64], lo containers.ScatterView2[containers.ScatterMin, float32], hi containers.ScatterView3[containers.ScatterMax, int32], acc *float64) {
	p := sv.Access()
	p.Mul(i, j, 2)
	p.Div(j, i, 4)
	p.Update(i, i, 0.5)
	lo.Access().Update(i, j, 1)
	hi.Access().Update(i, j, 0, 7)
	*acc += 1
}

//kokkos:kernel nocheck
func Grid(i int, sv containers.ScatterView2[containers.ScatterSum, float64]) { sv.Access().Add(i, i, 1) }

//kokkos:kernel
func Post(i int, sv containers.ScatterView1[containers.ScatterSum, int64]) {
	a := sv.Access()
	for j := 0; j < 3; a.Add(j, 1) {
		j++
	}
	if sv.Access().Sub(i, 1); i > 2 {
		a.Add(i, 2)
	}
}

//kokkos:kernel
func Unused(i int, _ containers.ScatterView1[containers.ScatterSum, float64], sv containers.ScatterView1[containers.ScatterSum, float64]) {}
`

func TestScatterAllowed(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": scatterSrc})
	if err != nil {
		t.Fatal(err)
	}
	_, irs := describeAll(t, p, true)
	for name, want := range map[string]string{
		"Hist": "(kernel Hist for (index i) (view x int32 1 r) (view sv int64 1 w) (body " +
			"(do (atomic Add sv ((conv int (at x i))) (int64 2))) (do (atomic Sub sv (i) (int64 1))) " +
			"(do (atomic Add sv ((int 0)) (int64 3))) (do (atomic Add sv ((int 1)) (int64 1)))))",
		"Prod": "(kernel Prod reduce (index i j) (view sv float64 2 w) (view lo float32 2 w) (view hi int32 3 w) (acc float64) (body " +
			"(do (atomic Mul sv (i j) (float64 2))) (do (atomic Div sv (j i) (float64 4))) (do (atomic Mul sv (i i) (float64 0.5))) " +
			"(do (atomic Min lo (i j) (float32 1))) (do (atomic Max hi (i j (int 0)) (int32 7))) (opassign add (acc) (float64 1))))",
		"Unused": "(kernel Unused for (index i) (view _ float64 1 r) (view sv float64 1 r) (body))",
	} {
		if got := strings.TrimPrefix(squash(irs[name]), "kernelir 1 "); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
	out := generateSource(t, map[string]string{"k.go": scatterSrc})
	for _, want := range []string{
		"sv := gkArgs[1].(gkcontainers.ScatterView1[gkcontainers.ScatterSum, int64])",
		"if gkErr := sv.HostError(); gkErr != nil { return nil, gkErr }",
		"gkSA_sv := sv.Access() defer gkSA_sv.Release() gkSP_sv, gkSN_sv_0 := gkSA_sv.Plain()",
		"a := gkSA_sv",
		"if gkT0, gkV := int(x.At(i)), int64(2); uint(gkT0) < gkSN_sv_0 { *(*int64)(gkunsafe.Add(gkSP_sv, gkT0*8)) += gkV } else { a.OutOfLine(\"Add\", gkT0, gkV) }",
		"if gkT0, gkV := i, int64(1); uint(gkT0) < gkSN_sv_0 { *(*int64)(gkunsafe.Add(gkSP_sv, gkT0*8)) -= gkV } else { a.OutOfLine(\"Sub\", gkT0, gkV) }",
		"if gkT0, gkV := 0, int64(3); uint(gkT0) < gkSN_sv_0 { *(*int64)(gkunsafe.Add(gkSP_sv, gkT0*8)) += gkV } else { a.OutOfLine(\"Update\", gkT0, gkV) }",
		"if gkT0, gkV := 1, int64(1); uint(gkT0) < gkSN_sv_0 { *(*int64)(gkunsafe.Add(gkSP_sv, gkT0*8)) += gkV } else { gkSA_sv.OutOfLine(\"Add\", gkT0, gkV) }",
		"gkSP_sv, gkSN_sv_0, gkSN_sv_1, gkSS_sv_0 := gkSA_sv.Plain()",
		"if gkT0, gkT1, gkV := i, j, float64(2); uint(gkT0) < gkSN_sv_0 && uint(gkT1) < gkSN_sv_1 { *(*float64)(gkunsafe.Add(gkSP_sv, gkT0*gkSS_sv_0+gkT1*8)) *= gkV } else { p.OutOfLine(\"Mul\", gkT0, gkT1, gkV) }",
		"*(*float64)(gkunsafe.Add(gkSP_sv, gkT0*gkSS_sv_0+gkT1*8)) /= gkV } else { p.OutOfLine(\"Div\", gkT0, gkT1, gkV) }",
		"if gkT0, gkT1, gkV := i, i, float64(0.5); uint(gkT0) < gkSN_sv_0 && uint(gkT1) < gkSN_sv_1 { *(*float64)(gkunsafe.Add(gkSP_sv, gkT0*gkSS_sv_0+gkT1*8)) *= gkV } else { p.OutOfLine(\"Update\", gkT0, gkT1, gkV) }",
		"if gkE := (*float32)(gkunsafe.Add(gkSP_lo, gkT0*gkSS_lo_0+gkT1*4)); gkV < *gkE { *gkE = gkV } } else { gkSA_lo.OutOfLine(\"Update\", gkT0, gkT1, gkV) }",
		"if gkT0, gkT1, gkT2, gkV := i, j, 0, int32(7); uint(gkT0) < gkSN_hi_0 && uint(gkT1) < gkSN_hi_1 && uint(gkT2) < gkSN_hi_2 { if gkE := (*int32)(gkunsafe.Add(gkSP_hi, gkT0*gkSS_hi_0+gkT1*gkSS_hi_1+gkT2*4)); gkV > *gkE { *gkE = gkV } } else { gkSA_hi.OutOfLine(\"Update\", gkT0, gkT1, gkT2, gkV) }",
		"for j := 0; j < 3; a.Add(j, 1) {",
		"gkSP_sv, gkSN_sv_0, _, gkSS_sv_0 := gkSA_sv.Plain()",
		"if gkT0, gkT1, gkV := i, i, float64(1); gkSN_sv_0 != 0 { *(*float64)(gkunsafe.Add(gkSP_sv, gkT0*gkSS_sv_0+gkT1*8)) += gkV } else { gkSA_sv.OutOfLine(\"Add\", gkT0, gkT1, gkV) }",
		"if gkSA_sv.Sub(i, 1); i > 2 {",
		`{Name: "sv", View: true, Write: true}`,
		`{Name: "lo", View: true, Write: true}`,
	} {
		if !strings.Contains(squashSpace(out), squashSpace(want)) {
			t.Errorf("the generated file lacks %q", want)
		}
	}
	// Unused takes no accessor.
	if i := strings.Index(out, "func gkHostUnused"); i < 0 || strings.Contains(out[i:], "Access()") {
		t.Errorf("Unused's host kernel takes an accessor")
	}
}

// TestScatterRefused checks the refusal of everything but accessors'
// updates done with a ScatterView, with its text and position.
func TestScatterRefused(t *testing.T) {
	src := scatterHeader + `
//kokkos:kernel
func Bad(i int, sv containers.ScatterView1[containers.ScatterSum, int64], pv containers.ScatterView1[containers.ScatterProd, float64], mv containers.ScatterView1[containers.ScatterMax, int32]) {
	a := sv.Access()
	a.Mul(i, 2)
	pv.Access().Add(i, 1)
	mv.Access().Sub(i, 1)
	b := a
	b.Add(i, 1)
	a = sv.Access()
	_ = sv.Extent(0)
	sv.Access()
	a.Release()
	_ = sv
	p := pv.Access()
	p.Update(i, float64(len("ab")))
	f := p.Update
	_ = f
}
`
	p, err := loadSource(".", map[string]string{"k.go": src})
	if err != nil {
		t.Fatal(err)
	}
	err = p.checkBodies()
	if err == nil {
		t.Fatal("no refusals")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		got = append(got, l[strings.Index(l, "/k.go:")+1:])
	}
	want := []string{
		"k.go:14:2: kernel Bad: Mul of the ScatterSum ScatterView sv is not allowed in a kernel (call Add, Sub or Update)",
		"k.go:15:2: kernel Bad: Add of the ScatterProd ScatterView pv is not allowed in a kernel (call Mul, Div or Update)",
		"k.go:16:2: kernel Bad: Sub of the ScatterMax ScatterView mv is not allowed in a kernel (call Update)",
		"k.go:17:2: kernel Bad: this assignment of a ScatterView accessor is not allowed in a kernel (declare each accessor once, a := sv.Access(), and call its updates)",
		"k.go:18:2: kernel Bad: a call of b.Add is not allowed in a kernel (call only helpers, math functions, kokkos atomics, min and max)",
		"k.go:19:2: kernel Bad: this assignment of a ScatterView accessor is not allowed in a kernel (declare each accessor once, a := sv.Access(), and call its updates)",
		"k.go:20:6: kernel Bad: a call of sv.Extent is not allowed in a kernel (call only Access, then the accessor's updates)",
		"k.go:21:2: kernel Bad: sv.Access() as a value is not allowed in a kernel (declare a := sv.Access() and call its updates)",
		"k.go:22:2: kernel Bad: Release of an accessor is not allowed in a kernel (leave it out: the kernel gives its accessors back itself)",
		"k.go:23:6: kernel Bad: the ScatterView sv as a value is not allowed in a kernel (call sv.Access() and the accessor's updates)",
		"k.go:25:22: kernel Bad: a call of len is not allowed in a kernel (use v.Extent(r))",
		"k.go:26:7: kernel Bad: the method value p.Update is not allowed in a kernel (call it)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	// Nor does a scan kernel, nor a team kernel.
	for _, c := range []struct{ src, want string }{
		{`//kokkos:kernel
func S(i int, sv containers.ScatterView1[containers.ScatterSum, int64], acc *int64, final bool) {}
`, "k.go:12:15: kernel S: parameter sv: a scan kernel takes no ScatterView: its body runs twice for an index"},
		{`//kokkos:kernel
func T(t kernel.Team, sv containers.ScatterView1[containers.ScatterSum, int64]) {}

var _ kernel.Team
`, "k.go:13:23: kernel T: parameter sv has type github.com/gokkos/kokkos/containers.ScatterView1[github.com/gokkos/kokkos/containers.ScatterSum, int64]; a team kernel takes"},
	} {
		src := strings.Replace(scatterHeader, `"github.com/gokkos/kokkos/containers"`, `"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/kernel"`, 1)
		if !strings.Contains(c.src, "kernel.Team") {
			src = scatterHeader
		}
		_, err := loadSource(".", map[string]string{"k.go": src + "\n" + c.src})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// A helper takes no ScatterView.
	_, err = loadSource(".", map[string]string{"k.go": scatterHeader + `
//kokkos:kernel
func h(sv containers.ScatterView1[containers.ScatterSum, int64]) int { return 0 }
`})
	if err == nil || !strings.Contains(err.Error(), "helper parameter sv has type github.com/gokkos/kokkos/containers.ScatterView1[github.com/gokkos/kokkos/containers.ScatterSum, int64]; a helper takes scalars") {
		t.Errorf("a helper of a ScatterView: %v", err)
	}
}
