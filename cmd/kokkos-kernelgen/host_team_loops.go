package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
)

// Checks proved once in team kernels. A loop over a nested range,
//
//	for j := range t.TeamThreadRange(b, e)
//
// (ThreadVectorRange and TeamVectorRange alike), is on the host a plain
// loop over the calling thread's share of [b, e), which lies within
// [b, e): it is a loop of known range, j from b to e-1, as for k :=
// range n is (host_loops.go). Its accesses whose indices are affine in j,
// in the variables of the loops around them and in invariant locals (row
// := t.LeagueRank()) are checked once before the loop against the
// extents, over [b, e), and the loop runs in its unchecked copies (the
// offsets that do not change in it hoisted, a copy for unit strides),
// in its checked form when the test fails: an empty share or one whose
// range goes out of bounds runs the checked loop, whose accesses panic
// at the user's line. The other loops of a team kernel are those of a
// flat kernel's body.
//
// Scratch views are views too: their accessors (kernel.Scratch1 ...)
// are kernel.A1 ..., whose ByteStride gives the strides; the address of
// the first element, which Base gives only during the bind, is that of
// the element at (0, ...), taken with Ptr after the declaration (nil for
// an empty view, which no access passes a test of). The bases and strides
// of the view parameters are taken once, by the binder.

// nestedLoop returns the loop for j := range t.<range>(b, e), its key v:
// of known range when b and e are linear.
func (la *loopAnalysis) nestedLoop(n *ast.RangeStmt, v *types.Var) *loopInfo {
	l := &loopInfo{stmt: n}
	call := ast.Unparen(n.X).(*ast.CallExpr)
	if !isIntVar(v) || len(call.Args) != 2 {
		return l
	}
	lo, ok1 := la.p.linearOf(la.k, call.Args[0])
	hi, ok2 := la.p.linearOf(la.k, call.Args[1])
	if !ok1 || !ok2 {
		return l
	}
	l.v, l.lo, l.hi = v, lo, hi.add(lin{c: 1}, -1)
	return l
}

// scratchMark is the text that the host body has after the declaration
// of scratch view sv: scratchBases replaces it.
func scratchMark(sv *scratchView) string { return "/*gk:scratch " + sv.name + "*/" }

// scratchBases returns body with the mark after each scratch view's
// declaration replaced by the declarations of its base and strides that
// the plain accesses of body use (used).
func (p *pkgInfo) scratchBases(k *kernelFunc, im *imports, body string, used map[string]bool) string {
	r := &bodyRender{p: p}
	for _, sv := range k.scratch {
		var decls []string
		if base := "gkP_" + sv.name; used[base] {
			var nonEmpty, zeros []string
			for d := range sv.rank {
				nonEmpty = append(nonEmpty, fmt.Sprintf("%s.Extent(%d) > 0", sv.name, d))
				zeros = append(zeros, "0")
			}
			ptr := im.name("unsafe") + ".Pointer"
			decls = append(decls, fmt.Sprintf("%s := %s(nil)", base, ptr),
				fmt.Sprintf("if %s {\n%s = %s(%s.Ptr(%s))\n}", strings.Join(nonEmpty, " && "), base, ptr, sv.name, strings.Join(zeros, ", ")))
		}
		for d := range sv.rank {
			if stride := fmt.Sprintf("gkS_%s_%d", sv.name, d); used[stride] {
				decls = append(decls, fmt.Sprintf("%s := %s.ByteStride(%d)", stride, sv.name, d))
			}
		}
		text := ""
		if len(decls) > 0 {
			text = "\n" + strings.Join(decls, "\n") + "\n" + r.lineAt(sv.decl.End())
		}
		body = strings.ReplaceAll(body, scratchMark(sv), text)
	}
	return body
}

// teamBases writes to b the bases and strides of k's view parameters that
// used names, and returns their names.
func (p *pkgInfo) teamBases(k *kernelFunc, b *strings.Builder, used map[string]bool) []string {
	var names []string
	for _, pr := range k.params {
		if !pr.isView() || pr.name == "_" {
			continue
		}
		if base := "gkP_" + pr.name; used[base] {
			fmt.Fprintf(b, "%s := %s.Base(gkL)\n", base, pr.name)
			names = append(names, base)
		}
		for d := range pr.rank {
			if stride := fmt.Sprintf("gkS_%s_%d", pr.name, d); used[stride] {
				fmt.Fprintf(b, "%s := %s.ByteStride(%d)\n", stride, pr.name, d)
				names = append(names, stride)
			}
		}
	}
	return names
}

// teamTerm returns, for t.LeagueRank(), t.TeamRank(), t.LeagueSize() or
// t.TeamSize() of team kernel k (t its Team), the call's text: a term of
// linear forms that keeps its value in the thread's call.
func (p *pkgInfo) teamTerm(k *kernelFunc, call *ast.CallExpr) (string, bool) {
	if k.team == nil || len(call.Args) != 0 {
		return "", false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok || p.info.Uses[id] != k.team {
		return "", false
	}
	switch m := sel.Sel.Name; m {
	case "LeagueRank", "TeamRank", "LeagueSize", "TeamSize":
		return k.team.Name() + "." + m + "()", true
	}
	return "", false
}
