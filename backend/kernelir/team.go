package kernelir

import (
	"fmt"
	"math"
	"unsafe"
)

// This file holds the nodes of team kernels: a kernel whose first
// parameter is a kernel.Team (Kernel.Team names it), launched over a
// league of teams. Every thread of a team runs the body; the nodes below
// are the team's queries, its nested ranges, its barrier, its collectives
// and its scratch views.

// Team queries, the methods of kernel.Team a TeamQuery names: the first
// four give an int, the last two a bool.
var TeamQueries = map[string]Type{
	"LeagueRank": Int, "LeagueSize": Int, "TeamRank": Int, "TeamSize": Int,
	"SinglePerTeam": Bool, "SinglePerThread": Bool,
}

// TeamQuery is t.Q() of the kernel's team: Q one of TeamQueries.
type TeamQuery struct{ Q string }

func (*TeamQuery) exprNode() {}

// The kinds of a Nested range.
const (
	NestThread     = "thread"     // t.TeamThreadRange: split among the team's threads
	NestVector     = "vector"     // t.ThreadVectorRange: split among the calling thread's vector lanes
	NestTeamVector = "teamvector" // t.TeamVectorRange: split among every thread and lane of the team
)

// Nested is for key := range t.TeamThreadRange(Begin, End) { Body } (or
// ThreadVectorRange, TeamVectorRange, as Kind says): each index of
// [Begin, End) runs once, on one thread (or lane) of the team, in an
// order the backend chooses. Begin and End are ints evaluated once;
// Key is TargetNew (an int), TargetVar or TargetBlank. The body may
// continue, not break or return, and holds no barrier, collective, scratch
// view or other nested range, except a vector range in a thread range.
type Nested struct {
	Kind       string
	Key        Target
	Begin, End Expr
	Body       []Stmt
}

// Barrier is t.TeamBarrier().
type Barrier struct{}

// The operations of a Collective.
const (
	CollReduce    = "teamreduce"    // kernel.TeamReduce: Targets[0] = the join of the team's Values
	CollVector    = "vectorreduce"  // kernel.VectorReduce: the join over the calling thread's lanes
	CollScan      = "teamscan"      // kernel.TeamScan: Targets = the exclusive prefix, the total
	CollBroadcast = "teambroadcast" // kernel.TeamBroadcast: Targets[0] = Value of the thread of rank From
)

// Collective is targets = kernel.TeamReduce(t, kokkos.<Join>[T](), Value)
// and its kin (Op one of the Coll constants): every thread of the team
// evaluates Value (and From), then the collective joins or moves the
// values, then each thread stores its results to Targets as Assign does
// (TargetNew declares). Join is a reducer's name (Sum, Prod, Min, Max,
// LAnd, LOr, BAnd, BOr), "" for a broadcast. A reduce joins the threads'
// values in rank order from rank 0's; a scan joins from the identity.
type Collective struct {
	Op      string
	Join    string
	T       Type
	Targets []Target // one; two for a scan
	Value   Expr
	From    Expr // a broadcast's rank, an int
}

// ScratchDecl is name := kokkos.ScratchView<Rank>[T](t.TeamScratch(Level),
// extents...) (or ThreadScratch when Thread): a view of Rank = len(Extents)
// (1 to 3) dimensions, layout right, taken from the pad's bytes not yet
// taken in this team (each view ScratchSize bytes: the elements' bytes
// rounded up to 8). Its contents start unspecified. In scope, Name is a
// view that At, Extent, element targets and atomics use as they use a
// view parameter (always writable).
type ScratchDecl struct {
	Name    string
	T       Type
	Level   int
	Thread  bool
	Extents []Expr
}

func (*Nested) stmtNode()      {}
func (*Barrier) stmtNode()     {}
func (*Collective) stmtNode()  {}
func (*ScratchDecl) stmtNode() {}

// Reducers are the joins a Collective names.
var Reducers = []string{"Sum", "Prod", "Min", "Max", "LAnd", "LOr", "BAnd", "BOr"}

// reducerFits reports whether join applies to values of type t.
func reducerFits(join string, t Type) bool {
	switch join {
	case "Sum", "Prod", "Min", "Max":
		return t.IsNumeric()
	case "LAnd", "LOr":
		return t == Bool
	case "BAnd", "BOr":
		return t.IsInteger()
	}
	return false
}

// Printing.

func (p *printer) teamStmt(s Stmt) bool {
	switch s := s.(type) {
	case *Nested:
		p.b.WriteString("(nested " + s.Kind + " ")
		p.target(s.Key)
		p.b.WriteByte(' ')
		p.expr(s.Begin)
		p.b.WriteByte(' ')
		p.expr(s.End)
		p.body(s.Body)
		p.b.WriteString(")")
	case *NestedScan:
		p.nestedScan(s)
	case *Barrier:
		p.b.WriteString("(barrier)")
	case *Collective:
		p.b.WriteString("(" + s.Op + " ")
		if s.Op != CollBroadcast {
			p.b.WriteString(s.Join + " ")
		}
		p.b.WriteString(s.T.String() + " (")
		for n, t := range s.Targets {
			if n > 0 {
				p.b.WriteByte(' ')
			}
			p.target(t)
		}
		p.b.WriteString(") ")
		p.expr(s.Value)
		if s.Op == CollBroadcast {
			p.b.WriteByte(' ')
			p.expr(s.From)
		}
		p.b.WriteString(")")
	case *ScratchDecl:
		pad := "team"
		if s.Thread {
			pad = "thread"
		}
		fmt.Fprintf(&p.b, "(scratch %s %s %s %d (", s.Name, s.T, pad, s.Level)
		p.exprs(s.Extents)
		p.b.WriteString("))")
	default:
		return false
	}
	return true
}

// Parsing.

// teamStmt reads a team statement, or returns nil.
func (p *parser) teamStmt(s *sx) Stmt {
	switch h := s.head(); h {
	case "nested":
		a := p.args(s, 5, false)
		switch a[0].atom {
		case NestThread, NestVector, NestTeamVector:
		default:
			p.fail(a[0], "want thread, vector or teamvector")
		}
		return &Nested{Kind: a[0].atom, Key: p.target(a[1]), Begin: p.expr(a[2]), End: p.expr(a[3]), Body: p.block(a[4], "body")}
	case "nestedscan":
		return p.nestedScan(s)
	case "barrier":
		p.args(s, 0, false)
		return &Barrier{}
	case CollReduce, CollVector, CollScan:
		a := p.args(s, 4, false)
		c := &Collective{Op: h, Join: p.name(a[0]), T: p.typ(a[1]), Value: p.expr(a[3])}
		for _, t := range p.list(a[2]) {
			c.Targets = append(c.Targets, p.target(t))
		}
		return c
	case CollBroadcast:
		a := p.args(s, 4, false)
		c := &Collective{Op: h, T: p.typ(a[0]), Value: p.expr(a[2]), From: p.expr(a[3])}
		for _, t := range p.list(a[1]) {
			c.Targets = append(c.Targets, p.target(t))
		}
		return c
	case "scratch":
		a := p.args(s, 5, false)
		d := &ScratchDecl{Name: p.name(a[0]), T: p.typ(a[1]), Level: p.int(a[3]), Extents: p.exprs(p.list(a[4]))}
		switch a[2].atom {
		case "team":
		case "thread":
			d.Thread = true
		default:
			p.fail(a[2], "want team or thread")
		}
		return d
	}
	return nil
}

// teamExpr reads a team expression, or returns nil.
func (p *parser) teamExpr(s *sx) Expr {
	if s.head() != "team" {
		return nil
	}
	q := p.name(p.args(s, 1, false)[0])
	if _, ok := TeamQueries[q]; !ok {
		p.fail(s, "want a team query: LeagueRank, LeagueSize, TeamRank, TeamSize, SinglePerTeam or SinglePerThread")
	}
	return &TeamQuery{Q: q}
}

// Validation.

// teamKernel checks the header of a team kernel.
func (v *validator) teamKernel() {
	k := v.k
	if !isIdent(k.Team) || len(k.Index) != 0 {
		v.failf("kernel %s: team parameter %q and %d indices", k.Name, k.Team, len(k.Index))
	}
	if k.Pattern == PatternScan {
		v.failf("kernel %s: a team kernel is a for or reduce kernel, not a scan", k.Name)
	}
}

// teamOnly fails unless the node is in the body of a team kernel.
func (v *validator) teamOnly(what string) {
	if v.fn != nil || v.k.Team == "" {
		v.errf("%s outside the body of a team kernel", what)
	}
}

// inNested reports the innermost enclosing nested range's kind, or "".
func (v *validator) inNested() string {
	if len(v.nested) == 0 {
		return ""
	}
	return v.nested[len(v.nested)-1]
}

func (v *validator) teamStmt(s Stmt) {
	switch s := s.(type) {
	case *Nested:
		v.teamOnly("a nested range")
		switch s.Kind {
		case NestThread, NestTeamVector:
			if in := v.inNested(); in != "" {
				v.errf("a %s range inside a %s range", s.Kind, in)
			}
		case NestVector:
			if in := v.inNested(); in != "" && in != NestThread {
				v.errf("a vector range inside a %s range", in)
			}
		default:
			v.errf("a nested range of kind %q", s.Kind)
		}
		v.exprOf(s.Begin, Int)
		v.exprOf(s.End, Int)
		v.push()
		switch s.Key.Kind {
		case TargetNew:
			if s.Key.T != Int {
				v.errf("nested range key %s of type %s", s.Key.Name, s.Key.T)
			}
			v.declare(s.Key.Name, Int, false)
		case TargetVar:
			v.target(&s.Key)
			if s.Key.T != Int {
				v.errf("nested range key %s of type %s", s.Key.Name, s.Key.T)
			}
		case TargetBlank:
		default:
			v.errf("a nested range key that is not a variable")
		}
		loops, breaks := v.loops, v.breaks
		v.loops, v.breaks = 1, 0
		v.nested = append(v.nested, s.Kind)
		v.block(s.Body)
		v.nested = v.nested[:len(v.nested)-1]
		v.loops, v.breaks = loops, breaks
		v.pop()
	case *NestedScan:
		v.nestedScan(s)
	case *Barrier:
		v.teamOnly("a team barrier")
		if in := v.inNested(); in != "" {
			v.errf("a team barrier inside a %s range: every thread of the team must reach it", in)
		}
	case *Collective:
		v.teamOnly(s.Op)
		in := v.inNested()
		if in != "" && !(s.Op == CollVector && in == NestThread) {
			v.errf("%s inside a %s range: every thread of the team must reach it", s.Op, in)
		}
		want := 1
		switch s.Op {
		case CollScan:
			want = 2
		case CollBroadcast:
			if s.Join != "" {
				v.errf("a broadcast with a join %s", s.Join)
			}
			if s.T == Invalid || s.T >= numTypes {
				v.errf("a broadcast of %s", s.T)
			}
			v.exprOf(s.From, Int)
		case CollReduce, CollVector:
		default:
			v.errf("collective %q", s.Op)
		}
		if s.Op != CollBroadcast && !reducerFits(s.Join, s.T) {
			v.errf("%s by %s of a %s", s.Op, s.Join, s.T)
		}
		if len(s.Targets) != want {
			v.errf("%s of %d targets, want %d", s.Op, len(s.Targets), want)
		}
		v.exprOf(s.Value, s.T)
		var news []Target
		for n := range s.Targets {
			t := &s.Targets[n]
			if t.Kind == TargetNew {
				if t.T != s.T {
					v.errf("new variable %s of type %s given a %s", t.Name, t.T, s.T)
				}
				news = append(news, *t)
				continue
			}
			v.target(t)
			if t.Kind != TargetBlank && t.T != s.T {
				v.errf("an assignment of a %s to a %s", s.T, t.T)
			}
		}
		for _, t := range news {
			v.declare(t.Name, t.T, false)
		}
	case *ScratchDecl:
		v.teamOnly("a scratch view")
		if in := v.inNested(); in != "" {
			v.errf("scratch view %s inside a %s range", s.Name, in)
		}
		if s.Level != 0 && s.Level != 1 {
			v.errf("scratch view %s of level %d, want 0 or 1", s.Name, s.Level)
		}
		if !s.T.IsNumeric() {
			v.errf("scratch view %s of %s", s.Name, s.T)
		}
		if len(s.Extents) < 1 || len(s.Extents) > 3 {
			v.errf("scratch view %s of rank %d, want 1 to 3", s.Name, len(s.Extents))
		}
		for _, x := range s.Extents {
			v.exprOf(x, Int)
		}
		v.declare(s.Name, s.T, true)
		if s.Name != "_" {
			v.scopes[len(v.scopes)-1][s.Name].view = &Param{Name: s.Name, Type: s.T, Rank: len(s.Extents), Write: true}
		}
	}
}

func (v *validator) teamExpr(x *TeamQuery) {
	v.teamOnly("t." + x.Q + "()")
	if _, ok := TeamQueries[x.Q]; !ok {
		v.errf("team query %q", x.Q)
	}
}

// The interpreter.

// A TeamRun is one team of a team kernel's launch, as RunTeam runs it.
type TeamRun struct {
	LeagueRank, LeagueSize int
	// Size is the number of threads of the team, 1 or more. Each has one
	// vector lane.
	Size int
	// Scratch is the bytes of the scratch pads of each level: [level][0]
	// per team, [level][1] per thread.
	Scratch [2][2]int
}

// RunTeam runs team tr of a team kernel: Size threads, each a goroutine,
// of one vector lane each, that run one at a time in rank order from one
// barrier or collective to the next, so that every run is the same. acc is
// the accumulator of a reduction (a *T of the kernel's Acc type; nil for
// a For kernel), which the threads update in turn. Threads that reach
// different barriers or collectives, or that end while others wait at
// one, are an error wrapping ErrRun; so is what makes the Go body panic,
// and a scratch view that does not fit its pad.
func (m *Machine) RunTeam(tr TeamRun, acc any) (err error) {
	k := m.k
	if k.Team == "" {
		return fmt.Errorf("kernelir: kernel %s is not a team kernel", k.Name)
	}
	if tr.Size < 1 || tr.LeagueRank < 0 || tr.LeagueRank >= tr.LeagueSize {
		return fmt.Errorf("kernelir: kernel %s: team %d of a league of %d, of %d threads", k.Name, tr.LeagueRank, tr.LeagueSize, tr.Size)
	}
	for l := range 2 {
		if tr.Scratch[l][0] < 0 || tr.Scratch[l][1] < 0 {
			return fmt.Errorf("kernelir: kernel %s: scratch sizes %v", k.Name, tr.Scratch)
		}
	}
	var accGet func() uint64
	var accSet func(uint64)
	if k.Acc != Invalid {
		var ok bool
		if accGet, accSet, ok = accPtr(k.Acc, acc); !ok {
			return fmt.Errorf("kernelir: kernel %s: accumulator %T, want *%s", k.Name, acc, k.Acc)
		}
	}
	tm := &team{name: k.Name, run: tr, wake: make([]chan bool, tr.Size), done: make(chan struct{}), state: make([]memberState, tr.Size)}
	for l := range 2 {
		tm.pads[l] = make([]uint64, (tr.Scratch[l][0]+7)/8)
	}
	for r := range tr.Size {
		tm.wake[r] = make(chan bool, 1)
		mb := &member{t: tm, rank: r}
		for l := range 2 {
			mb.pads[l] = pad{mem: tm.pads[l], size: tr.Scratch[l][0]}
			mb.pads[2+l] = pad{mem: make([]uint64, (tr.Scratch[l][1]+7)/8), size: tr.Scratch[l][1]}
		}
		x := &exec{m: m, accGet: accGet, accSet: accSet, tm: mb}
		e := &env{}
		for j, p := range k.Params {
			if !p.IsView() {
				e.declare(p.Name, m.params[j])
			}
		}
		x.env = e
		go mb.run(x)
	}
	tm.wake[0] <- true
	<-tm.done
	return tm.err
}

// team is the state a team's threads share.
type team struct {
	name  string
	run   TeamRun
	wake  []chan bool // true: run on; false: the team failed, stop
	done  chan struct{}
	err   error
	pads  [2][]uint64 // the team's pads, by level
	state []memberState
}

// memberState is where a thread stopped: running, at a barrier or
// collective (at, with its value), or ended.
type memberState struct {
	at    Stmt
	val   uint64
	from  int
	ended bool
	res   [2]uint64
}

// member is one thread of a team.
type member struct {
	t    *team
	rank int
	pads [4]pad // team level 0, 1, thread level 0, 1
}

// pad is a scratch pad: its words, its size in bytes and the bytes taken.
type pad struct {
	mem        []uint64
	size, used int
}

// teamStop unwinds a thread of a team that failed.
type teamStop struct{}

func (mb *member) run(x *exec) {
	t := mb.t
	var err error
	stopped := false
	func() {
		defer func() {
			if r := recover(); r != nil {
				switch r := r.(type) {
				case teamStop:
					stopped = true
				case perr:
					err = r.err
				default:
					err = fmt.Errorf("%w: %v", ErrRun, r)
				}
			}
		}()
		if !<-t.wake[mb.rank] {
			panic(teamStop{})
		}
		x.stmts(x.m.k.Body)
	}()
	if stopped {
		return
	}
	if err != nil {
		mb.fail(err)
		return
	}
	t.state[mb.rank].ended = true
	mb.pass()
}

// fail ends the team with err: every waiting thread stops.
func (mb *member) fail(err error) {
	t := mb.t
	if t.err == nil {
		t.err = err
	}
	for r, s := range t.state {
		if r != mb.rank && !s.ended {
			t.state[r].ended = true
			t.wake[r] <- false
		}
	}
	close(t.done)
}

// pass hands the team to the next thread that has not ended, or, after
// the last, completes the barrier or collective every thread waits at
// (or ends the team).
func (mb *member) pass() {
	t := mb.t
	for r := mb.rank + 1; r < len(t.state); r++ {
		if !t.state[r].ended {
			t.wake[r] <- true
			return
		}
	}
	// Every thread is at a barrier or collective, or has ended.
	var at Stmt
	waiting := 0
	for _, s := range t.state {
		if !s.ended {
			waiting++
			if at == nil {
				at = s.at
			} else if !sameSync(at, s.at) {
				mb.fail(fmt.Errorf("%w: kernel %s: the threads of team %d reach different barriers or collectives", ErrRun, t.kernelName(), t.run.LeagueRank))
				return
			}
		}
	}
	if waiting == 0 {
		close(t.done)
		return
	}
	if waiting < len(t.state) {
		mb.fail(fmt.Errorf("%w: kernel %s: %s waits for threads of team %d that have returned: every thread of the team must reach it", ErrRun, t.kernelName(), syncName(at), t.run.LeagueRank))
		return
	}
	if c, ok := at.(*Collective); ok {
		if err := t.collect(c); err != nil {
			mb.fail(err)
			return
		}
	}
	t.wake[0] <- true
}

func (t *team) kernelName() string { return t.name }

// sameSync reports whether two threads wait at the same kind of barrier or
// collective.
func sameSync(a, b Stmt) bool {
	ca, oka := a.(*Collective)
	cb, okb := b.(*Collective)
	if oka != okb {
		return false
	}
	return !oka || ca.Op == cb.Op && ca.Join == cb.Join && ca.T == cb.T
}

func syncName(s Stmt) string {
	if c, ok := s.(*Collective); ok {
		return c.Op
	}
	return "a team barrier"
}

// collect computes the results of collective c from the threads' values.
func (t *team) collect(c *Collective) error {
	s := t.state
	switch c.Op {
	case CollBroadcast:
		from := s[0].from
		if from < 0 || from >= len(s) {
			return fmt.Errorf("%w: TeamBroadcast from rank %d of a team of %d", ErrRun, from, len(s))
		}
		for r := range s {
			s[r].res[0] = s[from].val
		}
	case CollReduce:
		v := s[0].val
		for r := 1; r < len(s); r++ {
			v = reduceJoin(c.Join, c.T, v, s[r].val)
		}
		for r := range s {
			s[r].res[0] = v
		}
	case CollScan:
		v := reduceIdentity(c.Join, c.T)
		for r := range s {
			s[r].res[0] = v
			v = reduceJoin(c.Join, c.T, v, s[r].val)
		}
		for r := range s {
			s[r].res[1] = v
		}
	}
	return nil
}

// sync waits, with value val (and a broadcast's rank from), until every
// thread of the team has reached the barrier or collective s, and returns
// the thread's results.
func (mb *member) sync(s Stmt, val uint64, from int) [2]uint64 {
	t := mb.t
	st := &t.state[mb.rank]
	st.at, st.val, st.from = s, val, from
	mb.pass()
	if !<-t.wake[mb.rank] {
		panic(teamStop{})
	}
	st.at = nil
	return st.res
}

// reduceIdentity is the identity of join for values of type t.
func reduceIdentity(join string, t Type) uint64 {
	switch join {
	case "Prod":
		return one(t)
	case "LAnd":
		return 1
	case "BAnd":
		return norm(t, ^uint64(0))
	case "Min", "Max":
		isMin := join == "Min"
		switch {
		case t.IsFloat():
			return math.Float64bits(math.Inf(map[bool]int{true: 1, false: -1}[isMin]))
		case t.IsSigned():
			if isMin {
				return norm(t, uint64(1)<<(t.Bits()-1)-1)
			}
			return norm(t, uint64(1)<<(t.Bits()-1))
		default:
			if isMin {
				return norm(t, ^uint64(0))
			}
			return 0
		}
	}
	return 0
}

// reduceJoin joins b into a by join.
func reduceJoin(join string, t Type, a, b uint64) uint64 {
	switch join {
	case "Sum":
		return binop("add", t, a, b)
	case "Prod":
		return binop("mul", t, a, b)
	case "Min":
		return minMax(false, t, a, b)
	case "Max":
		return minMax(true, t, a, b)
	case "LAnd":
		return a & b
	case "LOr", "BOr":
		return a | b
	case "BAnd":
		return a & b
	}
	return a
}

// teamStmt runs a team statement.
func (x *exec) teamStmt(s Stmt) ctl {
	mb := x.tm
	switch s := s.(type) {
	case *Nested:
		b := int64(x.expr(s.Begin))
		e := int64(x.expr(s.End))
		lo, step := b, int64(1)
		if s.Kind != NestVector {
			// The team's threads take the indices round robin.
			lo, step = b+int64(mb.rank), int64(mb.t.run.Size)
		}
		x.env.push()
		defer x.env.pop()
		for i := lo; i < e; i += step {
			x.env.push()
			switch s.Key.Kind {
			case TargetNew:
				x.env.declare(s.Key.Name, uint64(i))
			case TargetVar:
				*x.env.slot(s.Key.Name) = uint64(i)
			}
			c := x.stmts(s.Body)
			x.env.pop()
			if c == ctlReturn || c == ctlBreak {
				return c
			}
		}
	case *NestedScan:
		x.nestedScan(s)
	case *Barrier:
		mb.sync(s, 0, 0)
	case *Collective:
		v := x.expr(s.Value)
		var res [2]uint64
		switch s.Op {
		case CollVector:
			res[0] = v // one vector lane
		case CollBroadcast:
			res = mb.sync(s, v, int(int64(x.expr(s.From))))
		default:
			res = mb.sync(s, v, 0)
		}
		offs := make([]int, len(s.Targets))
		for n := range s.Targets {
			if t := &s.Targets[n]; t.Kind == TargetElem {
				_, offs[n] = x.elem(t.Name, t.Index)
			}
		}
		for n := range s.Targets {
			if t := &s.Targets[n]; t.Kind != TargetNew {
				x.store(t, offs[n], res[n])
			}
		}
		for n, t := range s.Targets {
			if t.Kind == TargetNew {
				x.env.declare(t.Name, res[n])
			}
		}
	case *ScratchDecl:
		ext := make([]int, len(s.Extents))
		n := 1
		for d, e := range s.Extents {
			ext[d] = int(int64(x.expr(e)))
			if ext[d] < 0 {
				runErr("scratch view %s with extents %v", s.Name, ext[:d+1])
			}
			n *= ext[d]
		}
		which := s.Level
		what := "team"
		if s.Thread {
			which += 2
			what = "thread"
		}
		p := &mb.pads[which]
		size := s.T.Bits() / 8
		need := (n*size + 7) &^ 7
		if need > p.size-p.used {
			runErr("scratch view %s of %s with extents %v needs %d bytes, %d of the %d bytes per %s of scratch level %d are left", s.Name, s.T, ext, need, p.size-p.used, p.size, what, s.Level)
		}
		data := padSlice(s.T, p.mem, p.used, n)
		p.used += need
		str := make([]int, len(ext))
		st := 1
		for d := len(ext) - 1; d >= 0; d-- {
			str[d] = st
			st *= ext[d]
		}
		prm := &Param{Name: s.Name, Type: s.T, Rank: len(ext), Write: true}
		mv := &mview{p: prm, v: View{Data: data, Extents: ext, Strides: str}}
		bindData(mv, s.T, data)
		x.scratch = append(x.scratch, mv)
		x.env.declare(s.Name, uint64(len(x.scratch)-1))
	}
	return ctlNext
}

// teamExpr evaluates a team query.
func (x *exec) teamExpr(q *TeamQuery) uint64 {
	r := x.tm.t.run
	switch q.Q {
	case "LeagueRank":
		return uint64(r.LeagueRank)
	case "LeagueSize":
		return uint64(r.LeagueSize)
	case "TeamRank":
		return uint64(x.tm.rank)
	case "TeamSize":
		return uint64(r.Size)
	case "SinglePerTeam":
		return b2u(x.tm.rank == 0)
	}
	return 1 // SinglePerThread: one lane
}

// viewOf returns the view name: a scratch view in scope, else a view
// parameter.
func (x *exec) viewOf(name string) *mview {
	if x.tm != nil {
		for n := len(x.env.names) - 1; n >= 0; n-- {
			if x.env.names[n] == name {
				return x.scratch[x.env.vals[n]]
			}
		}
	}
	return x.m.views[name]
}

// padSlice returns n elements of type t at byte offset off of mem (a
// multiple of 8), as a slice of t's Go type.
func padSlice(t Type, mem []uint64, off, n int) any {
	var p unsafe.Pointer
	if n > 0 {
		p = unsafe.Pointer(&mem[off/8])
	}
	switch t {
	case Int:
		return unsafe.Slice((*int)(p), n)
	case Int8:
		return unsafe.Slice((*int8)(p), n)
	case Int16:
		return unsafe.Slice((*int16)(p), n)
	case Int32:
		return unsafe.Slice((*int32)(p), n)
	case Int64:
		return unsafe.Slice((*int64)(p), n)
	case Uint8:
		return unsafe.Slice((*uint8)(p), n)
	case Uint16:
		return unsafe.Slice((*uint16)(p), n)
	case Uint32:
		return unsafe.Slice((*uint32)(p), n)
	case Uint64:
		return unsafe.Slice((*uint64)(p), n)
	case Float32:
		return unsafe.Slice((*float32)(p), n)
	}
	return unsafe.Slice((*float64)(p), n)
}
