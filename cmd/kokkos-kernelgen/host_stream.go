package main

import (
	"fmt"
	"go/ast"
	"go/types"
)

// Whole-chunk elementwise kernels. In the copy of the chunk of a 1-D
// range kernel whose accesses are proved in range for the chunk and of
// unit stride, a body that is one statement of these forms, every access
// of a 1-D view at the kernel's index i (plus a constant), is written as
// one call of a helper of package kernel (kernel/stream.go, simd.go) over
// the chunk, instead of the loop:
//
//	c.Set(i, a.At(i))                 kernel.Copy[T](pc, pa, n)
//	c.Set(i, s*a.At(i))               kernel.ScaleT(pc, pa, s, n)
//	c.Set(i, a.At(i) op b.At(i))      kernel.OpT(pc, pa, pb, n)
//	c.Set(i, a.At(i) + s*b.At(i))     kernel.TriadT(pc, pa, pb, s, n)
//	*c.Ptr(i) += a.At(i) + s*b.At(i)  kernel.NstreamT(pc, pa, pb, s, n)
//	*acc += a.At(i) * b.At(i)         gkAcc = kernel.DotT(gkAcc, pa, pb, n)
//	*acc += a.At(i)                   gkAcc = kernel.SumT(gkAcc, pa, n)
//
// (host_elem.go recognizes the forms)
// for T float64, float32, int32 or int64 (all the views' elements and
// s's type alike; scale, triad and nstream floats only), op +, - or *,
// s a scalar parameter or a constant, on either side of its product and
// the product on either side of its sum. The maps store what the loop
// stores, in any build: each element one rounded operation after another,
// as the loop rounds them, and a destination that overlaps a source other
// than exactly takes the loop in the helper. The float sums add in
// another order where they run as vectors, so they are written only in
// kernels marked fastmath, as for the inner loops (host_simd.go); in the
// others a float dot product is kernel.DotOrderedT(gkAcc, pa, pb, n),
// which adds the rounded products in the loop's order (its bits) with
// the products as vectors and the sources prefetched.

// streamChunk returns the call that stands for the chunk's loop of k in
// the copy of unit strides rb, if k's body is one of the forms above.
func (p *pkgInfo) streamChunk(k *kernelFunc, im *imports, accs map[*ast.CallExpr]*access, rb *rowBases) (string, bool) {
	if len(k.index) != 1 || k.team != nil || k.final != nil || k.hold != nil || !rb.contig || len(rb.rows) > 0 {
		return "", false
	}
	if k.pattern != patFor && k.pattern != patReduce {
		return "", false
	}
	body := k.decl.Body.List
	if len(body) != 1 {
		return "", false
	}
	// addr returns the address at i = gkLo of an access of a 1-D view at
	// i plus a constant.
	addr := func(call *ast.CallExpr, pr *param, _ string) (string, bool) {
		a := accs[call]
		if pr.rank != 1 || a == nil || len(a.idx) != 1 || a.idx[0].r != 0 {
			return "", false
		}
		size := sizes.Sizeof(pr.elem)
		if rb.consts[fmt.Sprintf("gkS_%s_0", pr.name)] != size {
			return "", false
		}
		rb.used["gkP_"+pr.name] = true
		at := "gkLo"
		if c := a.idx[0].c; c != 0 {
			at = fmt.Sprintf("gkLo%+d", c)
		}
		return fmt.Sprintf("%s.Add(gkP_%s, (%s)*%d)", rb.unsafe, pr.name, at, size), true
	}
	// acc is the reduction's *acc.
	acc := func(lhs ast.Expr) (string, *types.Basic, bool) {
		star, ok := lhs.(*ast.StarExpr)
		if !ok || k.acc == nil {
			return "", nil, false
		}
		id, ok := ast.Unparen(star.X).(*ast.Ident)
		if !ok || p.info.Uses[id] != k.acc {
			return "", nil, false
		}
		return "gkAcc", k.accElem, true
	}
	e, ok := p.elemStmt(k, body[0], addr, acc)
	if !ok || e.isMap() != (k.acc == nil) {
		return "", false
	}
	if !e.isMap() && e.t.Info()&types.IsFloat != 0 && !k.fastmath {
		// Float sums only in fastmath kernels; the dot product in the
		// loop's order in the others.
		if e.kind != elemDot {
			return "", false
		}
		e.ordered = true
	}
	call := e.call(im.name(kernelPath), "gkHi-gkLo")
	return fmt.Sprintf("if gkLo < gkHi {\n%s\n}\n", call), true
}
