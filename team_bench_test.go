package kokkos_test

import (
	"testing"

	"github.com/gokkos/kokkos"
)

// benchMatrix returns an n×n LayoutRight view and an n-vector of
// non-zero values.
func benchMatrix(n int) (kokkos.View2[float64], []float64) {
	a := kokkos.Must(kokkos.NewView2[float64]("bench.a", n, n))
	for i, d := 0, a.Data(); i < len(d); i++ {
		d[i] = float64(i%13) * 0.5
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = float64(i%7) + 1
	}
	return a, x
}

var benchSink float64

// BenchmarkTeamMatVec: y = A x for a 4096² matrix, one team per row with a
// TeamThreadRange reduction (Team) and ParallelForChunks over rows (Rows).
func BenchmarkTeamMatVec(b *testing.B) {
	const n = 4096
	a, x := benchMatrix(n)
	y := make([]float64, n)
	b.Run("Team", func(b *testing.B) {
		b.SetBytes(8 * n * n)
		for b.Loop() {
			kokkos.ParallelForTeam("matvec", kokkos.Teams(n, kokkos.Auto), func(m *kokkos.TeamMember) {
				i := m.LeagueRank()
				row := a.Line(i)
				s := kokkos.NestedReduceChunks(kokkos.TeamThreadRange(m, 0, n), kokkos.Sum[float64](), func(lo, hi int, acc *float64) {
					v := *acc
					for j := lo; j < hi; j++ {
						v += row[j] * x[j]
					}
					*acc = v
				})
				kokkos.SinglePerTeam(m, func() { y[i] = s })
			})
		}
	})
	b.Run("Rows", func(b *testing.B) {
		b.SetBytes(8 * n * n)
		for b.Loop() {
			kokkos.ParallelForChunks("matvec", kokkos.Range(0, n), func(lo, hi int) {
				for i := lo; i < hi; i++ {
					row := a.Line(i)
					v := 0.0
					for j, aij := range row {
						v += aij * x[j]
					}
					y[i] = v
				}
			})
		}
	})
	benchSink += y[n/2]
}

// BenchmarkTeamTranspose: LayoutLeft ← LayoutRight of a 4096² view through
// 128² tiles of team scratch (Scratch) and by DeepCopy (DeepCopy). Teams
// walk down the columns of the destination, and write four columns at a
// time from scratch.
func BenchmarkTeamTranspose(b *testing.B) {
	const n, tile, ld = 4096, 128, 129 // padded scratch rows: no cache-set conflicts
	src, _ := benchMatrix(n)
	dst := kokkos.Must(kokkos.NewView2[float64]("bench.left", n, n, kokkos.LayoutLeft))
	sd, dd := src.Data(), dst.Data()
	nt := n / tile
	p := kokkos.Teams(nt*nt, kokkos.Auto).SetScratchSize(0, kokkos.ScratchSize[float64](tile, ld), 0)
	b.Run("Scratch", func(b *testing.B) {
		b.SetBytes(16 * n * n)
		for b.Loop() {
			kokkos.ParallelForTeam("transpose", p, func(m *kokkos.TeamMember) {
				bi, bj := m.LeagueRank()%nt*tile, m.LeagueRank()/nt*tile
				v := kokkos.ScratchView2[float64](m.TeamScratch(0), tile, ld)
				sc := v.Data()
				kokkos.NestedForChunks(kokkos.TeamThreadRange(m, 0, tile), func(lo, hi int) {
					for i := lo; i < hi; i++ {
						copy(sc[i*ld:i*ld+tile], sd[(bi+i)*n+bj:(bi+i)*n+bj+tile])
					}
				})
				m.TeamBarrier()
				kokkos.NestedForChunks(kokkos.TeamThreadRange(m, 0, tile/4), func(lo, hi int) {
					for j := 4 * lo; j < 4*hi; j += 4 {
						c0 := dd[(bj+j)*n+bi : (bj+j)*n+bi+tile]
						c1 := dd[(bj+j+1)*n+bi:][:len(c0)]
						c2 := dd[(bj+j+2)*n+bi:][:len(c0)]
						c3 := dd[(bj+j+3)*n+bi:][:len(c0)]
						for i := range c0 {
							r := sc[i*ld+j:][:4]
							c0[i], c1[i], c2[i], c3[i] = r[0], r[1], r[2], r[3]
						}
					}
				})
			})
		}
	})
	b.Run("DeepCopy", func(b *testing.B) {
		b.SetBytes(16 * n * n)
		for b.Loop() {
			if err := kokkos.DeepCopy(dst, src); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTeamDispatch: one team with an empty body (Team) and a
// ParallelFor over 2 indices (For), each fenced.
func BenchmarkTeamDispatch(b *testing.B) {
	var cell [2][8]int
	b.Run("Team", func(b *testing.B) {
		for b.Loop() {
			kokkos.ParallelForTeam("dispatch", kokkos.Teams(1, kokkos.Auto), func(*kokkos.TeamMember) {})
			if err := kokkos.Fence(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("For", func(b *testing.B) {
		for b.Loop() {
			kokkos.ParallelFor("dispatch", kokkos.Range(0, 2), func(i int) { cell[i][0]++ })
			if err := kokkos.Fence(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
