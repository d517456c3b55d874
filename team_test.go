package kokkos

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// teamSizes are the team sizes every team test runs with.
var teamSizes = []int{1, 2, 4, Auto}

// forTeamConfigs calls f for every test space and team size it can run
// (Serial runs teams of one thread only), with a fence after it.
func forTeamConfigs(t *testing.T, f func(t *testing.T, s HostExecutionSpace, size int)) {
	t.Helper()
	for _, s := range testSpaces(t) {
		for _, size := range teamSizes {
			if _, ok := s.(Serial); ok && size > 1 {
				continue
			}
			t.Run(fmt.Sprintf("%s/team%d", spaceName(s), size), func(t *testing.T) {
				f(t, s, size)
				if err := s.Fence(); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

func effSize(size int) int { return max(size, 1) }

// TestTeamRanks: every (league rank, team rank) runs exactly once, with
// the sizes the policy says.
func TestTeamRanks(t *testing.T) {
	forTeamConfigs(t, func(t *testing.T, s HostExecutionSpace, size int) {
		for _, league := range []int{0, 1, 5, 37} {
			ts := effSize(size)
			hits := make([]atomic.Int32, league*ts)
			var bad atomic.Int32
			ParallelForTeam("ranks", Teams(league, size).On(s), func(m *TeamMember) {
				if m.LeagueSize() != league || m.TeamSize() != ts {
					bad.Add(1)
				}
				hits[m.LeagueRank()*ts+m.TeamRank()].Add(1)
			})
			if err := s.Fence(); err != nil {
				t.Fatal(err)
			}
			if bad.Load() != 0 {
				t.Fatalf("league %d: %d members saw wrong sizes", league, bad.Load())
			}
			for k := range hits {
				if h := hits[k].Load(); h != 1 {
					t.Fatalf("league %d: team %d thread %d ran %d times", league, k/ts, k%ts, h)
				}
			}
		}
	})
}

// TestTeamBarrierPhases: threads write, wait, read what all others wrote,
// wait, and write again, for several rounds; with team size 4 the team
// outnumbers the workers of pools of 1, 2 and 3.
func TestTeamBarrierPhases(t *testing.T) {
	forTeamConfigs(t, func(t *testing.T, s HostExecutionSpace, size int) {
		const league, rounds = 9, 5
		ts := effSize(size)
		shared := make([]int64, league*ts)
		sums := make([]int64, league*ts*rounds)
		ParallelForTeam("barrier", Teams(league, size).On(s), func(m *TeamMember) {
			base := m.LeagueRank() * ts
			for r := range rounds {
				shared[base+m.TeamRank()] = int64((r+1)*1000 + m.TeamRank())
				m.TeamBarrier()
				var sum int64
				for k := range ts {
					sum += shared[base+k]
				}
				sums[(base+m.TeamRank())*rounds+r] = sum
				m.TeamBarrier()
			}
		})
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		for k := range league * ts {
			for r := range rounds {
				want := int64(ts*(r+1)*1000 + ts*(ts-1)/2)
				if got := sums[k*rounds+r]; got != want {
					t.Fatalf("team %d thread %d round %d: sum %d, want %d", k/ts, k%ts, r, got, want)
				}
			}
		}
	})
}

// TestTeamCollectives: TeamBroadcast, TeamReduce and TeamScan against naive
// loops over random values.
func TestTeamCollectives(t *testing.T) {
	forTeamConfigs(t, func(t *testing.T, s HostExecutionSpace, size int) {
		const league = 11
		ts := effSize(size)
		rng := rand.New(rand.NewPCG(1, uint64(ts)))
		vals := make([]int, league*ts)
		for i := range vals {
			vals[i] = rng.IntN(1000) - 500
		}
		bcast := make([]int, league*ts)
		red := make([]int, league*ts)
		mx := make([]int, league*ts)
		pre := make([]int, league*ts)
		tot := make([]int, league*ts)
		ParallelForTeam("collectives", Teams(league, size).On(s), func(m *TeamMember) {
			k := m.LeagueRank()*ts + m.TeamRank()
			from := m.LeagueRank() % m.TeamSize()
			bcast[k] = TeamBroadcast(m, vals[k], from)
			red[k] = TeamReduce(m, Sum[int](), vals[k])
			mx[k] = TeamReduce(m, Max[int](), vals[k])
			pre[k], tot[k] = TeamScan(m, Sum[int](), vals[k])
		})
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		for l := range league {
			sum, best, run := 0, vals[l*ts], 0
			for r := range ts {
				sum += vals[l*ts+r]
				best = max(best, vals[l*ts+r])
			}
			for r := range ts {
				k := l*ts + r
				if bcast[k] != vals[l*ts+l%ts] || red[k] != sum || mx[k] != best || pre[k] != run || tot[k] != sum {
					t.Fatalf("team %d thread %d: broadcast %d reduce %d max %d scan %d/%d, want %d %d %d %d/%d",
						l, r, bcast[k], red[k], mx[k], pre[k], tot[k], vals[l*ts+l%ts], sum, best, run, sum)
				}
				run += vals[k]
			}
		}
	})
}

// TestTeamNestedRanges: for, reduce and scan over the three nested ranges,
// against naive loops: a matrix-vector product by rows, row prefix sums,
// and a column loop per thread.
func TestTeamNestedRanges(t *testing.T) {
	forTeamConfigs(t, func(t *testing.T, s HostExecutionSpace, size int) {
		rng := rand.New(rand.NewPCG(2, 3))
		const rows, cols = 23, 77
		a := make([]int, rows*cols)
		x := make([]int, cols)
		for i := range a {
			a[i] = rng.IntN(200) - 100
		}
		for i := range x {
			x[i] = rng.IntN(200) - 100
		}
		y := make([]int, rows)
		y2 := make([]int, rows)
		scan := make([]int, rows*cols)
		scanTot := make([]int, rows)
		vscan := make([]int, rows*cols)
		doubled := make([]int, rows*cols)
		var mismatch atomic.Int32
		ParallelForTeam("nested", Teams(rows, size).On(s), func(m *TeamMember) {
			i := m.LeagueRank()
			row := a[i*cols : (i+1)*cols]
			sum := NestedReduce(TeamThreadRange(m, 0, cols), Sum[int](), func(j int, acc *int) { *acc += row[j] * x[j] })
			sum2 := NestedReduceChunks(TeamVectorRange(m, 0, cols), Sum[int](), func(lo, hi int, acc *int) {
				for j := lo; j < hi; j++ {
					*acc += row[j] * x[j]
				}
			})
			if sum != sum2 {
				mismatch.Add(1)
			}
			SinglePerTeam(m, func() { y[i] = sum })
			NestedFor(TeamThreadRange(m, 0, cols), func(j int) { doubled[i*cols+j] = 2 * row[j] })
			tot := NestedScan(TeamThreadRange(m, 0, cols), Sum[int](), func(j int, acc *int, final bool) {
				if final {
					scan[i*cols+j] = *acc
				}
				*acc += row[j]
			})
			SinglePerTeam(m, func() { scanTot[i] = tot })
			// ThreadVectorRange: each thread does whole rows of its own.
			if m.TeamRank() == 0 {
				y2[i] = NestedReduce(ThreadVectorRange(m, 0, cols), Sum[int](), func(j int, acc *int) { *acc += row[j] * x[j] })
				NestedScan(ThreadVectorRange(m, 0, cols), Sum[int](), func(j int, acc *int, final bool) {
					if final {
						vscan[i*cols+j] = *acc
					}
					*acc += row[j]
				})
			}
		})
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		if mismatch.Load() != 0 {
			t.Fatal("NestedReduce and NestedReduceChunks differ")
		}
		for i := range rows {
			want, run := 0, 0
			for j := range cols {
				want += a[i*cols+j] * x[j]
				if scan[i*cols+j] != run || vscan[i*cols+j] != run {
					t.Fatalf("row %d col %d: scan %d / %d, want %d", i, j, scan[i*cols+j], vscan[i*cols+j], run)
				}
				if doubled[i*cols+j] != 2*a[i*cols+j] {
					t.Fatalf("row %d col %d: NestedFor wrote %d", i, j, doubled[i*cols+j])
				}
				run += a[i*cols+j]
			}
			if y[i] != want || y2[i] != want || scanTot[i] != run {
				t.Fatalf("row %d: y %d %d total %d, want %d %d", i, y[i], y2[i], scanTot[i], want, run)
			}
		}
	})
}

// TestTeamParallelReduce: ParallelReduceTeam of a float sum is close to a
// naive sum and the same, bit for bit, for every pool at one team size.
func TestTeamParallelReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	const rows, cols = 41, 300
	a := randFloats(rng, rows*cols)
	want := 0.0
	for _, v := range a {
		want += v
	}
	ref := map[int]float64{}
	forTeamConfigs(t, func(t *testing.T, s HostExecutionSpace, size int) {
		got := ParallelReduceTeam("team-sum", Teams(rows, size).On(s), Sum[float64](), func(m *TeamMember, acc *float64) {
			i := m.LeagueRank()
			// Each thread contributes its share of the row directly.
			NestedForChunks(TeamThreadRange(m, 0, cols), func(lo, hi int) {
				for j := lo; j < hi; j++ {
					*acc += a[i*cols+j]
				}
			})
		})
		if d := got - want; d > 1e-9 || d < -1e-9 {
			t.Fatalf("sum %v, want %v", got, want)
		}
		ts := effSize(size)
		if r, ok := ref[ts]; ok && r != got {
			t.Fatalf("team size %d: %v differs from %v on another space", ts, got, r)
		}
		ref[ts] = got
		loc := ParallelReduceTeam("team-maxloc", Teams(rows, size).On(s), MaxLoc[float64, int](), func(m *TeamMember, acc *ValLoc[float64, int]) {
			i := m.LeagueRank()
			NestedFor(TeamThreadRange(m, 0, cols), func(j int) {
				if v := a[i*cols+j]; v > acc.Val {
					*acc = ValLoc[float64, int]{v, i*cols + j}
				}
			})
		})
		best := 0
		for k, v := range a {
			if v > a[best] {
				best = k
			}
		}
		if loc.Loc != best || loc.Val != a[best] {
			t.Fatalf("MaxLoc %+v, want %v at %d", loc, a[best], best)
		}
		if e := ParallelReduceTeam("empty", Teams(0, size).On(s), Prod[int](), func(*TeamMember, *int) {}); e != 1 {
			t.Fatalf("empty league: %d, want the identity 1", e)
		}
	})
}

// TestTeamSingleValue: SinglePerTeamValue broadcasts rank 0's value;
// SinglePerThread runs once per thread.
func TestTeamSingleValue(t *testing.T) {
	forTeamConfigs(t, func(t *testing.T, s HostExecutionSpace, size int) {
		const league = 13
		ts := effSize(size)
		rng := rand.New(rand.NewPCG(6, 7))
		seed := make([]int, league)
		for i := range seed {
			seed[i] = rng.IntN(1 << 20)
		}
		got := make([]int, league*ts)
		perThread := make([]int, league*ts)
		var perTeam atomic.Int32
		ParallelForTeam("single", Teams(league, size).On(s), func(m *TeamMember) {
			k := m.LeagueRank()*ts + m.TeamRank()
			got[k] = SinglePerTeamValue(m, func(v *int) { *v = seed[m.LeagueRank()] * 3; perTeam.Add(1) })
			SinglePerThread(m, func() { perThread[k]++ })
			perThread[k] += SinglePerThreadValue(m, func(v *int) { *v = 10 })
		})
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		if perTeam.Load() != league {
			t.Fatalf("single per team ran %d times, want %d", perTeam.Load(), league)
		}
		for k := range got {
			if got[k] != seed[k/ts]*3 || perThread[k] != 11 {
				t.Fatalf("team %d thread %d: %d, %d", k/ts, k%ts, got[k], perThread[k])
			}
		}
	})
}

// TestTeamScratchTranspose transposes a matrix tile by tile through a
// level-0 team scratch view, with per-thread scratch (level 1) holding
// each thread's column sums, checked against naive loops.
func TestTeamScratchTranspose(t *testing.T) {
	forTeamConfigs(t, func(t *testing.T, s HostExecutionSpace, size int) {
		const n0, n1, tile = 45, 70, 16
		rng := rand.New(rand.NewPCG(8, 9))
		src, _ := NewView2[float64]("src", n0, n1)
		dst, _ := NewView2[float64]("dst", n1, n0)
		for i := range n0 {
			for j := range n1 {
				src.Set(i, j, rng.Float64())
			}
		}
		t0, t1 := (n0+tile-1)/tile, (n1+tile-1)/tile
		ts := effSize(size)
		sums := make([]float64, t0*t1*ts)
		p := Teams(t0*t1, size).On(s).
			SetScratchSize(0, ScratchSize[float64](tile, tile), 0).
			SetScratchSize(1, 0, ScratchSize[float64](1))
		ParallelForTeam("transpose", p, func(m *TeamMember) {
			bi, bj := m.LeagueRank()/t1*tile, m.LeagueRank()%t1*tile
			ei, ej := min(bi+tile, n0), min(bj+tile, n1)
			sc := ScratchView2[float64](m.TeamScratch(0), tile, tile)
			mine := ScratchView1[float64](m.ThreadScratch(1), 1)
			mine.Set(0, 0)
			NestedFor(TeamThreadRange(m, bi, ei), func(i int) {
				for j := bj; j < ej; j++ {
					sc.Set(i-bi, j-bj, src.At(i, j))
					mine.Set(0, mine.At(0)+src.At(i, j))
				}
			})
			m.TeamBarrier()
			NestedFor(TeamThreadRange(m, bj, ej), func(j int) {
				for i := bi; i < ei; i++ {
					dst.Set(j, i, sc.At(i-bi, j-bj))
				}
			})
			sums[m.LeagueRank()*ts+m.TeamRank()] = mine.At(0)
			m.TeamBarrier() // the scratch is the next team's after this
		})
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		for i := range n0 {
			for j := range n1 {
				if dst.At(j, i) != src.At(i, j) {
					t.Fatalf("dst(%d, %d) = %v, want %v", j, i, dst.At(j, i), src.At(i, j))
				}
			}
		}
		total, want := 0.0, 0.0
		for _, v := range sums {
			total += v
		}
		for _, v := range src.Data() {
			want += v
		}
		if d := total - want; d > 1e-9 || d < -1e-9 {
			t.Fatalf("per-thread scratch sums %v, want %v", total, want)
		}
	})
}

// TestTeamScratchShared: every thread that makes the same scratch views gets
// the same team memory, and its own thread memory; views of several ranks
// and types take consecutive pieces.
func TestTeamScratchShared(t *testing.T) {
	th := NewThreads(2)
	defer th.Close()
	const ts = 4
	p := Teams(6, ts).On(th).
		SetScratchSize(0, ScratchSize[int32](3)+ScratchSize[float64](2, 3), ScratchSize[int](5)).
		SetScratchSize(1, ScratchSize[uint8](2, 2, 2), 0)
	var bad atomic.Int32
	ParallelForTeam("shared", p, func(m *TeamMember) {
		a := ScratchView1[int32](m.TeamScratch(0), 3)
		b := ScratchView2[float64](m.TeamScratch(0), 2, 3, LayoutLeft)
		c := ScratchView3[uint8](m.TeamScratch(1), 2, 2, 2)
		mine := ScratchView1[int](m.ThreadScratch(0), 5)
		if m.TeamScratch(0).Free() != 0 || m.ThreadScratch(0).Free() != 0 {
			bad.Add(1)
		}
		for k := range 5 {
			mine.Set(k, m.TeamRank()*100+k)
		}
		SinglePerTeam(m, func() {
			for k := range 3 {
				a.Set(k, int32(m.LeagueRank()+k))
			}
			for i := range 2 {
				for j := range 3 {
					b.Set(i, j, float64(m.LeagueRank()*10+i*3+j))
					c.Set(i, j%2, 1, uint8(i+j))
				}
			}
		})
		m.TeamBarrier()
		for k := range 3 {
			if a.At(k) != int32(m.LeagueRank()+k) {
				bad.Add(1)
			}
		}
		for i := range 2 {
			for j := range 3 {
				if b.At(i, j) != float64(m.LeagueRank()*10+i*3+j) {
					bad.Add(1)
				}
			}
		}
		m.TeamBarrier()
		for k := range 5 {
			if mine.At(k) != m.TeamRank()*100+k {
				bad.Add(1)
			}
		}
		m.TeamBarrier()
	})
	if bad.Load() != 0 {
		t.Fatalf("%d wrong scratch values", bad.Load())
	}
}

// TestTeamScratchTooSmall: a scratch view larger than what is left panics
// with the label, the extents and the sizes, as a *PanicError.
func TestTeamScratchTooSmall(t *testing.T) {
	th := NewThreads(3)
	defer th.Close()
	for _, size := range []int{1, 2, 4} {
		p := Teams(5, size).On(th).SetScratchSize(0, 64, 16)
		r := catchPanic(func() {
			ParallelForTeam("tiles", p, func(m *TeamMember) {
				ScratchView1[float64](m.TeamScratch(0), 4)
				ScratchView2[float64](m.TeamScratch(0), 2, 3)
			})
		})
		var pe *PanicError
		err, _ := r.(error)
		if !errors.As(err, &pe) || pe.Label != "tiles" {
			t.Fatalf("team size %d: got %v, want a *PanicError", size, r)
		}
		msg := fmt.Sprint(pe.Value)
		for _, s := range []string{`"tiles"`, "team scratch level 0", "(2, 3)", "needs 48 bytes", "32 of the 64 bytes"} {
			if !strings.Contains(msg, s) {
				t.Errorf("team size %d: message %q lacks %q", size, msg, s)
			}
		}
		r = catchPanic(func() {
			ParallelForTeam("thread-tiles", p, func(m *TeamMember) { ScratchView1[int64](m.ThreadScratch(1), 1) })
		})
		if err, _ := r.(error); err == nil || !strings.Contains(err.Error(), "thread scratch level 1") || !strings.Contains(err.Error(), "0 of the 0 bytes") {
			t.Errorf("team size %d: thread scratch overflow: %v", size, r)
		}
	}
	r := catchPanic(func() {
		ParallelForTeam("ptr", Teams(1, 1).SetScratchSize(0, 64, 0), func(m *TeamMember) { ScratchView1[*int](m.TeamScratch(0), 2) })
	})
	if err, _ := r.(error); err == nil || !strings.Contains(err.Error(), "pointers") {
		t.Errorf("pointer elements: %v", r)
	}
}

// TestTeamScratchReused: running many teams allocates no more than running
// few: scratch memory is not allocated per team.
func TestTeamScratchReused(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop crews at random")
	}
	th := NewThreads(2)
	defer th.Close()
	for _, size := range []int{1, 3} {
		run := func(league int) {
			p := Teams(league, size).On(th).SetScratchSize(0, 4096, 512).SetScratchSize(1, 1<<16, 0).WithChunk(league)
			ParallelForTeam("reuse", p, func(m *TeamMember) {
				if m.TeamScratch(0).Free() != 4096 || m.ThreadScratch(0).Size() != 512 {
					panic("wrong scratch sizes")
				}
				m.TeamBarrier()
			})
		}
		few := testing.AllocsPerRun(20, func() { run(2) })
		many := testing.AllocsPerRun(20, func() { run(500) })
		if many > few {
			t.Errorf("team size %d: %v allocations for 500 teams, %v for 2", size, many, few)
		}
	}
}

// TestTeamForAllocatesNothing: ParallelForTeam on Serial and on a pool's
// synchronous instance allocates nothing of its own (its plan and chunk
// function are reused from call to call), and runs every thread of every
// team each time. Teams of two threads allocate only for the goroutine
// that each chunk of teams starts for thread 1 (three chunks of one team
// here).
func TestTeamForAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop objects at random")
	}
	th := NewThreads(2)
	defer th.Close()
	var hits atomic.Int64
	body := func(m *TeamMember) { hits.Add(1) }
	for _, c := range []struct {
		s      HostExecutionSpace
		size   int
		allocs float64
	}{{Serial{}, 1, 0}, {th, 1, 0}, {th, 2, 3}} {
		p := Teams(3, c.size).On(c.s).WithChunk(1)
		hits.Store(0)
		if a := testing.AllocsPerRun(100, func() { ParallelForTeam("allocs", p, body) }); a > c.allocs {
			t.Errorf("%s, team size %d: %v allocations a call, want %v", c.s.Name(), c.size, a, c.allocs)
		}
		if want := int64(101 * 3 * c.size); hits.Load() != want {
			t.Errorf("%s, team size %d: %d threads ran, want %d", c.s.Name(), c.size, hits.Load(), want)
		}
	}
}

// TestTeamLocalDeepCopy: LocalDeepCopy and LocalFill between contiguous
// views and strided subviews, against naive loops.
func TestTeamLocalDeepCopy(t *testing.T) {
	forTeamConfigs(t, func(t *testing.T, s HostExecutionSpace, size int) {
		const league, n0, n1 = 7, 9, 13
		rng := rand.New(rand.NewPCG(10, 11))
		src, _ := NewView3[int]("src", league, n0, n1)
		dst, _ := NewView3[int]("dst", league, n0, n1, LayoutLeft)
		dst2, _ := NewView3[int]("dst2", league, n0, n1)
		fill, _ := NewView3[int]("fill", league, n0, n1)
		for i := range src.Data() {
			src.Data()[i] = rng.IntN(1 << 30)
		}
		ParallelForTeam("local", Teams(league, size).On(s).SetScratchSize(0, ScratchSize[int](n0, n1), 0), func(m *TeamMember) {
			l := m.LeagueRank()
			sv := src.Subview2(l, All, All)
			sc := ScratchView2[int](m.TeamScratch(0), n0, n1)
			LocalDeepCopy(m, View[int](sc), View[int](sv)) // contiguous
			LocalDeepCopy(m, dst.Subview2(l, All, All), View[int](sc))
			LocalDeepCopy(m, dst2.Subview2(l, All, All), dst.Subview2(l, All, All))
			LocalFill(m, fill.Subview2(l, All, Pair(2, 7)), l+1)
		})
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		for l := range league {
			for i := range n0 {
				for j := range n1 {
					w := src.At(l, i, j)
					if dst.At(l, i, j) != w || dst2.At(l, i, j) != w {
						t.Fatalf("(%d, %d, %d): %d %d, want %d", l, i, j, dst.At(l, i, j), dst2.At(l, i, j), w)
					}
					wf := 0
					if j >= 2 && j < 7 {
						wf = l + 1
					}
					if fill.At(l, i, j) != wf {
						t.Fatalf("fill(%d, %d, %d) = %d, want %d", l, i, j, fill.At(l, i, j), wf)
					}
				}
			}
		}
	})
}

// TestTeamPanic: a panic in one thread of a team, while the others wait
// at a barrier, reaches the caller as a *PanicError naming the label and
// this file's line, and the space keeps working.
func TestTeamPanic(t *testing.T) {
	t.Cleanup(dropFenceErrors)
	forTeamConfigs(t, func(t *testing.T, s HostExecutionSpace, size int) {
		ts := effSize(size)
		for _, culprit := range []int{0, ts - 1} {
			r := catchPanic(func() {
				ParallelForTeam("boom", Teams(20, size).On(s), func(m *TeamMember) {
					if m.LeagueRank() == 7 && m.TeamRank() == culprit {
						panic("bad team")
					}
					m.TeamBarrier()
					TeamReduce(m, Sum[int](), 1)
				})
			})
			var err error
			if th, ok := s.(*Threads); ok && th.Async() {
				err = s.Fence()
			} else {
				err, _ = r.(error)
			}
			var pe *PanicError
			if !errors.As(err, &pe) || pe.Label != "boom" || pe.Value != "bad team" || !strings.HasPrefix(pe.Where, "team_test.go:") {
				t.Fatalf("culprit %d: got %v, want a *PanicError in team_test.go", culprit, err)
			}
		}
		r := catchPanic(func() {
			ParallelReduceTeam("boom-reduce", Teams(9, size).On(s), Sum[int](), func(m *TeamMember, acc *int) {
				if m.LeagueRank() == 3 {
					panic(fmt.Errorf("wrapped: %w", ErrShape))
				}
				*acc += TeamReduce(m, Sum[int](), 1)
			})
		})
		if err, _ := r.(error); !errors.Is(err, ErrShape) {
			t.Fatalf("ParallelReduceTeam: got %v, want an error wrapping ErrShape", r)
		}
		// The space keeps working.
		if got := ParallelReduceTeam("after", Teams(9, size).On(s), Sum[int](), func(m *TeamMember, acc *int) {
			*acc += TeamReduce(m, Sum[int](), 1)
		}); got != 9*ts*ts {
			t.Fatalf("after a panic: %d, want %d", got, 9*ts*ts)
		}
	})
}

// TestTeamPolicyChecks: bad policies panic naming the label and the policy.
func TestTeamPolicyChecks(t *testing.T) {
	for _, c := range []struct {
		p    TeamPolicy
		want string
	}{
		{Teams(-1, 1), "negative league size -1"},
		{Teams(3, 0), "team size 0"},
		{Teams(3, 1).WithVectorLength(-3), "vector length -3"},
		{Teams(3, 1).WithChunk(-1), "negative chunk size"},
		{Teams(3, 2).On(Serial{}), "Serial runs teams of one thread"},
	} {
		r := catchPanic(func() { ParallelForTeam("bad", c.p, func(*TeamMember) {}) })
		msg := fmt.Sprint(r)
		if !strings.Contains(msg, c.want) || !strings.Contains(msg, `"bad"`) || !strings.Contains(msg, "TeamPolicy(") {
			t.Errorf("%v: %q, want it to name %q", c.p, msg, c.want)
		}
	}
	if r := catchPanic(func() { Teams(1, 1).SetScratchSize(2, 1, 1) }); !strings.Contains(fmt.Sprint(r), "level 2") {
		t.Errorf("scratch level 2: %v", r)
	}
	p := Teams(4, Auto).WithVectorLength(8).SetScratchSize(1, 10, 20)
	if pt, pth := p.Scratch(1); p.LeagueSize() != 4 || p.TeamSize() != Auto || p.VectorLength() != 8 || pt != 10 || pth != 20 {
		t.Errorf("accessors of %v", p)
	}
	if s := p.String(); s != "TeamPolicy(4, Auto).WithVectorLength(8).SetScratchSize(1, 10, 20)" {
		t.Errorf("String: %q", s)
	}
}

// TestTeamGoexit: runtime.Goexit in a team thread, while the others wait at
// a barrier, is reported as a panic and leaves no team waiting.
func TestTeamGoexit(t *testing.T) {
	th := NewThreads(2)
	defer th.Close()
	for _, size := range []int{1, 3} {
		for _, culprit := range []int{0, size - 1} {
			done := make(chan any)
			go func() {
				defer func() { done <- recover() }()
				ParallelForTeam("exit", Teams(6, size).On(th), func(m *TeamMember) {
					if m.LeagueRank() == 2 && m.TeamRank() == culprit {
						runtime.Goexit()
					}
					m.TeamBarrier()
				})
			}()
			r := <-done
			if culprit == 0 {
				// Goexit on the goroutine that started the pattern ends it,
				// as for other patterns; on a pool worker it is a panic.
				continue
			}
			var pe *PanicError
			if err, _ := r.(error); !errors.As(err, &pe) || pe.Label != "exit" {
				t.Fatalf("team size %d culprit %d: got %v, want a *PanicError", size, culprit, r)
			}
		}
		// The pool keeps working.
		if got := ParallelReduceTeam("after", Teams(5, size).On(th), Sum[int](), func(m *TeamMember, acc *int) { *acc++ }); got != 5*size {
			t.Fatalf("after Goexit: %d, want %d", got, 5*size)
		}
	}
}
