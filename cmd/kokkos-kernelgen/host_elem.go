package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
)

// The elementwise statements that host_stream.go (a kernel's chunk) and
// host_simd.go (an innermost loop) write as one call of a helper of
// package kernel. One recognizer serves both: it reads the statement's
// form, its element type and the Go text of its operands; where an access
// is, its address at the loop's first index, is for the caller to say.

// elemKind is a form of elementwise statement.
type elemKind int

const (
	elemCopy    elemKind = iota // c.Set(.., a.At(..))
	elemScale                   // c.Set(.., s*a.At(..))
	elemOp                      // c.Set(.., a.At(..) op b.At(..))
	elemTriad                   // c.Set(.., a.At(..) + s*b.At(..))
	elemNstream                 // *c.Ptr(..) += a.At(..) + s*b.At(..)
	elemDot                     // acc += a.At(..) * b.At(..)
	elemSum                     // acc += a.At(..)
)

// elemStmt is a recognized statement: its form, element type and
// operands as Go text.
type elemStmt struct {
	kind    elemKind
	op      string       // Add, Sub or Mul (elemOp)
	t       *types.Basic // the element type, one of simdTypes
	dst     string       // the destination's address (the maps)
	a, b    string       // the sources' addresses
	s       string       // the scalar (scale, triad, nstream)
	acc     string       // the accumulator (dot, sum)
	ordered bool         // a float dot product in the loop's order (DotOrderedT)
}

// elemAddr returns the address at the loop's first index of call, an
// access by method m of the view parameter pr (its element one of
// simdTypes), if it is one the helpers can take.
type elemAddr func(call *ast.CallExpr, pr *param, m string) (string, bool)

// elemAcc returns the accumulator lhs of a statement lhs += x as Go text
// and its type, if lhs is one.
type elemAcc func(lhs ast.Expr) (string, *types.Basic, bool)

// elemStmt returns st as an elementwise statement of k, its accesses'
// addresses written by addr and its accumulators recognized by acc.
func (p *pkgInfo) elemStmt(k *kernelFunc, st ast.Stmt, addr elemAddr, acc elemAcc) (elemStmt, bool) {
	// ptr returns the address of the access e, a call of method of a
	// view of elements t (any of simdTypes where t is nil), and its
	// element type.
	ptr := func(e ast.Expr, method string, t *types.Basic) (string, *types.Basic, bool) {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return "", nil, false
		}
		pr, m, ok := p.isViewMethod(k, call)
		if !ok || m != method || pr.elem == nil || simdTypes[pr.elem.Kind()] == "" || t != nil && pr.elem != t {
			return "", nil, false
		}
		a, ok := addr(call, pr, m)
		return a, pr.elem, ok
	}
	// product returns s and the address of a of s*a.At(..) (or
	// a.At(..)*s), a of elements t.
	product := func(e ast.Expr, t *types.Basic) (string, string, bool) {
		b, ok := ast.Unparen(e).(*ast.BinaryExpr)
		if !ok || b.Op != token.MUL {
			return "", "", false
		}
		for _, xy := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
			if pa, _, ok := ptr(xy[1], "At", t); ok {
				if s, ok := p.elemScalar(k, xy[0], t); ok {
					return s, pa, true
				}
			}
		}
		return "", "", false
	}
	// triad returns the addresses of a and b and s of a.At(..) +
	// s*b.At(..) (the sum in either order), a and b of elements t.
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
	switch s := st.(type) {
	case *ast.ExprStmt:
		// c.Set(.., x)
		set, ok := s.X.(*ast.CallExpr)
		if !ok || len(set.Args) == 0 {
			return elemStmt{}, false
		}
		pc, t, ok := ptr(set, "Set", nil)
		if !ok {
			return elemStmt{}, false
		}
		x := ast.Unparen(set.Args[len(set.Args)-1])
		if pa, _, ok := ptr(x, "At", t); ok {
			return elemStmt{kind: elemCopy, t: t, dst: pc, a: pa}, true
		}
		if sc, pa, ok := product(x, t); ok && t.Info()&types.IsFloat != 0 {
			return elemStmt{kind: elemScale, t: t, dst: pc, a: pa, s: sc}, true
		}
		if pa, pb, sc, ok := triad(x, t); ok {
			return elemStmt{kind: elemTriad, t: t, dst: pc, a: pa, b: pb, s: sc}, true
		}
		b, ok := x.(*ast.BinaryExpr)
		if !ok {
			return elemStmt{}, false
		}
		op := map[token.Token]string{token.ADD: "Add", token.SUB: "Sub", token.MUL: "Mul"}[b.Op]
		pa, _, ok1 := ptr(b.X, "At", t)
		pb, _, ok2 := ptr(b.Y, "At", t)
		if op == "" || !ok1 || !ok2 {
			return elemStmt{}, false
		}
		return elemStmt{kind: elemOp, op: op, t: t, dst: pc, a: pa, b: pb}, true
	case *ast.AssignStmt:
		if s.Tok != token.ADD_ASSIGN || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return elemStmt{}, false
		}
		if name, t, ok := acc(s.Lhs[0]); ok {
			// acc += a.At(..) [* b.At(..)]
			if t == nil || simdTypes[t.Kind()] == "" {
				return elemStmt{}, false
			}
			x := ast.Unparen(s.Rhs[0])
			if b, ok := x.(*ast.BinaryExpr); ok && b.Op == token.MUL {
				pa, _, ok1 := ptr(b.X, "At", t)
				pb, _, ok2 := ptr(b.Y, "At", t)
				if !ok1 || !ok2 {
					return elemStmt{}, false
				}
				return elemStmt{kind: elemDot, t: t, a: pa, b: pb, acc: name}, true
			}
			pa, _, ok := ptr(x, "At", t)
			if !ok {
				return elemStmt{}, false
			}
			return elemStmt{kind: elemSum, t: t, a: pa, acc: name}, true
		}
		// *c.Ptr(..) += a.At(..) + s*b.At(..)
		star, ok := s.Lhs[0].(*ast.StarExpr)
		if !ok {
			return elemStmt{}, false
		}
		pc, t, ok := ptr(star.X, "Ptr", nil)
		if !ok {
			return elemStmt{}, false
		}
		pa, pb, sc, ok := triad(s.Rhs[0], t)
		if !ok {
			return elemStmt{}, false
		}
		return elemStmt{kind: elemNstream, t: t, dst: pc, a: pa, b: pb, s: sc}, true
	}
	return elemStmt{}, false
}

// elemScalar returns e, a scalar parameter of k of type t or a float
// constant, as Go text.
func (p *pkgInfo) elemScalar(k *kernelFunc, e ast.Expr, t *types.Basic) (string, bool) {
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

// isMap reports whether e stores elements (the forms but the sums).
func (e elemStmt) isMap() bool { return e.kind != elemDot && e.kind != elemSum }

// call returns e as the call of its helper of package kernel (imported as
// kern) over n elements.
func (e elemStmt) call(kern, n string) string {
	name := simdTypes[e.t.Kind()]
	switch e.kind {
	case elemCopy:
		return fmt.Sprintf("%s.Copy[%s](%s, %s, %s)", kern, e.t.Name(), e.dst, e.a, n)
	case elemScale:
		return fmt.Sprintf("%s.Scale%s(%s, %s, %s, %s)", kern, name, e.dst, e.a, e.s, n)
	case elemOp:
		return fmt.Sprintf("%s.%s%s(%s, %s, %s, %s)", kern, e.op, name, e.dst, e.a, e.b, n)
	case elemTriad:
		return fmt.Sprintf("%s.Triad%s(%s, %s, %s, %s, %s)", kern, name, e.dst, e.a, e.b, e.s, n)
	case elemNstream:
		return fmt.Sprintf("%s.Nstream%s(%s, %s, %s, %s, %s)", kern, name, e.dst, e.a, e.b, e.s, n)
	case elemDot:
		if e.ordered {
			return fmt.Sprintf("%s = %s.DotOrdered%s(%s, %s, %s, %s)", e.acc, kern, name, e.acc, e.a, e.b, n)
		}
		return fmt.Sprintf("%s = %s.Dot%s(%s, %s, %s, %s)", e.acc, kern, name, e.acc, e.a, e.b, n)
	case elemSum:
		return fmt.Sprintf("%s = %s.Sum%s(%s, %s, %s)", e.acc, kern, name, e.acc, e.a, n)
	}
	panic("kokkos-kernelgen: unknown elementwise form")
}
