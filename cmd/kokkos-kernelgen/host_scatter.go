package main

import (
	"fmt"
	"go/ast"
	"strings"
)

// In the host kernel, each chunk (or tile) function takes one accessor
// of each ScatterView parameter the body accesses, gkSA_<name> :=
// sv.Access(), before its loops, and gives it back when it returns
// (defer gkSA_<name>.Release()): a duplicated ScatterView's chunk holds
// one id of its token and updates that id's copy with plain loads and
// stores. Each sv.Access() of the body becomes gkSA_<name>, so that the
// body's a := sv.Access() copies the chunk's accessor.

// scatterEdits returns the edits of n when it is sv.Access() of a
// ScatterView parameter, which becomes the chunk's accessor, or an update
// of an accessor, a.M(i0, ..., v), which becomes a plain load and store
// through the accessor's Plain base and strides when the indices are
// within its extents (Plain's extents are 0 for an atomic accessor, and
// for a view whose last stride is not 1), and the method's call
// otherwise:
//
//	if gkT0, ..., gkV := i0, ..., T(v); uint(gkT0) < gkSN_sv_0 && ... {
//		*(*T)(unsafe.Add(gkSP_sv, gkT0*gkSS_sv_0+...+gkTk*sizeof(T))) += gkV
//	} else {
//		a.OutOfLine("M", gkT0, ..., gkV)
//	}
//
// OutOfLine is the method's call out of line, on the accessor's address:
// a call of the method, inlined, would keep the accessor's words live
// across its slow path's call and spill the loop's values to the stack.
//
// In the copy of a nocheck kernel whose accesses are all unchecked
// (unchecked), the test is only that the accessor is plain: gkSN_sv_0 != 0.
// The caller renders the arguments.
func (p *pkgInfo) scatterEdits(k *kernelFunc, im *imports, n *ast.CallExpr, unchecked bool) ([]edit, bool) {
	if pr, m, ok := p.isScatterMethod(k, n); ok && m == "Access" {
		return []edit{{pos: n.Pos(), end: n.End(), text: "gkSA_" + pr.name}}, true
	}
	pr, m, ok := p.scatterUpdate(k, n)
	if !ok || inSimpleStmt(k, n) {
		return nil, false
	}
	sel := ast.Unparen(n.Fun).(*ast.SelectorExpr)
	recv := "gkSA_" + pr.name
	if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
		recv = id.Name
	}
	rank := pr.scatter.rank
	elem := pr.scatter.elem.Name()
	var temps, conds, offs []string
	for d := range rank {
		temps = append(temps, fmt.Sprintf("gkT%d", d))
		conds = append(conds, fmt.Sprintf("uint(gkT%d) < gkSN_%s_%d", d, pr.name, d))
		if d < rank-1 {
			offs = append(offs, fmt.Sprintf("gkT%d*gkSS_%s_%d", d, pr.name, d))
		} else { // Plain's last stride is 1
			offs = append(offs, fmt.Sprintf("gkT%d*%d", d, sizes.Sizeof(pr.scatter.elem)))
		}
	}
	if unchecked {
		conds = []string{fmt.Sprintf("gkSN_%s_0 != 0", pr.name)}
	}
	ptr := fmt.Sprintf("(*%s)(%s.Add(gkSP_%s, %s))", elem, im.name("unsafe"), pr.name, strings.Join(offs, "+"))
	op := map[string]string{"Add": "+=", "Sub": "-=", "Mul": "*=", "Div": "/="}[m]
	if m == "Update" {
		op = map[string]string{"ScatterSum": "+=", "ScatterProd": "*="}[pr.scatter.op]
	}
	fast := "*" + ptr + " " + op + " gkV"
	switch {
	case op != "":
	case pr.scatter.op == "ScatterMin":
		fast = "if gkE := " + ptr + "; gkV < *gkE {\n*gkE = gkV\n}"
	default:
		fast = "if gkE := " + ptr + "; gkV > *gkE {\n*gkE = gkV\n}"
	}
	last := n.Args[len(n.Args)-1]
	args := strings.Join(append(temps, "gkV"), ", ")
	return []edit{
		{pos: n.Pos(), end: n.Args[0].Pos(), text: "if " + args + " := "},
		{pos: last.Pos(), end: last.Pos(), text: elem + "("},
		{pos: last.End(), end: n.End(), text: "); " + strings.Join(conds, " && ") + " {\n" + fast + "\n} else {\n" + recv + ".OutOfLine(\"" + m + "\", " + args + ")\n}"},
	}, true
}

// scatterPrologue returns the declarations of the accessors that body,
// a chunk function's text, uses, and of their Plain bases, extents and
// strides.
func (p *pkgInfo) scatterPrologue(k *kernelFunc, body string) string {
	names := idents(body)
	var b strings.Builder
	for _, pr := range k.params {
		if pr.scatter == nil || !names["gkSA_"+pr.name] {
			continue
		}
		fmt.Fprintf(&b, "gkSA_%s := %s.Access()\ndefer gkSA_%s.Release()\n", pr.name, pr.name, pr.name)
		if !names["gkSP_"+pr.name] {
			continue
		}
		vars := []string{"gkSP_" + pr.name}
		for d := range pr.scatter.rank {
			vars = append(vars, fmt.Sprintf("gkSN_%s_%d", pr.name, d))
		}
		for d := range pr.scatter.rank - 1 {
			vars = append(vars, fmt.Sprintf("gkSS_%s_%d", pr.name, d))
		}
		for i, v := range vars {
			if !names[v] {
				vars[i] = "_"
			}
		}
		fmt.Fprintf(&b, "%s := gkSA_%s.Plain()\n", strings.Join(vars, ", "), pr.name)
	}
	return b.String()
}

// inSimpleStmt reports whether the call n is the init or post statement
// of a for, if or switch statement of k, where Go takes no if statement:
// there the update stays the method's call.
func inSimpleStmt(k *kernelFunc, n *ast.CallExpr) bool {
	found := false
	is := func(s ast.Stmt) bool {
		es, ok := s.(*ast.ExprStmt)
		return ok && es.X == n
	}
	ast.Inspect(k.decl.Body, func(x ast.Node) bool {
		switch s := x.(type) {
		case *ast.ForStmt:
			found = found || is(s.Init) || is(s.Post)
		case *ast.IfStmt:
			found = found || is(s.Init)
		case *ast.SwitchStmt:
			found = found || is(s.Init)
		}
		return !found
	})
	return found
}

// scatterBinds returns the host binder's checks that each ScatterView
// parameter the body uses can be updated on the host (HostError).
func (p *pkgInfo) scatterBinds(k *kernelFunc) string {
	var b strings.Builder
	for _, pr := range k.params {
		if pr.scatter != nil && pr.name != "_" && p.used(k, pr.v) {
			fmt.Fprintf(&b, "if gkErr := %s.HostError(); gkErr != nil {\nreturn nil, gkErr\n}\n", pr.name)
		}
	}
	return b.String()
}
