package kerneltest

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// TeamRankScan writes to out, for each thread of each team, the sum of
// in's values of the threads of its team up to and including its own
// (a TeamScan of one value a thread, which does not depend on how a
// backend splits nested ranges), and each team's total to sums.
//
//kokkos:kernel
func TeamRankScan(t kernel.Team, out, sums, in kokkos.View1[int64]) {
	k := t.LeagueRank()*t.TeamSize() + t.TeamRank()
	v := in.At(k)
	prefix, total := kernel.TeamScan(t, kokkos.Sum[int64](), v)
	out.Set(k, prefix+v)
	if t.SinglePerTeam() {
		sums.Set(t.LeagueRank(), total)
	}
}
