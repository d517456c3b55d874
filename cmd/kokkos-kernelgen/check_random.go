package main

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Random number pools. A kernel may take parameters of type
// random.XorShift64Pool and random.XorShift1024Pool (param.pool), passed
// by value at the launch like a token. Its body may take a generator with
// g := pool.GetState(), draw from it with g's methods (randomDraws), and
// give it back with pool.FreeState(g); anything else done with a pool or
// a generator (a copy, a comparison, a method value, another method, a
// pool or generator in a helper) is refused. The host kernel calls
// package random's methods as the body does; the description binds a
// pool as its pieces, a token and its states (ir_random.go).

// randomPath is the import path of package random.
const randomPath = kokkosPath + "/random"

// poolKind returns "XorShift64" or "XorShift1024" for random's pool types,
// "" for other types.
func poolKind(t types.Type) string {
	switch randomType(t) {
	case "XorShift64Pool":
		return "XorShift64"
	case "XorShift1024Pool":
		return "XorShift1024"
	}
	return ""
}

// genKind returns "XorShift64" or "XorShift1024" for random's generator
// types, "" for other types.
func genKind(t types.Type) string {
	switch n := randomType(t); n {
	case "XorShift64", "XorShift1024":
		return n
	}
	return ""
}

// randomType returns the name of t when t is a named type of package
// random.
func randomType(t types.Type) string {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || !isRandomPkg(n.Obj().Pkg()) {
		return ""
	}
	return n.Obj().Name()
}

// isRandomPkg reports whether pkg is package random: imported, or being
// generated (its own kernels fill views on a device), when the loader
// names it by its package name.
func isRandomPkg(pkg *types.Package) bool {
	if pkg.Path() == randomPath {
		return true
	}
	sc := pkg.Scope()
	return pkg.Path() == "random" && sc.Lookup("ErrPool") != nil && sc.Lookup("XorShift64Pool") != nil && sc.Lookup("XorShift1024Pool") != nil
}

// randomDrawNames are the generator methods a kernel may call.
var randomDrawNames = map[string]bool{
	"Urand": true, "Urand64": true, "UrandN": true, "UrandRange": true, "Urand64N": true, "Urand64Range": true,
	"Rand": true, "RandN": true, "RandRange": true, "Rand64": true, "Rand64N": true, "Rand64Range": true,
	"Frand": true, "FrandN": true, "FrandRange": true, "Drand": true, "DrandN": true, "DrandRange": true,
	"Normal": true, "NormalMeanStd": true,
}

// poolCall reports whether call is pool.M(...) on a pool parameter of k,
// returning the parameter and M.
func (p *pkgInfo) poolCall(k *kernelFunc, call *ast.CallExpr) (*param, string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil, "", false
	}
	obj := p.info.Uses[id]
	for _, pr := range k.params {
		if pr.pool != "" && pr.v == obj {
			return pr, sel.Sel.Name, true
		}
	}
	return nil, "", false
}

// genCall reports whether call is g.M(...) on a generator g (a local of a
// generator type), returning g's identifier, its kind and M.
func (p *pkgInfo) genCall(call *ast.CallExpr) (*ast.Ident, string, string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, "", "", false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil, "", "", false
	}
	v, ok := p.info.Uses[id].(*types.Var)
	if !ok {
		return nil, "", "", false
	}
	kind := genKind(v.Type())
	if kind == "" {
		return nil, "", "", false
	}
	return id, kind, sel.Sel.Name, true
}

// getState reports whether s is g := pool.GetState() on a pool parameter,
// returning g and the pool.
func (p *pkgInfo) getState(k *kernelFunc, s *ast.AssignStmt) (*ast.Ident, *param, bool) {
	if s.Tok != token.DEFINE || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
		return nil, nil, false
	}
	call, ok := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
	if !ok {
		return nil, nil, false
	}
	pr, m, ok := p.poolCall(k, call)
	if !ok || m != "GetState" {
		return nil, nil, false
	}
	id, ok := s.Lhs[0].(*ast.Ident)
	if !ok || id.Name == "_" || p.info.Defs[id] == nil {
		return nil, nil, false
	}
	return id, pr, true
}

// randomAssign checks g := pool.GetState(); it reports whether s is one.
func (c *checker) randomAssign(s *ast.AssignStmt) bool {
	_, _, ok := c.p.getState(c.k, s)
	return ok
}

// randomCall checks a call of a pool's or a generator's method; it
// reports whether call is one.
func (c *checker) randomCall(x *ast.CallExpr) bool {
	if pr, m, ok := c.p.poolCall(c.k, x); ok {
		switch m {
		case "FreeState":
			id, ok := ast.Unparen(x.Args[0]).(*ast.Ident)
			v, _ := c.p.info.Uses[id].(*types.Var)
			if !ok || v == nil || genKind(v.Type()) != pr.pool || c.param(v) != nil {
				c.refuse(x.Args[0].Pos(), "giving back "+types.ExprString(x.Args[0]), "give back the generator of "+pr.name+".GetState(), a local variable")
			}
		case "GetState":
			c.refuse(x.Pos(), "a call of "+pr.name+".GetState() here", "take a generator with g := "+pr.name+".GetState()")
		default:
			c.refuse(x.Pos(), "a call of "+pr.name+"."+m, "call only GetState and FreeState")
		}
		return true
	}
	if id, _, m, ok := c.p.genCall(x); ok {
		if !randomDrawNames[m] {
			c.refuse(x.Pos(), "a call of "+id.Name+"."+m, "call only the draws (Urand, Urand64, Rand, Rand64, Frand, Drand, Normal and their N, Range and MeanStd forms)")
			return true
		}
		c.exprs(x.Args)
		return true
	}
	return false
}

// randomIdent refuses a pool or a generator used as a value; it reports
// whether x is one.
func (c *checker) randomIdent(x *ast.Ident, v *types.Var) bool {
	if pr := c.param(v); pr != nil && pr.pool != "" {
		c.refuse(x.Pos(), "the pool "+v.Name()+" as a value", "call its GetState and FreeState")
		return true
	}
	if genKind(v.Type()) != "" {
		c.refuse(x.Pos(), "the generator "+v.Name()+" as a value", "call its draws, and give it back with FreeState")
		return true
	}
	return false
}

// randomLocal refuses a value of a pool or generator type where the
// checker meets one as a local's type; it reports whether t is one.
func (c *checker) randomLocal(pos token.Pos, t types.Type) bool {
	if kind := genKind(t); kind != "" {
		c.refuse(pos, "a generator of type random."+kind+" declared so", "take a generator with g := pool.GetState()")
		return true
	}
	if kind := poolKind(t); kind != "" {
		c.refuse(pos, "a local pool of type random."+kind+"Pool", "take the pool as a kernel parameter")
		return true
	}
	return false
}
