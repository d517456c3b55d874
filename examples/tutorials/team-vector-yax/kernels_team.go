package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

// YAxTeamVector adds y_e^T*A_e*x_e to acc for e = t.LeagueRank(): the
// team's threads split the rows, each thread's vector lanes a row's
// columns, as the tutorial's team_vector_loop solution.
//
//kokkos:kernel
func YAxTeamVector(t kernel.Team, y kokkos.View2[float64], A kokkos.View3[float64], x kokkos.View2[float64], acc *float64) {
	e := t.LeagueRank()
	rows := 0.0
	for j := range t.TeamThreadRange(0, A.Extent(1)) {
		row := 0.0
		for i := range t.ThreadVectorRange(0, A.Extent(2)) {
			row += A.At(e, j, i) * x.At(e, i)
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

// yaxTeam launches YAxTeamVector over one team per matrix, of Auto size
// and vector length 32 (as the C++ program), at place.
func yaxTeam(place tut.Place, y kokkos.View2[float64], a kokkos.View3[float64], x kokkos.View2[float64]) (float64, error) {
	p := kokkos.Teams(a.Extent(0), kokkos.Auto).WithVectorLength(32).On(place.Space())
	return kernel.Reduce("yAx", p, kokkos.Sum[float64](), YAxTeamVector, y.ReadOnly(), a.ReadOnly(), x.ReadOnly())
}
