package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

// YAxScratch adds y_e^T*A_e*x_e to acc for e = t.LeagueRank(), as
// YAxTeamVector in team-vector-yax, reading x_e from a copy in the team's
// scratch pad: thread 0's vector lanes copy it, and the team waits at a
// barrier before the rows are split, as the tutorial's
// team_scratch_memory solution. The pad must hold M float64s.
//
//kokkos:kernel
func YAxScratch(t kernel.Team, y kokkos.View2[float64], A kokkos.View3[float64], x kokkos.View2[float64], acc *float64) {
	e := t.LeagueRank()
	m := A.Extent(2)
	sx := kokkos.ScratchView1[float64](t.TeamScratch(0), m)
	if t.TeamRank() == 0 {
		for i := range t.ThreadVectorRange(0, m) {
			sx.Set(i, x.At(e, i))
		}
	}
	t.TeamBarrier()
	rows := 0.0
	for j := range t.TeamThreadRange(0, A.Extent(1)) {
		row := 0.0
		for i := range t.ThreadVectorRange(0, m) {
			row += A.At(e, j, i) * sx.At(i)
		}
		row = kernel.VectorReduce(t, kokkos.Sum[float64](), row)
		rows += y.At(e, j) * row
	}
	rows = kernel.TeamReduce(t, kokkos.Sum[float64](), rows)
	if t.SinglePerTeam() {
		*acc += rows
	}
}

// teamForm names the form of yaxTeam in the output.
const teamForm = "team kernel"

// yaxTeam launches YAxScratch over one team per matrix, of Auto size and
// vector length 32 (as the C++ program), with M float64s of level-0
// scratch per team, at place.
func yaxTeam(place tut.Place, y kokkos.View2[float64], a kokkos.View3[float64], x kokkos.View2[float64]) (float64, error) {
	p := kokkos.Teams(a.Extent(0), kokkos.Auto).WithVectorLength(32).
		SetScratchSize(0, kokkos.ScratchSize[float64](a.Extent(2)), 0).On(place.Space())
	return kernel.Reduce("yAx", p, kokkos.Sum[float64](), YAxScratch, y.ReadOnly(), a.ReadOnly(), x.ReadOnly())
}
