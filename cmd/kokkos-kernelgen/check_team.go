package main

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// Team kernels: the shape (classifyTeam) and the forms of their bodies
// that the checker accepts, in team kernels only:
//
//   - the Team's methods LeagueRank, LeagueSize, TeamRank, TeamSize,
//     TeamBarrier, SinglePerTeam and SinglePerThread;
//   - for j := range t.TeamThreadRange(b, e) (and ThreadVectorRange,
//     TeamVectorRange) loops, whose bodies may continue but not break out
//     of the loop or return; a ThreadVectorRange may be nested in a team
//     range, no range in a vector range;
//   - kernel.TeamReduce, VectorReduce and TeamScan with a reducer written
//     in place (kokkos.Sum[T](), Prod, Min, Max, LAnd, LOr, BAnd, BOr),
//     and kernel.TeamBroadcast, called outside the loops over ranges that
//     split the work among the team (or, for VectorReduce, its lanes);
//   - scratch views, s := kokkos.ScratchViewN[T](t.TeamScratch(level),
//     extents...) (or t.ThreadScratch) at the body's top level, rank 1 to
//     6, level a constant 0 or 1, then used as view parameters are.
//
// The Team value never leaves the kernel: it is not assigned, copied or
// passed to helpers.

// teamFuncs are package kernel's collectives a team kernel calls.
var teamFuncs = map[string]bool{"TeamReduce": true, "VectorReduce": true, "TeamScan": true, "TeamBroadcast": true}

// teamReducers are the reducers of package kokkos a collective takes.
var teamReducers = map[string]bool{"Sum": true, "Prod": true, "Min": true, "Max": true, "LAnd": true, "LOr": true, "BAnd": true, "BOr": true}

// nestedRanges are the Team's methods a team kernel ranges over: whether
// each splits the range among the team's threads, and among vector lanes.
var nestedRanges = map[string]struct{ team, vector bool }{
	"TeamThreadRange":   {team: true},
	"ThreadVectorRange": {vector: true},
	"TeamVectorRange":   {team: true, vector: true},
}

// teamCheck is the checker's state in a team kernel's body.
type teamCheck struct {
	ranges []string           // the nested ranges the statement being checked is in, outermost first
	keys   map[*types.Var]int // the nested ranges' indices
	scan   *nestedScan        // the nested scan whose body is being checked (check_scan.go)
}

// isTeamType reports whether t is kernel.Team.
func isTeamType(t types.Type) bool {
	return isNamedType(t, kernelPath, "Team")
}

// classifyTeam works out the shape of a team kernel k of signature sig:
// func K(t kernel.Team, views and scalars..., [acc *T]).
func (p *pkgInfo) classifyTeam(k *kernelFunc, sig *types.Signature) (*kernelFunc, error) {
	name := k.name
	ps := sig.Params()
	if sig.Results().Len() > 0 {
		return nil, p.errorf(k.decl.Pos(), name, "a team kernel has no results (a helper takes no kernel.Team)")
	}
	k.team = ps.At(0)
	rest := ps.Len()
	if rest >= 3 && types.Identical(ps.At(rest-1).Type(), types.Typ[types.Bool]) {
		if _, ok := ps.At(rest - 2).Type().(*types.Pointer); ok {
			return nil, p.errorf(ps.At(rest-2).Pos(), name, "a team kernel cannot be a scan (acc *T, final bool): Kokkos has no parallel_scan over a TeamPolicy; use kernel.TeamScan in the body")
		}
	}
	if rest > 1 {
		if ptr, ok := ps.At(rest - 1).Type().(*types.Pointer); ok {
			b, ok := scalarType(ptr.Elem())
			if !ok {
				return nil, p.errorf(ps.At(rest-1).Pos(), name, "accumulator %s has type %s; it must point to a number or a bool", ps.At(rest-1).Name(), ptr)
			}
			if ps.At(rest-1).Name() == "_" {
				return nil, p.errorf(ps.At(rest-1).Pos(), name, "the accumulator needs a name")
			}
			k.pattern, k.acc, k.accElem = patReduce, ps.At(rest-1), b
			rest--
		}
	}
	for i := 1; i < rest; i++ {
		v := ps.At(i)
		if isTeamType(v.Type()) {
			return nil, p.errorf(v.Pos(), name, "parameter %s: a team kernel takes one kernel.Team, its first parameter", v.Name())
		}
		if rank, elem, ok := viewType(v.Type()); ok {
			k.params = append(k.params, &param{v: v, name: v.Name(), rank: rank, elem: elem})
			continue
		}
		if b, ok := scalarType(v.Type()); ok {
			k.params = append(k.params, &param{v: v, name: v.Name(), elem: b})
			continue
		}
		return nil, p.errorf(v.Pos(), name, "parameter %s has type %s; a team kernel takes a kernel.Team, then views (kokkos.View1 to View6 of fixed-size numbers) and scalars (numbers, bool), then acc *T for a reduction", v.Name(), v.Type())
	}
	k.nested = map[*ast.RangeStmt]string{}
	return k, nil
}

// isTeam reports whether id names the Team of the kernel being checked.
func (c *checker) isTeam(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && c.k.team != nil && c.p.info.Uses[id] == c.k.team
}

// teamMethod returns M when call is t.M(...) on the kernel's Team.
func (c *checker) teamMethod(call *ast.CallExpr) (string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || !c.isTeam(sel.X) {
		return "", false
	}
	return sel.Sel.Name, true
}

// funcOf returns the package-level function that fun names, with or
// without type arguments (kokkos.Sum[float64]), or nil.
func (c *checker) funcOf(fun ast.Expr) *types.Func {
	fun = ast.Unparen(fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	var id *ast.Ident
	switch f := fun.(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		if !ok {
			return nil
		}
		if _, isPkg := c.p.info.Uses[x].(*types.PkgName); !isPkg {
			return nil
		}
		id = f.Sel
	default:
		return nil
	}
	fn, _ := c.p.info.Uses[id].(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Type().(*types.Signature).Recv() != nil {
		return nil
	}
	return fn
}

// scratchFunc returns the rank N of kokkos.ScratchViewN, or 0.
func scratchFunc(fn *types.Func) int {
	if fn == nil || fn.Pkg().Path() != kokkosPath || !strings.HasPrefix(fn.Name(), "ScratchView") {
		return 0
	}
	n := strings.TrimPrefix(fn.Name(), "ScratchView")
	if len(n) != 1 || n[0] < '1' || n[0] > '9' {
		return 0
	}
	return int(n[0] - '0')
}

// inTeamRange reports whether the statement being checked is in a loop
// over a range split among the team's threads.
func (c *checker) inTeamRange() bool {
	return slices.ContainsFunc(c.team.ranges, func(r string) bool { return nestedRanges[r].team })
}

// inVectorRange reports whether it is in a loop over a range split among
// vector lanes.
func (c *checker) inVectorRange() bool {
	return slices.ContainsFunc(c.team.ranges, func(r string) bool { return nestedRanges[r].vector })
}

// teamIdent checks a use of the variable v as a value: the Team and
// scratch views have none. It reports whether it checked v.
func (c *checker) teamIdent(x *ast.Ident, v *types.Var) bool {
	if c.scanIdent(x, v) {
		return true
	}
	if c.k.team != nil && v == c.k.team {
		c.refuse(x.Pos(), "the Team "+v.Name()+" as a value", "call its methods in the kernel; it cannot be copied or passed to a helper")
		return true
	}
	for _, sv := range c.k.scratch {
		if sv.v == v {
			c.refuse(x.Pos(), "the scratch view "+v.Name()+" as a value", "call its At, Set, Ptr or Extent")
			return true
		}
	}
	return false
}

// teamLvalue checks an assignment to v: to the Team, a scratch view or a
// nested range's index. It reports whether it refused it.
func (c *checker) teamLvalue(x *ast.Ident, v *types.Var) bool {
	if c.scanLvalue(x, v) {
		return true
	}
	switch {
	case c.k.team != nil && v == c.k.team:
		c.refuse(x.Pos(), "an assignment to the Team "+v.Name(), "a team kernel has one Team, its parameter")
	case c.team.keys[v] > 0:
		c.refuse(x.Pos(), "an assignment to "+v.Name()+", the index of a nested range", "copy it to a local")
	default:
		for _, sv := range c.k.scratch {
			if sv.v == v {
				c.refuse(x.Pos(), "an assignment to scratch view "+v.Name(), "write its elements with "+v.Name()+".Set, or declare another scratch view")
				return true
			}
		}
		return false
	}
	return true
}

// teamCall checks a call of the Team's methods, of package kernel's
// collectives, of kokkos.ScratchViewN and of the reducers outside a
// collective. It reports whether it checked x.
func (c *checker) teamCall(x *ast.CallExpr) bool {
	if m, ok := c.teamMethod(x); ok {
		c.teamMethodCall(x, m)
		return true
	}
	fn := c.funcOf(x.Fun)
	if fn == nil {
		return false
	}
	switch path, name := fn.Pkg().Path(), fn.Name(); {
	case path == kernelPath && teamFuncs[name]:
		if c.k.team == nil {
			c.refuse(x.Pos(), "kernel."+name+" in a kernel without a kernel.Team", "write a team kernel: func K(t kernel.Team, ...)")
			return true
		}
		c.collective(x, name)
	case path == kernelPath && scanFuncs[name] != "":
		if c.k.team == nil {
			c.refuse(x.Pos(), "kernel."+name+" in a kernel without a kernel.Team", "write a team kernel: func K(t kernel.Team, ...)")
			return true
		}
		c.refuse(x.Pos(), "kernel."+name+" inside an expression", "call it as a statement, or assign its total: x := kernel."+name+"(...)")
	case path == kokkosPath && scratchFunc(fn) > 0:
		if c.k.team == nil {
			c.refuse(x.Pos(), "a scratch view in a kernel without a kernel.Team", "write a team kernel: func K(t kernel.Team, ...)")
		} else {
			c.refuse(x.Pos(), "a scratch view outside a declaration s := kokkos."+name+"[T](t.TeamScratch(level), extents...)", "declare it on its own, at the top of the kernel's body")
		}
	case path == kokkosPath && teamReducers[name]:
		c.refuse(x.Pos(), "the reducer "+types.ExprString(x)+" outside a team collective", "pass it, written in place, to kernel.TeamReduce, VectorReduce or TeamScan")
	default:
		return false
	}
	return true
}

// teamMethodCall checks t.m(...), a call of the Team's method m.
func (c *checker) teamMethodCall(x *ast.CallExpr, m string) {
	t := c.k.team.Name()
	switch m {
	case "LeagueRank", "LeagueSize", "TeamRank", "TeamSize", "SinglePerTeam", "SinglePerThread":
	case "TeamBarrier":
		if c.inTeamRange() {
			c.refuse(x.Pos(), t+".TeamBarrier() inside a loop over a team range", "every thread of the team must call it as often: call it after the loop")
		}
	case "TeamScratch", "ThreadScratch":
		c.refuse(x.Pos(), t+"."+m+" outside a scratch view declaration", "declare s := kokkos.ScratchView1[T]("+t+"."+m+"(0), n)")
	case "TeamThreadRange", "ThreadVectorRange", "TeamVectorRange":
		c.refuse(x.Pos(), t+"."+m+" outside a range loop", "loop over it: for j := range "+t+"."+m+"(b, e)")
	default:
		c.refuse(x.Pos(), "a call of "+types.ExprString(x.Fun), "call the Team's methods: LeagueRank, LeagueSize, TeamRank, TeamSize, TeamBarrier, SinglePerTeam, SinglePerThread")
	}
}

// collective checks a call of package kernel's collective name:
// TeamReduce(t, r, v), VectorReduce(t, r, v), TeamScan(t, r, v) or
// TeamBroadcast(t, v, from).
func (c *checker) collective(x *ast.CallExpr, name string) {
	if !c.isTeam(x.Args[0]) {
		c.refuse(x.Args[0].Pos(), "the Team "+types.ExprString(x.Args[0])+" of kernel."+name, "pass the kernel's Team, "+c.k.team.Name())
	}
	switch {
	case name == "VectorReduce" && c.inVectorRange():
		c.refuse(x.Pos(), "kernel.VectorReduce inside a loop over a vector range", "every vector lane must call it: call it after the loop")
	case name != "VectorReduce" && c.inTeamRange():
		c.refuse(x.Pos(), "kernel."+name+" inside a loop over a team range", "every thread of the team must call it as often: call it after the loop")
	}
	// The type the collective computes in.
	var elem types.Type
	switch t := c.p.info.TypeOf(x).(type) {
	case *types.Tuple:
		elem = t.At(0).Type()
	default:
		elem = t
	}
	if _, ok := scalarType(elem); !ok && elem != nil {
		c.refuseType(x.Pos(), elem)
		return
	}
	if name == "TeamBroadcast" {
		c.exprs(x.Args[1:])
		return
	}
	r, ok := ast.Unparen(x.Args[1]).(*ast.CallExpr)
	fn := (*types.Func)(nil)
	if ok {
		fn = c.funcOf(r.Fun)
	}
	if fn == nil || fn.Pkg().Path() != kokkosPath || !teamReducers[fn.Name()] || len(r.Args) > 0 {
		c.refuse(x.Args[1].Pos(), "the reducer "+types.ExprString(x.Args[1])+" of kernel."+name, "write one of kokkos.Sum[T](), Prod, Min, Max, LAnd(), LOr(), BAnd, BOr in place")
	}
	c.expr(x.Args[2])
}

// scratchDecl checks s when it declares a scratch view, and reports
// whether it did: s := kokkos.ScratchViewN[T](t.TeamScratch(level),
// extents...) at the body's top level, level a constant 0 or 1.
func (c *checker) scratchDecl(s *ast.AssignStmt) bool {
	if len(s.Rhs) != 1 {
		return false
	}
	call, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := c.funcOf(call.Fun)
	n := scratchFunc(fn)
	if n == 0 {
		return false
	}
	if c.k.team == nil {
		c.refuse(call.Pos(), "a scratch view in a kernel without a kernel.Team", "write a team kernel: func K(t kernel.Team, ...)")
		return true
	}
	form := "s := kokkos." + fn.Name() + "[T](" + c.k.team.Name() + ".TeamScratch(0), extents...)"
	if s.Tok != token.DEFINE || len(s.Lhs) != 1 {
		c.refuse(s.Pos(), "this scratch view declaration", "declare one view a statement: "+form)
		return true
	}
	id, _ := s.Lhs[0].(*ast.Ident)
	v, _ := c.p.info.Defs[id].(*types.Var)
	if v == nil {
		c.refuse(s.Pos(), "a scratch view not given a new name", "declare it: "+form)
		return true
	}
	if !slices.Contains(c.k.decl.Body.List, ast.Stmt(s)) {
		// Still a view, for the checks of its uses.
		c.refuse(s.Pos(), "a scratch view declared inside a block", "declare scratch views at the top level of the kernel's body")
	}
	rank, elem, ok := viewType(c.p.info.TypeOf(call))
	if !ok {
		c.refuse(call.Pos(), "a scratch view of type "+types.TypeString(c.p.info.TypeOf(call), func(p *types.Package) string { return p.Name() }),
			"use ScratchView1 to ScratchView6 of int8..int64, uint8..uint64, float32 or float64")
		return true
	}
	sv := &scratchView{param: &param{v: v, name: v.Name(), rank: rank, elem: elem}, decl: s, call: call}
	pad, _ := ast.Unparen(call.Args[0]).(*ast.CallExpr)
	m := ""
	if pad != nil {
		m, _ = c.teamMethod(pad)
	}
	switch {
	case m != "TeamScratch" && m != "ThreadScratch":
		c.refuse(call.Args[0].Pos(), "the scratch pad "+types.ExprString(call.Args[0]), "pass "+c.k.team.Name()+".TeamScratch(level) or "+c.k.team.Name()+".ThreadScratch(level)")
		return true
	default:
		sv.thread = m == "ThreadScratch"
		lv := c.p.info.Types[pad.Args[0]].Value
		l, exact := int64(-1), false
		if lv != nil {
			l, exact = constant.Int64Val(constant.ToInt(lv))
		}
		if !exact || l != 0 && l != 1 {
			c.refuse(pad.Args[0].Pos(), "the scratch level "+types.ExprString(pad.Args[0]), "use the constant 0 (fast, small) or 1")
			return true
		}
		sv.level = int(l)
	}
	if call.Ellipsis.IsValid() || len(call.Args) != 1+rank {
		c.refuse(call.Pos(), "the options of a scratch view", "give the pad and the extents only: "+form)
		return true
	}
	sv.extents = call.Args[1:]
	c.exprs(sv.extents)
	c.k.scratch = append(c.k.scratch, sv)
	return true
}

// teamRange checks s when it is a loop over a nested range of the Team,
// and reports whether it was: for j := range t.TeamThreadRange(b, e),
// ThreadVectorRange or TeamVectorRange, whose body continues but does not
// break out of the loop or return.
func (c *checker) teamRange(s *ast.RangeStmt) bool {
	call, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok {
		return false
	}
	m, ok := c.teamMethod(call)
	if !ok {
		return false
	}
	kind, ok := nestedRanges[m]
	if !ok {
		return false
	}
	c.exprs(call.Args)
	if s.Tok == token.ASSIGN {
		c.refuse(s.Pos(), "a range over "+m+" assigning an existing variable", "declare the index: for j := range "+types.ExprString(call))
	}
	switch {
	case kind.team && c.inTeamRange():
		c.refuse(s.Pos(), "a loop over "+m+" inside a loop over a team range", "nest a ThreadVectorRange in a TeamThreadRange")
	case c.inVectorRange():
		c.refuse(s.Pos(), "a loop over "+m+" inside a loop over a vector range", "a vector range is innermost")
	}
	c.k.nested[s] = m
	if id, ok := s.Key.(*ast.Ident); ok && s.Tok == token.DEFINE {
		if v, ok := c.p.info.Defs[id].(*types.Var); ok {
			if c.team.keys == nil {
				c.team.keys = map[*types.Var]int{}
			}
			c.team.keys[v]++
		}
	}
	c.rangeExits(m, s.Body.List, false)
	c.team.ranges = append(c.team.ranges, m)
	c.stmt(s.Body)
	c.team.ranges = c.team.ranges[:len(c.team.ranges)-1]
	return true
}

// rangeExits refuses, in the body of a loop over nested range m, the
// returns and the breaks out of that loop (those not in an inner loop or
// switch, when inner is false). Loops over nested ranges inside are
// checked on their own.
func (c *checker) rangeExits(m string, list []ast.Stmt, inner bool) {
	for _, s := range list {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			c.refuse(s.Pos(), "a return inside a loop over "+m, "the loop runs each thread's share of the range: use continue, or an if around the rest")
		case *ast.BranchStmt:
			if s.Tok == token.BREAK && s.Label == nil && !inner {
				c.refuse(s.Pos(), "a break out of a loop over "+m, "the loop runs each thread's share of the range: use continue, or a flag")
			}
		case *ast.BlockStmt:
			c.rangeExits(m, s.List, inner)
		case *ast.IfStmt:
			c.rangeExits(m, []ast.Stmt{s.Body}, inner)
			if s.Else != nil {
				c.rangeExits(m, []ast.Stmt{s.Else}, inner)
			}
		case *ast.ForStmt:
			c.rangeExits(m, s.Body.List, true)
		case *ast.RangeStmt:
			if call, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
				if n, ok := c.teamMethod(call); ok {
					if _, nested := nestedRanges[n]; nested {
						continue
					}
				}
			}
			c.rangeExits(m, s.Body.List, true)
		case *ast.SwitchStmt:
			for _, cl := range s.Body.List {
				c.rangeExits(m, cl.(*ast.CaseClause).Body, true)
			}
		case *ast.LabeledStmt:
			c.rangeExits(m, []ast.Stmt{s.Stmt}, inner)
		}
	}
}
