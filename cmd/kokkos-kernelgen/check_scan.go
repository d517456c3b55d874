package main

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Nested scans in team kernels: a statement
//
//	kernel.TeamThreadScan(t, b, e, kokkos.Sum[T](), func(i int, acc *T, final bool) {...})
//
// (or ThreadVectorScan, TeamVectorScan), or the same call as the whole
// value of an assignment x = ..., x := ... or var x = ...
// (the total). The body argument is the one function literal a kernel
// takes: its body is in the kernel subset, reads the kernel's locals and
// parameters, writes views and *acc (its own), and does not assign the
// locals around it (Kokkos's lambdas capture by value); it holds no
// barrier, collective, nested range or scan, and returns (ends the index)
// outside its inner loops only. A thread or team-vector scan is called
// outside the loops over nested ranges (every thread of the team calls
// it), a vector scan outside the vector ranges.

// scanFuncs are package kernel's nested scans and the range each scans.
var scanFuncs = map[string]string{
	"TeamThreadScan":   "TeamThreadRange",
	"ThreadVectorScan": "ThreadVectorRange",
	"TeamVectorScan":   "TeamVectorRange",
}

// nestedScan is a nested scan of a team kernel, as the checker found it.
type nestedScan struct {
	stmt    ast.Stmt // the statement: an ExprStmt, AssignStmt or DeclStmt
	call    *ast.CallExpr
	name    string // TeamThreadScan, ThreadVectorScan or TeamVectorScan
	lit     *ast.FuncLit
	join    string       // the reducer: Sum, Prod, ...
	elem    *types.Basic // T
	lhs     ast.Expr     // the total's target, or nil
	define  bool         // the target is declared by the statement
	params  [3]string    // the literal's parameters' names, "_" when unnamed
	vars    [3]*types.Var
	returns map[*ast.ReturnStmt]bool // the literal's returns
}

// scanCall returns the nested scan e calls, or nil.
func (c *checker) scanCall(e ast.Expr) (*ast.CallExpr, string) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return nil, ""
	}
	fn := c.funcOf(call.Fun)
	if fn == nil || fn.Pkg().Path() != kernelPath || scanFuncs[fn.Name()] == "" {
		return nil, ""
	}
	return call, fn.Name()
}

// scanStmt checks s when it is a nested scan, alone or assigned, and
// reports whether it was.
func (c *checker) scanStmt(s ast.Stmt) bool {
	ns := &nestedScan{stmt: s}
	switch s := s.(type) {
	case *ast.ExprStmt:
		ns.call, ns.name = c.scanCall(s.X)
	case *ast.AssignStmt:
		if len(s.Rhs) != 1 {
			return false
		}
		if ns.call, ns.name = c.scanCall(s.Rhs[0]); ns.call == nil {
			return false
		}
		if len(s.Lhs) != 1 || s.Tok != token.DEFINE && s.Tok != token.ASSIGN {
			c.refuse(s.Pos(), "this assignment of the total of kernel."+ns.name, "assign it to one variable: x := kernel."+ns.name+"(...)")
			return true
		}
		ns.lhs = s.Lhs[0]
		id, _ := s.Lhs[0].(*ast.Ident)
		ns.define = s.Tok == token.DEFINE && id != nil && c.p.info.Defs[id] != nil
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.VAR || len(gd.Specs) != 1 {
			return false
		}
		vs := gd.Specs[0].(*ast.ValueSpec)
		if len(vs.Values) != 1 {
			return false
		}
		if ns.call, ns.name = c.scanCall(vs.Values[0]); ns.call == nil {
			return false
		}
		if len(vs.Names) != 1 {
			c.refuse(s.Pos(), "this declaration of the total of kernel."+ns.name, "declare one variable: var x = kernel."+ns.name+"(...)")
			return true
		}
		ns.lhs, ns.define = vs.Names[0], true
	}
	if ns.call == nil {
		return false
	}
	if ns.lhs != nil && !ns.define {
		switch l := ast.Unparen(ns.lhs).(type) {
		case *ast.Ident:
			if l.Name == "_" {
				ns.lhs = nil
			} else {
				c.lvalue(l)
			}
		default:
			c.refuse(ns.lhs.Pos(), "the total of kernel."+ns.name+" assigned to "+types.ExprString(ns.lhs), "assign it to a local")
			return true
		}
	}
	if ns.lhs != nil && ns.define {
		if id := ns.lhs.(*ast.Ident); id.Name == "_" {
			ns.lhs, ns.define = nil, false
		}
	}
	c.nestedScan(ns)
	return true
}

// nestedScan checks the call of nested scan ns.
func (c *checker) nestedScan(ns *nestedScan) {
	x, name := ns.call, ns.name
	if c.k.team == nil {
		c.refuse(x.Pos(), "kernel."+name+" in a kernel without a kernel.Team", "write a team kernel: func K(t kernel.Team, ...)")
		return
	}
	if !c.isTeam(x.Args[0]) {
		c.refuse(x.Args[0].Pos(), "the Team "+types.ExprString(x.Args[0])+" of kernel."+name, "pass the kernel's Team, "+c.k.team.Name())
	}
	rng := nestedRanges[scanFuncs[name]]
	switch {
	case c.team.scan != nil:
		c.refuse(x.Pos(), "kernel."+name+" in the body of a nested scan", "call it outside kernel."+c.team.scan.name)
		return
	case rng.team && c.inTeamRange():
		c.refuse(x.Pos(), "kernel."+name+" inside a loop over a team range", "every thread of the team must call it: call it after the loop")
	case c.inVectorRange():
		c.refuse(x.Pos(), "kernel."+name+" inside a loop over a vector range", "every vector lane must call it: call it after the loop")
	}
	elem, ok := scalarType(c.p.info.TypeOf(x))
	if !ok {
		c.refuseType(x.Pos(), c.p.info.TypeOf(x))
		return
	}
	ns.elem = elem
	r, ok := ast.Unparen(x.Args[3]).(*ast.CallExpr)
	var fn *types.Func
	if ok {
		fn = c.funcOf(r.Fun)
	}
	if fn == nil || fn.Pkg().Path() != kokkosPath || !teamReducers[fn.Name()] || len(r.Args) > 0 {
		c.refuse(x.Args[3].Pos(), "the reducer "+types.ExprString(x.Args[3])+" of kernel."+name, "write one of kokkos.Sum[T](), Prod, Min, Max, LAnd(), LOr(), BAnd, BOr in place")
	} else {
		ns.join = fn.Name()
	}
	c.exprs(x.Args[1:3])
	lit, ok := ast.Unparen(x.Args[4]).(*ast.FuncLit)
	if !ok {
		c.refuse(x.Args[4].Pos(), "the body "+types.ExprString(x.Args[4])+" of kernel."+name, "write a function literal in place: func(i int, acc *T, final bool) { ... }")
		return
	}
	ns.lit = lit
	n := 0
	for _, f := range lit.Type.Params.List {
		if len(f.Names) == 0 {
			ns.params[n] = "_"
			n++
			continue
		}
		for _, id := range f.Names {
			ns.params[n] = id.Name
			ns.vars[n], _ = c.p.info.Defs[id].(*types.Var)
			n++
		}
	}
	ns.returns = map[*ast.ReturnStmt]bool{}
	c.scanBodyRefusals(ns)
	if c.k.scans == nil {
		c.k.scans = map[*ast.CallExpr]*nestedScan{}
	}
	c.k.scans[x] = ns
	c.team.scan = ns
	c.stmt(lit.Body)
	c.team.scan = nil
}

// scanBodyRefusals refuses, in the body of nested scan ns, what the
// checks of its statements let through: assignments to the locals around
// it, barriers, collectives and nested ranges, and returns inside its
// loops; and records its returns.
func (c *checker) scanBodyRefusals(ns *nestedScan) {
	lit, name := ns.lit, ns.name
	outside := func(e ast.Expr) {
		for {
			switch x := e.(type) {
			case *ast.ParenExpr:
				e = x.X
				continue
			case *ast.IndexExpr:
				e = x.X
				continue
			case *ast.SelectorExpr:
				e = x.X
				continue
			}
			break
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return
		}
		v, ok := c.p.info.Uses[id].(*types.Var)
		if !ok || isPkgVar(v) || c.param(v) != nil || v == c.k.team || v.Pos() >= lit.Pos() && v.Pos() < lit.End() {
			return
		}
		c.refuse(id.Pos(), "an assignment to "+id.Name+", a local outside the body of kernel."+name, "the body has its own copy (Kokkos's lambdas capture by value): write a view, *acc or the total")
	}
	var loops []ast.Node
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // refused as a function literal
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id, ok := l.(*ast.Ident); ok && n.Tok == token.DEFINE && c.p.info.Defs[id] != nil {
					continue
				}
				outside(l)
			}
		case *ast.IncDecStmt:
			outside(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						outside(e)
					}
				}
			}
			if call, ok := ast.Unparen(n.X).(*ast.CallExpr); ok {
				if m, ok := c.teamMethod(call); ok && nestedRanges[m] != (struct{ team, vector bool }{}) {
					c.refuse(n.Pos(), "a loop over "+m+" in the body of kernel."+name, "the scan's range is innermost: scan, or loop, outside it")
					return false
				}
			}
			loops = append(loops, n)
		case *ast.ForStmt:
			loops = append(loops, n)
		case *ast.ReturnStmt:
			ns.returns[n] = true
		case *ast.CallExpr:
			if m, ok := c.teamMethod(n); ok && m == "TeamBarrier" {
				c.refuse(n.Pos(), c.k.team.Name()+".TeamBarrier() in the body of kernel."+name, "call it outside the scan")
				return false
			}
			if fn := c.funcOf(n.Fun); fn != nil && fn.Pkg().Path() == kernelPath && teamFuncs[fn.Name()] {
				c.refuse(n.Pos(), "kernel."+fn.Name()+" in the body of kernel."+name, "call it outside the scan")
				return false
			}
		}
		return true
	})
	for r := range ns.returns {
		for _, l := range loops {
			if r.Pos() >= l.Pos() && r.End() <= l.End() {
				c.refuse(r.Pos(), "a return inside a loop in the body of kernel."+name, "the return ends the index: use a flag, or an if around the rest")
				break
			}
		}
	}
}

// scanParam returns which parameter of the nested scan being checked v
// is (0: the index, 1: acc, 2: final), or -1.
func (c *checker) scanParam(v *types.Var) int {
	if c.team.scan == nil || v == nil {
		return -1
	}
	for n, p := range c.team.scan.vars {
		if p == v {
			return n
		}
	}
	return -1
}

// scanIdent refuses acc of a nested scan as a value; it reports whether
// it checked x.
func (c *checker) scanIdent(x *ast.Ident, v *types.Var) bool {
	if c.scanParam(v) == 1 {
		c.refuse(x.Pos(), "the pointer "+v.Name(), "use *"+v.Name())
		return true
	}
	return false
}

// scanLvalue refuses an assignment to a parameter of a nested scan's
// body; it reports whether it did.
func (c *checker) scanLvalue(x *ast.Ident, v *types.Var) bool {
	switch c.scanParam(v) {
	case 0:
		c.refuse(x.Pos(), "an assignment to "+v.Name()+", the index of kernel."+c.team.scan.name, "copy it to a local")
	case 1:
		c.refuse(x.Pos(), "an assignment to "+v.Name(), "assign to *"+v.Name())
	case 2:
		c.refuse(x.Pos(), "an assignment to "+v.Name()+", the final flag of kernel."+c.team.scan.name, "copy it to a local")
	default:
		return false
	}
	return true
}

// isScanAcc reports whether x is acc of the nested scan being checked.
func (c *checker) isScanAcc(x *ast.Ident) bool {
	v, _ := c.p.info.Uses[x].(*types.Var)
	return c.scanParam(v) == 1
}
