package kernel

import (
	"iter"

	"github.com/gokkos/kokkos"
)

// A Team is the thread of a team that runs a team kernel: a
// //kokkos:kernel function whose first parameter is a Team, launched over
// a kokkos.TeamPolicy. It is Kokkos's team member (TeamPolicy::member_type)
// in a kernel: the league and team ranks, the team's barrier, its scratch
// pads, the nested ranges and the team's collectives.
//
//	//kokkos:kernel
//	func RowSums(t kernel.Team, y kokkos.View1[float64], a kokkos.View2[float64]) {
//		row := t.LeagueRank()
//		var s float64
//		for j := range t.TeamThreadRange(0, a.Extent(1)) {
//			s += a.At(row, j)
//		}
//		s = kernel.TeamReduce(t, kokkos.Sum[float64](), s)
//		if t.SinglePerTeam() {
//			y.Set(row, s)
//		}
//	}
//
// On the host a Team is a kokkos.TeamMember: the threads of a team are
// the pool's, and vector lanes run one after the other in their thread. A
// device backend runs a team as a block of threads, the vector lanes of a
// thread side by side. A team kernel is an ordinary Go function too:
// TeamOf gives the Team of a member, to call it from
// kokkos.ParallelForTeam's body.
type Team struct{ m *kokkos.TeamMember }

// TeamOf returns the Team of member m.
func TeamOf(m *kokkos.TeamMember) Team { return Team{m} }

// LeagueRank returns the rank of the thread's team in the league.
func (t Team) LeagueRank() int { return t.m.LeagueRank() }

// LeagueSize returns the number of teams of the launch.
func (t Team) LeagueSize() int { return t.m.LeagueSize() }

// TeamRank returns the rank of the thread in its team, from 0 to
// TeamSize()-1.
func (t Team) TeamRank() int { return t.m.TeamRank() }

// TeamSize returns the number of threads of the team.
func (t Team) TeamSize() int { return t.m.TeamSize() }

// TeamBarrier waits until every thread of the team has reached it; what
// the threads wrote to the team's scratch, or to views, before it is seen
// by all after it. Every thread of the team must call it, as often.
func (t Team) TeamBarrier() { t.m.TeamBarrier() }

// SinglePerTeam reports whether the calling thread is the one thread of
// its team (rank 0, vector lane 0) that runs a block guarded by it:
// Kokkos's single(PerTeam(team), f) is if t.SinglePerTeam() { f }. There
// is no barrier.
func (t Team) SinglePerTeam() bool { return t.m.TeamRank() == 0 }

// SinglePerThread reports whether the calling vector lane is the one lane
// of its thread that runs a block guarded by it: Kokkos's
// single(PerThread(team), f). On the host every thread has one lane.
func (t Team) SinglePerThread() bool { return true }

// TeamScratch returns the team's scratch pad of level 0 or 1 (the
// per-team bytes of the policy's SetScratchSize), shared by the team's
// threads; kokkos.ScratchView1 ... ScratchView8 take views from it.
func (t Team) TeamScratch(level int) *kokkos.ScratchPad { return t.m.TeamScratch(level) }

// ThreadScratch returns the calling thread's own scratch pad of level 0 or
// 1 (the per-thread bytes of SetScratchSize).
func (t Team) ThreadScratch(level int) *kokkos.ScratchPad { return t.m.ThreadScratch(level) }

// TeamThreadRange returns the indices begin to end-1 split among the
// team's threads, for a loop: for j := range t.TeamThreadRange(b, e) is
// Kokkos's parallel_for(TeamThreadRange(team, b, e), ...). Which thread
// runs which index is the backend's choice; no thread waits for the
// others at the end (call TeamBarrier).
func (t Team) TeamThreadRange(begin, end int) iter.Seq[int] {
	return nested(kokkos.TeamThreadRange(t.m, begin, end))
}

// ThreadVectorRange returns the indices begin to end-1 run by the vector
// lanes of the calling thread.
func (t Team) ThreadVectorRange(begin, end int) iter.Seq[int] {
	return nested(kokkos.ThreadVectorRange(t.m, begin, end))
}

// TeamVectorRange returns the indices begin to end-1 split among all the
// threads and vector lanes of the team.
func (t Team) TeamVectorRange(begin, end int) iter.Seq[int] {
	return nested(kokkos.TeamVectorRange(t.m, begin, end))
}

// nested returns the calling thread's indices of r, in order.
func nested(r kokkos.NestedRange) iter.Seq[int] {
	return func(yield func(int) bool) {
		lo, hi := r.Share()
		for i := lo; i < hi; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

// TeamReduce returns, on every thread of t's team, the join by r of the
// values v of the team's threads (a thread's vector lanes count once:
// reduce over them first with VectorReduce). It ends a nested reduction
// over a TeamThreadRange: each thread adds its indices' contributions to
// a local, then TeamReduce joins them. Every thread of the team must call
// it; r must be one of the built-in reducers of package kokkos (Sum, Prod,
// Min, Max, LAnd, LOr, BAnd, BOr).
func TeamReduce[T any](t Team, r kokkos.Reducer[T], v T) T { return kokkos.TeamReduce(t.m, r, v) }

// VectorReduce returns, on every vector lane of the calling thread, the
// join by r of the lanes' values v: it ends a nested reduction over a
// ThreadVectorRange. On the host, where a thread has one lane, it is v.
func VectorReduce[T any](t Team, r kokkos.Reducer[T], v T) T { return v }

// TeamScan returns, on each thread of t's team, the join by r of the
// values v of the threads of lower rank (r's identity on rank 0) and the
// join of all of them: Kokkos's team_scan. Every thread must call it.
func TeamScan[T any](t Team, r kokkos.Reducer[T], v T) (prefix, total T) {
	return kokkos.TeamScan(t.m, r, v)
}

// TeamBroadcast returns, on every thread of t's team, the value v of the
// thread of rank from: Kokkos's team_broadcast. Every thread must call it.
func TeamBroadcast[T any](t Team, v T, from int) T { return kokkos.TeamBroadcast(t.m, v, from) }

// TeamThreadScan runs a prefix scan over the indices begin to end-1 split
// among the threads of t's team: Kokkos's parallel_scan(TeamThreadRange(
// team, begin, end), body, total). body(i, acc, final) is called for
// each index, first with final false: it adds index i's contribution to
// *acc; then with final true, *acc holding on entry the join by r of the
// contributions of the indices before i (whatever thread ran them): the
// body stores *acc before adding for an exclusive scan, after for an
// inclusive one; a thread that runs the whole range alone (a team of one)
// may skip the calls with final false. It returns the join of all contributions on every
// thread. Every thread of the team must call it; r must be one of the
// built-in reducers written in place (kokkos.Sum[T](), Prod, Min, Max,
// LAnd, LOr, BAnd, BOr). In a kernel, body is a function literal whose
// body is in the kernel subset: it reads the kernel's locals and
// parameters (as copies: it writes only views and *acc) and returns early
// with return.
func TeamThreadScan[T any](t Team, begin, end int, r kokkos.Reducer[T], body func(i int, acc *T, final bool)) T {
	return kokkos.NestedScan(kokkos.TeamThreadRange(t.m, begin, end), r, body)
}

// ThreadVectorScan is TeamThreadScan over the indices begin to end-1 run
// by the vector lanes of the calling thread: Kokkos's
// parallel_scan(ThreadVectorRange(team, begin, end), ...). Every lane of
// the thread must call it; it may be called in a loop over a
// TeamThreadRange. On the host, where a thread has one lane, the body is
// called once per index, with final true.
func ThreadVectorScan[T any](t Team, begin, end int, r kokkos.Reducer[T], body func(i int, acc *T, final bool)) T {
	return kokkos.NestedScan(kokkos.ThreadVectorRange(t.m, begin, end), r, body)
}

// TeamVectorScan is TeamThreadScan over the indices begin to end-1 split
// among every thread and vector lane of t's team: Kokkos's
// parallel_scan(TeamVectorRange(team, begin, end), ...).
func TeamVectorScan[T any](t Team, begin, end int, r kokkos.Reducer[T], body func(i int, acc *T, final bool)) T {
	return kokkos.NestedScan(kokkos.TeamVectorRange(t.m, begin, end), r, body)
}
