package main

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

// HistScratch counts the rows of v of team t.LeagueRank() (rows of them)
// into a histogram in the team's scratch pad, with atomic increments
// there, then adds it to r with one atomic per bin: the global histogram
// sees bins atomics per team instead of one per value.
//
//kokkos:kernel
func HistScratch(t kernel.Team, v kokkos.View2[int32], r kokkos.View1[int32], rows int) {
	h := kokkos.ScratchView1[int32](t.TeamScratch(0), bins)
	for b := range t.TeamThreadRange(0, bins) {
		h.Set(b, 0)
	}
	t.TeamBarrier()
	lo := t.LeagueRank() * rows
	hi := min(lo+rows, v.Extent(0))
	for i := range t.TeamThreadRange(lo, hi) {
		for j := range v.Extent(1) {
			kokkos.AtomicAdd(h.Ptr(int(v.At(i, j))), 1)
		}
	}
	t.TeamBarrier()
	for b := range t.TeamThreadRange(0, bins) {
		kokkos.AtomicAdd(r.Ptr(b), h.At(b))
	}
}

// teamForm names the form of teamScratch in the output.
const teamForm = "team kernel"

// teamScratch launches HistScratch over teams of Auto size, rows rows
// each, with a level-0 scratch pad of bins int32s.
func teamScratch(place tut.Place, v kokkos.View2[int32], r kokkos.View1[int32], rows int) error {
	p := kokkos.Teams((v.Extent(0)+rows-1)/rows, kokkos.Auto).
		SetScratchSize(0, kokkos.ScratchSize[int32](bins), 0).On(place.Space())
	return kernel.For("team-scratch histogram", p, HistScratch, v.ReadOnly(), r, rows)
}
