package main

import (
	"go/ast"
	"go/types"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// The description of a map parameter and of its methods (check_umap.go):
// a map of numbers (keys and values, or a set's keys) is a (umap ...)
// parameter, its methods the map nodes of package kernelir (umap.go). A
// map of other keys or values keeps the kernel on the host.

// umapParam describes map parameter pr.
func (b *irBuilder) umapParam(pr *param) kernelir.Param {
	n := types.Unalias(pr.v.Type()).(*types.Named)
	args := n.TypeArgs()
	kt, _ := args.At(0).Underlying().(*types.Basic)
	if kt == nil || kt.Info()&types.IsNumeric == 0 || kt.Info()&types.IsComplex != 0 {
		b.fail(pr.v.Pos(), "the UnorderedMap parameter %s has keys of type %s: a device runs maps of number keys only, so the kernel runs on the host only", pr.name, args.At(0))
	}
	p := kernelir.Param{Name: pr.name, UMap: true, Type: b.irType(pr.v.Pos(), kt)}
	vt := args.At(1)
	if st, ok := vt.Underlying().(*types.Struct); ok && st.NumFields() == 0 {
		return p
	}
	vb, _ := vt.Underlying().(*types.Basic)
	if vb == nil || vb.Info()&types.IsNumeric == 0 || vb.Info()&types.IsComplex != 0 {
		b.fail(pr.v.Pos(), "the UnorderedMap parameter %s has values of type %s: a device runs maps of number values (or sets) only, so the kernel runs on the host only", pr.name, vt)
	}
	p.Value = b.irType(pr.v.Pos(), vb)
	return p
}

// umapCall describes a call of a map parameter's method, or of a method
// of the result of its Insert or InsertKey, and reports whether c is one.
func (b *irBuilder) umapCall(c *ast.CallExpr) (kernelir.Expr, bool) {
	if pr, m, ok := b.p.isUMapMethod(b.k, c); ok {
		return b.umapMethod(c, pr, m, ""), true
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	pr, m, ok := b.p.isUMapMethod(b.k, inner)
	if !ok {
		return nil, false
	}
	res := map[string]string{"Success": "success", "Existing": "existing", "Failed": "failed", "FreedExisting": "freed", "Index": "index"}[sel.Sel.Name]
	if res == "" {
		b.fail(c.Pos(), "method %s of an insert's result has no description", sel.Sel.Name)
	}
	return b.umapMethod(inner, pr, m, res), true
}

// umapMethod describes c, a call of method m of map parameter pr; res is
// the result's method called on an insert.
func (b *irBuilder) umapMethod(c *ast.CallExpr, pr *param, m, res string) kernelir.Expr {
	p := b.umapParam(pr)
	switch m {
	case "Insert", "InsertKey", "InsertOp":
		x := &kernelir.UMapInsert{Map: pr.name, Result: res, Key: b.exprAs(c.Args[0], p.Type)}
		x.Add = m == "InsertOp" && b.p.umapOp(c.Args[2]) == "UnorderedMapAtomicAdd"
		if p.Value == kernelir.Invalid {
			x.Value = &kernelir.Const{T: kernelir.Int8}
		} else if m == "InsertKey" {
			x.Value = &kernelir.Const{T: p.Value}
		} else {
			x.Value = b.exprAs(c.Args[1], p.Value)
		}
		return x
	case "Find", "Exists":
		return &kernelir.UMapFind{Map: pr.name, Key: b.exprAs(c.Args[0], p.Type), Exists: m == "Exists"}
	case "ValidAt":
		return &kernelir.UMapAt{Map: pr.name, Op: "validat", T: kernelir.Bool, I: b.exprAs(c.Args[0], kernelir.Uint32)}
	case "KeyAt":
		return &kernelir.UMapAt{Map: pr.name, Op: "keyat", T: p.Type, I: b.exprAs(c.Args[0], kernelir.Uint32)}
	case "ValueAt":
		return &kernelir.UMapAt{Map: pr.name, Op: "valueat", T: p.Value, I: b.exprAs(c.Args[0], kernelir.Uint32)}
	case "Capacity":
		return &kernelir.UMapCapacity{Map: pr.name}
	}
	b.fail(c.Pos(), "map method %s has no description", m)
	return nil
}
