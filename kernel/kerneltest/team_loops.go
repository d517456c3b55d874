package kerneltest

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// Team kernels whose loops over nested ranges the host checks once
// (team_loops_test.go): their accesses are affine in the range's index
// and in invariant locals, and in range or not depending on off.

// TeamYAxNocheck is TeamYAx, its host accesses unchecked unless
// kernel.CheckHostBounds(true).
//
//kokkos:kernel nocheck
func TeamYAxNocheck(t kernel.Team, y, x kokkos.View1[float64], a kokkos.View2[float64], acc *float64) {
	row := t.LeagueRank()
	var s float64
	for j := range t.TeamThreadRange(0, a.Extent(1)) {
		s += a.At(row, j) * x.At(j)
	}
	s = kernel.TeamReduce(t, kokkos.Sum[float64](), s)
	if t.SinglePerTeam() {
		*acc += y.At(row) * s
	}
}

// TeamShift sets out(r, j) = 2·in(r, j+off) for the columns j of out, a
// team per row r, and scales each row's lanes in a vector range.
//
//kokkos:kernel
func TeamShift(t kernel.Team, out, in kokkos.View2[float64], off int) {
	row := t.LeagueRank()
	for j := range t.TeamThreadRange(0, out.Extent(1)) {
		out.Set(row, j, 2*in.At(row, j+off))
	}
}

// TeamShiftNocheck is TeamShift, nocheck.
//
//kokkos:kernel nocheck
func TeamShiftNocheck(t kernel.Team, out, in kokkos.View2[float64], off int) {
	row := t.LeagueRank()
	for j := range t.TeamThreadRange(0, out.Extent(1)) {
		out.Set(row, j, 2*in.At(row, j+off))
	}
}

// TeamScratchShift copies row r of in into team scratch, then sets out(r,
// j) = s(j+off) + in(r, j) over a TeamThreadRange, and adds, over the
// vector lanes of each thread's rows of a ThreadVectorRange, a second
// pass with an ordinary loop inside.
//
//kokkos:kernel
func TeamScratchShift(t kernel.Team, out, in kokkos.View2[float64], off int) {
	s := kokkos.ScratchView1[float64](t.TeamScratch(0), in.Extent(1))
	row := t.LeagueRank()
	for j := range t.TeamThreadRange(0, in.Extent(1)) {
		s.Set(j, in.At(row, j))
	}
	t.TeamBarrier()
	for j := range t.TeamThreadRange(0, out.Extent(1)) {
		out.Set(row, j, s.At(j+off)+in.At(row, j))
	}
	t.TeamBarrier()
	if t.SinglePerTeam() {
		for k := range 2 {
			for j := range t.ThreadVectorRange(0, out.Extent(1)) {
				out.Set(row, j, out.At(row, j)+float64(k)*s.At(j))
			}
		}
	}
}

// TeamScratchShiftNocheck is TeamScratchShift, nocheck.
//
//kokkos:kernel nocheck
func TeamScratchShiftNocheck(t kernel.Team, out, in kokkos.View2[float64], off int) {
	s := kokkos.ScratchView1[float64](t.TeamScratch(0), in.Extent(1))
	row := t.LeagueRank()
	for j := range t.TeamThreadRange(0, in.Extent(1)) {
		s.Set(j, in.At(row, j))
	}
	t.TeamBarrier()
	for j := range t.TeamThreadRange(0, out.Extent(1)) {
		out.Set(row, j, s.At(j+off)+in.At(row, j))
	}
	t.TeamBarrier()
	if t.SinglePerTeam() {
		for k := range 2 {
			for j := range t.ThreadVectorRange(0, out.Extent(1)) {
				out.Set(row, j, out.At(row, j)+float64(k)*s.At(j))
			}
		}
	}
}
