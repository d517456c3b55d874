package main

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// This file describes team kernels: a //kokkos:kernel function whose
// first parameter is a kernel.Team, then views and scalars, and acc *T
// last for a reduction. The Go forms of the team's API become the team
// nodes of package kernelir:
//
//	t.LeagueRank(), LeagueSize(), TeamRank(), TeamSize(),
//	SinglePerTeam(), SinglePerThread()            (team Q)
//	t.TeamBarrier()                                (barrier)
//	for j := range t.TeamThreadRange(b, e) {...}   (nested thread ...)
//	  (ThreadVectorRange: vector, TeamVectorRange: teamvector)
//	x = kernel.TeamReduce(t, kokkos.Sum[T](), v)   (teamreduce Sum T (x) v)
//	x = kernel.VectorReduce(t, kokkos.Max[T](), v) (vectorreduce Max T (x) v)
//	p, s := kernel.TeamScan(t, kokkos.Sum[T](), v) (teamscan Sum T (p s) v)
//	x = kernel.TeamBroadcast(t, v, from)           (teambroadcast T (x) v from)
//	s := kokkos.ScratchView2[T](t.TeamScratch(0), n0, n1)
//	                                               (scratch s T team 0 (n0 n1))
//
// A collective is the whole right side of an assignment (=, := or a var
// declaration of one name); a scratch view is declared by := or var, and
// is then a view for At, Set, Ptr, Extent and the atomics.

// teamBuild is the state of a team kernel's description.
type teamBuild struct {
	team *types.Var // the kernel.Team parameter
	scan *scanBuild // the nested scan whose body is being described (ir_scan.go)
}

// teamVar returns the kernel.Team parameter of k, the first, or nil when
// k is not a team kernel.
func (p *pkgInfo) teamVar(k *kernelFunc) *types.Var {
	sig, ok := k.obj.Type().(*types.Signature)
	if !ok || sig.Params().Len() == 0 {
		return nil
	}
	if v := sig.Params().At(0); isNamedType(v.Type(), kernelPath, "Team") {
		return v
	}
	return nil
}

// isNamedType reports whether t is the type pkg.name.
func isNamedType(t types.Type, pkg, name string) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == pkg && n.Obj().Name() == name
}

// buildTeamKernel describes team kernel k, whose team parameter is tv. Its
// parameters are read from its signature: views and scalars after the
// team, and acc *T last for a reduction; a view is written when the body
// calls its Set or Ptr.
func (p *pkgInfo) buildTeamKernel(k *kernelFunc, tv *types.Var) (ir *kernelir.Kernel, err error) {
	defer catchIR(&err)
	b := &irBuilder{p: p, k: k, views: map[types.Object]string{}, team: &teamBuild{team: tv}}
	ir = &kernelir.Kernel{Name: k.name, Pattern: kernelir.PatternFor, Team: tv.Name()}
	if tv.Name() == "" || tv.Name() == "_" {
		b.fail(tv.Pos(), "the team parameter needs a name")
	}
	sig := k.obj.Type().(*types.Signature)
	ps := sig.Params()
	rest := ps.Len()
	var acc *types.Var
	if rest > 1 {
		if ptr, ok := ps.At(rest - 1).Type().(*types.Pointer); ok {
			acc = ps.At(rest - 1)
			ir.Pattern = kernelir.PatternReduce
			ir.Acc = b.irType(acc.Pos(), basicOf(ptr.Elem()))
			if acc.Name() == "" || acc.Name() == "_" {
				b.fail(acc.Pos(), "the accumulator needs a name")
			}
			rest--
		}
	}
	written := b.teamWrites(k.decl.Body)
	for _, pr := range k.params {
		// What the checker marked, where it ran.
		written[pr.v] = written[pr.v] || pr.write
	}
	for i := 1; i < rest; i++ {
		v := ps.At(i)
		if rank, elem, ok := viewType(v.Type()); ok {
			ir.Params = append(ir.Params, kernelir.Param{Name: v.Name(), Type: b.irType(v.Pos(), elem), Rank: rank, Write: written[v]})
			b.views[v] = v.Name()
			continue
		}
		if bt, ok := scalarType(v.Type()); ok {
			ir.Params = append(ir.Params, kernelir.Param{Name: v.Name(), Type: b.irType(v.Pos(), bt)})
			continue
		}
		b.fail(v.Pos(), "parameter %s of a team kernel has type %s; it takes views and scalars after the team, then acc *T for a reduction", v.Name(), v.Type())
	}
	// The builder knows the accumulator as k.acc.
	saved := k.acc
	k.acc = acc
	defer func() { k.acc = saved }()
	ir.Body = b.stmts(k.decl.Body.List)
	return ir, nil
}

// teamWrites returns the view parameters whose Set or Ptr the body calls.
func (b *irBuilder) teamWrites(body *ast.BlockStmt) map[types.Object]bool {
	w := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Set" || sel.Sel.Name == "Ptr") {
			if id, ok := sel.X.(*ast.Ident); ok {
				if obj := b.p.info.Uses[id]; obj != nil {
					w[obj] = true
				}
			}
		}
		return true
	})
	return w
}

// isTeam reports whether x is the kernel's team parameter.
func (b *irBuilder) isTeam(x ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	return ok && b.team != nil && b.p.info.Uses[id] == b.team.team
}

// teamMethod returns M when c is t.M(args) on the team parameter.
func (b *irBuilder) teamMethod(c *ast.CallExpr) string {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok || !b.isTeam(sel.X) {
		return ""
	}
	return sel.Sel.Name
}

// teamExpr describes t.Q() as a value, or returns nil when c is not a
// method call on the team.
func (b *irBuilder) teamExpr(c *ast.CallExpr) kernelir.Expr {
	m := b.teamMethod(c)
	if m == "" {
		if name := b.scanOf(c); name != "" {
			b.fail(c.Pos(), "kernel.%s is a statement, or the whole value of an assignment", name)
		}
		if b.collectiveOf(c) != "" {
			b.fail(c.Pos(), "kernel.%s is the whole value of an assignment (x = kernel.%s(...), or x := ...)", b.collectiveOf(c), b.collectiveOf(c))
		}
		return nil
	}
	if _, ok := kernelir.TeamQueries[m]; ok {
		return &kernelir.TeamQuery{Q: m}
	}
	b.fail(c.Pos(), "t.%s as a value has no description", m)
	return nil
}

// teamStmt describes t.TeamBarrier(), or returns nil.
func (b *irBuilder) teamStmt(c *ast.CallExpr) kernelir.Stmt {
	switch m := b.teamMethod(c); m {
	case "":
		if name := b.scanOf(c); name != "" && b.team != nil {
			return b.nestedScan(c, name, kernelir.Target{Kind: kernelir.TargetBlank})
		}
		return nil
	case "TeamBarrier":
		return &kernelir.Barrier{}
	default:
		b.fail(c.Pos(), "t.%s as a statement has no description", m)
	}
	return nil
}

// collectives are the functions of package kernel a Collective describes.
var collectives = map[string]string{
	"TeamReduce": kernelir.CollReduce, "VectorReduce": kernelir.CollVector,
	"TeamScan": kernelir.CollScan, "TeamBroadcast": kernelir.CollBroadcast,
}

// funcOf returns the package-level function a call calls, its type
// arguments stripped (kokkos.Sum[float64]), or nil.
func (b *irBuilder) funcOf(c *ast.CallExpr) *types.Func {
	f := ast.Unparen(c.Fun)
	switch x := f.(type) {
	case *ast.IndexExpr:
		f = x.X
	case *ast.IndexListExpr:
		f = x.X
	}
	var id *ast.Ident
	switch x := f.(type) {
	case *ast.Ident:
		id = x
	case *ast.SelectorExpr:
		id = x.Sel
	default:
		return nil
	}
	fn, _ := b.p.info.Uses[id].(*types.Func)
	return fn
}

// collectiveOf returns the name of kernel's collective c calls, or "".
func (b *irBuilder) collectiveOf(c *ast.CallExpr) string {
	fn := b.funcOf(c)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kernelPath || collectives[fn.Name()] == "" {
		return ""
	}
	return fn.Name()
}

// collective describes targets = c, a call of a collective.
func (b *irBuilder) collective(c *ast.CallExpr, name string, targets []kernelir.Target) kernelir.Stmt {
	if len(c.Args) == 0 || !b.isTeam(c.Args[0]) {
		b.fail(c.Pos(), "kernel.%s of a team other than the kernel's parameter", name)
	}
	sig, ok := b.p.info.Types[c.Fun].Type.(*types.Signature)
	if !ok {
		b.fail(c.Pos(), "kernel.%s without its instance's type", name)
	}
	st := &kernelir.Collective{Op: collectives[name], Targets: targets}
	if name == "TeamBroadcast" {
		st.T = b.irType(c.Pos(), basicOf(sig.Params().At(1).Type()))
		st.Value = b.exprAs(c.Args[1], st.T)
		st.From = b.exprAs(c.Args[2], kernelir.Int)
	} else {
		st.T = b.irType(c.Pos(), basicOf(sig.Params().At(2).Type()))
		st.Join = b.reducer(c.Args[1])
		st.Value = b.exprAs(c.Args[2], st.T)
	}
	want := 1
	if name == "TeamScan" {
		want = 2
	}
	if len(targets) != want {
		b.fail(c.Pos(), "kernel.%s gives %d values, assigned to %d", name, want, len(targets))
	}
	return st
}

// reducer returns the join of a reducer argument: kokkos.Sum[T]() and its
// kin.
func (b *irBuilder) reducer(x ast.Expr) string {
	if c, ok := ast.Unparen(x).(*ast.CallExpr); ok && len(c.Args) == 0 {
		if fn := b.funcOf(c); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == kokkosPath {
			for _, r := range kernelir.Reducers {
				if fn.Name() == r {
					return r
				}
			}
		}
	}
	b.fail(x.Pos(), "the reducer %s has no description: write kokkos.Sum[T](), Prod, Min, Max, LAnd, LOr, BAnd or BOr in the call", types.ExprString(x))
	return ""
}

// scratchOf describes name := kokkos.ScratchViewN[T](t.TeamScratch(l),
// extents...), or returns nil when c is not a ScratchViewN call.
func (b *irBuilder) scratchOf(c *ast.CallExpr, id *ast.Ident) kernelir.Stmt {
	fn := b.funcOf(c)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kokkosPath || !strings.HasPrefix(fn.Name(), "ScratchView") {
		return nil
	}
	rank := int(fn.Name()[len(fn.Name())-1] - '0')
	if len(fn.Name()) != len("ScratchView1") || rank < 1 || rank > 3 {
		b.fail(c.Pos(), "kokkos.%s has no description: a team kernel takes scratch views of rank 1 to 3", fn.Name())
	}
	if len(c.Args) != rank+1 {
		b.fail(c.Pos(), "kokkos.%s with options has no description: give the pad and the %d extents only", fn.Name(), rank)
	}
	pad, ok := ast.Unparen(c.Args[0]).(*ast.CallExpr)
	m := ""
	if ok {
		m = b.teamMethod(pad)
	}
	if m != "TeamScratch" && m != "ThreadScratch" {
		b.fail(c.Args[0].Pos(), "the pad of kokkos.%s must be t.TeamScratch(level) or t.ThreadScratch(level)", fn.Name())
	}
	lv := b.constOf(pad.Args[0])
	level, exact := int64(-1), false
	if lv != nil {
		level, exact = constant.Int64Val(constant.ToInt(lv))
	}
	if !exact || level != 0 && level != 1 {
		b.fail(pad.Args[0].Pos(), "the scratch level must be the constant 0 or 1")
	}
	obj := b.p.info.Defs[id]
	if obj == nil {
		obj = b.p.info.Uses[id]
	}
	rk, elem, ok := viewType(obj.Type())
	if !ok || rk != rank {
		b.fail(c.Pos(), "scratch view %s of type %s", id.Name, obj.Type())
	}
	d := &kernelir.ScratchDecl{Name: id.Name, T: b.irType(c.Pos(), elem), Level: int(level), Thread: m == "ThreadScratch"}
	for _, e := range c.Args[1:] {
		d.Extents = append(d.Extents, b.exprAs(e, kernelir.Int))
	}
	b.views[obj] = id.Name
	return d
}

// teamAssign describes an assignment or declaration whose value is a
// collective or a scratch view, or returns nil.
func (b *irBuilder) teamAssign(lhs []ast.Expr, rhs []ast.Expr, define bool, pos token.Pos) kernelir.Stmt {
	if b.team == nil || len(rhs) != 1 {
		return nil
	}
	c, ok := ast.Unparen(rhs[0]).(*ast.CallExpr)
	if !ok {
		return nil
	}
	if len(lhs) == 1 {
		if id, ok := lhs[0].(*ast.Ident); ok {
			if st := b.scratchOf(c, id); st != nil {
				if !define || b.p.info.Defs[id] == nil {
					b.fail(pos, "a scratch view is declared (s := kokkos.ScratchView1...), not assigned")
				}
				return st
			}
		}
	}
	if name := b.scanOf(c); name != "" {
		if len(lhs) != 1 {
			b.fail(pos, "kernel.%s gives one value, assigned to %d", name, len(lhs))
		}
		var t kernelir.Target
		if id, ok := lhs[0].(*ast.Ident); ok && define && id.Name != "_" && b.p.info.Defs[id] != nil {
			t = kernelir.Target{Kind: kernelir.TargetNew, Name: id.Name, T: b.irType(id.Pos(), basicOf(b.p.info.Defs[id].Type()))}
		} else {
			t = b.target(lhs[0])
		}
		return b.nestedScan(c, name, t)
	}
	name := b.collectiveOf(c)
	if name == "" {
		return nil
	}
	var targets []kernelir.Target
	for _, l := range lhs {
		if id, ok := l.(*ast.Ident); ok && define && id.Name != "_" && b.p.info.Defs[id] != nil {
			obj := b.p.info.Defs[id]
			targets = append(targets, kernelir.Target{Kind: kernelir.TargetNew, Name: id.Name, T: b.irType(id.Pos(), basicOf(obj.Type()))})
			continue
		}
		targets = append(targets, b.target(l))
	}
	return b.collective(c, name, targets)
}

// teamRange describes a range over t.TeamThreadRange(b, e) and its kin, or
// returns nil.
func (b *irBuilder) teamRange(s *ast.RangeStmt) kernelir.Stmt {
	c, ok := ast.Unparen(s.X).(*ast.CallExpr)
	if !ok {
		return nil
	}
	kind := map[string]string{"TeamThreadRange": kernelir.NestThread, "ThreadVectorRange": kernelir.NestVector, "TeamVectorRange": kernelir.NestTeamVector}[b.teamMethod(c)]
	if kind == "" {
		return nil
	}
	if len(c.Args) != 2 {
		b.fail(c.Pos(), "t.%s takes a begin and an end", b.teamMethod(c))
	}
	st := &kernelir.Nested{Kind: kind, Key: kernelir.Target{Kind: kernelir.TargetBlank}, Begin: b.exprAs(c.Args[0], kernelir.Int), End: b.exprAs(c.Args[1], kernelir.Int)}
	if s.Value != nil {
		b.fail(s.Value.Pos(), "a nested range gives one value per index")
	}
	if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
		if s.Tok == token.DEFINE {
			st.Key = kernelir.Target{Kind: kernelir.TargetNew, Name: id.Name, T: kernelir.Int}
		} else {
			st.Key = b.target(id)
		}
	} else if s.Key != nil && !ok {
		b.fail(s.Key.Pos(), "a range key that is not a variable")
	}
	st.Body = b.stmts(s.Body.List)
	return st
}

// teamDecl describes var x = <collective> or var s = <scratch view>, or
// returns nil.
func (b *irBuilder) teamDecl(vs *ast.ValueSpec) kernelir.Stmt {
	if b.team == nil || len(vs.Values) != 1 {
		return nil
	}
	lhs := make([]ast.Expr, len(vs.Names))
	for n, id := range vs.Names {
		lhs[n] = id
	}
	return b.teamAssign(lhs, vs.Values, true, vs.Pos())
}
