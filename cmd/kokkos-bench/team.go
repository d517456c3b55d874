package main

import (
	"fmt"
	"runtime"

	"github.com/gokkos/kokkos"
)

func init() {
	register(suite{name: "team", desc: "TeamPolicy matrix-vector product, tiled transpose through team scratch and empty team dispatch vs ParallelForChunks, DeepCopy and ParallelFor", run: runTeam})
}

var sinkTeam float64

// teamTile is the tile edge of the transpose through team scratch.
const teamTile = 128

func runTeam(cfg config, add func(measure)) error {
	n := scaled(4096, cfg.scale)
	a := kokkos.Must(kokkos.NewView2[float64]("team.a", n, n))
	x := kokkos.Must(kokkos.NewView1[float64]("team.x", n))
	y := kokkos.Must(kokkos.NewView1[float64]("team.y", n))
	fillPattern(a.Data())
	fillPattern(x.Data())
	xd, yd := x.Data(), y.Data()
	flops := func(sec float64) float64 { return 2 * float64(n) * float64(n) / sec / 1e9 }

	// y = A x: one team per row, the row reduced over TeamThreadRange.
	kt, bt, sm := timeAlternating(cfg.reps, func() {
		kokkos.ParallelForTeam("team.matvec", kokkos.Teams(n, kokkos.Auto), func(m *kokkos.TeamMember) {
			i := m.LeagueRank()
			row := a.Line(i)
			s := kokkos.NestedReduceChunks(kokkos.TeamThreadRange(m, 0, n), kokkos.Sum[float64](), func(lo, hi int, acc *float64) {
				v := *acc
				for j := lo; j < hi; j++ {
					v += row[j] * xd[j]
				}
				*acc = v
			})
			kokkos.SinglePerTeam(m, func() { yd[i] = s })
		})
	}, func() {
		kokkos.ParallelForChunks("team.matvec.rows", kokkos.Range(0, n), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				row := a.Line(i)
				v := 0.0
				for j, aij := range row {
					v += aij * xd[j]
				}
				yd[i] = v
			}
		})
	})
	add(measure{Name: fmt.Sprintf("team matvec (team per row, TeamThreadRange reduce), %dx%d", n, n), Unit: "GFLOP/s",
		Value: flops(kt), Baseline: flops(bt), samples: sm, Goal: 0.9, GoalOp: ">=", Note: "baseline: ParallelForChunks over rows"})

	// LayoutLeft ← LayoutRight through level-0 team scratch tiles.
	l := kokkos.Must(kokkos.NewView2[float64]("team.left", n, n, kokkos.LayoutLeft))
	gb := func(sec float64) float64 { return 16 * float64(n) * float64(n) / sec / 1e9 }
	kt, bt, sm = timeAlternating(cfg.reps, func() { teamTranspose(l, a) }, func() { must(kokkos.DeepCopy(l, a)) })
	must(kokkos.Fill(l, -1))
	teamTranspose(l, a)
	for i := range n {
		for j := range n {
			if l.At(i, j) != a.At(i, j) {
				return fmt.Errorf("team transpose: (%d, %d) = %v, want %v", i, j, l.At(i, j), a.At(i, j))
			}
		}
	}
	add(measure{Name: fmt.Sprintf("transpose through team scratch (%d² tiles), %dx%d", teamTile, n, n), Unit: "GB/s",
		Value: gb(kt), Baseline: gb(bt), samples: sm, Goal: 0.8, GoalOp: ">=", Note: "baseline: DeepCopy LayoutLeft ← LayoutRight"})

	// Dispatch of one team with an empty body vs a fenced ParallelFor.
	perOp := nsPerOp(scaled(20000, cfg.scale*4))
	var cell [2][8]int
	team := perOp(func() {
		kokkos.ParallelForTeam("team.dispatch", kokkos.Teams(1, kokkos.Auto), func(*kokkos.TeamMember) {})
		must(kokkos.Fence())
	})
	pf := perOp(func() {
		kokkos.ParallelFor("dispatch", kokkos.Range(0, 2), func(i int) { cell[i][0]++ })
		must(kokkos.Fence())
	})
	var ts, fs []float64
	for range cfg.reps {
		ts = append(ts, team())
		fs = append(fs, pf())
	}
	add(measure{Name: "ParallelForTeam of 1 team, empty body, fenced", Unit: "ns", Value: median(ts), Baseline: median(fs), samples: samples{ts, fs}, Goal: 1.5, GoalOp: "<=",
		Note: "baseline: fenced ParallelFor over 2 indices"})
	sinkTeam += yd[n/2] + float64(cell[0][0])
	runtime.KeepAlive(sinkTeam)
	return nil
}

// teamTranspose copies a LayoutRight view into a LayoutLeft one tile by
// tile: a team reads a tile's rows into level-0 scratch, then writes the
// tile's columns, contiguous in dst, from scratch, four at a time. Teams
// walk down the columns (league rank by tile row fastest), so that
// consecutive teams continue the same columns of dst.
func teamTranspose(dst, src kokkos.View2[float64]) {
	const ld = teamTile + 1 // padded scratch rows: no cache-set conflicts
	n0, n1 := src.Extent(0), src.Extent(1)
	t0, t1 := (n0+teamTile-1)/teamTile, (n1+teamTile-1)/teamTile
	sd, dd := src.Data(), dst.Data()
	p := kokkos.Teams(t0*t1, kokkos.Auto).SetScratchSize(0, kokkos.ScratchSize[float64](teamTile, ld), 0)
	kokkos.ParallelForTeam("team.transpose", p, func(m *kokkos.TeamMember) {
		bi, bj := m.LeagueRank()%t0*teamTile, m.LeagueRank()/t0*teamTile
		ei, ej := min(bi+teamTile, n0), min(bj+teamTile, n1)
		h, w := ei-bi, ej-bj
		tile := kokkos.ScratchView2[float64](m.TeamScratch(0), teamTile, ld)
		sc := tile.Data()
		kokkos.NestedForChunks(kokkos.TeamThreadRange(m, 0, h), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				copy(sc[i*ld:i*ld+w], sd[(bi+i)*n1+bj:(bi+i)*n1+ej])
			}
		})
		m.TeamBarrier()
		kokkos.NestedForChunks(kokkos.TeamThreadRange(m, 0, (w+3)/4), func(lo, hi int) {
			for j := 4 * lo; j < min(4*hi, w); j += 4 {
				if j+4 > w {
					for ; j < w; j++ {
						col := dd[(bj+j)*n0+bi : (bj+j)*n0+ei]
						for i := range col {
							col[i] = sc[i*ld+j]
						}
					}
					break
				}
				c0 := dd[(bj+j)*n0+bi : (bj+j)*n0+ei]
				c1 := dd[(bj+j+1)*n0+bi:][:len(c0)]
				c2 := dd[(bj+j+2)*n0+bi:][:len(c0)]
				c3 := dd[(bj+j+3)*n0+bi:][:len(c0)]
				for i := range c0 {
					r := sc[i*ld+j:][:4]
					c0[i], c1[i], c2[i], c3[i] = r[0], r[1], r[2], r[3]
				}
			}
		})
	})
}
