package main

import (
	"strings"
	"testing"
)

// TestGenerateTeamHost checks the shape of a team kernel's generated
// code: the member function over ParallelForTeam's or ParallelReduceTeam's
// member, the Team of the member, nested ranges as plain loops over the
// thread's share (a blank index given a name, the Team not declared when
// only the ranges use it), scratch views bound as accessors, acc and
// return as written, and the Spec's Team flag and NoDevice.
func TestGenerateTeamHost(t *testing.T) {
	out := generateSource(t, map[string]string{"k.go": `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

//kokkos:kernel
func Rows(t kernel.Team, a kokkos.View2[float64], acc *float64) {
	s := kokkos.ScratchView1[float64](t.TeamScratch(0), a.Extent(1))
	if t.LeagueRank() >= a.Extent(0) {
		return
	}
	for j := range t.TeamThreadRange(0, a.Extent(1)) {
		s.Set(j, a.At(t.LeagueRank(), j))
	}
	t.TeamBarrier()
	*acc += s.At(0)
}

//kokkos:kernel
func Fill(t kernel.Team, v kokkos.View1[int32]) {
	for range t.TeamVectorRange(0, v.Extent(0)) {
		kokkos.AtomicAdd(v.Ptr(0), 1)
	}
}
`})
	for _, want := range []string{
		"func gkHostRows(gkL *gkkernel.Launch, gkArgs []any) (func(gkM *gkkokkos.TeamMember, acc *float64), error) {",
		"return func(gkM *gkkokkos.TeamMember, acc *float64) {\n\t\ta, gkP_a, gkS_a_0, gkS_a_1 := a, gkP_a, gkS_a_0, gkS_a_1\n\t\tt := gkkernel.TeamOf(gkM)\n",
		`s := gkkernel.Scratch1("k.Rows", "s", gkkokkos.ScratchView1[float64](t.TeamScratch(0), a.Extent(1)))`,
		"\t\t\treturn\n",
		"for j, gkE",
		":= gkkokkos.TeamThreadRange(gkM, 0, a.Extent(1)).Share(); j < gkE",
		"*acc += s.At(0)",
		"func gkHostFill(gkL *gkkernel.Launch, gkArgs []any) (func(gkM *gkkokkos.TeamMember), error) {",
		"return func(gkM *gkkokkos.TeamMember) {\n\t\tv, gkP_v, gkS_v_0 := v, gkP_v, gkS_v_0\n\t\t/*line k.go:",
		"for gkJ",
		"Pattern: gkkernel.PatternReduce, Rank: 0,\n\t\tTeam: true,",
		"IR: gkIR + `(kernel Rows reduce (team t)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("generated code lacks %q:\n%s", want, out)
			break
		}
	}
	if strings.Contains(out, "TeamThreadRange(0,") || strings.Contains(out, "t.TeamVectorRange") {
		t.Errorf("a nested range left as an iterator:\n%s", out)
	}
}
