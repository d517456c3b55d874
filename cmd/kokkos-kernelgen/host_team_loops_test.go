package main

import (
	"strings"
	"testing"
)

const teamLoopsSrc = `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

//kokkos:kernel
func Row(t kernel.Team, x kokkos.View1[float64], a kokkos.View2[float64], lo, hi int, acc *float64) {
	row := t.LeagueRank()
	var s float64
	for j := range t.TeamThreadRange(lo, hi) {
		s += a.At(row, j+1) * x.At(j)
	}
	for j := range t.TeamThreadRange(0, min(hi, x.Extent(0))) {
		s += x.At(j)
	}
	*acc += s
}

//kokkos:kernel
func Nest(t kernel.Team, a kokkos.View2[float64], rows int) {
	lo := t.LeagueRank() * rows
	for i := range t.TeamThreadRange(lo, lo+rows) {
		for j := range t.ThreadVectorRange(0, a.Extent(1)) {
			a.Set(i, j, 1)
		}
	}
}

//kokkos:kernel nocheck
func Scaled(t kernel.Team, a kokkos.View2[float64], c float64) {
	s := kokkos.ScratchView1[float64](t.TeamScratch(0), a.Extent(1))
	for j := range t.TeamThreadRange(0, a.Extent(1)) {
		s.Set(j, c*a.At(t.LeagueRank(), j))
	}
	t.TeamBarrier()
	row := t.LeagueRank()
	for j := range t.TeamThreadRange(0, a.Extent(1)) {
		a.Set(row, j, s.At(j))
	}
}
`

// hostFunc returns the text of generated function name.
func hostFunc(t *testing.T, out, name string) string {
	t.Helper()
	i := strings.Index(out, "func "+name+"(")
	if i < 0 {
		t.Fatalf("no %s in:\n%s", name, out)
	}
	f := out[i:]
	if j := strings.Index(f, "\n}\n"); j >= 0 {
		f = f[:j+3]
	}
	return f
}

// TestGenerateTeamLoops checks the host code of a team kernel's loops over
// nested ranges: a test of the range [b, e) against the extents before
// the loop, the unchecked copies (offsets hoisted, unit strides), the
// checked loop as the fallback, a loop of an unknown range left checked,
// the bases and strides taken by the binder, a nest tested once.
func TestGenerateTeamLoops(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": teamLoopsSrc})
	row := hostFunc(t, out, "gkHostRow")
	for _, want := range []string{
		"gkP_x := x.Base(gkL)\n\tgkS_x_0 := x.ByteStride(0)\n\tgkP_a := a.Base(gkL)\n\tgkS_a_0 := a.ByteStride(0)\n\tgkS_a_1 := a.ByteStride(1)\n",
		"x, a, lo, hi, gkP_x, gkS_x_0, gkP_a, gkS_a_0, gkS_a_1 := x, a, lo, hi, gkP_x, gkS_x_0, gkP_a, gkS_a_0, gkS_a_1",
		"if hi < a.Extent(1) && hi-1 < x.Extent(0) && lo >= 0 && lo+1 >= 0 && row < a.Extent(0) && row >= 0 &&",
		"if gkS_a_1 == 8 && gkS_x_0 == 8 {\n\t\t\t\tgkQ0 := (row)*gkS_a_0 + (1)*gkS_a_1\n",
		"for j, gkE",
		":= gkkokkos.TeamThreadRange(gkM, lo, hi).Share(); j < gkE",
		"s += float64((*(*float64)(gkunsafe.Add(gkP_a, gkQ0+j*8))) * (*(*float64)(gkunsafe.Add(gkP_x, j*8))))",
		"} else {\n\t\t\t/*line k.go:12:2*/ for j, gkE",
		"s += float64(a.At(row, j+1) * x.At(j))",
		// The range of min(...) is not known: its loop stays checked.
		":= gkkokkos.TeamThreadRange(gkM, 0, min(hi, x.Extent(0))).Share(); j < gkE",
	} {
		if !strings.Contains(row, want) {
			t.Errorf("gkHostRow lacks %q:\n%s", want, row)
		}
	}
	if n := strings.Count(row, "min(hi, x.Extent(0))"); n != 1 {
		t.Errorf("gkHostRow has %d copies of the loop of unknown range, want 1:\n%s", n, row)
	}
	if strings.Contains(row, "Checks()") {
		t.Errorf("gkHostRow, not nocheck, asks for checks:\n%s", row)
	}

	nest := hostFunc(t, out, "gkHostNest")
	for _, want := range []string{
		// One test for the nest, before the outer loop.
		"lo := t.LeagueRank() * rows\n\t\tif lo >= 0 && lo+rows-1 < a.Extent(0) &&",
		"for i, gkE",
		"for j, gkE",
		":= gkkokkos.ThreadVectorRange(gkM, 0, a.Extent(1)).Share(); j < gkE",
		"*(*float64)(gkunsafe.Add(gkP_a, gkQ0+j*8)) = (1)",
		"a.Set(i, j, 1)",
	} {
		if !strings.Contains(nest, want) {
			t.Errorf("gkHostNest lacks %q:\n%s", want, nest)
		}
	}
	if n := strings.Count(nest, "lo+rows-1 < a.Extent(0)"); n != 1 {
		t.Errorf("gkHostNest tests %d times, want once for the nest:\n%s", n, nest)
	}
}

// TestGenerateTeamNocheck checks a nocheck team kernel's binder: the
// thread function whose accesses are all plain, unless the launch asks
// for checks, then the checked one; a scratch view's base and strides
// after its declaration, the user's lines resumed after them.
func TestGenerateTeamNocheck(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": teamLoopsSrc})
	f := hostFunc(t, out, "gkHostScaled")
	i := strings.Index(f, "if !gkL.Checks() {\n\t\treturn func(gkM *gkkokkos.TeamMember) {")
	j := strings.LastIndex(f, "\treturn func(gkM *gkkokkos.TeamMember) {")
	if i < 0 || j < i {
		t.Fatalf("gkHostScaled lacks the unchecked then the checked thread function:\n%s", f)
	}
	unchecked, checked := f[i:j], f[j:]
	scratch := "s := gkkernel.Scratch1(\"k.Scaled\", \"s\", gkkokkos.ScratchView1[float64](t.TeamScratch(0), a.Extent(1)))\n" +
		"\t\tgkP_s := gkunsafe.Pointer(nil)\n\t\tif s.Extent(0) > 0 {\n\t\t\tgkP_s = gkunsafe.Pointer(s.Ptr(0))\n\t\t}\n\t\tgkS_s_0 := s.ByteStride(0)\n\t\t/*line k.go:33:66*/\n"
	for _, want := range []string{scratch, "if a.Extent(1)-1 < s.Extent(0) && t.LeagueRank() < a.Extent(0) && t.LeagueRank() >= 0 && ", "*(*float64)(gkunsafe.Add(gkP_a, gkQ", "s.At(j)"} {
		if !strings.Contains(checked, want) {
			t.Errorf("the checked function lacks %q:\n%s", want, checked)
		}
	}
	if !strings.Contains(unchecked, strings.ReplaceAll(scratch, "\n\t\t", "\n\t\t\t")) {
		t.Errorf("the unchecked function lacks the scratch view's base and strides:\n%s", unchecked)
	}
	for _, no := range []string{".At(", ".Set(", "a.Extent(0)"} {
		if strings.Contains(unchecked, no) {
			t.Errorf("the unchecked function has %q:\n%s", no, unchecked)
		}
	}
}
