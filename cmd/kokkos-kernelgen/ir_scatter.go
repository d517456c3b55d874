package main

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// In the description a ScatterView parameter is its view, written, and
// each update of an accessor an atomic operation on it: Add, Sub, Mul
// and Div their atomics, Update the atomic of the ScatterView's operation
// (Add, Mul, Min or Max). The accessors' declarations have no node. A
// device launch binds the ScatterView's view (ScatterView.DeviceView in
// package containers), so that every update, from any thread, lands in
// the view itself, as Kokkos's non-duplicated atomic ScatterView on a GPU.

// scatterParam describes pr when it is a ScatterView parameter.
func (b *irBuilder) scatterParam(pr *param) (kernelir.Param, bool) {
	if pr.scatter == nil {
		return kernelir.Param{}, false
	}
	b.views[pr.v] = pr.name
	return kernelir.Param{Name: pr.name, Type: b.irType(pr.v.Pos(), pr.scatter.elem), Rank: pr.scatter.rank, Write: pr.write}, true
}

// scatterAssign reports whether s declares an accessor, a := sv.Access(),
// which the description leaves out.
func (b *irBuilder) scatterAssign(s *ast.AssignStmt) bool {
	if s.Tok != token.DEFINE || len(s.Lhs) != 1 {
		return false
	}
	id, ok := s.Lhs[0].(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := b.p.info.Defs[id].(*types.Var)
	return ok && b.k.scatterAcc[v] != nil
}

// scatterOps is the atomic of each operation's Update.
var scatterOps = map[string]string{"ScatterSum": "Add", "ScatterProd": "Mul", "ScatterMin": "Min", "ScatterMax": "Max"}

// scatterCall describes an update of an accessor, and reports whether c
// is one.
func (b *irBuilder) scatterCall(c *ast.CallExpr) (kernelir.Expr, bool) {
	pr, m, ok := b.p.scatterUpdate(b.k, c)
	if !ok {
		return nil, false
	}
	op := m
	switch m {
	case "Update":
		op = scatterOps[pr.scatter.op]
	case "Add", "Sub", "Mul", "Div":
	default:
		b.fail(c.Pos(), "the accessor's %s has no description", m)
	}
	t := b.irType(c.Pos(), pr.scatter.elem)
	n := len(c.Args) - 1
	return &kernelir.Atomic{Op: op, View: pr.name, Index: b.indices(c.Args[:n]), Args: []kernelir.Expr{b.exprAs(c.Args[n], t)}}, true
}
