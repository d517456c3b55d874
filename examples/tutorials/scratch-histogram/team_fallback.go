//go:build !kernels_pending

package main

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
)

// form names the forms in the output.
const form = "closures"

// errHostOnly is the error of a fallback asked to run on a GPU.
var errHostOnly = fmt.Errorf("the closure forms run on the host; the kernels (kernels_team.go, build tag kernels_pending) on a GPU")

// teamScratch counts v into r over teams of Auto size, rows rows each, as
// a closure over kokkos.ParallelForTeam: each team zeroes a histogram in
// its scratch pad, counts its rows into it with atomic increments, and
// adds it to r with one atomic per bin. It runs on the host only;
// kernels_team.go holds the same as a team kernel.
func teamScratch(place tut.Place, v kokkos.View2[int32], r kokkos.View1[int32], rows int) error {
	if place.Stream != nil {
		return errHostOnly
	}
	n, m := v.Extent(0), v.Extent(1)
	p := kokkos.Teams((n+rows-1)/rows, kokkos.Auto).SetScratchSize(0, kokkos.ScratchSize[int32](bins), 0)
	kokkos.ParallelForTeam("team-scratch histogram", p, func(t *kokkos.TeamMember) {
		h := kokkos.ScratchView1[int32](t.TeamScratch(0), bins)
		kokkos.NestedFor(kokkos.TeamThreadRange(t, 0, bins), func(b int) { h.Set(b, 0) })
		t.TeamBarrier()
		lo := t.LeagueRank() * rows
		kokkos.NestedForChunks(kokkos.TeamThreadRange(t, lo, min(lo+rows, n)), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				for j := range m {
					kokkos.AtomicAdd(h.Ptr(int(v.At(i, j))), 1)
				}
			}
		})
		t.TeamBarrier()
		kokkos.NestedFor(kokkos.TeamThreadRange(t, 0, bins), func(b int) { kokkos.AtomicAdd(r.Ptr(b), h.At(b)) })
	})
	return nil
}

// localArray counts v into r over blocks of rows rows, as a closure over
// kokkos.ParallelFor: each block counts into a local array with plain
// increments, then adds it to r with one atomic per bin. It runs on the
// host only; kernels_team.go holds the same as a kernel.
func localArray(place tut.Place, v kokkos.View2[int32], r kokkos.View1[int32], rows int) error {
	if place.Stream != nil {
		return errHostOnly
	}
	n, m := v.Extent(0), v.Extent(1)
	kokkos.ParallelFor("local-array histogram", kokkos.Range(0, (n+rows-1)/rows), func(k int) {
		var h [bins]int32
		for i := k * rows; i < min(k*rows+rows, n); i++ {
			for j := range m {
				h[v.At(i, j)]++
			}
		}
		for b := range bins {
			kokkos.AtomicAdd(r.Ptr(b), h[b])
		}
	})
	return nil
}
