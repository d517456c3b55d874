package kokkos

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gokkos/kokkos/internal/sched"
)

// Auto, given as a TeamPolicy's team size or vector length, lets the
// pattern choose: on the host spaces both are 1 (see TeamPolicy).
const Auto = -1

// A TeamPolicy is a league of teams for hierarchical parallelism: the
// pattern calls its body once for every thread of every team, with a
// *TeamMember that says which. The threads of one team run concurrently,
// can wait for each other (TeamBarrier), exchange values (TeamBroadcast,
// TeamReduce, TeamScan), split nested ranges (TeamThreadRange) and share
// scratch memory (SetScratchSize, TeamMember.TeamScratch).
//
// Build one with Teams(leagueSize, teamSize), then WithVectorLength,
// SetScratchSize, WithChunk and On.
//
// On the host, a team is run by the pool goroutine that takes it (the
// team's thread 0) and, when the team size is above 1, by teamSize-1
// goroutines started for the teams that goroutine runs in a row and
// stopped after them. So the threads of a team always run concurrently,
// whatever the number of pool workers, and a barrier cannot wait for a
// thread that never runs. Auto team size is 1: a team is then one
// goroutine, nested team ranges are plain loops and barriers cost nothing,
// which is what Kokkos recommends for its OpenMP backend. Vector lanes
// (ThreadVectorRange) run one after the other in their thread, and Auto
// vector length is 1. Serial runs team size 1 only, as in Kokkos.
type TeamPolicy struct {
	league, team, vector int
	chunk                int
	scratch              [2][2]int // [level][per team, per thread] bytes
	space                ExecutionSpace
}

// Teams returns the policy of leagueSize teams of teamSize threads (or
// Auto) on the default execution space, with vector length Auto and no
// scratch memory.
func Teams(leagueSize, teamSize int) TeamPolicy {
	return TeamPolicy{league: leagueSize, team: teamSize, vector: Auto}
}

// WithVectorLength returns p with vector length n (or Auto). On the host
// it changes nothing but what VectorLength reports: vector lanes run one
// after the other.
func (p TeamPolicy) WithVectorLength(n int) TeamPolicy { p.vector = n; return p }

// WithChunk returns p handing out n teams at a time to a pool goroutine;
// 0 lets the pattern choose. It changes speed, never results.
func (p TeamPolicy) WithChunk(n int) TeamPolicy { p.chunk = n; return p }

// On returns p running on the instance s.
func (p TeamPolicy) On(s ExecutionSpace) TeamPolicy { p.space = s; return p }

// SetScratchSize returns p with perTeam bytes of scratch memory at level
// (0 or 1) shared by the threads of each team (TeamMember.TeamScratch),
// and perThread bytes private to each thread (TeamMember.ThreadScratch).
// It is Kokkos's set_scratch_size(level, PerTeam(perTeam),
// PerThread(perThread)); ScratchSize gives the bytes a scratch view takes.
// It panics for another level or a negative size.
func (p TeamPolicy) SetScratchSize(level, perTeam, perThread int) TeamPolicy {
	if level != 0 && level != 1 {
		panic(fmt.Sprintf("kokkos: %v.SetScratchSize: level %d, want 0 or 1", p, level))
	}
	if perTeam < 0 || perThread < 0 {
		panic(fmt.Sprintf("kokkos: %v.SetScratchSize(%d, %d, %d): negative size", p, level, perTeam, perThread))
	}
	p.scratch[level] = [2]int{perTeam, perThread}
	return p
}

// LeagueSize returns the number of teams.
func (p TeamPolicy) LeagueSize() int { return p.league }

// TeamSize returns the team size given to Teams (Auto included).
func (p TeamPolicy) TeamSize() int { return p.team }

// VectorLength returns the vector length given to WithVectorLength, or
// Auto.
func (p TeamPolicy) VectorLength() int { return p.vector }

// Scratch returns the scratch sizes in bytes set for level.
func (p TeamPolicy) Scratch(level int) (perTeam, perThread int) {
	if level != 0 && level != 1 {
		return 0, 0
	}
	return p.scratch[level][0], p.scratch[level][1]
}

// Space returns the instance given to On, or nil for the default one.
func (p TeamPolicy) Space() ExecutionSpace { return p.space }

func (p TeamPolicy) String() string {
	size := func(n int) string {
		if n == Auto {
			return "Auto"
		}
		return fmt.Sprint(n)
	}
	s := fmt.Sprintf("TeamPolicy(%d, %s)", p.league, size(p.team))
	if p.vector != Auto {
		s += ".WithVectorLength(" + size(p.vector) + ")"
	}
	for l, sz := range p.scratch {
		if sz != [2]int{} {
			s += fmt.Sprintf(".SetScratchSize(%d, %d, %d)", l, sz[0], sz[1])
		}
	}
	if p.chunk != 0 {
		s += fmt.Sprintf(".WithChunk(%d)", p.chunk)
	}
	return s
}

// teamPlan is a validated TeamPolicy with the label of its pattern.
type teamPlan struct {
	pattern, label string
	league, size   int
	chunk          int
	scratch        [2][2]int
	space          HostExecutionSpace
}

func (p TeamPolicy) check(pattern, label string) teamPlan {
	fail := func(format string, args ...any) {
		panic(fmt.Sprintf("kokkos: %s %q: %v: ", pattern, label, p) + fmt.Sprintf(format, args...))
	}
	if p.league < 0 {
		fail("negative league size %d", p.league)
	}
	if p.team < 1 && p.team != Auto {
		fail("team size %d, want a positive size or Auto", p.team)
	}
	if p.vector < 1 && p.vector != Auto {
		fail("vector length %d, want a positive length or Auto", p.vector)
	}
	if p.chunk < 0 {
		fail("negative chunk size %d", p.chunk)
	}
	s := hostExec(pattern, label, p.space)
	size := max(p.team, 1)
	if _, ok := s.(Serial); ok && size > 1 {
		fail("Serial runs teams of one thread; use team size 1 or Auto, or a Threads space")
	}
	return teamPlan{
		pattern: pattern, label: label,
		league: p.league, size: size,
		chunk:   defaultChunk(p.league, p.chunk, s),
		scratch: p.scratch,
		space:   s,
	}
}

// ParallelForTeam calls body once for every thread of every team of p,
// the threads of a team concurrently (see TeamPolicy), and returns when
// all have returned, or at once on an asynchronous instance (whose Fence
// then waits). A panic in body stops the pattern and reaches the caller
// (or Fence) as a *PanicError with the label; the other threads of the
// panicking team leave their barriers (and collectives) at once.
func ParallelForTeam(label string, p TeamPolicy, body func(m *TeamMember)) {
	pl := p.check("ParallelForTeam", label)
	t := teamForPool.Get().(*teamFor)
	t.pl, t.body = pl, body
	launch(pl.space, dispatch{
		Label: label, Kind: kindFor, Begin: 0, End: pl.league, Chunk: pl.chunk,
		Body: t.run,
	}, false)
	if synchronous(pl.space) {
		// Done: an asynchronous instance's queue may still hold t.run,
		// and its t is left to the garbage collector.
		t.pl, t.body = teamPlan{}, nil
		teamForPool.Put(t)
	}
}

// A teamFor is a ParallelForTeam call's plan and body, with the chunk
// function the pool runs bound to them once: a call on a synchronous space
// takes one from teamForPool and puts it back when it returns, so that it
// allocates nothing. (Two allocations a call made a fenced one-team
// dispatch cost 570–600 ns instead of about 200 on a virtual machine with a
// large heap, where the allocator kept taking fresh pages.)
type teamFor struct {
	pl   teamPlan
	body func(m *TeamMember)
	run  func(lo, hi int)
}

var teamForPool = sync.Pool{New: func() any {
	t := new(teamFor)
	t.run = func(lo, hi int) { t.pl.runTeams(lo, hi, t.body, nil) }
	return t
}}

// synchronous reports whether work launched on s has finished when launch
// returns: on Serial and on a pool's synchronous instance.
func synchronous(s HostExecutionSpace) bool {
	switch s := s.(type) {
	case Serial:
		return true
	case *Threads:
		return !s.Async()
	}
	return false
}

// ParallelReduceTeam calls body for every thread of every team of p, as
// ParallelForTeam does, and returns the join by r of all contributions.
// Each thread's *acc starts at r.Identity() for each team; a team's
// contribution is the join of its threads' in rank order, and the teams'
// contributions are joined in a fixed pairwise tree in league order, so
// the result does not depend on the number of pool workers or the chunk
// size (it does on the team size, which splits nested ranges). It
// returns when the result is ready, also on an asynchronous instance.
// An empty league gives r.Identity().
//
// The usual body reduces a nested range and adds the team's result once:
//
//	s := kokkos.NestedReduce(kokkos.TeamThreadRange(m, 0, n), sum, rowBody)
//	kokkos.SinglePerTeam(m, func() { *acc += s })
func ParallelReduceTeam[T any](label string, p TeamPolicy, r Reducer[T], body func(m *TeamMember, acc *T)) T {
	pl := p.check("ParallelReduceTeam", label)
	if pl.league == 0 {
		launchEmpty(pl.space, label, kindReduce)
		return r.Identity()
	}
	partial := make([]T, pl.league)
	stride := max(1, 64/max(1, int(unsafe.Sizeof(*new(T)))))
	launch(pl.space, dispatch{
		Label: label, Kind: kindReduce, Begin: 0, End: pl.league, Chunk: pl.chunk,
		Body: func(lo, hi int) {
			pl.runTeams(lo, hi, func(m *TeamMember) {
				buf := typedSlots[T](m.c, &m.c.acc, m.c.size*stride)
				a := &buf[m.rank*stride]
				*a = r.Identity()
				body(m, a)
			}, func(c *crew, t int) {
				buf := typedSlots[T](c, &c.acc, c.size*stride)
				v := buf[0]
				for k := 1; k < c.size; k++ {
					v = r.Join(v, buf[k*stride])
				}
				partial[t] = v
			})
		},
	}, true)
	return combine(r.Join, partial)
}

// A TeamMember is one thread of one team, the handle a team body gets: it
// says which (LeagueRank, TeamRank), synchronizes the team (TeamBarrier,
// and the package functions TeamBroadcast, TeamReduce, TeamScan), splits
// nested ranges (TeamThreadRange, ThreadVectorRange, TeamVectorRange) and
// gives scratch memory (TeamScratch, ThreadScratch). It is valid only
// during the body call it was given to.
type TeamMember struct {
	c      *crew
	league int
	rank   int
	pads   [4]ScratchPad // team level 0, team level 1, thread level 0, thread level 1
	at     atomic.Int32  // the teamCall the thread waits in, or 0
}

// LeagueRank returns the team's index in the league, 0 to LeagueSize()-1.
func (m *TeamMember) LeagueRank() int { return m.league }

// LeagueSize returns the number of teams of the policy.
func (m *TeamMember) LeagueSize() int { return m.c.plan.league }

// TeamRank returns the thread's index in its team, 0 to TeamSize()-1.
func (m *TeamMember) TeamRank() int { return m.rank }

// TeamSize returns the number of threads of a team (Auto resolved).
func (m *TeamMember) TeamSize() int { return m.c.size }

// TeamBarrier returns when every thread of the team has called it. Every
// thread of the team must call it the same number of times. It is
// Kokkos's team_barrier: memory written by one thread before the barrier
// is seen by all after it.
func (m *TeamMember) TeamBarrier() {
	if m.c.size > 1 {
		m.c.barrier(m, callBarrier)
	}
}

// TeamScratch returns the team's scratch pad of level 0 or 1: the
// SetScratchSize per-team bytes, shared by the threads of the team. Scratch
// views made from it (ScratchView1 ... ScratchView8) take its bytes in
// order; every thread that makes the same views in the same order gets
// the same memory. Its contents at the start of a team are unspecified.
func (m *TeamMember) TeamScratch(level int) *ScratchPad { return m.pad(level, 0) }

// ThreadScratch returns the thread's private scratch pad of level 0 or 1:
// the SetScratchSize per-thread bytes.
func (m *TeamMember) ThreadScratch(level int) *ScratchPad { return m.pad(level, 2) }

func (m *TeamMember) pad(level, base int) *ScratchPad {
	if level != 0 && level != 1 {
		panic(fmt.Sprintf("kokkos: %s %q: scratch level %d, want 0 or 1", m.c.plan.pattern, m.c.plan.label, level))
	}
	return &m.pads[base+level]
}

// TeamBroadcast returns, on every thread of m's team, the v given by the
// thread of rank from. Every thread of the team must call it.
func TeamBroadcast[T any](m *TeamMember, v T, from int) T {
	c := m.c
	if from < 0 || from >= c.size {
		panic(fmt.Sprintf("kokkos: %s %q: TeamBroadcast from rank %d of a team of %d", c.plan.pattern, c.plan.label, from, c.size))
	}
	if c.size == 1 {
		return v
	}
	buf := typedSlots[T](c, &c.coll, 1)
	if m.rank == from {
		buf[0] = v
	}
	c.barrier(m, callBroadcast)
	v = buf[0]
	c.barrier(m, callBroadcast)
	return v
}

// TeamReduce returns, on every thread of m's team, the join by r of the
// values v of all threads, in rank order. Every thread of the team must
// call it.
func TeamReduce[T any](m *TeamMember, r Reducer[T], v T) T {
	c := m.c
	if c.size == 1 {
		return v
	}
	buf := typedSlots[T](c, &c.coll, c.size)
	buf[m.rank] = v
	c.barrier(m, callReduce)
	v = buf[0]
	for k := 1; k < c.size; k++ {
		v = r.Join(v, buf[k])
	}
	c.barrier(m, callReduce)
	return v
}

// TeamScan returns, on each thread of m's team, the exclusive prefix of
// the values v by rank (the join by r of the values of the threads of
// lower rank, r.Identity() for rank 0), and the join of all of them. It
// is Kokkos's team_scan with a reducer; every thread must call it.
func TeamScan[T any](m *TeamMember, r Reducer[T], v T) (prefix, total T) {
	c := m.c
	if c.size == 1 {
		return r.Identity(), v
	}
	buf := typedSlots[T](c, &c.coll, c.size)
	buf[m.rank] = v
	c.barrier(m, callScan)
	prefix = r.Identity()
	for k := range m.rank {
		prefix = r.Join(prefix, buf[k])
	}
	total = prefix
	for k := m.rank; k < c.size; k++ {
		total = r.Join(total, buf[k])
	}
	c.barrier(m, callScan)
	return prefix, total
}

// SinglePerTeam runs fn on one thread of m's team (rank 0) and returns
// at once on the others, without a barrier: Kokkos's
// single(PerTeam(team), fn).
func SinglePerTeam(m *TeamMember, fn func()) {
	if m.rank == 0 {
		fn()
	}
}

// SinglePerThread runs fn once in the calling thread (once for its vector
// lanes): Kokkos's single(PerThread(team), fn).
func SinglePerThread(m *TeamMember, fn func()) { fn() }

// SinglePerTeamValue runs fn on rank 0 of m's team, with *v the zero T,
// and returns the value it leaves in *v on every thread of the team:
// Kokkos's single(PerTeam(team), fn, value). Every thread must call it.
func SinglePerTeamValue[T any](m *TeamMember, fn func(v *T)) T {
	var v T
	if m.rank == 0 {
		fn(&v)
	}
	return TeamBroadcast(m, v, 0)
}

// SinglePerThreadValue runs fn once in the calling thread and returns the
// value it leaves in *v: Kokkos's single(PerThread(team), fn, value).
func SinglePerThreadValue[T any](m *TeamMember, fn func(v *T)) T {
	var v T
	fn(&v)
	return v
}

// A crew runs teams one after the other: the pool goroutine that took
// them as thread 0 and, for teams of more than one thread, size-1
// goroutines of its own. It owns the teams' scratch memory, reused from
// team to team (and, through crewPool, from pattern to pattern).
type crew struct {
	plan    *teamPlan
	size    int
	members []TeamMember
	body    func(m *TeamMember)
	scratch [2][2]int // the scratch sizes the pads were made for
	league  int       // the team being run, written by thread 0 before start
	stop    bool      // set by thread 0 before start: the other threads leave

	teamMem   [2][]uint64 // per-team scratch of levels 0 and 1
	threadMem [2][]uint64 // per-thread scratch, one padded piece per thread

	start, end, sync barrier // start and end of a team; TeamBarrier
	panicked         atomic.Pointer[sched.Panic]
	// left is 1 + the rank of the first thread that returned from the
	// current team's body, or 0: from then on the team's barrier can
	// never be passed. Thread 0 clears it before each team starts.
	left atomic.Int32

	mu   sync.Mutex
	coll any // the []T of team collectives
	acc  any // the []T of ParallelReduceTeam's per-thread accumulators
}

var crewPool sync.Pool

// teamAborted is the panic value that makes a team thread leave a barrier
// broken by the panic of another thread of its team.
type teamAborted struct{}

// runTeams runs teams lo to hi-1 of the plan, calling after(c, t) on the
// calling goroutine once every thread of team t has returned. A panic in a
// team's thread is panicked again, as recorded where it happened, once the
// other threads of the team have left.
func (pl *teamPlan) runTeams(lo, hi int, body func(m *TeamMember), after func(c *crew, t int)) {
	c := getCrew(pl, body)
	if c.size > 1 {
		for r := 1; r < c.size; r++ {
			go c.thread(&c.members[r])
		}
	}
	for t := lo; t < hi; t++ {
		c.league = t
		c.left.Store(0)
		if c.size > 1 {
			c.start.wait()
		}
		c.runThread(&c.members[0])
		if c.size > 1 {
			c.end.wait()
		}
		if p := c.panicked.Load(); p != nil {
			c.start.breakAll() // the other threads leave; the crew is dropped
			panic(p)
		}
		if after != nil {
			after(c, t)
		}
	}
	if c.size > 1 {
		c.stop = true
		c.start.wait()
		c.end.wait()
	}
	c.body, c.plan = nil, nil
	crewPool.Put(c)
}

// getCrew returns a crew for pl, with scratch of pl's sizes.
func getCrew(pl *teamPlan, body func(m *TeamMember)) *crew {
	c, _ := crewPool.Get().(*crew)
	if c != nil && c.size == pl.size && c.scratch == pl.scratch {
		c.plan, c.body, c.stop = pl, body, false
		return c
	}
	if c == nil || c.size != pl.size {
		c = &crew{size: pl.size, members: make([]TeamMember, pl.size)}
		c.start.n, c.end.n, c.sync.n = int32(pl.size), int32(pl.size), int32(pl.size)
		c.start.cond.L, c.end.cond.L, c.sync.cond.L = &c.start.mu, &c.end.mu, &c.sync.mu
		for r := range c.members {
			c.members[r] = TeamMember{c: c, rank: r}
		}
	}
	c.plan, c.body, c.stop, c.scratch = pl, body, false, pl.scratch
	for l := range 2 {
		team := scratchWords(pl.scratch[l][0])
		if len(c.teamMem[l]) < team {
			c.teamMem[l] = make([]uint64, team)
		}
		// Each thread's piece starts on a cache line of its own.
		per := (scratchWords(pl.scratch[l][1]) + 7) &^ 7
		if len(c.threadMem[l]) < per*pl.size {
			c.threadMem[l] = make([]uint64, per*pl.size)
		}
		for r := range c.members {
			m := &c.members[r]
			m.pads[l] = ScratchPad{m: m, level: l, mem: c.teamMem[l][:team], size: pl.scratch[l][0]}
			m.pads[2+l] = ScratchPad{m: m, level: l, thread: true, mem: c.threadMem[l][r*per : r*per+per], size: pl.scratch[l][1]}
		}
	}
	return c
}

// thread runs thread m.rank of the crew's teams until thread 0 stops it.
func (c *crew) thread(m *TeamMember) {
	for {
		if !c.start.wait() {
			return
		}
		if c.stop {
			c.end.wait()
			return
		}
		if !c.runThread(m) {
			return // runtime.Goexit: runThread has left the team
		}
		c.end.wait()
	}
}

// runThread runs the crew's body as thread m of the current team. It
// records a panic, breaks the team's barriers and returns false only if
// the body called runtime.Goexit (after leaving the team for it).
func (c *crew) runThread(m *TeamMember) (ok bool) {
	m.league = c.league
	for k := range m.pads {
		m.pads[k].used = 0
	}
	normal := false
	defer func() {
		if normal {
			return
		}
		r := recover()
		if _, aborted := r.(teamAborted); aborted {
			ok = true
			return
		}
		var p *sched.Panic
		if r == nil {
			p = &sched.Panic{Value: sched.GoexitValue}
		} else {
			p = sched.Recovered(r)
		}
		c.panicked.CompareAndSwap(nil, p)
		c.sync.breakAll()
		ok = r != nil
		if r == nil && c.size > 1 {
			// runtime.Goexit goes on ending this goroutine: leave the team
			// as the end of the team, and, on thread 0, let the other threads go.
			c.end.wait()
			if m.rank == 0 {
				c.start.breakAll()
			}
		}
	}()
	c.body(m)
	if c.size > 1 {
		c.leave(m)
	}
	normal = true
	return true
}

// The team calls that wait for every thread of the team, for the message
// of a team whose threads do not all make them.
type teamCall int32

const (
	callBarrier teamCall = iota + 1
	callBroadcast
	callReduce
	callScan
)

func (w teamCall) String() string {
	return [...]string{"", "TeamBarrier", "TeamBroadcast", "TeamReduce", "TeamScan"}[w]
}

// barrier is the team barrier of m's thread in the team call what. A panic
// in the team breaks it. A thread of the team that has returned from the
// body can never reach it: then the barrier panics (on the thread that
// finds out, the others leave it), naming the call and the team, rather
// than wait for good.
func (c *crew) barrier(m *TeamMember, what teamCall) {
	m.at.Store(int32(what))
	ok, stuck := c.sync.waitUnless(func() bool { return c.left.Load() != 0 })
	m.at.Store(0)
	switch {
	case stuck:
		panic(c.mismatch(int(c.left.Load())-1, m.rank, what))
	case !ok:
		panic(teamAborted{})
	}
}

// leave records that thread m returned from the current team's body. If
// other threads of the team wait in a team call, which can then never
// end, it panics (they leave their barrier) naming the call and the team.
func (c *crew) leave(m *TeamMember) {
	c.left.CompareAndSwap(0, int32(m.rank)+1)
	// Threads counted in a round of the barrier wait in a round m never
	// joins, unless the round is ending (its last thread has counted
	// itself but not yet reset the count): m passed every round it joined.
	if k := c.sync.count.Load(); k == 0 || k >= c.sync.n {
		return
	}
	for r := range c.members {
		if w := teamCall(c.members[r].at.Load()); w != 0 {
			panic(c.mismatch(m.rank, r, w))
		}
	}
}

// mismatch is the message of a team whose thread gone returned from the
// body while thread waiting waits in the team call what.
func (c *crew) mismatch(gone, waiting int, what teamCall) string {
	return fmt.Sprintf("kokkos: %s %q: league rank %d, team of %d threads: thread %d waits in %v, but thread %d returned from the body and can never reach it: every thread of a team must make the same TeamBarrier, TeamBroadcast, TeamReduce and TeamScan calls",
		c.plan.pattern, c.plan.label, c.league, c.size, waiting, what, gone)
}

// typedSlots returns the crew's []T of n elements kept in *slot, made when
// the slot holds another type or fewer elements. Threads call it between
// the barriers of a collective, so no thread still reads an older slice.
func typedSlots[T any](c *crew, slot *any, n int) []T {
	c.mu.Lock()
	b, ok := (*slot).([]T)
	if !ok || len(b) < n {
		b = make([]T, n)
		*slot = b
	}
	c.mu.Unlock()
	return b
}

// barrierSpin is how many times a barrier polls before it parks; it
// yields its processor between polls after the first few, since a team
// may have more threads than there are processors.
const barrierSpin = 256

// A barrier releases its n goroutines once all have called wait. It spins
// briefly, then parks on a condition variable. Broken, it releases every
// waiter at once and for good.
type barrier struct {
	n      int32
	count  atomic.Int32
	gen    atomic.Uint32
	broken atomic.Bool
	mu     sync.Mutex
	cond   sync.Cond
}

// wait returns true once all n goroutines have called it, false if the
// barrier is broken.
func (b *barrier) wait() bool {
	ok, _ := b.waitUnless(nil)
	return ok
}

// waitUnless is wait, but for a barrier that the caller may find can never
// be passed: when stuck, if not nil, reports true after the caller has
// arrived, it breaks the barrier and returns false and true.
func (b *barrier) waitUnless(stuck func() bool) (ok, isStuck bool) {
	g := b.gen.Load()
	if b.broken.Load() {
		return false, false
	}
	if b.count.Add(1) == b.n {
		b.count.Store(0)
		b.mu.Lock()
		b.gen.Add(1)
		b.mu.Unlock()
		b.cond.Broadcast()
		return true, false
	}
	// The round may have ended since the Add, and a thread that passed
	// it may have left the team since: only a round still open is stuck.
	if stuck != nil && stuck() && b.gen.Load() == g {
		b.breakAll()
		return false, true
	}
	for i := range barrierSpin {
		if b.gen.Load() != g {
			return true, false
		}
		if b.broken.Load() {
			return false, false
		}
		if i >= 16 {
			runtime.Gosched()
		}
	}
	b.mu.Lock()
	for b.gen.Load() == g && !b.broken.Load() {
		b.cond.Wait()
	}
	ok = b.gen.Load() != g
	b.mu.Unlock()
	return ok, false
}

// breakAll breaks the barrier.
func (b *barrier) breakAll() {
	b.mu.Lock()
	b.broken.Store(true)
	b.mu.Unlock()
	b.cond.Broadcast()
}

// A NestedRange is a range of indices inside a team body, split among the
// team's threads (TeamThreadRange, TeamVectorRange) or run by the vector
// lanes of one thread (ThreadVectorRange). NestedFor, NestedReduce and
// NestedScan run it; they are Kokkos's parallel_for, parallel_reduce and
// parallel_scan over a nested policy.
type NestedRange struct {
	m          *TeamMember
	begin, end int
	team       bool // split among the team's threads
	name       string
}

// TeamThreadRange returns the indices begin to end-1 split among the
// threads of m's team: each thread runs one contiguous share, in order,
// the shares going to the threads in rank order.
func TeamThreadRange(m *TeamMember, begin, end int) NestedRange {
	return nestedRange(m, begin, end, true, "TeamThreadRange")
}

// TeamVectorRange returns the indices begin to end-1 split among the
// threads and vector lanes of m's team; on the host, where vector lanes
// run in turn, it is TeamThreadRange.
func TeamVectorRange(m *TeamMember, begin, end int) NestedRange {
	return nestedRange(m, begin, end, true, "TeamVectorRange")
}

// ThreadVectorRange returns the indices begin to end-1 run by the vector
// lanes of the calling thread alone; on the host, one after the other in
// index order.
func ThreadVectorRange(m *TeamMember, begin, end int) NestedRange {
	return nestedRange(m, begin, end, false, "ThreadVectorRange")
}

func nestedRange(m *TeamMember, begin, end int, team bool, name string) NestedRange {
	if begin > end {
		panic(fmt.Sprintf("kokkos: %s %q: %s(%d, %d): begin > end", m.c.plan.pattern, m.c.plan.label, name, begin, end))
	}
	return NestedRange{m: m, begin: begin, end: end, team: team, name: name}
}

// share returns the calling thread's indices of r.
func (r NestedRange) share() (lo, hi int) {
	if !r.team || r.m.c.size == 1 {
		return r.begin, r.end
	}
	n, size := r.end-r.begin, r.m.c.size
	per := (n + size - 1) / size
	lo = min(r.begin+r.m.rank*per, r.end)
	return lo, min(lo+per, r.end)
}

// Share returns the calling thread's indices of r, [lo, hi): its
// contiguous share of a team range (the shares go to the threads in rank
// order), the whole range for a thread range. NestedFor runs the same
// indices; generated Go kernels loop over them.
func (r NestedRange) Share() (lo, hi int) { return r.share() }

// NestedFor calls body(i) for the calling thread's indices of r, in
// order. It does not wait for the other threads of the team: call
// TeamBarrier before reading what they wrote.
func NestedFor(r NestedRange, body func(i int)) {
	lo, hi := r.share()
	for i := lo; i < hi; i++ {
		body(i)
	}
}

// NestedForChunks calls body(lo, hi) once with the calling thread's
// share of r (if not empty), for a loop of the body's own at plain-Go
// speed. It does not wait for the other threads.
func NestedForChunks(r NestedRange, body func(lo, hi int)) {
	if lo, hi := r.share(); lo < hi {
		body(lo, hi)
	}
}

// NestedReduce calls body(i, acc) for the calling thread's indices of r,
// in order, from red.Identity(), and returns the join of all
// contributions of r; for a team range, every thread of the team gets the
// same value, the join of the threads' shares in rank order, and every
// thread of the team must call it.
func NestedReduce[T any](r NestedRange, red Reducer[T], body func(i int, acc *T)) T {
	return NestedReduceChunks(r, red, func(lo, hi int, acc *T) {
		for i := lo; i < hi; i++ {
			body(i, acc)
		}
	})
}

// NestedReduceChunks is NestedReduce with a body that runs the calling
// thread's share [lo, hi) of r in its own loop (called once, also for an
// empty share).
func NestedReduceChunks[T any](r NestedRange, red Reducer[T], body func(lo, hi int, acc *T)) T {
	lo, hi := r.share()
	acc := red.Identity()
	body(lo, hi, &acc)
	if !r.team {
		return acc
	}
	return TeamReduce(r.m, red, acc)
}

// NestedScan runs a prefix scan over r, as ParallelScan does over a range,
// and returns the join of all contributions on every thread that runs it.
// body(i, acc, final) adds index i's contribution to *acc; with final
// true, *acc holds on entry the join of the contributions of the indices
// of r before i. For a team range the body is called twice for each index
// of the calling thread's share, first with final false, and every thread
// of the team must call NestedScan; for a thread range (and teams of one
// thread) once, with final true.
func NestedScan[T any](r NestedRange, red Reducer[T], body func(i int, acc *T, final bool)) T {
	lo, hi := r.share()
	pre := red.Identity()
	if r.team && r.m.c.size > 1 {
		sum := red.Identity()
		for i := lo; i < hi; i++ {
			body(i, &sum, false)
		}
		var total T
		pre, total = TeamScan(r.m, red, sum)
		for i := lo; i < hi; i++ {
			body(i, &pre, true)
		}
		return total
	}
	for i := lo; i < hi; i++ {
		body(i, &pre, true)
	}
	return pre
}

// LocalDeepCopy copies src into dst, views of the same extents, inside a
// team body: the threads of m's team split the elements, then wait at a
// team barrier, so that every thread sees the whole copy. Every thread of
// the team must call it. It is Kokkos's local_deep_copy(team, dst, src).
// It panics, naming the views' labels and extents, when the extents
// differ, or when dst is read-only or src or dst is not host-accessible.
func LocalDeepCopy[T any](m *TeamMember, dst, src View[T]) {
	d, s := dst.viewDesc(), src.viewDesc()
	if d.rank != s.rank || d.ext != s.ext {
		panic(fmt.Sprintf("kokkos: LocalDeepCopy in %q: view %q with extents %s and view %q with extents %s differ", m.c.plan.label, d.label(), fmtInts(d.extents()), s.label(), fmtInts(s.extents())))
	}
	checkLocal(m, "LocalDeepCopy", &d)
	checkLocal(m, "LocalDeepCopy", &s)
	if d.flags&flagReadOnly != 0 {
		panic(fmt.Sprintf("kokkos: LocalDeepCopy in %q: view %q is read-only", m.c.plan.label, d.label()))
	}
	localElements(m, &d, &s, func(dst, src []T) { copy(dst, src) }, func(i, j int) { d.data[i] = s.data[j] })
}

// LocalFill sets every element of dst to v inside a team body, the
// threads of m's team splitting the elements and then waiting at a team
// barrier. Every thread of the team must call it. It is Kokkos's
// local_deep_copy(team, dst, value).
func LocalFill[T any](m *TeamMember, dst View[T], v T) {
	d := dst.viewDesc()
	checkLocal(m, "LocalFill", &d)
	if d.flags&flagReadOnly != 0 {
		panic(fmt.Sprintf("kokkos: LocalFill in %q: view %q is read-only", m.c.plan.label, d.label()))
	}
	localElements(m, &d, &d, func(dst, _ []T) {
		for i := range dst {
			dst[i] = v
		}
	}, func(i, _ int) { d.data[i] = v })
}

func checkLocal[T any](m *TeamMember, op string, d *desc[T]) {
	if d.data == nil && d.size() > 0 || d.flags&flagNoHost != 0 {
		panic(fmt.Sprintf("kokkos: %s in %q: view %q with extents %s is not accessible from the host", op, m.c.plan.label, d.label(), fmtInts(d.extents())))
	}
}

// localElements runs the calling thread's share of the elements of d (in
// the logical order of the last index fastest), as runs of whole
// contiguous slices when d and s have the same contiguous strides, else
// element by element (one(i, j): element i of d's data, j of s's), then
// waits at a team barrier.
func localElements[T any](m *TeamMember, d, s *desc[T], run func(dst, src []T), one func(i, j int)) {
	total := d.size()
	lo, hi := TeamVectorRange(m, 0, total).share()
	if lo < hi {
		if d.str == s.str && contiguousRight(d) {
			run(d.data[lo:hi], s.data[lo:hi])
		} else {
			var idx [MaxRank]int
			k := lo
			for r := d.rank - 1; r >= 0; r-- {
				idx[r] = k % d.ext[r]
				k /= d.ext[r]
			}
			for range hi - lo {
				oi, oj := 0, 0
				for r := range d.rank {
					oi += idx[r] * d.str[r]
					oj += idx[r] * s.str[r]
				}
				one(oi, oj)
				for r := d.rank - 1; r >= 0; r-- {
					if idx[r]++; idx[r] < d.ext[r] || r == 0 {
						break
					}
					idx[r] = 0
				}
			}
		}
	}
	m.TeamBarrier()
}

// contiguousRight reports whether d's elements lie in its data in the
// order of the last index fastest, with no gaps.
func contiguousRight[T any](d *desc[T]) bool {
	s := 1
	for r := d.rank - 1; r >= 0; r-- {
		if d.ext[r] > 1 && d.str[r] != s {
			return false
		}
		s *= d.ext[r]
	}
	return true
}
