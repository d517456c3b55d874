package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
)

// The host code of a nested scan (check_scan.go) is the literal's body
// inlined, on the statement's line, in plain loops over the calling
// thread's share of the range (contiguous on the host):
//
//	x := kernel.TeamThreadScan(t, b, e, kokkos.Sum[T](), func(i int, acc *T, final bool) { BODY })
//
// becomes
//
//	var gkSV T; { gkSB, gkSE := kokkos.TeamThreadRange(gkM, b, e).Share(); gkSR := kokkos.Sum[T]();
//	gkSS := gkSR.Identity(); var gkSP, gkST T; for gkSF := 0; gkSF < 2; gkSF++ {
//	if gkSF == 1 { gkSP, gkST = kokkos.TeamScan(gkM, gkSR, gkSS); gkSS = gkSP };
//	for i := gkSB; i < gkSE; i++ { acc := &gkSS; final := gkSF == 1; _, _ = acc, final; { BODY }}}; gkSV = gkST }; x := gkSV
//
// the first pass joining the share's contributions, the team scan giving
// each thread the join of the shares before its own, the second pass
// running the body with final true. A vector scan, whose lanes the host
// runs in turn, is the second pass alone from the identity. A return in
// the body becomes continue.

// scanEdits returns the edits of the nested scans of team kernel k at n,
// whether to look inside n, and whether n is part of a nested scan.
func (p *pkgInfo) scanEdits(k *kernelFunc, im *imports, n ast.Node) ([]edit, bool, bool) {
	if n == nil || len(k.scans) == 0 {
		return nil, false, false
	}
	for _, ns := range k.scans {
		if ns.lit == nil || ns.join == "" {
			continue
		}
		if r, ok := n.(*ast.ReturnStmt); ok && ns.returns[r] {
			return []edit{{pos: r.Pos(), end: r.End(), text: "continue"}}, false, true
		}
		if n == ns.stmt {
			return p.scanStmtEdits(k, im, ns), true, true
		}
		// The nodes the statement's edits replace.
		for _, rg := range ns.replaced() {
			if n.Pos() >= rg[0] && n.End() <= rg[1] {
				return nil, false, true
			}
		}
	}
	return nil, false, false
}

// replaced returns the ranges of source the edits of ns replace.
func (ns *nestedScan) replaced() [][2]token.Pos {
	x := ns.call
	return [][2]token.Pos{
		{ns.stmt.Pos(), x.Args[1].Pos()},
		{x.Args[2].End(), ns.lit.Body.Lbrace + 1},
		{ns.lit.Body.Rbrace, ns.stmt.End()},
	}
}

// scanStmtEdits returns the edits of the statement of nested scan ns.
func (p *pkgInfo) scanStmtEdits(k *kernelFunc, im *imports, ns *nestedScan) []edit {
	kk := im.name(kokkosPath)
	typ := types.TypeString(ns.elem, im.qualifier(p.pkg))
	var head, tail strings.Builder
	assign, after := "", ""
	if ns.lhs != nil {
		lhs := p.source(ns.lhs.Pos(), ns.lhs.End())
		assign = fmt.Sprintf("; %s = gkST", lhs)
		if ns.define {
			// Declared after the block: the call's arguments and body
			// see the variables the new one shadows, as in Go.
			v := fmt.Sprintf("gkSV%d", p.fset.Position(ns.call.Pos()).Offset)
			fmt.Fprintf(&head, "var %s %s; ", v, typ)
			assign = fmt.Sprintf("; %s = gkST", v)
			after = fmt.Sprintf("; %s := %s", lhs, v)
		}
	}
	rng := scanFuncs[ns.name]
	fmt.Fprintf(&head, "{ gkSB, gkSE := %s.%s(gkM, ", kk, rng)
	idx, acc, final := ns.params[0], ns.params[1], ns.params[2]
	if idx == "_" {
		idx = "gkSI"
	}
	var perIndex []string
	var used []string
	if acc != "_" {
		perIndex = append(perIndex, acc+" := &gkSS")
		used = append(used, acc)
	}
	red := fmt.Sprintf("%s.%s[%s]()", kk, ns.join, typ)
	if ns.join == "LAnd" || ns.join == "LOr" {
		red = fmt.Sprintf("%s.%s()", kk, ns.join)
	}
	var mid string
	if nestedRanges[rng].team {
		if final != "_" {
			perIndex = append(perIndex, final+" := gkSF == 1")
			used = append(used, final)
		}
		mid = fmt.Sprintf(").Share(); gkSR := %s; gkSS := gkSR.Identity(); var gkSP, gkST %s; for gkSF := 0; gkSF < 2; gkSF++ { if gkSF == 1 { gkSP, gkST = %s.TeamScan(gkM, gkSR, gkSS); gkSS = gkSP }; for %s := gkSB; %s < gkSE; %s++ { ",
			red, typ, kk, idx, idx, idx)
		tail.WriteString("}}}")
	} else {
		if final != "_" {
			perIndex = append(perIndex, final+" := true")
			used = append(used, final)
		}
		mid = fmt.Sprintf(").Share(); gkSS := %s.Identity(); for %s := gkSB; %s < gkSE; %s++ { ", red, idx, idx, idx)
		tail.WriteString("}}; gkST := gkSS")
	}
	for _, s := range perIndex {
		mid += s + "; "
	}
	if len(used) > 0 {
		mid += strings.Repeat("_, ", len(used)-1) + "_ = " + strings.Join(used, ", ") + "; "
	}
	// gofmt puts the statements above on lines of their own: the body,
	// and what follows the statement, keep their lines.
	mid += "{" + p.lineDirective(ns.replaced()[1][1])
	if ns.lhs == nil {
		tail.WriteString("; _ = gkST")
	}
	tail.WriteString(assign + " }" + after + p.lineDirective(ns.stmt.End()))
	r := ns.replaced()
	return []edit{
		{pos: r[0][0], end: r[0][1], text: head.String()},
		{pos: r[1][0], end: r[1][1], text: mid},
		{pos: r[2][0], end: r[2][1], text: tail.String()},
	}
}

// lineDirective returns the line directive that gives the next character
// the position pos has in the user's file.
func (p *pkgInfo) lineDirective(pos token.Pos) string {
	at := p.fset.Position(pos)
	return fmt.Sprintf("/*line %s:%d:%d*/", filepath.Base(at.Filename), at.Line, at.Column)
}
