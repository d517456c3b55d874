package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// A matrix-vector product with one team per row: the team's threads split
// the row and reduce it together.
func ExampleParallelForTeam() {
	const rows, cols = 3, 4
	a := [rows][cols]float64{{1, 2, 3, 4}, {0, 1, 0, 1}, {2, 2, 2, 2}}
	x := []float64{1, 1, 2, 2}
	y := make([]float64, rows)
	kokkos.ParallelForTeam("matvec", kokkos.Teams(rows, 2), func(m *kokkos.TeamMember) {
		i := m.LeagueRank()
		s := kokkos.NestedReduce(kokkos.TeamThreadRange(m, 0, cols), kokkos.Sum[float64](),
			func(j int, acc *float64) { *acc += a[i][j] * x[j] })
		kokkos.SinglePerTeam(m, func() { y[i] = s })
	})
	fmt.Println(y)
	// Output: [17 3 12]
}

// Each team contributes its row's sum once; the threads' accumulators are
// joined in rank order.
func ExampleParallelReduceTeam() {
	total := kokkos.ParallelReduceTeam("sum", kokkos.Teams(4, kokkos.Auto), kokkos.Sum[int](),
		func(m *kokkos.TeamMember, acc *int) {
			s := kokkos.NestedReduce(kokkos.TeamThreadRange(m, 0, 10), kokkos.Sum[int](),
				func(j int, acc *int) { *acc += m.LeagueRank()*10 + j })
			kokkos.SinglePerTeam(m, func() { *acc += s })
		})
	fmt.Println(total)
	// Output: 780
}

// Threads of a team exchange values through a barrier-backed collective.
func ExampleTeamScan() {
	out := make([]string, 4)
	kokkos.ParallelForTeam("scan", kokkos.Teams(1, 4), func(m *kokkos.TeamMember) {
		v := m.TeamRank() + 1
		prefix, total := kokkos.TeamScan(m, kokkos.Sum[int](), v)
		mx := kokkos.TeamReduce(m, kokkos.Max[int](), v)
		from0 := kokkos.TeamBroadcast(m, v*100, 0)
		out[m.TeamRank()] = fmt.Sprint(prefix, "/", total, " ", mx, " ", from0)
	})
	fmt.Println(out)
	// Output: [0/10 4 100 1/10 4 100 3/10 4 100 6/10 4 100]
}

// A team stages a tile in level-0 scratch, waits for all its threads, and
// reads it back transposed.
func ExampleScratchView2() {
	const n = 4
	src := [n][n]int{}
	for i := range n {
		for j := range n {
			src[i][j] = 10*i + j
		}
	}
	var dst [n][n]int
	p := kokkos.Teams(1, 2).SetScratchSize(0, kokkos.ScratchSize[int](n, n), 0)
	kokkos.ParallelForTeam("transpose", p, func(m *kokkos.TeamMember) {
		tile := kokkos.ScratchView2[int](m.TeamScratch(0), n, n)
		kokkos.NestedFor(kokkos.TeamThreadRange(m, 0, n), func(i int) {
			for j := range n {
				tile.Set(i, j, src[i][j])
			}
		})
		m.TeamBarrier()
		kokkos.NestedFor(kokkos.TeamThreadRange(m, 0, n), func(j int) {
			for i := range n {
				dst[j][i] = tile.At(i, j)
			}
		})
	})
	fmt.Println(dst[1], kokkos.ScratchSize[int](n, n))
	// Output: [1 11 21 31] 128
}

// The threads of a team split a copy into scratch memory.
func ExampleLocalDeepCopy() {
	src := kokkos.Must(kokkos.NewView1[int]("src", 6))
	for i := range 6 {
		src.Set(i, i*i)
	}
	sums := make([]int, 2)
	p := kokkos.Teams(2, 3).SetScratchSize(1, kokkos.ScratchSize[int](6), 0)
	kokkos.ParallelForTeam("stage", p, func(m *kokkos.TeamMember) {
		buf := kokkos.ScratchView1[int](m.TeamScratch(1), 6)
		kokkos.LocalFill(m, kokkos.View[int](buf), 0)
		kokkos.LocalDeepCopy(m, kokkos.View[int](buf), kokkos.View[int](src))
		s := kokkos.NestedReduce(kokkos.TeamThreadRange(m, 0, 6), kokkos.Sum[int](), func(i int, acc *int) { *acc += buf.At(i) })
		kokkos.SinglePerTeam(m, func() { sums[m.LeagueRank()] = s })
	})
	fmt.Println(sums)
	// Output: [55 55]
}

// A prefix sum over a nested range, and a single value computed once per
// team and seen by all its threads.
func ExampleNestedScan() {
	out := make([]int, 5)
	var seen [3]int
	kokkos.ParallelForTeam("offsets", kokkos.Teams(1, 3), func(m *kokkos.TeamMember) {
		total := kokkos.NestedScan(kokkos.TeamThreadRange(m, 0, 5), kokkos.Sum[int](), func(i int, acc *int, final bool) {
			if final {
				out[i] = *acc
			}
			*acc += i + 1
		})
		seen[m.TeamRank()] = kokkos.SinglePerTeamValue(m, func(v *int) { *v = total * 2 })
	})
	fmt.Println(out, seen)
	// Output: [0 1 3 6 10] [30 30 30]
}

// A policy of 100 teams of the host's size with a 32x32 float64 tile of
// level-0 scratch per team.
func ExampleTeams() {
	p := kokkos.Teams(100, kokkos.Auto).SetScratchSize(0, kokkos.ScratchSize[float64](32, 32), 0)
	fmt.Println(p, p.LeagueSize())
	// Output: TeamPolicy(100, Auto).SetScratchSize(0, 8192, 0) 100
}
