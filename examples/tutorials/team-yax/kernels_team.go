package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

// YAxTeam adds row t.LeagueRank()'s share of y^T*A*x to acc: the team's
// threads split the row's dot product (TeamThreadRange), join their parts
// with TeamReduce, and thread 0 adds y(j) times it, as the tutorial's
// team_policy solution.
//
//kokkos:kernel
func YAxTeam(t kernel.Team, y kokkos.View1[float64], A kokkos.View2[float64], x kokkos.View1[float64], acc *float64) {
	j := t.LeagueRank()
	s := 0.0
	for i := range t.TeamThreadRange(0, A.Extent(1)) {
		s += A.At(j, i) * x.At(i)
	}
	s = kernel.TeamReduce(t, kokkos.Sum[float64](), s)
	if t.TeamRank() == 0 {
		*acc += y.At(j) * s
	}
}

// teamForm names the form of yaxTeam in the output.
const teamForm = "team kernel"

// yaxTeam launches YAxTeam over one team per row, of Auto size, at place.
func yaxTeam(place tut.Place, y kokkos.View1[float64], a kokkos.View2[float64], x kokkos.View1[float64]) (float64, error) {
	p := kokkos.Teams(a.Extent(0), kokkos.Auto).On(place.Space())
	return kernel.Reduce("yAx", p, kokkos.Sum[float64](), YAxTeam, y.ReadOnly(), a.ReadOnly(), x.ReadOnly())
}
