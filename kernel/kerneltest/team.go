package kerneltest

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// Team kernels, each run against the same function called from a
// kokkos.ParallelForTeam closure and against a plain Go loop (team_test.go).

// TeamYAx is y·(A x), a team per row, the team's threads splitting the
// row and joining their sums with TeamReduce: Kokkos's tutorial 04.
//
//kokkos:kernel
func TeamYAx(t kernel.Team, y, x kokkos.View1[float64], a kokkos.View2[float64], acc *float64) {
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

// YAxRow is TeamYAx as a flat kernel: an index per row, the row in a loop.
//
//kokkos:kernel
func YAxRow(i int, y, x kokkos.View1[float64], a kokkos.View2[float64], acc *float64) {
	var s float64
	for j := range a.Extent(1) {
		s += a.At(i, j) * x.At(j)
	}
	*acc += y.At(i) * s
}

// TeamVectorYAx is y·(A x) with rowsPerTeam rows a team, the rows split
// among the threads and each row among a thread's vector lanes:
// Kokkos's tutorial 05.
//
//kokkos:kernel
func TeamVectorYAx(t kernel.Team, y, x kokkos.View1[float64], a kokkos.View2[float64], rowsPerTeam int, acc *float64) {
	lo := t.LeagueRank() * rowsPerTeam
	hi := min(lo+rowsPerTeam, a.Extent(0))
	var s float64
	for i := range t.TeamThreadRange(lo, hi) {
		var r float64
		for j := range t.ThreadVectorRange(0, a.Extent(1)) {
			r += a.At(i, j) * x.At(j)
		}
		r = kernel.VectorReduce(t, kokkos.Sum[float64](), r)
		if t.SinglePerThread() {
			s += y.At(i) * r
		}
	}
	s = kernel.TeamReduce(t, kokkos.Sum[float64](), s)
	if t.SinglePerTeam() {
		*acc += s
	}
}

// TeamHistogram adds to hist the histogram of data, chunk values a team:
// each team counts its values in a histogram of its own, in level-0 team
// scratch (zeroed by the team, filled with atomics), then adds it to hist
// with atomics: Kokkos's hierarchical-parallelism scratch example.
//
//kokkos:kernel
func TeamHistogram(t kernel.Team, hist kokkos.View1[int64], data kokkos.View1[int32], chunk int) {
	h := kokkos.ScratchView1[int64](t.TeamScratch(0), hist.Extent(0))
	for b := range t.TeamVectorRange(0, h.Extent(0)) {
		h.Set(b, 0)
	}
	t.TeamBarrier()
	lo := t.LeagueRank() * chunk
	hi := min(lo+chunk, data.Extent(0))
	for i := range t.TeamThreadRange(lo, hi) {
		kokkos.AtomicAdd(h.Ptr(int(data.At(i))), 1)
	}
	t.TeamBarrier()
	for b := range t.TeamThreadRange(0, h.Extent(0)) {
		if h.At(b) == 0 {
			continue
		}
		kokkos.AtomicAdd(hist.Ptr(b), h.At(b))
	}
}

// TeamPrefix writes to out the prefix sums of in within blocks of chunk
// values, a team a block, and each block's sum to sums: each thread sums
// its share, TeamScan gives the thread the sum of the shares before its
// own, and the thread writes the prefix sums of its share. It relies on
// the host's split of a TeamThreadRange (contiguous shares in rank order);
// a GPU strides the indices over the threads, so the tests run it on the
// host only (TeamRankScan is a team scan that holds on every backend).
//
//kokkos:kernel
func TeamPrefix(t kernel.Team, out, sums, in kokkos.View1[int64], chunk int) {
	lo := t.LeagueRank() * chunk
	hi := min(lo+chunk, in.Extent(0))
	var s int64
	for i := range t.TeamThreadRange(lo, hi) {
		s += in.At(i)
	}
	prefix, total := kernel.TeamScan(t, kokkos.Sum[int64](), s)
	for i := range t.TeamThreadRange(lo, hi) {
		prefix += in.At(i)
		out.Set(i, prefix)
	}
	if t.SinglePerTeam() {
		sums.Set(t.LeagueRank(), total)
	}
}

// TeamMaxBroadcast writes to out, for each team and thread, the value of
// seeds at the team's rank times 3 plus the thread's rank, the first
// computed by one thread of the team and broadcast to the others, and to
// ranks the largest thread rank of the team (a TeamReduce with Max).
//
//kokkos:kernel
func TeamMaxBroadcast(t kernel.Team, out kokkos.View2[int64], ranks kokkos.View1[int32], seeds kokkos.View1[int64]) {
	from := t.LeagueRank() % t.TeamSize()
	v := int64(-1)
	if t.TeamRank() == from {
		v = seeds.At(t.LeagueRank()) * 3
	}
	v = kernel.TeamBroadcast(t, v, from)
	out.Set(t.LeagueRank(), t.TeamRank(), v+int64(t.TeamRank()))
	top := kernel.TeamReduce(t, kokkos.Max[int32](), int32(t.TeamRank()))
	if t.SinglePerTeam() && t.LeagueSize() > 0 {
		ranks.Set(t.LeagueRank(), top)
	}
}

// ThreadReverse reverses the rows of in into out, a row per thread of the
// league, through the thread's own level-1 scratch (two copies of the
// row, the second doubled).
//
//kokkos:kernel
func ThreadReverse(t kernel.Team, out, in kokkos.View2[float64]) {
	row := t.LeagueRank()*t.TeamSize() + t.TeamRank()
	w := in.Extent(1)
	tmp := kokkos.ScratchView2[float64](t.ThreadScratch(1), 2, w)
	if row >= in.Extent(0) {
		return
	}
	for j := range t.ThreadVectorRange(0, w) {
		tmp.Set(0, j, in.At(row, j))
		tmp.Set(1, j, 2*in.At(row, j))
	}
	for j := range t.ThreadVectorRange(0, w) {
		out.Set(row, j, tmp.At(0, w-1-j)+tmp.At(1, j))
	}
}

// TileTranspose writes to out the transpose of in (n×n, n a multiple of
// b), a b×b tile a team, through a rank-3 team scratch view of level 1.
//
//kokkos:kernel
func TileTranspose(t kernel.Team, out, in kokkos.View2[int32], b int) {
	tiles := in.Extent(0) / b
	ti, tj := t.LeagueRank()/tiles, t.LeagueRank()%tiles
	tile := kokkos.ScratchView3[int32](t.TeamScratch(1), 1, b, b)
	for k := range t.TeamThreadRange(0, b*b) {
		tile.Set(0, k/b, k%b, in.At(ti*b+k/b, tj*b+k%b))
	}
	t.TeamBarrier()
	for k := range t.TeamThreadRange(0, b*b) {
		out.Set(tj*b+k/b, ti*b+k%b, tile.At(0, k%b, k/b))
	}
}
