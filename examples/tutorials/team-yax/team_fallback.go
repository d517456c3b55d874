//go:build !kernels_pending

package main

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
)

// teamForm names the form of yaxTeam in the output.
const teamForm = "team closure"

// yaxTeam is y^T*A*x over one team per row, of Auto size, as a closure
// given to kokkos.ParallelReduceTeam: the team's threads split the row's
// dot product (a nested reduction over TeamThreadRange, which every
// thread of the team gets joined) and thread 0
// adds y(j) times it. It runs on the host only; kernels_team.go holds the
// same as a team kernel, for the host and the GPU.
func yaxTeam(place tut.Place, y kokkos.View1[float64], a kokkos.View2[float64], x kokkos.View1[float64]) (float64, error) {
	if place.Stream != nil {
		return 0, fmt.Errorf("the team form runs on the GPU as a team kernel (kernels_team.go, build tag kernels_pending)")
	}
	m := a.Extent(1)
	sum := kokkos.Sum[float64]()
	r := kokkos.ParallelReduceTeam("yAx", kokkos.Teams(a.Extent(0), kokkos.Auto), sum, func(t *kokkos.TeamMember, acc *float64) {
		j := t.LeagueRank()
		s := kokkos.NestedReduceChunks(kokkos.TeamThreadRange(t, 0, m), sum, func(lo, hi int, s *float64) {
			for i := lo; i < hi; i++ {
				*s += a.At(j, i) * x.At(i)
			}
		})
		if t.TeamRank() == 0 {
			*acc += y.At(j) * s
		}
	})
	return r, nil
}
