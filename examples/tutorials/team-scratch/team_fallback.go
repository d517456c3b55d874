//go:build !kernels_pending

package main

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
)

// teamForm names the form of yaxTeam in the output.
const teamForm = "team closure"

// yaxTeam is the sum of y_e^T*A_e*x_e over one team per matrix, of Auto
// size and vector length 32, as a closure given to
// kokkos.ParallelReduceTeam: each team copies x_e into a view of its
// level-0 scratch pad (thread 0, then a barrier), its threads split the
// rows and each thread's vector lanes a row's columns, reading x from the
// pad. It runs on the host only; kernels_team.go holds the same as a team
// kernel, for the host and the GPU.
func yaxTeam(place tut.Place, y kokkos.View2[float64], a kokkos.View3[float64], x kokkos.View2[float64]) (float64, error) {
	if place.Stream != nil {
		return 0, fmt.Errorf("the team form runs on the GPU as a team kernel (kernels_team.go, build tag kernels_pending)")
	}
	n, m := a.Extent(1), a.Extent(2)
	sum := kokkos.Sum[float64]()
	p := kokkos.Teams(a.Extent(0), kokkos.Auto).WithVectorLength(32).SetScratchSize(0, kokkos.ScratchSize[float64](m), 0)
	r := kokkos.ParallelReduceTeam("yAx", p, sum, func(t *kokkos.TeamMember, acc *float64) {
		e := t.LeagueRank()
		sx := kokkos.ScratchView1[float64](t.TeamScratch(0), m)
		if t.TeamRank() == 0 {
			kokkos.NestedForChunks(kokkos.ThreadVectorRange(t, 0, m), func(lo, hi int) {
				for i := lo; i < hi; i++ {
					sx.Set(i, x.At(e, i))
				}
			})
		}
		t.TeamBarrier()
		rows := kokkos.NestedReduceChunks(kokkos.TeamThreadRange(t, 0, n), sum, func(lo, hi int, rows *float64) {
			for j := lo; j < hi; j++ {
				row := kokkos.NestedReduceChunks(kokkos.ThreadVectorRange(t, 0, m), sum, func(lo, hi int, row *float64) {
					for i := lo; i < hi; i++ {
						*row += a.At(e, j, i) * sx.At(i)
					}
				})
				*rows += y.At(e, j) * row
			}
		})
		if t.TeamRank() == 0 {
			*acc += rows
		}
	})
	return r, nil
}
