package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"maps"
	"strings"
)

// The host kernel of a team kernel is the function that
// kokkos.ParallelForTeam (or ParallelReduceTeam) calls for every thread of
// every team: the body as written, its views bound to accessors as a flat
// kernel's are, its Team the member's (kernel.TeamOf), so that the Team's
// methods and package kernel's collectives run as in the Go function. The
// edits to the body's text, besides the package qualifiers and the
// rounding of products of a flat kernel, are:
//
//   - for j := range t.TeamThreadRange(b, e) becomes
//     for j, gkE := kokkos.TeamThreadRange(gkM, b, e).Share(); j < gkE; j++,
//     a plain loop over the calling thread's share (ThreadVectorRange and
//     TeamVectorRange alike), with no call per index;
//   - s := kokkos.ScratchViewN[T](pad, ...) becomes
//     s := kernel.ScratchN(kernel, "s", kokkos.ScratchViewN[T](pad, ...)),
//     the scratch view's accessor.
//
// *acc and return stay as written: acc is the member function's own
// accumulator, which the pattern starts at the identity for each thread
// of each team, and a return ends the thread's call.

// teamEdits returns the edits of a team kernel's body at n, whether to
// look inside n, and whether n is one of the forms above.
func (p *pkgInfo) teamEdits(k *kernelFunc, im *imports, n ast.Node) ([]edit, bool, bool) {
	if ed, descend, ok := p.scanEdits(k, im, n); ok {
		return ed, descend, ok
	}
	switch n := n.(type) {
	case *ast.StarExpr:
		if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && k.acc != nil && p.info.Uses[id] == k.acc {
			return nil, false, true
		}
	case *ast.ReturnStmt:
		return nil, true, true
	case *ast.RangeStmt:
		m, ok := k.nested[n]
		if !ok {
			break
		}
		call := ast.Unparen(n.X).(*ast.CallExpr)
		off := p.fset.Position(n.Pos()).Offset
		idx := fmt.Sprintf("gkJ%d", off)
		if id, ok := n.Key.(*ast.Ident); ok && id.Name != "_" {
			idx = id.Name
		}
		end := fmt.Sprintf("gkE%d", off)
		head := fmt.Sprintf("for %s, %s := %s.%s(gkM, ", idx, end, im.name(kokkosPath), m)
		tail := fmt.Sprintf(").Share(); %s < %s; %s++ ", idx, end, idx)
		return []edit{{pos: n.For, end: call.Lparen + 1, text: head}, {pos: call.Rparen, end: n.Body.Lbrace, text: tail}}, true, true
	case *ast.AssignStmt:
		for _, sv := range k.scratch {
			if sv.decl != n {
				continue
			}
			text := fmt.Sprintf("%s.Scratch%d(%q, %q, ", im.name(kernelPath), sv.rank, p.pkg.Name()+"."+k.name, sv.name)
			return []edit{{pos: sv.call.Pos(), end: sv.call.Pos(), text: text}, {pos: sv.call.End(), end: sv.call.End(), text: ")", close: true},
				{pos: sv.decl.End(), end: sv.decl.End(), text: scratchMark(sv)}}, true, true
		}
	}
	return nil, false, false
}

// teamUsed reports whether the host body of team kernel k refers to its
// Team other than as the receiver of a nested range, which the host body
// replaces.
func (p *pkgInfo) teamUsed(k *kernelFunc) bool {
	skip := map[*ast.Ident]bool{}
	for rs := range k.nested {
		sel := ast.Unparen(ast.Unparen(rs.X).(*ast.CallExpr).Fun).(*ast.SelectorExpr)
		if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
			skip[id] = true
		}
	}
	for call := range k.scans {
		if id, ok := ast.Unparen(call.Args[0]).(*ast.Ident); ok {
			skip[id] = true
		}
	}
	found := false
	ast.Inspect(k.decl.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !skip[id] && p.info.Uses[id] == k.team {
			found = true
		}
		return !found
	})
	return found
}

// emitTeamHost writes team kernel k's host binder, gkHost<Name>: it takes
// the launch's token and the arguments, builds the accessors (which check
// that the host can run the kernel on each view), takes the bases and
// strides of the views that the unchecked copies of loops address
// (host_team_loops.go), and returns the function of a team's thread (see
// kernel.Spec.Host). A nocheck kernel has two: one whose accesses are all
// plain loads and stores, and, when the launch asks for checks
// (kernel.CheckHostBounds), the checked one of any kernel.
func (p *pkgInfo) emitTeamHost(k *kernelFunc, im *imports, qname string) string {
	loops := p.analyzeLoops(k)
	used := map[string]bool{}
	body, _ := p.hostBody(k, im, &bodyCopy{loops: loops, used: used})
	body = p.scratchBases(k, im, body, used)
	var unchecked string
	if k.nocheck {
		usedU := map[string]bool{}
		body, _ := p.hostBody(k, im, &bodyCopy{loops: loops, all: true, used: usedU})
		unchecked = p.scratchBases(k, im, body, usedU)
		maps.Copy(used, usedU)
	}
	q := im.qualifier(p.pkg)
	kern := im.name(kernelPath)
	member := "gkM *" + im.name(kokkosPath) + ".TeamMember"
	if k.acc != nil {
		member += ", " + k.acc.Name() + " *" + types.TypeString(k.accElem, q)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "func gkHost%s(gkL *%s.Launch, gkArgs []any) (func(%s), error) {\n", k.name, kern, member)
	var locals []string // the names the thread functions may copy
	for j, pr := range k.params {
		used := pr.name != "_" && p.used(k, pr.v)
		name := pr.name
		if !used {
			name = "_"
		}
		typ := types.TypeString(pr.v.Type(), q)
		if pr.isView() {
			fmt.Fprintf(&b, "%s, gkErr%d := %s.View%d(%q, %q, gkArgs[%d].(%s), %v)\n", name, j, kern, pr.rank, qname, pr.name, j, typ, pr.write)
			fmt.Fprintf(&b, "if gkErr%d != nil {\nreturn nil, gkErr%d\n}\n", j, j)
		} else if used {
			fmt.Fprintf(&b, "%s := gkArgs[%d].(%s)\n", name, j, typ)
		}
		if used {
			locals = append(locals, name)
		}
	}
	locals = append(locals, p.teamBases(k, &b, used)...)
	thread := func(body string) string {
		var f strings.Builder
		fmt.Fprintf(&f, "func(%s) {\n", member)
		// Locals of the thread, not variables of the closure.
		names := idents(body)
		var copies []string
		for _, l := range locals {
			if names[l] {
				copies = append(copies, l)
			}
		}
		if len(copies) > 0 {
			fmt.Fprintf(&f, "%s := %s\n", strings.Join(copies, ", "), strings.Join(copies, ", "))
		}
		if k.team.Name() != "_" && p.teamUsed(k) {
			fmt.Fprintf(&f, "%s := %s.TeamOf(gkM)\n", k.team.Name(), kern)
		}
		f.WriteString(body)
		f.WriteString("\n" + endLine)
		f.WriteString("}")
		return f.String()
	}
	if k.nocheck {
		fmt.Fprintf(&b, "if !gkL.Checks() {\nreturn %s, nil\n}\n", thread(unchecked))
	}
	fmt.Fprintf(&b, "return %s, nil\n}\n", thread(body))
	return b.String()
}
