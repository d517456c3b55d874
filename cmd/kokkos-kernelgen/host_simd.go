package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// Vectorized loops. In the copy of a loop for unit strides, an innermost
// loop of step 1 whose body is one statement of these forms, every view
// access in it at offset j times the element's size from a base that the
// loop does not change (j the loop's variable), is written as one call of
// a helper of package kernel (kernel/simd.go), which runs as vectors when
// built with GOEXPERIMENT=simd on amd64 and as the loop otherwise:
//
//	s += a.At(.., j) * b.At(.., j)          s = kernel.DotT(s, pa, pb, n)
//	s += a.At(.., j)                        s = kernel.SumT(s, pa, n)
//	c.Set(.., j, a.At(.., j) op b.At(.., j)) kernel.OpT(pc, pa, pb, n)
//
// for T float64, float32, int32 or int64 (the views' elements and s's
// type, all the same basic type), s a local variable, op +, - or *. The
// vector sums of floats add in another order than the loop, so the sums
// are written for floats only in kernels marked //kokkos:kernel fastmath;
// those of integers wrap as the loop does, and the maps store what the
// loop stores (a destination that overlaps a source other than exactly
// takes the loop's order in the helper).

// simdTypes are the element types of the helpers, by name.
var simdTypes = map[types.BasicKind]string{
	types.Float64: "Float64",
	types.Float32: "Float32",
	types.Int32:   "Int32",
	types.Int64:   "Int64",
}

// simdLoop returns loop as a call of a vector helper, if it is one of the
// forms above, in the copy for unit strides.
func (r *bodyRender) simdLoop(loop ast.Stmt) (string, bool) {
	if r.mode != modeUnit || r.k.team != nil || r.c.loops == nil {
		return "", false
	}
	l := r.c.loops.loops[loop]
	if l == nil || l.v == nil {
		return "", false
	}
	if f, ok := loop.(*ast.ForStmt); ok {
		if post, ok := f.Post.(*ast.IncDecStmt); !ok || post.Tok != token.INC {
			return "", false
		}
	}
	body := loopBody(loop)
	if len(body.List) != 1 {
		return "", false
	}
	folds := map[string]bool{}
	lo := linText(l.lo, func(v *types.Var) string { return v.Name() }, map[string]bool{})
	// ptr returns the address of the access e at j = lo, if e is an At
	// (or Set, with set) of a view of elements t at offset j times their
	// size.
	ptr := func(e ast.Expr, method string, t *types.Basic) (string, bool) {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return "", false
		}
		pr, m, ok := r.p.isViewMethod(r.k, call)
		if !ok || m != method || pr.elem == nil || t != nil && pr.elem != t {
			return "", false
		}
		off, ok := r.offsets[call]
		if !ok || r.c.rows != nil && r.c.acc[call] != nil {
			return "", false
		}
		a := r.c.loops.byCall(call)
		if a == nil || a.inner != l {
			return "", false
		}
		size := sizes.Sizeof(pr.elem)
		var total int64
		for d, f := range a.idx {
			c := f.t[term{v: l.v}]
			if c == 0 {
				continue
			}
			stride := fmt.Sprintf("gkS_%s_%d", pr.name, d)
			if rb := r.c.rows; rb != nil && rb.consts != nil {
				if v, ok := rb.consts[stride]; ok {
					total += c * v
					continue
				}
			}
			folds[fmt.Sprintf("%s == %d", stride, size)] = true
			total += c * size
		}
		if total != size {
			return "", false
		}
		addr := fmt.Sprintf("(%s)*%d", lo, size)
		if off != "" {
			addr = off + "+" + addr
		}
		r.c.used["gkP_"+pr.name] = true
		return fmt.Sprintf("%s.Add(gkP_%s, %s)", r.im.name("unsafe"), pr.name, addr), true
	}
	elemOf := func(e ast.Expr) *types.Basic {
		if call, ok := ast.Unparen(e).(*ast.CallExpr); ok {
			if pr, _, ok := r.p.isViewMethod(r.k, call); ok && pr.elem != nil {
				if _, ok := simdTypes[pr.elem.Kind()]; ok {
					return pr.elem
				}
			}
		}
		return nil
	}
	var call string
	switch s := body.List[0].(type) {
	case *ast.AssignStmt:
		// s += a.At(.., j) [* b.At(.., j)]
		if s.Tok != token.ADD_ASSIGN || len(s.Lhs) != 1 {
			return "", false
		}
		id, ok := s.Lhs[0].(*ast.Ident)
		if !ok {
			return "", false
		}
		acc, ok := r.p.info.Uses[id].(*types.Var)
		if !ok || acc.Parent() == nil || acc.Parent() == r.p.pkg.Scope() {
			return "", false
		}
		t, ok := acc.Type().(*types.Basic)
		if !ok || simdTypes[t.Kind()] == "" || t.Info()&types.IsFloat != 0 && !r.k.fastmath {
			return "", false
		}
		name := simdTypes[t.Kind()]
		x := ast.Unparen(s.Rhs[0])
		if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.MUL {
			pa, ok1 := ptr(b.X, "At", t)
			pb, ok2 := ptr(b.Y, "At", t)
			if !ok1 || !ok2 {
				return "", false
			}
			call = fmt.Sprintf("%s = %s.Dot%s(%s, %s, %s, gkN)", id.Name, r.im.name(kernelPath), name, id.Name, pa, pb)
		} else {
			pa, ok := ptr(x, "At", t)
			if !ok {
				return "", false
			}
			call = fmt.Sprintf("%s = %s.Sum%s(%s, %s, gkN)", id.Name, r.im.name(kernelPath), name, id.Name, pa)
		}
	case *ast.ExprStmt:
		// c.Set(.., j, a.At(.., j) op b.At(.., j))
		set, ok := s.X.(*ast.CallExpr)
		if !ok || len(set.Args) == 0 {
			return "", false
		}
		b, ok := ast.Unparen(set.Args[len(set.Args)-1]).(*ast.BinaryExpr)
		if !ok {
			return "", false
		}
		op := map[token.Token]string{token.ADD: "Add", token.SUB: "Sub", token.MUL: "Mul"}[b.Op]
		t := elemOf(b.X)
		if op == "" || t == nil {
			return "", false
		}
		pc, ok0 := ptr(set, "Set", t)
		pa, ok1 := ptr(b.X, "At", t)
		pb, ok2 := ptr(b.Y, "At", t)
		if !ok0 || !ok1 || !ok2 {
			return "", false
		}
		call = fmt.Sprintf("%s.%s%s(%s, %s, %s, gkN)", r.im.name(kernelPath), op, simdTypes[t.Kind()], pc, pa, pb)
	default:
		return "", false
	}
	for f := range folds {
		r.folds[f] = true
	}
	n := linText(l.hi.add(l.lo, -1).add(lin{c: 1}, 1), func(v *types.Var) string { return v.Name() }, map[string]bool{})
	var b strings.Builder
	fmt.Fprintf(&b, "if gkN := %s; gkN > 0 {\n%s\n}", n, call)
	return b.String(), true
}
