//go:build kernels_pending

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

// HistLocal counts block k of v (rows rows) into a local array, with
// plain increments, then adds it to r with one atomic per bin.
//
//kokkos:kernel
func HistLocal(k int, v kokkos.View2[int32], r kokkos.View1[int32], rows int) {
	var h [bins]int32
	lo := k * rows
	hi := min(lo+rows, v.Extent(0))
	for i := lo; i < hi; i++ {
		for j := range v.Extent(1) {
			h[v.At(i, j)]++
		}
	}
	for b := range bins {
		kokkos.AtomicAdd(r.Ptr(b), h[b])
	}
}

// form names the forms in the output.
const form = "kernels"

// teamScratch launches HistScratch over teams of Auto size, rows rows
// each, with a level-0 scratch pad of bins int32s.
func teamScratch(place tut.Place, v kokkos.View2[int32], r kokkos.View1[int32], rows int) error {
	p := kokkos.Teams((v.Extent(0)+rows-1)/rows, kokkos.Auto).
		SetScratchSize(0, kokkos.ScratchSize[int32](bins), 0).On(place.Space())
	return kernel.For("team-scratch histogram", p, HistScratch, v.ReadOnly(), r, rows)
}

// localArray launches HistLocal over blocks of rows rows.
func localArray(place tut.Place, v kokkos.View2[int32], r kokkos.View1[int32], rows int) error {
	p := kokkos.Range(0, (v.Extent(0)+rows-1)/rows).On(place.Space())
	return kernel.For("local-array histogram", p, HistLocal, v.ReadOnly(), r, rows)
}
