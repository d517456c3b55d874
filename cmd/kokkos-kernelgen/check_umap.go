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
// Capacity, InsertOp with an op written as containers.UnorderedMapAtomicAdd[V]{}
// or containers.UnorderedMapNoOp[V]{}, and, on the result of an insert,
// Success, Existing, Failed, FreedExisting and Index; anything else done
// with a map (a copy, another op, Clear, Rehash, Size, the erase methods)
// is refused. The host kernel calls the methods as the body does. A map
// of number keys and values (or a set of number keys) is described
// (ir_umap.go), so that the kernel runs on a device over a map in its
// memory; other maps keep the kernel on the host.

// containersPath is the import path of package containers.
const containersPath = kokkosPath + "/containers"

// isUMapType reports whether t is containers.UnorderedMap[K, V].
func isUMapType(t types.Type) bool {
	return isNamedType(t, containersPath, "UnorderedMap")
}

// umapMethods are the map methods a kernel may call.
var umapMethods = map[string]bool{
	"Insert": true, "InsertKey": true, "Find": true, "Exists": true,
	"ValidAt": true, "KeyAt": true, "ValueAt": true, "Capacity": true,
}

// umapOps are the ops an InsertOp in a kernel may be given, as
// composite literals without elements: containers.UnorderedMapAtomicAdd[V]{}
// adds the value to an existing key's, UnorderedMapNoOp[V]{} is Insert.
var umapOps = map[string]bool{"UnorderedMapAtomicAdd": true, "UnorderedMapNoOp": true}

// umapOp returns the name of the op x, the third argument of an
// InsertOp, or "" when it is not a composite literal of one of umapOps.
func (p *pkgInfo) umapOp(x ast.Expr) string {
	cl, ok := ast.Unparen(x).(*ast.CompositeLit)
	if !ok || len(cl.Elts) != 0 {
		return ""
	}
	n, ok := types.Unalias(p.info.TypeOf(cl)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != containersPath || !umapOps[n.Obj().Name()] {
		return ""
	}
	return n.Obj().Name()
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
	if !ok || (m != "Insert" && m != "InsertKey" && m != "InsertOp") {
		return false
	}
	if !umapResultMethods[sel.Sel.Name] {
		c.refuse(x.Pos(), "a call of "+sel.Sel.Name+" on "+pr.name+"."+m+"(...)", "call Success, Existing, Failed, FreedExisting or Index on the result of Insert, InsertKey or InsertOp")
		return true
	}
	c.umapMethod(inner, pr, m)
	return true
}

// umapMethod checks a call of method m of map parameter pr.
func (c *checker) umapMethod(x *ast.CallExpr, pr *param, m string) {
	if m == "InsertOp" {
		if c.p.umapOp(x.Args[2]) == "" {
			c.refuse(x.Args[2].Pos(), "the op of "+pr.name+".InsertOp", "give containers.UnorderedMapAtomicAdd[V]{} or containers.UnorderedMapNoOp[V]{}")
		}
		c.exprs(x.Args[:2])
		return
	}
	if !umapMethods[m] {
		c.refuse(x.Pos(), "a call of "+pr.name+"."+m, "call only Insert, InsertKey, InsertOp, Find, Exists, ValidAt, KeyAt, ValueAt and Capacity; the rest of an UnorderedMap's methods run outside kernels")
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
