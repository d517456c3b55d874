package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
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
// for T float64, float32, int32 or int64 (all the views' elements and
// s's type alike; scale, triad and nstream floats only), op +, - or *,
// s a scalar parameter or a constant, on either side of its product and
// the product on either side of its sum. The maps store what the loop
// stores, in any build: each element one rounded operation after another,
// as the loop rounds them, and a destination that overlaps a source other
// than exactly takes the loop in the helper. The float sums add in
// another order where they run as vectors, so they are written only in
// kernels marked fastmath, as for the inner loops (host_simd.go).

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
	kern := im.name(kernelPath)
	// ptr returns the address at i = gkLo of the access e, a call of
	// method of a 1-D view of elements t (any type where t is nil) at
	// i plus a constant, and its element type.
	ptr := func(e ast.Expr, method string, t *types.Basic) (string, *types.Basic, bool) {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return "", nil, false
		}
		pr, m, ok := p.isViewMethod(k, call)
		if !ok || m != method || pr.rank != 1 || pr.elem == nil || simdTypes[pr.elem.Kind()] == "" || t != nil && pr.elem != t {
			return "", nil, false
		}
		a := accs[call]
		if a == nil || len(a.idx) != 1 || a.idx[0].r != 0 {
			return "", nil, false
		}
		size := sizes.Sizeof(pr.elem)
		if rb.consts[fmt.Sprintf("gkS_%s_0", pr.name)] != size {
			return "", nil, false
		}
		rb.used["gkP_"+pr.name] = true
		at := "gkLo"
		if c := a.idx[0].c; c != 0 {
			at = fmt.Sprintf("gkLo%+d", c)
		}
		return fmt.Sprintf("%s.Add(gkP_%s, (%s)*%d)", rb.unsafe, pr.name, at, size), pr.elem, true
	}
	// scalar returns s, a scalar parameter of type t or a constant, as
	// Go text.
	scalar := func(e ast.Expr, t *types.Basic) (string, bool) {
		e = ast.Unparen(e)
		tv, ok := p.info.Types[e]
		if !ok || !types.Identical(tv.Type, t) {
			return "", false
		}
		if tv.Value != nil {
			switch t.Kind() {
			case types.Float64:
				f, _ := constant.Float64Val(tv.Value)
				return fmt.Sprintf("float64(%s)", strconv.FormatFloat(f, 'g', -1, 64)), true
			case types.Float32:
				f, _ := constant.Float32Val(tv.Value)
				return fmt.Sprintf("float32(%s)", strconv.FormatFloat(float64(f), 'g', -1, 32)), true
			}
			return "", false
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return "", false
		}
		for _, pr := range k.params {
			if pr.v == p.info.Uses[id] && pr.rank == 0 && pr.elem == t && pr.name != "_" {
				return pr.name, true
			}
		}
		return "", false
	}
	// product returns s and the address of a of s*a.At(i) (or
	// a.At(i)*s), a of elements t.
	product := func(e ast.Expr, t *types.Basic) (string, string, bool) {
		b, ok := ast.Unparen(e).(*ast.BinaryExpr)
		if !ok || b.Op != token.MUL {
			return "", "", false
		}
		for _, xy := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if pa, _, ok := ptr(xy[1], "At", t); ok {
				if s, ok := scalar(xy[0], t); ok {
					return s, pa, true
				}
			}
		}
		return "", "", false
	}
	// triad returns the addresses of a and b and s of a.At(i) +
	// s*b.At(i) (the sum in either order), a and b of elements t.
	triad := func(e ast.Expr, t *types.Basic) (string, string, string, bool) {
		b, ok := ast.Unparen(e).(*ast.BinaryExpr)
		if !ok || b.Op != token.ADD || t.Info()&types.IsFloat == 0 {
			return "", "", "", false
		}
		for _, xy := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if pa, _, ok := ptr(xy[0], "At", t); ok {
				if s, pb, ok := product(xy[1], t); ok {
					return pa, pb, s, true
				}
			}
		}
		return "", "", "", false
	}
	var call string
	switch s := body[0].(type) {
	case *ast.ExprStmt:
		set, ok := s.X.(*ast.CallExpr)
		if !ok || len(set.Args) != 2 || k.acc != nil {
			return "", false
		}
		pc, t, ok := ptr(set, "Set", nil)
		if !ok {
			return "", false
		}
		name := simdTypes[t.Kind()]
		x := ast.Unparen(set.Args[1])
		if pa, _, ok := ptr(x, "At", t); ok {
			call = fmt.Sprintf("%s.Copy[%s](%s, %s, gkHi-gkLo)", kern, t.Name(), pc, pa)
			break
		}
		if sc, pa, ok := product(x, t); ok && t.Info()&types.IsFloat != 0 {
			call = fmt.Sprintf("%s.Scale%s(%s, %s, %s, gkHi-gkLo)", kern, name, pc, pa, sc)
			break
		}
		if pa, pb, sc, ok := triad(x, t); ok {
			call = fmt.Sprintf("%s.Triad%s(%s, %s, %s, %s, gkHi-gkLo)", kern, name, pc, pa, pb, sc)
			break
		}
		b, ok := x.(*ast.BinaryExpr)
		if !ok {
			return "", false
		}
		op := map[token.Token]string{token.ADD: "Add", token.SUB: "Sub", token.MUL: "Mul"}[b.Op]
		pa, _, ok1 := ptr(b.X, "At", t)
		pb, _, ok2 := ptr(b.Y, "At", t)
		if op == "" || !ok1 || !ok2 {
			return "", false
		}
		call = fmt.Sprintf("%s.%s%s(%s, %s, %s, gkHi-gkLo)", kern, op, name, pc, pa, pb)
	case *ast.AssignStmt:
		if s.Tok != token.ADD_ASSIGN || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return "", false
		}
		star, ok := s.Lhs[0].(*ast.StarExpr)
		if !ok {
			return "", false
		}
		if id, ok := ast.Unparen(star.X).(*ast.Ident); ok && k.acc != nil && p.info.Uses[id] == k.acc {
			// *acc += a.At(i) [* b.At(i)]
			t := k.accElem
			if t == nil || simdTypes[t.Kind()] == "" || t.Info()&types.IsFloat != 0 && !k.fastmath {
				return "", false
			}
			name := simdTypes[t.Kind()]
			x := ast.Unparen(s.Rhs[0])
			if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.MUL {
				pa, _, ok1 := ptr(b.X, "At", t)
				pb, _, ok2 := ptr(b.Y, "At", t)
				if !ok1 || !ok2 {
					return "", false
				}
				call = fmt.Sprintf("gkAcc = %s.Dot%s(gkAcc, %s, %s, gkHi-gkLo)", kern, name, pa, pb)
				break
			}
			pa, _, ok := ptr(x, "At", t)
			if !ok {
				return "", false
			}
			call = fmt.Sprintf("gkAcc = %s.Sum%s(gkAcc, %s, gkHi-gkLo)", kern, name, pa)
			break
		}
		// *c.Ptr(i) += a.At(i) + s*b.At(i)
		if k.acc != nil {
			return "", false
		}
		pc, t, ok := ptr(star.X, "Ptr", nil)
		if !ok {
			return "", false
		}
		pa, pb, sc, ok := triad(s.Rhs[0], t)
		if !ok {
			return "", false
		}
		call = fmt.Sprintf("%s.Nstream%s(%s, %s, %s, %s, gkHi-gkLo)", kern, simdTypes[t.Kind()], pc, pa, pb, sc)
	default:
		return "", false
	}
	return fmt.Sprintf("if gkLo < gkHi {\n%s\n}\n", call), true
}
