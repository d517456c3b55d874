package main

import (
	"go/ast"
	"go/types"
)

// Unique tokens. A kernel may take parameters of type kokkos.UniqueToken
// (param.token), passed by value at the launch like a scalar. Its body may
// only call their methods Acquire, Release and Size; anything else done
// with a token (a copy, a comparison, a method value, another method) is
// refused. The host kernel calls the methods as the body does; the
// description has a node for each (ir_token.go).

// isTokenType reports whether t is kokkos.UniqueToken.
func isTokenType(t types.Type) bool {
	return isNamedType(t, kokkosPath, "UniqueToken")
}

// isTokenMethod reports whether call is t.M(...) on a token parameter of
// k, returning the parameter and M.
func (p *pkgInfo) isTokenMethod(k *kernelFunc, call *ast.CallExpr) (*param, string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil, "", false
	}
	obj := p.info.Uses[id]
	for _, pr := range k.params {
		if pr.token && pr.v == obj {
			return pr, sel.Sel.Name, true
		}
	}
	return nil, "", false
}

// tokenMethod checks a call of method m of token parameter pr.
func (c *checker) tokenMethod(x *ast.CallExpr, pr *param, m string) {
	switch m {
	case "Acquire", "Size":
	case "Release":
		c.exprs(x.Args)
	default:
		c.refuse(x.Pos(), "a call of "+pr.name+"."+m, "call only Acquire, Release and Size")
	}
}
