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
// takes the loop's order in the helper). The forms are host_elem.go's,
// of which an inner loop takes these three.

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
	// addr returns the address at j = lo of an access of a view at
	// offset j times its element's size.
	addr := func(call *ast.CallExpr, pr *param, _ string) (string, bool) {
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
		at := fmt.Sprintf("(%s)*%d", lo, size)
		if off != "" {
			at = off + "+" + at
		}
		r.c.used["gkP_"+pr.name] = true
		return fmt.Sprintf("%s.Add(gkP_%s, %s)", r.im.name("unsafe"), pr.name, at), true
	}
	// acc is s of s += .., a local variable of a basic type.
	acc := func(lhs ast.Expr) (string, *types.Basic, bool) {
		id, ok := lhs.(*ast.Ident)
		if !ok {
			return "", nil, false
		}
		v, ok := r.p.info.Uses[id].(*types.Var)
		if !ok || v.Parent() == nil || v.Parent() == r.p.pkg.Scope() {
			return "", nil, false
		}
		t, ok := v.Type().(*types.Basic)
		return id.Name, t, ok
	}
	e, ok := r.p.elemStmt(r.k, body.List[0], addr, acc)
	if !ok || e.kind != elemOp && e.kind != elemDot && e.kind != elemSum || !e.isMap() && e.t.Info()&types.IsFloat != 0 && !r.k.fastmath {
		return "", false
	}
	call := e.call(r.im.name(kernelPath), "gkN")
	for f := range folds {
		r.folds[f] = true
	}
	n := linText(l.hi.add(l.lo, -1).add(lin{c: 1}, 1), func(v *types.Var) string { return v.Name() }, map[string]bool{})
	var b strings.Builder
	fmt.Fprintf(&b, "if gkN := %s; gkN > 0 {\n%s\n}", n, call)
	return b.String(), true
}
