package main

import (
	"fmt"
	"go/ast"
	"go/types"
)

// Unordered maps. A kernel may take parameters of type
// containers.UnorderedMap[K, V] (param.umap), passed by value at the
// launch: the map's storage is shared, so that the kernel's inserts are
// the caller's. Its body may only call the methods of the concurrent
// subset, Insert, InsertKey, Find, Exists, ValidAt, KeyAt, ValueAt and
// Capacity, and, on the result of an Insert or InsertKey, Success,
// Existing, Failed, FreedExisting and Index; anything else done with a
// map (a copy, InsertOp, Clear, Rehash, Size, the erase methods) is
// refused. The host kernel calls the methods as the body does. The map's
// storage is host memory, so a kernel with a map parameter has no
// description (umapNoIR): it runs on the host only.

// containersPath is the import path of package containers.
const containersPath = kokkosPath + "/containers"

// isUMapType reports whether t is containers.UnorderedMap[K, V].
func isUMapType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == containersPath && n.Obj().Name() == "UnorderedMap"
}

// umapMethods are the map methods a kernel may call.
var umapMethods = map[string]bool{
	"Insert": true, "InsertKey": true, "Find": true, "Exists": true,
	"ValidAt": true, "KeyAt": true, "ValueAt": true, "Capacity": true,
}

// umapResultMethods are the methods of an insert's result a kernel may
// call on the call itself: m.Insert(k, v).Failed().
var umapResultMethods = map[string]bool{
	"Success": true, "Existing": true, "Failed": true, "FreedExisting": true, "Index": true,
}

// isUMapMethod reports whether call is m.M(...) on a map parameter of k,
// returning the parameter and M.
func (p *pkgInfo) isUMapMethod(k *kernelFunc, call *ast.CallExpr) (*param, string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil, "", false
	}
	obj := p.info.Uses[id]
	for _, pr := range k.params {
		if pr.umap && pr.v == obj {
			return pr, sel.Sel.Name, true
		}
	}
	return nil, "", false
}

// umapCall checks x when it is a call of a map parameter's method, or of
// a method of the result of one, and reports whether it is.
func (c *checker) umapCall(x *ast.CallExpr) bool {
	if pr, m, ok := c.p.isUMapMethod(c.k, x); ok {
		c.umapMethod(x, pr, m)
		return true
	}
	sel, ok := x.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok {
		return false
	}
	pr, m, ok := c.p.isUMapMethod(c.k, inner)
	if !ok || (m != "Insert" && m != "InsertKey") {
		return false
	}
	if !umapResultMethods[sel.Sel.Name] {
		c.refuse(x.Pos(), "a call of "+sel.Sel.Name+" on "+pr.name+"."+m+"(...)", "call Success, Existing, Failed, FreedExisting or Index on the result of Insert or InsertKey")
		return true
	}
	c.umapMethod(inner, pr, m)
	return true
}

// umapMethod checks a call of method m of map parameter pr.
func (c *checker) umapMethod(x *ast.CallExpr, pr *param, m string) {
	if !umapMethods[m] {
		c.refuse(x.Pos(), "a call of "+pr.name+"."+m, "call only Insert, InsertKey, Find, Exists, ValidAt, KeyAt, ValueAt and Capacity; the rest of an UnorderedMap's methods run outside kernels")
		return
	}
	c.exprs(x.Args)
}

// umapNoIR returns the error, matching errNoIR, of a team kernel with a
// map parameter, or nil: a kernel over indices describes its maps
// (ir_umap.go).
func (p *pkgInfo) umapNoIR(k *kernelFunc) error {
	if k.team == nil && p.teamVar(k) == nil {
		return nil
	}
	for _, pr := range k.params {
		if pr.umap {
			return fmt.Errorf("%w: %w", errNoIR, p.errorf(pr.v.Pos(), k.name, "the UnorderedMap parameter %s of a team kernel has no device form yet: the kernel runs on the host only", pr.name))
		}
	}
	return nil
}
