package kernelir

import "fmt"

// NestedScan is total = kernel.TeamThreadScan(t, Begin, End,
// kokkos.<Join>[T](), func(Key int, Acc *T, Final bool) { Body }) and its
// kin (Kind: thread for TeamThreadScan, vector for ThreadVectorScan,
// teamvector for TeamVectorScan): Kokkos's parallel_scan over a nested
// range. For each index Key of [Begin, End) the body runs with Acc, a
// local of type T, and Final, a bool: with Final false from the identity
// of Join, adding the index's contribution to Acc; with Final true, Acc
// holding on entry the join of the contributions of the indices before
// Key (in index order, whatever thread or lane runs them). A backend may
// skip the runs with Final false when one thread runs the whole range
// (Final true runs add the contribution as well). Then Total (TargetBlank,
// TargetNew, TargetVar or TargetAcc) is given the join of all the
// contributions on every thread. The body may continue (the Go body's
// return) but not break or return, and holds no barrier, collective,
// nested range or scan; it reads the locals around it and does not
// assign them. Every thread of the team (every lane of the thread for a
// vector scan) reaches it; a vector scan may be in a thread range.
type NestedScan struct {
	Kind       string
	Key        string
	Begin, End Expr
	Join       string
	T          Type
	Acc, Final string
	Total      Target
	Body       []Stmt
}

func (*NestedScan) stmtNode() {}

// The text: (nestedscan KIND KEY BEGIN END JOIN T ACC FINAL (TOTAL) (body ...)),
// (TOTAL) the empty list when the total is dropped.

func (p *printer) nestedScan(s *NestedScan) {
	fmt.Fprintf(&p.b, "(nestedscan %s %s ", s.Kind, s.Key)
	p.expr(s.Begin)
	p.b.WriteByte(' ')
	p.expr(s.End)
	fmt.Fprintf(&p.b, " %s %s %s %s (", s.Join, s.T, s.Acc, s.Final)
	if s.Total.Kind != TargetBlank {
		p.target(s.Total)
	}
	p.b.WriteString(")")
	p.body(s.Body)
	p.b.WriteString(")")
}

func (p *parser) nestedScan(s *sx) Stmt {
	a := p.args(s, 10, false)
	switch a[0].atom {
	case NestThread, NestVector, NestTeamVector:
	default:
		p.fail(a[0], "want thread, vector or teamvector")
	}
	n := &NestedScan{Kind: a[0].atom, Key: p.name(a[1]), Begin: p.expr(a[2]), End: p.expr(a[3]), Join: p.name(a[4]), T: p.typ(a[5]),
		Acc: p.name(a[6]), Final: p.name(a[7]), Total: Target{Kind: TargetBlank}, Body: p.block(a[9], "body")}
	switch t := p.list(a[8]); len(t) {
	case 0:
	case 1:
		n.Total = p.target(t[0])
	default:
		p.fail(a[8], "want one target or none")
	}
	return n
}

func (v *validator) nestedScan(s *NestedScan) {
	v.teamOnly("a nested scan")
	in := v.inNested()
	switch s.Kind {
	case NestThread, NestTeamVector:
		if in != "" {
			v.errf("a %s scan inside a %s range: every thread of the team must reach it", s.Kind, in)
		}
	case NestVector:
		if in != "" && in != NestThread {
			v.errf("a vector scan inside a %s range", in)
		}
	default:
		v.errf("a nested scan of kind %q", s.Kind)
	}
	if !reducerFits(s.Join, s.T) {
		v.errf("a nested scan by %s of a %s", s.Join, s.T)
	}
	v.exprOf(s.Begin, Int)
	v.exprOf(s.End, Int)
	// The body sees the locals around it as copies: read-only.
	seen := map[string]bool{}
	shadow := map[string]*binding{}
	for n := len(v.scopes) - 1; n >= 0; n-- {
		for name, b := range v.scopes[n] {
			if !seen[name] {
				seen[name] = true
				c := *b
				c.readOnly = true
				shadow[name] = &c
			}
		}
	}
	v.scopes = append(v.scopes, shadow)
	v.push()
	v.declare(s.Key, Int, true)
	v.declare(s.Acc, s.T, false)
	v.declare(s.Final, Bool, true)
	loops, breaks := v.loops, v.breaks
	v.loops, v.breaks = 1, 0
	v.nested = append(v.nested, s.Kind)
	v.block(s.Body)
	v.nested = v.nested[:len(v.nested)-1]
	v.loops, v.breaks = loops, breaks
	v.pop()
	v.pop()
	switch t := &s.Total; t.Kind {
	case TargetNew:
		if t.T != s.T {
			v.errf("new variable %s of type %s given a %s", t.Name, t.T, s.T)
		}
		v.declare(t.Name, t.T, false)
	case TargetVar, TargetAcc, TargetBlank:
		v.target(t)
		if t.Kind != TargetBlank && t.T != s.T {
			v.errf("an assignment of a %s to a %s", s.T, t.T)
		}
	default:
		v.errf("the total of a nested scan stored to other than a variable or *acc")
	}
}

// nestedScan runs a nested scan on the calling thread of its team. The
// team's threads take contiguous shares of a thread or teamvector range
// in rank order: each joins its share's contributions, a team scan of
// those gives each the join of the shares before its own, then each runs
// its share again with final true. A vector range runs on the thread's
// one lane, once per index, with final true.
func (x *exec) nestedScan(s *NestedScan) {
	b := int64(x.expr(s.Begin))
	e := int64(x.expr(s.End))
	id := reduceIdentity(s.Join, s.T)
	var total uint64
	if s.Kind == NestVector {
		acc := id
		for i := b; i < e; i++ {
			acc = x.scanBody(s, i, acc, true)
		}
		total = acc
	} else {
		size := int64(x.tm.t.run.Size)
		lo, hi := b, e
		if n := e - b; n > 0 {
			chunk := (n + size - 1) / size
			r := int64(x.tm.rank)
			lo, hi = min(e, b+r*chunk), min(e, b+(r+1)*chunk)
		}
		part := id
		for i := lo; i < hi; i++ {
			part = x.scanBody(s, i, part, false)
		}
		res := x.tm.sync(&Collective{Op: CollScan, Join: s.Join, T: s.T}, part, 0)
		acc := res[0]
		for i := lo; i < hi; i++ {
			acc = x.scanBody(s, i, acc, true)
		}
		total = res[1]
	}
	switch t := &s.Total; t.Kind {
	case TargetNew:
		x.env.declare(t.Name, total)
	case TargetBlank:
	default:
		x.store(t, 0, total)
	}
}

// scanBody runs the body of nested scan s for index i with the
// accumulator acc, and returns the accumulator after it.
func (x *exec) scanBody(s *NestedScan, i int64, acc uint64, final bool) uint64 {
	x.env.push()
	defer x.env.pop()
	x.env.declare(s.Key, uint64(i))
	x.env.declare(s.Acc, acc)
	x.env.declare(s.Final, b2u(final))
	x.stmts(s.Body)
	if s.Acc == "_" {
		return acc
	}
	return *x.env.slot(s.Acc)
}
