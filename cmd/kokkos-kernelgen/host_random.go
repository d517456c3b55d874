package main

import (
	"go/ast"
	"go/types"
)

// A flat kernel whose body takes a generator first and gives it back last,
//
//	g := pool.GetState()
//	... draws of g ...
//	pool.FreeState(g)
//
// holds one state per index, as Kokkos's functor does; on the host, where
// Kokkos's OpenMP pool indexes its states by the thread's id, package
// random's host pool acquires the index from the pool's token, two atomic
// operations per index. The host chunk of such a kernel takes the
// generator once before its loops and gives it back once after them
// (poolHold): the indices of a chunk run one after the other on one
// goroutine, so that the state passes from index to index exactly as it
// would through FreeState and GetState when the goroutine takes the same
// state again (always, for a pool of one state: the draws are the same).
// The body keeps its other statements, and the description (a device's
// code) keeps the state per index.

// poolHold is the first and last statements of a body that the host chunk
// runs once per chunk, and the generator they take and give back.
type poolHold struct {
	get, free ast.Stmt
	g         *types.Var
}

// poolHoldOf returns the hold of k's body, or nil: the body's first
// statement is g := pool.GetState() on a pool parameter, its last
// pool.FreeState(g) on the same pool, it has no return (which, once
// per chunk, would carry the state to the next index where the body
// gives it back at each index), and g appears otherwise only as the
// receiver of its draws (g is not assigned, nor given back elsewhere).
func (p *pkgInfo) poolHoldOf(k *kernelFunc) *poolHold {
	if k.team != nil || k.helper {
		return nil
	}
	list := k.decl.Body.List
	if len(list) < 2 {
		return nil
	}
	as, ok := list[0].(*ast.AssignStmt)
	if !ok {
		return nil
	}
	id, pr, ok := p.getState(k, as)
	if !ok {
		return nil
	}
	g, _ := p.info.Defs[id].(*types.Var)
	last, ok := list[len(list)-1].(*ast.ExprStmt)
	if !ok || g == nil {
		return nil
	}
	call, ok := ast.Unparen(last.X).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fpr, m, ok := p.poolCall(k, call)
	if !ok || fpr != pr || m != "FreeState" || len(call.Args) != 1 {
		return nil
	}
	arg, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok || p.info.Uses[arg] != g {
		return nil
	}
	receivers := map[*ast.Ident]bool{}
	ok = true
	for _, s := range list[1 : len(list)-1] {
		ast.Inspect(s, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ReturnStmt, *ast.FuncLit:
				ok = false
			case *ast.SelectorExpr:
				if x, isID := ast.Unparen(n.X).(*ast.Ident); isID {
					receivers[x] = true
				}
			case *ast.Ident:
				if p.info.Uses[n] == g && !receivers[n] {
					ok = false
				}
			}
			return ok
		})
	}
	if !ok {
		return nil
	}
	return &poolHold{get: list[0], free: last, g: g}
}

// held reports whether n is a statement of the body that the chunk runs
// once (k.hold), which the body's copies leave out, and returns what
// stands in its place: a comment, so that the line directive before the
// body still maps the next statement to its own line.
func (r *bodyRender) held(n ast.Node) (string, bool) {
	h := r.k.hold
	if h == nil || n != h.get && n != h.free {
		return "", false
	}
	if n == h.get {
		return "/* " + h.g.Name() + " is taken once per chunk */", true
	}
	return "/* and given back once per chunk */", true
}

// holdText returns the first (GetState) or last (FreeState) statement of
// k.hold as the chunk writes it, before or after its loops, with its
// position in the user's file, and the generated file's positions resumed
// after it; nothing for a kernel without a hold.
func (p *pkgInfo) holdText(k *kernelFunc, first bool) string {
	if k.hold == nil {
		return ""
	}
	s := k.hold.free
	if first {
		s = k.hold.get
	}
	r := &bodyRender{p: p, k: k}
	return r.lineAt(s.Pos()) + p.source(s.Pos(), s.End()) + "\n" + endLine + "\n"
}
