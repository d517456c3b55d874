package kokkos_test

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/gokkos/kokkos"
)

// confTeamSpaces returns a pool of 3 workers with team sizes 1, 4 and Auto
// (4 outnumbers the workers).
func confTeamSpaces(t *testing.T) (*kokkos.Threads, []int) {
	th := kokkos.NewThreads(3)
	t.Cleanup(func() { th.Close() })
	return th, []int{1, 4, kokkos.Auto}
}

// Kokkos: core/unit_test/TestTeamBasic.hpp, team_for (TestTeam.hpp,
// TestTeamPolicy::test_for): every member writes its global thread id at
// (team rank, league rank), for league sizes 0, 2 and 1000.
func TestConformanceTeamFor(t *testing.T) {
	th, sizes := confTeamSpaces(t)
	for _, size := range sizes {
		ts := max(size, 1)
		for _, league := range []int{0, 2, 1000} {
			flags := kokkos.Must(kokkos.NewView2[int]("flags", ts, league))
			kokkos.ParallelForTeam("for", kokkos.Teams(league, size).On(th), func(m *kokkos.TeamMember) {
				flags.Set(m.TeamRank(), m.LeagueRank(), m.TeamRank()+m.TeamSize()*m.LeagueRank())
			})
			for l := range league {
				for r := range ts {
					if flags.At(r, l) != r+ts*l {
						t.Fatalf("team size %d league %d: flags(%d, %d) = %d", size, league, r, l, flags.At(r, l))
					}
				}
			}
		}
	}
}

// Kokkos: core/unit_test/TestTeamBasic.hpp, team_reduce (TestTeam.hpp,
// TestTeamPolicy::test_reduce): each member contributes its global id + 1;
// the sum is nwork*(nwork+1)/2.
func TestConformanceTeamReduce(t *testing.T) {
	th, sizes := confTeamSpaces(t)
	for _, size := range sizes {
		for _, league := range []int{0, 2, 1000} {
			ts := max(size, 1)
			got := kokkos.ParallelReduceTeam("reduce", kokkos.Teams(league, size).On(th), kokkos.Sum[int64](), func(m *kokkos.TeamMember, acc *int64) {
				*acc += int64(1 + m.TeamRank() + m.TeamSize()*m.LeagueRank())
			})
			n := int64(league * ts)
			if got != n*(n+1)/2 {
				t.Fatalf("team size %d league %d: %d, want %d", size, league, got, n*(n+1)/2)
			}
		}
	}
}

// Kokkos: core/unit_test/TestTeam.hpp, TestTeamPolicy::test_small_league_size:
// 2 teams of Auto size with 960 bytes of level-0 team scratch run.
func TestConformanceTeamSmallLeagueSize(t *testing.T) {
	var ran atomic.Int32
	kokkos.ParallelForTeam("small", kokkos.Teams(16/8, kokkos.Auto).SetScratchSize(0, 960, 0), func(m *kokkos.TeamMember) {
		if m.TeamScratch(0).Size() == 960 {
			ran.Add(1)
		}
	})
	if ran.Load() != 2 {
		t.Fatalf("%d teams saw their scratch, want 2", ran.Load())
	}
}

// Kokkos: core/unit_test/TestTeam.hpp, TestScanTeam: team_scan of random
// values gives each thread the exclusive prefix and the team total.
func TestConformanceTeamScan(t *testing.T) {
	th, sizes := confTeamSpaces(t)
	for _, size := range sizes {
		const league = 50
		ts := max(size, 1)
		rng := rand.New(rand.NewPCG(21, 22))
		v := make([]int64, league*ts)
		for i := range v {
			v[i] = rng.Int64N(1000)
		}
		pre := make([]int64, league*ts)
		tot := make([]int64, league*ts)
		kokkos.ParallelForTeam("scan", kokkos.Teams(league, size).On(th), func(m *kokkos.TeamMember) {
			k := m.LeagueRank()*ts + m.TeamRank()
			pre[k], tot[k] = kokkos.TeamScan(m, kokkos.Sum[int64](), v[k])
		})
		for l := range league {
			var run, sum int64
			for r := range ts {
				sum += v[l*ts+r]
			}
			for r := range ts {
				k := l*ts + r
				if pre[k] != run || tot[k] != sum {
					t.Fatalf("team size %d team %d thread %d: %d/%d, want %d/%d", size, l, r, pre[k], tot[k], run, sum)
				}
				run += v[k]
			}
		}
	}
}

// Kokkos: core/unit_test/TestTeamScratch.hpp, team_shared_request
// (TestTeam.hpp, SharedTeamFunctor): two shared views, A of team size and
// B of twice that, filled by each thread at its rank, read back after a
// barrier in reverse order; the error count is 0.
func TestConformanceTeamSharedRequest(t *testing.T) {
	th, sizes := confTeamSpaces(t)
	for _, size := range sizes {
		ts := max(size, 1)
		p := kokkos.Teams(8192/ts, size).On(th).SetScratchSize(0, kokkos.ScratchSize[int](ts)+kokkos.ScratchSize[int](2*ts), 0)
		errs := kokkos.ParallelReduceTeam("shared", p, kokkos.Sum[int](), func(m *kokkos.TeamMember, acc *int) {
			a := kokkos.ScratchView1[int](m.TeamScratch(0), m.TeamSize())
			b := kokkos.ScratchView1[int](m.TeamScratch(0), 2*m.TeamSize())
			r := m.TeamRank()
			a.Set(r, r+m.LeagueRank())
			b.Set(2*r, r+1)
			b.Set(2*r+1, r+2)
			m.TeamBarrier()
			rr := m.TeamSize() - 1 - r
			if a.At(rr) != rr+m.LeagueRank() || b.At(2*rr) != rr+1 || b.At(2*rr+1) != rr+2 {
				*acc++
			}
		})
		if errs != 0 {
			t.Fatalf("team size %d: %d errors", size, errs)
		}
	}
}

// Kokkos: core/unit_test/TestTeamScratch.hpp, team_scratch_request and
// multi_level_scratch (TestTeam.hpp, TestScratchTeam,
// TestMultiLevelScratchTeam): team and thread scratch of levels 0 and 1
// are separate, of the requested sizes, and keep what a team writes.
func TestConformanceTeamMultiLevelScratch(t *testing.T) {
	th, sizes := confTeamSpaces(t)
	for _, size := range sizes {
		const n = 128
		p := kokkos.Teams(64, size).On(th).
			SetScratchSize(0, kokkos.ScratchSize[int64](n), kokkos.ScratchSize[int64](8)).
			SetScratchSize(1, kokkos.ScratchSize[int64](2*n), kokkos.ScratchSize[int64](16))
		errs := kokkos.ParallelReduceTeam("levels", p, kokkos.Sum[int](), func(m *kokkos.TeamMember, acc *int) {
			t0 := kokkos.ScratchView1[int64](m.TeamScratch(0), n)
			t1 := kokkos.ScratchView1[int64](m.TeamScratch(1), 2*n)
			p0 := kokkos.ScratchView1[int64](m.ThreadScratch(0), 8)
			p1 := kokkos.ScratchView1[int64](m.ThreadScratch(1), 16)
			id := int64(m.LeagueRank()*1000 + m.TeamRank())
			kokkos.NestedFor(kokkos.TeamThreadRange(m, 0, n), func(i int) { t0.Set(i, int64(i)+id) })
			kokkos.NestedFor(kokkos.TeamThreadRange(m, 0, 2*n), func(i int) { t1.Set(i, -int64(i)) })
			for i := range 8 {
				p0.Set(i, id*10+int64(i))
			}
			for i := range 16 {
				p1.Set(i, id*100+int64(i))
			}
			m.TeamBarrier()
			base := int64(m.LeagueRank() * 1000)
			for i := range n {
				if w := t0.At(i) - int64(i) - base; w < 0 || w >= int64(m.TeamSize()) {
					*acc++
				}
			}
			for i := range 2 * n {
				if t1.At(i) != -int64(i) {
					*acc++
				}
			}
			for i := range 8 {
				if p0.At(i) != id*10+int64(i) {
					*acc++
				}
			}
			for i := range 16 {
				if p1.At(i) != id*100+int64(i) {
					*acc++
				}
			}
			m.TeamBarrier()
		})
		if errs != 0 {
			t.Fatalf("team size %d: %d errors", size, errs)
		}
	}
}

// Kokkos: core/unit_test/TestTeamScratch.hpp, shmem_size (TestTeam.hpp,
// TestShmemSize). Kokkos gives (5*6*7 + 1)*8 bytes for an int64 view of
// 5x6x7, the extra element being alignment slack; gokkos aligns pieces to
// 8 bytes, so ScratchSize is exactly what a view takes: 5*6*7*8. Layouts
// take the same size.
func TestConformanceTeamShmemSize(t *testing.T) {
	if got := kokkos.ScratchSize[int64](5, 6, 7); got != 5*6*7*8 {
		t.Fatalf("ScratchSize[int64](5, 6, 7) = %d, want %d", got, 5*6*7*8)
	}
	if got := kokkos.ScratchSize[int8](3); got != 8 {
		t.Fatalf("ScratchSize[int8](3) = %d, want 8 (rounded to 8 bytes)", got)
	}
	var left, right int
	p := kokkos.Teams(1, 1).SetScratchSize(0, 2*kokkos.ScratchSize[float64](100, 10, 3), 0)
	kokkos.ParallelForTeam("shmem", p, func(m *kokkos.TeamMember) {
		s := m.TeamScratch(0)
		kokkos.ScratchView3[float64](s, 100, 10, 3, kokkos.LayoutLeft)
		left = s.Size() - s.Free()
		kokkos.ScratchView3[float64](s, 100, 10, 3)
		right = s.Size() - s.Free() - left
	})
	if left != right || left != kokkos.ScratchSize[float64](100, 10, 3) {
		t.Fatalf("LayoutLeft took %d bytes, LayoutRight %d", left, right)
	}
}

// Kokkos: core/unit_test/TestTeamBasic.hpp, team_broadcast_long
// (TestTeam.hpp, TestTeamBroadcast): each team broadcasts the value of
// rank league_rank % team_size, (league_rank + rank) * 3 + 1; the sum over
// all threads matches the closed form.
func TestConformanceTeamBroadcastLong(t *testing.T) {
	th, sizes := confTeamSpaces(t)
	for _, size := range sizes {
		const league = 1000
		ts := max(size, 1)
		got := kokkos.ParallelReduceTeam("bcast", kokkos.Teams(league, size).On(th), kokkos.Sum[int64](), func(m *kokkos.TeamMember, acc *int64) {
			v := int64((m.LeagueRank()+m.TeamRank())*3 + 1)
			*acc += kokkos.TeamBroadcast(m, v, m.LeagueRank()%m.TeamSize())
		})
		var want int64
		for l := range league {
			want += int64(ts) * int64((l+l%ts)*3+1)
		}
		if got != want {
			t.Fatalf("team size %d: %d, want %d", size, got, want)
		}
	}
}

// Kokkos: core/unit_test/TestTeamBasic.hpp, team_parallel_single
// (TestTeamForAggregate): single(PerTeam) with a value of an aggregate
// type gives every thread the value set once per team.
func TestConformanceTeamParallelSingle(t *testing.T) {
	type agg struct{ a, b, c float64 }
	th, sizes := confTeamSpaces(t)
	for _, size := range sizes {
		const league = 100
		errs := kokkos.ParallelReduceTeam("single", kokkos.Teams(league, size).On(th), kokkos.Sum[int](), func(m *kokkos.TeamMember, acc *int) {
			v := kokkos.SinglePerTeamValue(m, func(v *agg) {
				*v = agg{float64(m.LeagueRank()), 2 * float64(m.LeagueRank()), 3}
			})
			if v != (agg{float64(m.LeagueRank()), 2 * float64(m.LeagueRank()), 3}) {
				*acc++
			}
		})
		if errs != 0 {
			t.Fatalf("team size %d: %d errors", size, errs)
		}
	}
}

// Kokkos: core/unit_test/TestTeamBasic.hpp, large_team_scratch_size: a
// team may ask for a large level-1 scratch (here 16 MiB per team) and
// write all of it.
func TestConformanceTeamLargeScratch(t *testing.T) {
	const n = 2 << 20 // int64s
	th := kokkos.NewThreads(2)
	defer th.Close()
	p := kokkos.Teams(4, 2).On(th).SetScratchSize(1, kokkos.ScratchSize[int64](n), 0)
	got := kokkos.ParallelReduceTeam("large", p, kokkos.Sum[int64](), func(m *kokkos.TeamMember, acc *int64) {
		v := kokkos.ScratchView1[int64](m.TeamScratch(1), n)
		kokkos.NestedFor(kokkos.TeamThreadRange(m, 0, n), func(i int) { v.Set(i, 1) })
		m.TeamBarrier()
		*acc += kokkos.NestedReduce(kokkos.TeamThreadRange(m, 0, n), kokkos.Sum[int64](), func(i int, a *int64) { *a += v.At(i) })
		m.TeamBarrier()
	})
	// each of the 2 threads adds the team's total
	if got != 4*2*n {
		t.Fatalf("%d, want %d", got, 4*2*n)
	}
}

// Kokkos: core/unit_test/TestTeamVector.hpp, triple_nested_parallelism
// (TestTripleNestedReduce): y^T A x with teams over rows, TeamThreadRange
// over row blocks and ThreadVectorRange inside, against a naive loop.
func TestConformanceTeamTripleNestedReduce(t *testing.T) {
	th, sizes := confTeamSpaces(t)
	const rows, cols = 96, 64
	rng := rand.New(rand.NewPCG(23, 24))
	a := make([]float64, rows*cols)
	x := make([]float64, cols)
	y := make([]float64, rows)
	for i := range a {
		a[i] = float64(rng.IntN(9) - 4)
	}
	for i := range x {
		x[i], y[i%rows] = float64(rng.IntN(5)), float64(rng.IntN(5))
	}
	want := 0.0
	for i := range rows {
		for j := range cols {
			want += y[i] * a[i*cols+j] * x[j]
		}
	}
	const perTeam = 8
	for _, size := range sizes {
		got := kokkos.ParallelReduceTeam("triple", kokkos.Teams(rows/perTeam, size).On(th), kokkos.Sum[float64](), func(m *kokkos.TeamMember, acc *float64) {
			b := m.LeagueRank() * perTeam
			s := kokkos.NestedReduce(kokkos.TeamThreadRange(m, b, b+perTeam), kokkos.Sum[float64](), func(i int, ai *float64) {
				row := kokkos.NestedReduce(kokkos.ThreadVectorRange(m, 0, cols), kokkos.Sum[float64](), func(j int, aj *float64) { *aj += a[i*cols+j] * x[j] })
				*ai += y[i] * row
			})
			kokkos.SinglePerTeam(m, func() { *acc += s })
		})
		if got != want {
			t.Fatalf("team size %d: %v, want %v", size, got, want)
		}
	}
}

// Kokkos: core/unit_test/TestTeamVector.hpp, team_vector (functor_team_vector_for,
// functor_vec_scan, functor_team_vector_reduce): parallel_for, reduce and
// scan over TeamVectorRange and ThreadVectorRange with a team barrier
// between phases.
func TestConformanceTeamVectorPatterns(t *testing.T) {
	th, sizes := confTeamSpaces(t)
	for _, size := range sizes {
		const league, n = 40, 131
		errs := kokkos.ParallelReduceTeam("vector", kokkos.Teams(league, size).On(th).SetScratchSize(0, kokkos.ScratchSize[int64](n), 0),
			kokkos.Sum[int](), func(m *kokkos.TeamMember, acc *int) {
				v := kokkos.ScratchView1[int64](m.TeamScratch(0), n)
				kokkos.NestedFor(kokkos.TeamVectorRange(m, 0, n), func(i int) { v.Set(i, int64(i+m.LeagueRank())) })
				m.TeamBarrier()
				sum := kokkos.NestedReduce(kokkos.TeamVectorRange(m, 0, n), kokkos.Sum[int64](), func(i int, a *int64) { *a += v.At(i) })
				if want := int64(n*(n-1)/2 + n*m.LeagueRank()); sum != want {
					*acc++
				}
				var bad int
				total := kokkos.NestedScan(kokkos.ThreadVectorRange(m, 0, n), kokkos.Sum[int64](), func(i int, a *int64, final bool) {
					if final && *a != int64(i*(i-1)/2+i*m.LeagueRank()) {
						bad++
					}
					*a += v.At(i)
				})
				if total != sum || bad != 0 {
					*acc++
				}
				m.TeamBarrier()
			})
		if errs != 0 {
			t.Fatalf("team size %d: %d errors", size, errs)
		}
	}
}
