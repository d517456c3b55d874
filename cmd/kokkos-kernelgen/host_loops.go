package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Checks proved once for a loop. A view access inside a loop of the body
// whose indices are affine in the variables of the loops around it, with
// loop-invariant bounds, stays within a box that one test before the loop
// checks against the view's extents; the loop then runs in a copy whose
// accesses are plain loads and stores, and in its original form, checked,
// when the test fails:
//
//	if <test> { <the loop, unchecked> } else { <the loop> }
//
// A loop's range is known when it is for k := range n, or for k := a; k <
// b (or k <= b); k++ (or k += c, c a positive constant), of an int k that
// its body does not assign, and its bounds are linear in invariant terms:
// constants, v.Extent(d), int variables declared outside the loop that it
// does not assign (parameters, indices, locals), and the variables of
// enclosing loops whose ranges are known. A test goes on the outermost
// loop at which the access's terms are invariant, so that nested loops
// are checked once for the whole nest.

// A term of a linear form: an int variable, or the extent of a view's
// dimension.
type term struct {
	v    *types.Var
	ext  *param
	dim  int
	team string // a team kernel's t.LeagueRank() ..., as written (host_team_loops.go)
}

// lin is a linear form: the sum of its terms times their coefficients,
// plus c.
type lin struct {
	t map[term]int64
	c int64
}

func (f lin) add(g lin, m int64) lin {
	out := lin{t: map[term]int64{}, c: f.c + m*g.c}
	for t, c := range f.t {
		out.t[t] += c
	}
	for t, c := range g.t {
		out.t[t] += m * c
	}
	for t, c := range out.t {
		if c == 0 {
			delete(out.t, t)
		}
	}
	return out
}

// The limits that keep the tests free of overflow: each term's value is
// tested to lie within ±2^40, and a form has at most maxTerms terms, of
// coefficients within ±2^16 and a constant within ±2^40, so its value
// stays well within an int64.
const (
	maxTerms = 16
	maxCoef  = 1 << 16
	maxConst = 1 << 40
)

func (f lin) small() bool {
	if len(f.t) > maxTerms || f.c > maxConst || f.c < -maxConst {
		return false
	}
	for _, c := range f.t {
		if c > maxCoef || c < -maxCoef {
			return false
		}
	}
	return true
}

// linearOf returns e as a linear form, if it is one.
func (p *pkgInfo) linearOf(k *kernelFunc, e ast.Expr) (lin, bool) {
	e = ast.Unparen(e)
	if c, ok := p.intConst(e); ok {
		return lin{c: c}, true
	}
	if tv, ok := p.info.Types[e]; !ok || !types.Identical(tv.Type, types.Typ[types.Int]) {
		return lin{}, false
	}
	switch e := e.(type) {
	case *ast.Ident:
		if v, ok := p.info.Uses[e].(*types.Var); ok && !v.IsField() {
			return lin{t: map[term]int64{{v: v}: 1}}, true
		}
	case *ast.UnaryExpr:
		if x, ok := p.linearOf(k, e.X); ok {
			switch e.Op {
			case token.ADD:
				return x, true
			case token.SUB:
				return lin{}.add(x, -1), true
			}
		}
	case *ast.BinaryExpr:
		x, okx := p.linearOf(k, e.X)
		y, oky := p.linearOf(k, e.Y)
		if !okx || !oky {
			break
		}
		switch e.Op {
		case token.ADD:
			return x.add(y, 1), true
		case token.SUB:
			return x.add(y, -1), true
		case token.MUL:
			if len(x.t) == 0 && x.c <= maxCoef && x.c >= -maxCoef {
				return lin{}.add(y, x.c), true
			}
			if len(y.t) == 0 && y.c <= maxCoef && y.c >= -maxCoef {
				return lin{}.add(x, y.c), true
			}
		}
	case *ast.CallExpr:
		if text, ok := p.teamTerm(k, e); ok {
			return lin{t: map[term]int64{{team: text}: 1}}, true
		}
		if pr, m, ok := p.isViewMethod(k, e); ok && m == "Extent" {
			if d, ok := p.intConst(e.Args[0]); ok && d >= 0 && int(d) < pr.rank {
				return lin{t: map[term]int64{{ext: pr, dim: int(d)}: 1}}, true
			}
		}
	}
	return lin{}, false
}

// loopInfo is a loop of the body (a for or range statement).
type loopInfo struct {
	stmt   ast.Stmt
	v      *types.Var // the variable of a loop whose range is known, or nil
	lo, hi lin        // its least and greatest value (inclusive)
}

// loopAccess is a view access (At, Set, Ptr) of the body.
type loopAccess struct {
	call  *ast.CallExpr
	v     *param
	idx   []lin     // nil when an index is not linear
	inner *loopInfo // the innermost loop around it whose variable its indices use
}

// loopAnalysis is what the body's loops allow to check once.
type loopAnalysis struct {
	p        *pkgInfo
	k        *kernelFunc
	loops    map[ast.Node]*loopInfo
	byVar    map[*types.Var]*loopInfo
	accesses []*loopAccess
	assigned map[*types.Var][]token.Pos // where each variable is assigned
}

// analyzeLoops finds the loops and accesses of k's body.
func (p *pkgInfo) analyzeLoops(k *kernelFunc) *loopAnalysis {
	la := &loopAnalysis{p: p, k: k, loops: map[ast.Node]*loopInfo{}, byVar: map[*types.Var]*loopInfo{}, assigned: map[*types.Var][]token.Pos{}}
	assign := func(e ast.Expr, pos token.Pos) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := p.info.Uses[id].(*types.Var); ok {
				la.assigned[v] = append(la.assigned[v], pos)
			}
		}
	}
	ast.Inspect(k.decl.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				assign(l, n.Pos())
			}
		case *ast.IncDecStmt:
			assign(n.X, n.Pos())
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				assign(n.X, n.Pos())
			}
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						assign(e, n.Pos())
					}
				}
			}
			la.loops[n] = la.rangeLoop(n)
		case *ast.ForStmt:
			la.loops[n] = la.forLoop(n)
		case *ast.CallExpr:
			pr, m, ok := p.isViewMethod(k, n)
			if !ok || m != "At" && m != "Set" && m != "Ptr" {
				break
			}
			a := &loopAccess{call: n, v: pr}
			nidx := len(n.Args)
			if m == "Set" {
				nidx--
			}
			for _, e := range n.Args[:nidx] {
				f, ok := p.linearOf(k, e)
				if !ok {
					a.idx = nil
					break
				}
				a.idx = append(a.idx, f)
			}
			la.accesses = append(la.accesses, a)
		}
		return true
	})
	// A loop's variable must not be assigned in its body.
	for _, l := range la.loops {
		if l.v != nil {
			body := loopBody(l.stmt)
			if la.assignedIn(l.v, body.Pos(), body.End()) {
				l.v = nil
				continue
			}
			la.byVar[l.v] = l
		}
	}
	for _, a := range la.accesses {
		for _, f := range a.idx {
			for t := range f.t {
				l := la.byVar[t.v]
				if t.v != nil && l != nil && within(a.call, loopBody(l.stmt)) && (a.inner == nil || l.stmt.Pos() > a.inner.stmt.Pos()) {
					a.inner = l
				}
			}
		}
	}
	return la
}

func loopBody(s ast.Stmt) *ast.BlockStmt {
	if f, ok := s.(*ast.ForStmt); ok {
		return f.Body
	}
	return s.(*ast.RangeStmt).Body
}

// isInt reports whether v is a variable of type int.
func isIntVar(v *types.Var) bool {
	return v != nil && types.Identical(v.Type(), types.Typ[types.Int])
}

// rangeLoop returns the loop for k := range n.
func (la *loopAnalysis) rangeLoop(n *ast.RangeStmt) *loopInfo {
	l := &loopInfo{stmt: n}
	id, ok := n.Key.(*ast.Ident)
	if !ok || n.Tok != token.DEFINE || n.Value != nil {
		return l
	}
	v, _ := la.p.info.Defs[id].(*types.Var)
	if _, ok := la.k.nested[n]; ok {
		return la.nestedLoop(n, v) // host_team_loops.go
	}
	hi, ok := la.p.linearOf(la.k, n.X)
	if !isIntVar(v) || !ok {
		return l
	}
	l.v, l.lo, l.hi = v, lin{}, hi.add(lin{c: 1}, -1)
	return l
}

// forLoop returns the loop for k := a; k < b; k++ (or k <= b, k += c).
func (la *loopAnalysis) forLoop(n *ast.ForStmt) *loopInfo {
	l := &loopInfo{stmt: n}
	init, ok := n.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return l
	}
	id, _ := init.Lhs[0].(*ast.Ident)
	if id == nil {
		return l
	}
	v, _ := la.p.info.Defs[id].(*types.Var)
	lo, ok := la.p.linearOf(la.k, init.Rhs[0])
	if !isIntVar(v) || !ok {
		return l
	}
	cond, ok := n.Cond.(*ast.BinaryExpr)
	if !ok || (cond.Op != token.LSS && cond.Op != token.LEQ) {
		return l
	}
	if x, ok := ast.Unparen(cond.X).(*ast.Ident); !ok || la.p.info.Uses[x] != v {
		return l
	}
	hi, ok := la.p.linearOf(la.k, cond.Y)
	if !ok {
		return l
	}
	if cond.Op == token.LSS {
		hi = hi.add(lin{c: 1}, -1)
	}
	switch post := n.Post.(type) {
	case *ast.IncDecStmt:
		if post.Tok != token.INC {
			return l
		}
		if x, ok := ast.Unparen(post.X).(*ast.Ident); !ok || la.p.info.Uses[x] != v {
			return l
		}
	case *ast.AssignStmt:
		if post.Tok != token.ADD_ASSIGN || len(post.Lhs) != 1 {
			return l
		}
		if x, ok := ast.Unparen(post.Lhs[0]).(*ast.Ident); !ok || la.p.info.Uses[x] != v {
			return l
		}
		if c, ok := la.p.intConst(post.Rhs[0]); !ok || c <= 0 {
			return l
		}
	default:
		return l
	}
	l.v, l.lo, l.hi = v, lo, hi
	return l
}

// assignedIn reports whether v is assigned in [pos, end).
func (la *loopAnalysis) assignedIn(v *types.Var, pos, end token.Pos) bool {
	for _, at := range la.assigned[v] {
		if at >= pos && at < end {
			return true
		}
	}
	return false
}

func within(n ast.Node, in ast.Node) bool { return n.Pos() >= in.Pos() && n.End() <= in.End() }

// bound returns the least (or, with max, the greatest) value of f over
// the iterations of loop L, as a linear form of terms invariant in L, or
// false when f has a term that L changes.
func (la *loopAnalysis) bound(f lin, L ast.Stmt, max bool, depth int) (lin, bool) {
	if depth > 8 {
		return lin{}, false
	}
	out := lin{c: f.c}
	for t, c := range f.t {
		if t.v != nil {
			if l := la.byVar[t.v]; l != nil && within(l.stmt, L) {
				sub := l.lo
				if (c > 0) == max {
					sub = l.hi
				}
				b, ok := la.bound(sub, L, (c > 0) == max, depth+1)
				if !ok {
					return lin{}, false
				}
				out = out.add(b, c)
				continue
			}
			if !la.invariant(t.v, L) {
				return lin{}, false
			}
		}
		out = out.add(lin{t: map[term]int64{t: 1}}, c)
	}
	if !out.small() {
		return lin{}, false
	}
	return out, true
}

// invariant reports whether v, declared outside L, keeps its value in L
// and can be named at L's start.
func (la *loopAnalysis) invariant(v *types.Var, L ast.Stmt) bool {
	if v.Pos() >= L.Pos() && v.Pos() < L.End() || la.assignedIn(v, L.Pos(), L.End()) {
		return false
	}
	sc := la.p.pkg.Scope().Innermost(L.Pos())
	if sc == nil {
		return false
	}
	_, obj := sc.LookupParent(v.Name(), L.Pos())
	return obj == v
}

// box is the range of an access's indices over a loop: per dimension,
// the least and greatest index.
type box struct {
	a      *loopAccess
	lo, hi []lin
}

// boxAt returns the box of a over the iterations of L, if its indices are
// linear in terms invariant in L and the variables of loops in L.
func (la *loopAnalysis) boxAt(a *loopAccess, L ast.Stmt) (box, bool) {
	if a.idx == nil {
		return box{}, false
	}
	b := box{a: a}
	for _, f := range a.idx {
		lo, ok1 := la.bound(f, L, false, 0)
		hi, ok2 := la.bound(f, L, true, 0)
		if !ok1 || !ok2 {
			return box{}, false
		}
		b.lo, b.hi = append(b.lo, lo), append(b.hi, hi)
	}
	return b, true
}

// loopTest returns the accesses inside loop L, among those not yet
// covered, that a test before L can check, and that test, or "" when
// there are none.
func (la *loopAnalysis) loopTest(L ast.Stmt, covered map[*ast.CallExpr]bool, index func(*types.Var) string) (string, []*ast.CallExpr) {
	var conds []string
	var calls []*ast.CallExpr
	terms := map[string]bool{}
	for _, a := range la.accesses {
		if covered[a.call] || !within(a.call, loopBody(L)) {
			continue
		}
		b, ok := la.boxAt(a, L)
		if !ok {
			continue
		}
		var cs []string
		never := false
		for d := range b.lo {
			// lo >= 0 and hi - extent < 0, those that hold or fail
			// whatever the terms' values written as such.
			ext := lin{t: map[term]int64{{ext: a.v, dim: d}: 1}}
			over := b.hi[d].add(ext, -1)
			switch {
			case len(b.lo[d].t) == 0 && b.lo[d].c < 0, len(over.t) == 0 && over.c >= 0:
				never = true
			}
			if len(b.lo[d].t) > 0 {
				cs = append(cs, linText(b.lo[d], index, terms)+" >= 0")
			}
			if len(over.t) > 0 {
				cs = append(cs, linText(b.hi[d], index, terms)+" < "+linText(ext, index, terms))
			}
		}
		if never {
			continue
		}
		calls = append(calls, a.call)
		conds = append(conds, cs...)
	}
	if len(calls) == 0 {
		return "", nil
	}
	// Each term within ±2^40, so that no sum overflows.
	for t := range terms {
		conds = append(conds, fmt.Sprintf("uint(%s+1<<40) <= 1<<41", t))
	}
	if len(conds) == 0 {
		conds = append(conds, "true")
	}
	sort.Strings(conds)
	return strings.Join(slices.Compact(conds), " && "), calls
}

// linText writes f as Go, naming its terms in terms.
func linText(f lin, index func(*types.Var) string, terms map[string]bool) string {
	var parts []string
	for t, c := range f.t {
		name := ""
		if t.ext != nil {
			name = fmt.Sprintf("%s.Extent(%d)", t.ext.name, t.dim)
		} else if t.team != "" {
			name = t.team
		} else {
			name = index(t.v)
		}
		terms[name] = true
		switch c {
		case 1:
			parts = append(parts, "+"+name)
		case -1:
			parts = append(parts, "-"+name)
		default:
			parts = append(parts, fmt.Sprintf("%+d*%s", c, name))
		}
	}
	sort.Strings(parts)
	if f.c != 0 || len(parts) == 0 {
		parts = append(parts, fmt.Sprintf("%+d", f.c))
	}
	s := strings.Join(parts, "")
	return strings.TrimPrefix(s, "+")
}

// The copies of a loop whose test passed address each access as the
// base of its view plus an offset: the part that the innermost loop
// around it changes, its variable times the strides, and the rest,
// computed before that loop (an int, not a pointer, since the loop may
// not run). Where the test is first written, a third copy takes the
// strides that the loops' variables multiply to be the element's size,
// as they are in the dimension a view is laid out along, so that the
// address is a multiplication by a constant, as over a slice.

// The modes of a copy of a loop.
const (
	modeAny     = iota // no copy chosen yet: a test writes the three
	modeUnit           // the strides of the loops' variables are the element's size
	modeGeneric        // any strides
)

// loopRender is what a bodyRender keeps of the loops.
type loopRender struct {
	mode      int
	folds     map[string]bool          // in modeUnit: the strides taken as sizes, as conditions
	nQ        int                      // the offsets declared so far
	offsets   map[*ast.CallExpr]string // the access → its offset's variable ("": none), in the loop around it
	rootDecls []string                 // the offsets to declare before the copy render returned
}

// testLoop returns loop, written as its copies behind its test, if a test
// before it can check accesses not yet covered.
func (r *bodyRender) testLoop(loop ast.Stmt, covered map[*ast.CallExpr]bool) (string, bool) {
	test, calls := r.c.loops.loopTest(loop, covered, func(v *types.Var) string { return v.Name() })
	if test == "" {
		return "", false
	}
	inner := maps.Clone(covered)
	for _, call := range calls {
		inner[call] = true
	}
	copyOf := func(cov map[*ast.CallExpr]bool, mode int) string {
		saved := r.mode
		r.mode = mode
		text := r.render(loop, loop.Pos(), loop.End(), cov)
		r.mode = saved
		pre := ""
		if len(r.rootDecls) > 0 {
			pre = strings.Join(r.rootDecls, "\n") + "\n"
		}
		return pre + r.lineAt(loop.Pos()) + text
	}
	checked := copyOf(covered, r.mode)
	var b strings.Builder
	if r.mode == modeAny {
		saved := r.folds
		r.folds = map[string]bool{}
		unit := copyOf(inner, modeUnit)
		folds := r.folds
		r.folds = saved
		generic := copyOf(inner, modeGeneric)
		if len(folds) > 0 {
			generic = fmt.Sprintf("if %s {\n%s\n} else {\n%s\n}", strings.Join(slices.Sorted(maps.Keys(folds)), " && "), unit, generic)
		}
		fmt.Fprintf(&b, "if %s {\n%s\n} else {\n%s\n}", test, generic, checked)
	} else {
		fmt.Fprintf(&b, "if %s {\n%s\n} else {\n%s\n}", test, copyOf(inner, r.mode), checked)
	}
	return b.String() + r.lineAt(loop.End()), true
}

// splitLoop returns loop, in a copy whose accesses are unchecked (a
// nocheck kernel's), written as the copy for unit strides and the one for
// any strides, if the first has any.
func (r *bodyRender) splitLoop(loop ast.Stmt) (string, bool) {
	if r.mode != modeAny {
		return "", false
	}
	copyOf := func(mode int) string {
		r.mode = mode
		text := r.render(loop, loop.Pos(), loop.End(), nil)
		r.mode = modeAny
		pre := ""
		if len(r.rootDecls) > 0 {
			pre = strings.Join(r.rootDecls, "\n") + "\n"
		}
		return pre + r.lineAt(loop.Pos()) + text
	}
	saved := r.folds
	r.folds = map[string]bool{}
	unit := copyOf(modeUnit)
	folds := r.folds
	r.folds = saved
	if len(folds) == 0 {
		return "", false
	}
	return fmt.Sprintf("if %s {\n%s\n} else {\n%s\n}", strings.Join(slices.Sorted(maps.Keys(folds)), " && "), unit, copyOf(modeGeneric)) + r.lineAt(loop.End()), true
}

// hoist returns the declarations of the offsets of the covered accesses
// whose innermost loop is loop, to write before it, and what undoes their
// record once the loop is written.
func (r *bodyRender) hoist(loop ast.Stmt, covered map[*ast.CallExpr]bool) ([]string, func()) {
	la := r.c.loops
	l := la.loops[loop]
	if l == nil || l.v == nil {
		return nil, nil
	}
	if r.offsets == nil {
		r.offsets = map[*ast.CallExpr]string{}
	}
	var decls []string
	var set []*ast.CallExpr
	seen := map[string]string{} // an offset's text → its variable
	for _, a := range la.accesses {
		if a.inner != l || !r.c.all && !covered[a.call] {
			continue
		}
		var parts []string
		for d, f := range a.idx {
			rest := f.add(lin{t: map[term]int64{{v: l.v}: f.t[term{v: l.v}]}}, -1)
			if len(rest.t) == 0 && rest.c == 0 {
				continue
			}
			stride := r.strideText(fmt.Sprintf("gkS_%s_%d", a.v.name, d))
			parts = append(parts, fmt.Sprintf("(%s)*%s", linText(rest, func(v *types.Var) string { return v.Name() }, map[string]bool{}), stride))
		}
		name := ""
		if text := strings.Join(parts, "+"); text != "" {
			if name = seen[text]; name == "" {
				name = fmt.Sprintf("gkQ%d", r.nQ)
				r.nQ++
				seen[text] = name
				decls = append(decls, name+" := "+text)
			}
		}
		r.offsets[a.call] = name
		set = append(set, a.call)
	}
	if len(set) == 0 {
		return nil, nil
	}
	return decls, func() {
		for _, c := range set {
			delete(r.offsets, c)
		}
	}
}

// hoisted returns the edits that make the access n (method m of view pr)
// a load or store at its offset, if the loop around it declared one.
func (r *bodyRender) hoisted(n *ast.CallExpr, pr *param, m string) ([]edit, bool) {
	off, ok := r.offsets[n]
	if !ok {
		return nil, false
	}
	a := r.c.loops.byCall(n)
	v := a.inner.v
	var terms []string
	var total int64
	for d, f := range a.idx {
		c := f.t[term{v: v}]
		if c == 0 {
			continue
		}
		stride := fmt.Sprintf("gkS_%s_%d", pr.name, d)
		if r.c.rows != nil && r.c.rows.consts != nil {
			if v, ok := r.c.rows.consts[stride]; ok {
				// Folded by the chunk's copy: a constant already.
				total += c * v
				terms = append(terms, fmt.Sprintf("%d", c*v))
				continue
			}
		}
		r.c.used[stride] = true
		if r.mode == modeUnit {
			size := sizes.Sizeof(pr.elem)
			r.folds[fmt.Sprintf("%s == %d", stride, size)] = true
			total += c * size
			continue
		}
		switch c {
		case 1:
			terms = append(terms, stride)
		case -1:
			terms = append(terms, "-"+stride)
		default:
			terms = append(terms, fmt.Sprintf("%d*%s", c, stride))
		}
	}
	addr := fmt.Sprintf("%s*%d", v.Name(), total)
	if r.mode != modeUnit {
		addr = fmt.Sprintf("%s*(%s)", v.Name(), strings.Join(terms, "+"))
	}
	if off != "" {
		addr = off + "+" + addr
	}
	base := "gkP_" + pr.name
	r.c.used[base] = true
	ptr := fmt.Sprintf("(*%s)(%s.Add(%s, %s))", types.TypeString(pr.elem, r.q), r.im.name("unsafe"), base, addr)
	switch m {
	case "At":
		return []edit{{pos: n.Pos(), end: n.End(), text: "(*" + ptr + ")"}}, true
	case "Ptr":
		return []edit{{pos: n.Pos(), end: n.End(), text: ptr}}, true
	}
	x := n.Args[len(n.Args)-1]
	return []edit{{pos: n.Pos(), end: x.Pos(), text: "*" + ptr + " = ("}, {pos: x.End(), end: n.End(), text: ")"}}, true
}

// byCall returns the access of call.
func (la *loopAnalysis) byCall(call *ast.CallExpr) *loopAccess {
	for _, a := range la.accesses {
		if a.call == call {
			return a
		}
	}
	return nil
}
