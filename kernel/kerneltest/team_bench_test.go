package kerneltest

import (
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// BenchmarkTeamYAx times y·(A x) over a 1024² matrix as the team kernel
// TeamYAx (a team per row, Auto team size), as the same computation
// written as a ParallelReduceTeam closure over the thread's share
// (NestedReduceChunks), and as the flat kernel YAxRow over the rows.
func BenchmarkTeamYAx(b *testing.B) {
	const n = 1024
	rng := rand.New(rand.NewPCG(1, 2))
	y, x := randView1Bench(b, rng, "y", n), randView1Bench(b, rng, "x", n)
	a := randMatrix(b, rng, "a", n, n)
	p := kokkos.Teams(n, kokkos.Auto)
	sum := kokkos.Sum[float64]()
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			if _, err := kernel.Reduce("yax", p, sum, TeamYAx, y, x, a); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("closure", func(b *testing.B) {
		for b.Loop() {
			kokkos.ParallelReduceTeam("yax", p, sum, func(m *kokkos.TeamMember, acc *float64) {
				row := m.LeagueRank()
				s := kokkos.NestedReduceChunks(kokkos.TeamThreadRange(m, 0, n), sum, func(lo, hi int, acc *float64) {
					v := *acc
					for j := lo; j < hi; j++ {
						v += a.At(row, j) * x.At(j)
					}
					*acc = v
				})
				kokkos.SinglePerTeam(m, func() { *acc += y.At(row) * s })
			})
		}
	})
	b.Run("flat", func(b *testing.B) {
		for b.Loop() {
			if _, err := kernel.Reduce("yax", kokkos.Range(0, n), sum, YAxRow, y, x, a); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkTeamHistogram times a 256-bin histogram of 2²⁰ values, a team
// (Auto size) per 4096 values counting in team scratch, as the team
// kernel TeamHistogram and as the same computation written as a
// ParallelForTeam closure.
func BenchmarkTeamHistogram(b *testing.B) {
	const n, bins, chunk = 1 << 20, 256, 1 << 12
	rng := rand.New(rand.NewPCG(3, 4))
	data := randInts[int32](b, rng, "data", n, 0, bins)
	hist := kokkos.Must(kokkos.NewView1[int64]("hist", bins))
	p := histogramPolicy(n/chunk, kokkos.Auto, bins)
	b.Run("kernel", func(b *testing.B) {
		for b.Loop() {
			if err := kernel.For("hist", p, TeamHistogram, hist, data, chunk); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("closure", func(b *testing.B) {
		for b.Loop() {
			kokkos.ParallelForTeam("hist", p, func(m *kokkos.TeamMember) {
				h := kokkos.ScratchView1[int64](m.TeamScratch(0), bins)
				kokkos.NestedForChunks(kokkos.TeamVectorRange(m, 0, bins), func(lo, hi int) {
					for k := lo; k < hi; k++ {
						h.Set(k, 0)
					}
				})
				m.TeamBarrier()
				lo := m.LeagueRank() * chunk
				kokkos.NestedForChunks(kokkos.TeamThreadRange(m, lo, min(lo+chunk, n)), func(lo, hi int) {
					for i := lo; i < hi; i++ {
						kokkos.AtomicAdd(h.Ptr(int(data.At(i))), 1)
					}
				})
				m.TeamBarrier()
				kokkos.NestedForChunks(kokkos.TeamThreadRange(m, 0, bins), func(lo, hi int) {
					for k := lo; k < hi; k++ {
						if c := h.At(k); c != 0 {
							kokkos.AtomicAdd(hist.Ptr(k), c)
						}
					}
				})
			})
		}
	})
}

func randView1Bench(b *testing.B, rng *rand.Rand, label string, n int) kokkos.View1[float64] {
	v := kokkos.Must(kokkos.NewView1[float64](label, n))
	for i := range n {
		v.Set(i, rng.Float64()*2-1)
	}
	return v
}
