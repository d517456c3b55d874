package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
)

// Helpers that take views (kokkos.View1 to View6 parameters), as a C++
// Kokkos body is factored into functions of views: they read and write
// the views with At, Set, Ptr, Extent and the atomics, as a kernel does,
// and a view they write (or pass to a helper that writes it) makes the
// calling kernel's view parameter written (param.write).
//
// A kernel's host body holds its views as accessors of package kernel
// (A1 to A6), not as views, so it cannot call the user's function: each
// helper with views has a host copy, gkH<name>, of the same body taking
// pointers to accessors, which the host bodies (and the host copies)
// call instead, with &v for an accessor v of the kernel.

// viewPass is a view given to a helper's view parameter: when the helper
// writes to, the caller writes from.
type viewPass struct{ from, to *param }

// helperView returns the view parameter v of helper k, nil if v is no
// view.
func (p *pkgInfo) helperView(k *kernelFunc, v *types.Var) (*param, error) {
	rank, elem, ok := viewType(v.Type())
	if !ok {
		return nil, nil
	}
	if k.recv != nil {
		return nil, p.errorf(v.Pos(), k.name, "a helper method cannot take views; write a function")
	}
	if v.Name() == "_" || v.Name() == "" {
		return nil, p.errorf(v.Pos(), k.name, "a view parameter of a helper needs a name")
	}
	return &param{v: v, name: v.Name(), rank: rank, elem: elem}, nil
}

// hasViews reports whether helper f takes views.
func (f *kernelFunc) hasViews() bool {
	for _, pr := range f.params {
		if pr.isView() {
			return true
		}
	}
	return false
}

// helperArgs checks the arguments of a call of helper h: a view
// parameter is given a view parameter of the caller.
func (c *checker) helperArgs(h *kernelFunc, x *ast.CallExpr) {
	for n, a := range x.Args {
		if n >= len(h.params) || !h.params[n].isView() {
			c.expr(a)
			continue
		}
		if id, ok := ast.Unparen(a).(*ast.Ident); ok {
			if v, ok := c.p.info.Uses[id].(*types.Var); ok {
				if pr := c.param(v); pr != nil && pr.isView() {
					c.p.viewPasses = append(c.p.viewPasses, viewPass{pr, h.params[n]})
					continue
				}
			}
		}
		c.refuse(a.Pos(), "the view argument "+types.ExprString(a), "pass a view parameter")
	}
}

// propagateViewWrites marks written the views given to helpers' view
// parameters that are written.
func (p *pkgInfo) propagateViewWrites() {
	for changed := true; changed; {
		changed = false
		for _, vp := range p.viewPasses {
			if vp.to.write && !vp.from.write {
				vp.from.write = true
				changed = true
			}
		}
	}
}

// viewHelperOf returns the helper with views that call calls, or nil.
func (p *pkgInfo) viewHelperOf(call *ast.CallExpr) *kernelFunc {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	fn, ok := p.info.Uses[id].(*types.Func)
	if !ok {
		return nil
	}
	if h := p.byObj[fn]; h != nil && h.helper && h.hasViews() {
		return h
	}
	return nil
}

// viewHelperCallEdits returns the edits of a host body's call of a helper
// with views: the call of gkH<name>, given &v for each view v when the
// caller holds accessors (a kernel's body), v when it holds pointers to
// them (a host copy).
func (p *pkgInfo) viewHelperCallEdits(call *ast.CallExpr, addr bool) []edit {
	h := p.viewHelperOf(call)
	if h == nil {
		return nil
	}
	fun := ast.Unparen(call.Fun)
	edits := []edit{{pos: fun.Pos(), end: fun.End(), text: "gkH" + h.name}}
	if addr {
		for n, a := range call.Args {
			if n < len(h.params) && h.params[n].isView() {
				edits = append(edits, edit{pos: a.Pos(), end: a.Pos(), text: "&"})
			}
		}
	}
	return edits
}

// emitViewHelpers writes the host copy of each helper with views that a
// kernel calls.
func (p *pkgInfo) emitViewHelpers(im *imports) string {
	var b strings.Builder
	for _, f := range p.kernels {
		if f.helper && f.hasViews() {
			b.WriteString("\n")
			b.WriteString(p.emitViewHelper(f, im))
		}
	}
	return b.String()
}

// emitViewHelper writes gkH<name>, the host copy of helper f.
func (p *pkgInfo) emitViewHelper(f *kernelFunc, im *imports) string {
	q := im.qualifier(p.pkg)
	kern := im.name(kernelPath)
	sig := f.obj.Type().(*types.Signature)
	var params []string
	for _, pr := range f.params {
		if pr.isView() {
			params = append(params, fmt.Sprintf("%s *%s.A%d[%s]", pr.name, kern, pr.rank, types.TypeString(pr.elem, q)))
			continue
		}
		params = append(params, hostName(pr.name, "_")+" "+types.TypeString(pr.v.Type(), q))
	}
	var results []string
	named := false
	for v := range sig.Results().Variables() {
		t := types.TypeString(v.Type(), q)
		if v.Name() != "" {
			named = true
			t = v.Name() + " " + t
		}
		results = append(results, t)
	}
	res := strings.Join(results, ", ")
	if named || len(results) > 1 {
		res = "(" + res + ")"
	}
	var edits []edit
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			edits = append(edits, p.viewHelperCallEdits(n, false)...)
		case *ast.BinaryExpr:
			// As in a kernel's host body: a float product is rounded
			// before it is added (Go may fuse them; the GPU does not).
			if t, ok := p.info.Types[n].Type.(*types.Basic); ok && n.Op == token.MUL && t.Info()&types.IsFloat != 0 && p.info.Types[n].Value == nil {
				edits = append(edits, edit{pos: n.Pos(), end: n.Pos(), text: t.Name() + "("}, edit{pos: n.End(), end: n.End(), text: ")", close: true})
			}
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if pn, ok := p.info.Uses[id].(*types.PkgName); ok {
					edits = append(edits, edit{pos: id.Pos(), end: id.End(), text: im.name(pn.Imported().Path())})
					return false
				}
			}
		case *ast.Ident:
			if obj := p.info.Uses[n]; obj != nil && obj.Pkg() != nil && obj.Pkg() != p.pkg && obj.Parent() == obj.Pkg().Scope() {
				edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: im.name(obj.Pkg().Path()) + "." + n.Name})
			}
		}
		return true
	}
	body := f.decl.Body
	ast.Inspect(body, visit)
	src := p.source(body.Lbrace+1, body.Rbrace)
	base := body.Lbrace + 1
	sortEdits(edits)
	var b strings.Builder
	at := 0
	for _, e := range edits {
		b.WriteString(src[at : e.pos-base])
		b.WriteString(e.text)
		at = int(e.end - base)
	}
	b.WriteString(src[at:])
	first := base + token.Pos(len(src)-len(strings.TrimLeft(src, " \t\r\n")))
	at0 := p.fset.Position(first)
	return fmt.Sprintf("// gkH%s is the host copy of %s, on accessors.\nfunc gkH%s(%s) %s {\n/*line %s:%d:%d*/%s\n%s}\n",
		f.name, f.name, f.name, strings.Join(params, ", "), res, filepath.Base(at0.Filename), at0.Line, at0.Column, strings.TrimSpace(b.String()), endLine)
}
