package kerneltest

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// Nested scans (team_scan_test.go): a team per row of a, or rowsPerTeam
// rows a team, the row's prefix joins written inclusive and exclusive,
// and the total as each thread gets it.

// ScanRowsThread writes the inclusive (incl) and exclusive (excl) prefix
// sums of each row of a, split among the team's threads, each thread's
// total to tot[row, rank] and its total of a Max scan of the row to
// top[row, rank].
//
//kokkos:kernel
func ScanRowsThread(t kernel.Team, incl, excl, tot, top, a kokkos.View2[int64]) {
	row := t.LeagueRank()
	total := kernel.TeamThreadScan(t, 0, a.Extent(1), kokkos.Sum[int64](), func(j int, acc *int64, final bool) {
		if final {
			excl.Set(row, j, *acc)
		}
		*acc += a.At(row, j)
		if final {
			incl.Set(row, j, *acc)
		}
	})
	tot.Set(row, t.TeamRank(), total)
	m := kernel.TeamThreadScan(t, 0, a.Extent(1), kokkos.Max[int64](), func(j int, acc *int64, _ bool) {
		*acc = max(*acc, a.At(row, j))
	})
	top.Set(row, t.TeamRank(), m)
}

// ScanRowsTeamVector is ScanRowsThread's sums over float64 values, the
// row split among the team's threads and their vector lanes.
//
//kokkos:kernel
func ScanRowsTeamVector(t kernel.Team, incl, excl, tot, a kokkos.View2[float64]) {
	row := t.LeagueRank()
	//lint:ignore S1021 the total assigned to a declared local is the form under test
	var total float64
	total = kernel.TeamVectorScan(t, 0, a.Extent(1), kokkos.Sum[float64](), func(j int, acc *float64, final bool) {
		v := a.At(row, j)
		if final {
			excl.Set(row, j, *acc)
			incl.Set(row, j, *acc+v)
		}
		*acc += v
	})
	tot.Set(row, t.TeamRank(), total)
}

// ScanRowsVector writes the prefix sums of rowsPerTeam rows of a a team,
// the rows split among the team's threads, each row among a thread's
// vector lanes, and each row's total to tot.
//
//kokkos:kernel
func ScanRowsVector(t kernel.Team, incl, excl kokkos.View2[int64], tot kokkos.View1[int64], a kokkos.View2[int64], rowsPerTeam int) {
	lo := t.LeagueRank() * rowsPerTeam
	hi := min(lo+rowsPerTeam, a.Extent(0))
	for i := range t.TeamThreadRange(lo, hi) {
		var s = kernel.ThreadVectorScan(t, 0, a.Extent(1), kokkos.Sum[int64](), func(j int, acc *int64, final bool) {
			if final {
				excl.Set(i, j, *acc)
			}
			*acc += a.At(i, j)
			if final {
				incl.Set(i, j, *acc)
			}
		})
		tot.Set(i, s)
	}
}

// ScanRowsMax writes the running maximum of the non-negative values of
// each row of a, inclusive (a negative value does not count: the body
// returns early), and each thread's total to tot[row, rank].
//
//kokkos:kernel
func ScanRowsMax(t kernel.Team, run, tot, a kokkos.View2[float64]) {
	row := t.LeagueRank()
	m := kernel.TeamThreadScan(t, 0, a.Extent(1), kokkos.Max[float64](), func(j int, acc *float64, final bool) {
		v := a.At(row, j)
		if v < 0 {
			if final {
				run.Set(row, j, *acc)
			}
			return
		}
		*acc = max(*acc, v)
		if final {
			run.Set(row, j, *acc)
		}
	})
	tot.Set(row, t.TeamRank(), m)
}

// ScanForms counts, for each positive value of v, the positive values
// before it (cnt, written by team 0; a return skips the others), and
// writes each team's join by BOr of v plus the count plus n(n+1)/2 to
// tot; its scans take the other forms: a total assigned, dropped and
// declared shadowing a variable the call reads, unnamed parameters.
//
//kokkos:kernel
func ScanForms(t kernel.Team, cnt, tot, v kokkos.View1[int64]) {
	n := v.Extent(0)
	row := t.LeagueRank()
	//lint:ignore S1021 the total assigned to a declared local is the form under test
	var c int64
	c = kernel.TeamVectorScan(t, 0, n, kokkos.Sum[int64](), func(i int, k *int64, final bool) {
		if v.At(i) <= 0 {
			return
		}
		if final && row == 0 {
			cnt.Set(i, *k)
		}
		*k += 1
	})
	_ = kernel.ThreadVectorScan(t, 0, n, kokkos.Sum[int64](), func(_ int, _ *int64, _ bool) {})
	kernel.TeamThreadScan(t, 0, n, kokkos.Sum[int64](), func(int, *int64, bool) {})
	var b = kernel.TeamThreadScan(t, 0, n, kokkos.BOr[int64](), func(i int, a *int64, _ bool) { *a |= v.At(i) })
	var k int64
	{
		// The new n shadows the old, which the call still sees.
		n := kernel.TeamThreadScan(t, 0, n, kokkos.Sum[int64](), func(i int, a *int64, _ bool) { *a += int64(n - i) })
		k = n
	}
	if t.SinglePerTeam() {
		tot.Set(row, b+c+k)
	}
}
