package main

import (
	"go/ast"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// tokenCall describes t.Acquire(), t.Release(id) or t.Size() of a token
// parameter, and reports whether call is one.
func (b *irBuilder) tokenCall(c *ast.CallExpr) (kernelir.Expr, bool) {
	pr, m, ok := b.p.isTokenMethod(b.k, c)
	if !ok {
		return nil, false
	}
	switch m {
	case "Acquire":
		return &kernelir.TokenAcquire{Token: pr.name}, true
	case "Release":
		return &kernelir.TokenRelease{Token: pr.name, ID: b.exprAs(c.Args[0], kernelir.Int)}, true
	case "Size":
		return &kernelir.TokenSize{Token: pr.name}, true
	}
	b.fail(c.Pos(), "token method %s has no description", m)
	return nil, false
}
