package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Values computed once per row. In the host loop nest of a kernel of rank
// 2 or more (an MDRange kernel), the innermost index loop runs over one
// line of the tile; a part of the body's arithmetic that depends only on
// the outer indices and the scalar parameters is the same at every step
// of that loop, yet Go's compiler computes it at every step (it does not
// move code out of loops). Such a part, float64(i)*0.5 of
// a.Set(i, j, float64(i)*0.5+float64(j)), is computed once before the
// innermost loop into a local (gkV0 := float64(float64(i)*0.5)) that the
// body reads instead.
//
// The parts moved are made of what cannot fail and has no effect, so
// that computing them before the loop, and when the body would not (a
// branch not taken, a loop that does not run), changes nothing but the
// time: the outer indices and the integer or floating-point scalar
// parameters that the body does not assign, constants, conversions
// between integer and floating-point types, parentheses, unary + - ^,
// + - * & | ^ &^ on integers and + - * / on floating-point values, and
// integer / % << >> by a constant (not by a variable: a zero divisor and
// a negative shift count panic; nor calls). The moved text is the body's own, with the
// same explicit rounding of each floating-point product (render), so the
// results are those of the loop as written, bit for bit. Only the parts
// worth a local are moved: those with a conversion, a product, a
// quotient or a floating-point operation.

// mdHoist collects the values moved out of the innermost loop of one copy
// of the body (bodyCopy.md).
type mdHoist struct {
	k     *kernelFunc
	la    *loopAnalysis
	inner *types.Var          // the innermost loop's index
	names map[string]string   // a value's text → its local
	decls []string            // the locals' declarations, before the innermost loop
	vals  map[ast.Expr]string // the expressions moved → their local
	busy  bool                // rendering a moved expression
}

// newMDHoist returns the collector of the values moved out of the
// innermost loop of the loop nest in order, or nil when k is not a
// kernel of rank 2 or more.
func newMDHoist(k *kernelFunc, order []int, la *loopAnalysis) *mdHoist {
	if len(k.index) < 2 || k.team != nil || la == nil {
		return nil
	}
	return &mdHoist{k: k, la: la, inner: k.index[order[len(order)-1]], names: map[string]string{}, vals: map[ast.Expr]string{}}
}

// pre returns decls, the row bases to declare before the innermost loop,
// followed by the locals of h that body, the copy's text, reads.
func (h *mdHoist) pre(decls []string, body string) []string {
	if h == nil || len(h.decls) == 0 {
		return decls
	}
	names := idents(body)
	out := append([]string(nil), decls...)
	for i, d := range h.decls {
		if names[fmt.Sprintf("gkV%d", i)] {
			out = append(out, d)
		}
	}
	return out
}

// mdValue returns the local that replaces n in the body, if n is a value
// that the innermost loop does not change and worth computing before it;
// the first time, it declares the local with n's text as render writes
// it.
func (r *bodyRender) mdValue(n ast.Node, covered map[*ast.CallExpr]bool) (string, bool) {
	h := r.c.md
	if h == nil || h.busy {
		return "", false
	}
	e, ok := n.(ast.Expr)
	if !ok {
		return "", false
	}
	if name, ok := h.vals[e]; ok {
		return name, true
	}
	inv, worth := r.p.mdInvariant(h, e)
	if !inv || !worth {
		return "", false
	}
	h.busy = true
	text := r.render(e, e.Pos(), e.End(), covered)
	h.busy = false
	name, ok := h.names[text]
	if !ok {
		name = fmt.Sprintf("gkV%d", len(h.names))
		h.names[text] = name
		h.decls = append(h.decls, name+" := "+text)
	}
	h.vals[e] = name
	return name, true
}

// mdInvariant reports whether e is a value that the innermost loop of h
// does not change and that cannot fail, and whether it is worth a local:
// it has a conversion, a product, a quotient or a floating-point
// operation.
func (p *pkgInfo) mdInvariant(h *mdHoist, e ast.Expr) (inv, worth bool) {
	tv, ok := p.info.Types[e]
	if !ok {
		return false, false
	}
	if tv.Value != nil {
		return true, false // a constant: the compiler folds it
	}
	if !tv.IsValue() || !mdNumeric(tv.Type) {
		return false, false
	}
	float := tv.Type.Underlying().(*types.Basic).Info()&types.IsFloat != 0
	switch e := e.(type) {
	case *ast.ParenExpr:
		return p.mdInvariant(h, e.X)
	case *ast.Ident:
		v, ok := p.info.Uses[e].(*types.Var)
		if !ok || v == h.inner || len(h.la.assigned[v]) > 0 {
			return false, false
		}
		for _, x := range h.k.index {
			if v == x {
				return true, false
			}
		}
		for _, pr := range h.k.params {
			if v == pr.v && !pr.isView() && pr.elem != nil {
				return true, false
			}
		}
		return false, false
	case *ast.CallExpr:
		// A conversion to a predeclared integer or floating-point type.
		fun, ok := ast.Unparen(e.Fun).(*ast.Ident)
		if !ok || len(e.Args) != 1 || e.Ellipsis.IsValid() {
			return false, false
		}
		if tn, ok := p.info.Uses[fun].(*types.TypeName); !ok || tn.Pkg() != nil || !mdNumeric(tn.Type()) {
			return false, false
		}
		inv, _ := p.mdInvariant(h, e.Args[0])
		return inv, inv
	case *ast.UnaryExpr:
		if e.Op != token.ADD && e.Op != token.SUB && e.Op != token.XOR {
			return false, false
		}
		inv, worth := p.mdInvariant(h, e.X)
		return inv, worth || inv && float
	case *ast.BinaryExpr:
		// An integer quotient, remainder or shift is moved only by a
		// constant, which cannot fail (a zero divisor or a negative
		// count does not compile).
		y := p.info.Types[e.Y].Value
		switch e.Op {
		case token.ADD, token.SUB, token.MUL:
		case token.QUO:
			if !float && (y == nil || constant.Sign(y) == 0) {
				return false, false
			}
		case token.REM, token.SHL, token.SHR:
			if y == nil || e.Op == token.REM && constant.Sign(y) == 0 {
				return false, false
			}
		case token.AND, token.OR, token.XOR, token.AND_NOT:
		default:
			return false, false
		}
		ix, wx := p.mdInvariant(h, e.X)
		iy, wy := p.mdInvariant(h, e.Y)
		if !ix || !iy {
			return false, false
		}
		return true, wx || wy || float || e.Op == token.MUL || e.Op == token.QUO || e.Op == token.REM
	}
	return false, false
}

// mdNumeric reports whether t is an integer or floating-point type.
func mdNumeric(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsInteger|types.IsFloat) != 0
}
