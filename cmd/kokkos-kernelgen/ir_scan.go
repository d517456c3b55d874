package main

import (
	"go/ast"
	"go/types"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// The description of a nested scan (check_scan.go):
//
//	x := kernel.TeamThreadScan(t, b, e, kokkos.Sum[T](), func(i int, acc *T, final bool) {...})
//	    (nestedscan thread i b e Sum T acc final ((new x T)) (body ...))
//
// (ThreadVectorScan: vector, TeamVectorScan: teamvector; () when the
// total is dropped). In the body *acc is the local acc, and return is
// continue: it ends the index.

// scanKinds are the kinds of the nested scans' ranges.
var scanKinds = map[string]string{
	"TeamThreadScan":   kernelir.NestThread,
	"ThreadVectorScan": kernelir.NestVector,
	"TeamVectorScan":   kernelir.NestTeamVector,
}

// scanBuild is the nested scan whose body is being described.
type scanBuild struct {
	acc *types.Var
}

// scanOf returns the name of the nested scan c calls, or "".
func (b *irBuilder) scanOf(c *ast.CallExpr) string {
	fn := b.funcOf(c)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != kernelPath || scanKinds[fn.Name()] == "" {
		return ""
	}
	return fn.Name()
}

// nestedScan describes total = c, a call of nested scan name.
func (b *irBuilder) nestedScan(c *ast.CallExpr, name string, total kernelir.Target) kernelir.Stmt {
	if len(c.Args) != 5 || !b.isTeam(c.Args[0]) {
		b.fail(c.Pos(), "kernel.%s of a team other than the kernel's parameter", name)
	}
	if b.team.scan != nil {
		b.fail(c.Pos(), "kernel.%s in the body of a nested scan", name)
	}
	sig, ok := b.p.info.Types[c.Fun].Type.(*types.Signature)
	if !ok {
		b.fail(c.Pos(), "kernel.%s without its instance's type", name)
	}
	st := &kernelir.NestedScan{Kind: scanKinds[name], Total: total, Key: "_", Acc: "_", Final: "_"}
	st.T = b.irType(c.Pos(), basicOf(sig.Results().At(0).Type()))
	st.Begin = b.exprAs(c.Args[1], kernelir.Int)
	st.End = b.exprAs(c.Args[2], kernelir.Int)
	st.Join = b.reducer(c.Args[3])
	lit, ok := ast.Unparen(c.Args[4]).(*ast.FuncLit)
	if !ok {
		b.fail(c.Args[4].Pos(), "the body of kernel.%s is a function literal written in place", name)
	}
	sb := &scanBuild{}
	var names []*ast.Ident
	for _, f := range lit.Type.Params.List {
		if len(f.Names) == 0 {
			names = append(names, nil)
		}
		names = append(names, f.Names...)
	}
	if len(names) != 3 {
		b.fail(lit.Pos(), "the body of kernel.%s takes (i int, acc *T, final bool)", name)
	}
	for n, id := range names {
		if id == nil || id.Name == "_" {
			continue
		}
		switch n {
		case 0:
			st.Key = id.Name
		case 1:
			st.Acc = id.Name
			sb.acc, _ = b.p.info.Defs[id].(*types.Var)
		case 2:
			st.Final = id.Name
		}
	}
	// A return ends the index: outside the body's loops only.
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			ast.Inspect(n, func(m ast.Node) bool {
				if r, ok := m.(*ast.ReturnStmt); ok {
					b.fail(r.Pos(), "a return inside a loop in the body of kernel.%s", name)
				}
				return true
			})
			return false
		}
		return true
	})
	b.team.scan = sb
	st.Body = b.stmts(lit.Body.List)
	b.team.scan = nil
	return st
}

// scanAcc reports whether obj is acc of the nested scan being described.
func (b *irBuilder) scanAcc(obj types.Object) bool {
	return b.team != nil && b.team.scan != nil && obj != nil && obj == b.team.scan.acc
}

// inScan reports whether the statement being described is in the body of
// a nested scan, where return is continue.
func (b *irBuilder) inScan() bool { return b.team != nil && b.team.scan != nil }
