package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// The host kernel of a kernel is its body, as the user wrote it, inside a
// loop over the indices of one chunk (or tile) of the policy. Each view
// parameter becomes a local accessor of package kernel (A1 to A6) of the
// same name, whose At, Set, Ptr and Extent the body calls as it called the
// view's: they inline to a bounds check and a load or store. The few edits
// to the body's text are:
//
//   - *acc becomes gkAcc, a local accumulator stored back at the chunk's end;
//   - a return (a kernel's returns are bare) becomes continue gkNext, the
//     label of the innermost index loop;
//   - a package qualifier (math.Sqrt, kokkos.AtomicAdd) becomes the
//     generated file's name for that package (gkmath, gkkokkos);
//   - in the copies without checks, an access becomes a load or store
//     through the view's base and strides, and a loop whose accesses a
//     test before it can check becomes that test and the loop's copies
//     (host_loops.go).
//
// Identifiers starting with gk are refused in kernels, so the generated
// names cannot collide with the body's.

// imports collects the packages the generated file refers to, by path,
// and gives each a name that starts with gk.
type imports struct {
	names map[string]string // path → name
	used  map[string]bool   // names given
}

func newImports() *imports {
	return &imports{names: map[string]string{}, used: map[string]bool{}}
}

// name returns the name of the package at path in the generated file.
func (im *imports) name(p string) string {
	if n, ok := im.names[p]; ok {
		return n
	}
	base := "gk" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, path.Base(p))
	n := base
	for i := 2; im.used[n]; i++ {
		n = fmt.Sprintf("%s%d", base, i)
	}
	im.names[p], im.used[n] = n, true
	return n
}

// decls returns the import declarations, sorted by path.
func (im *imports) decls() string {
	paths := make([]string, 0, len(im.names))
	for p := range im.names {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	b.WriteString("import (\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "\t%s %q\n", im.names[p], p)
	}
	b.WriteString(")\n")
	return b.String()
}

// qualifier writes types of other packages with the generated file's
// names for them.
func (im *imports) qualifier(self *types.Package) types.Qualifier {
	return func(p *types.Package) string {
		if p == self {
			return ""
		}
		return im.name(p.Path())
	}
}

// edit replaces the source text in [pos, end) with text; an edit with
// pos == end inserts. close marks the insertion of a closing parenthesis,
// seq the order in which the edits were made.
type edit struct {
	pos, end token.Pos
	text     string
	close    bool
	seq      int
}

// sortEdits orders edits by position; at one position, insertions come
// before replacements, and of the closing parentheses of nested
// expressions, the inner one (made later) first.
func sortEdits(edits []edit) {
	for i := range edits {
		edits[i].seq = i
	}
	sort.SliceStable(edits, func(i, j int) bool {
		a, b := edits[i], edits[j]
		if a.pos != b.pos {
			return a.pos < b.pos
		}
		az, bz := a.pos == a.end, b.pos == b.end
		if az != bz {
			return az
		}
		return az && a.close && b.close && a.seq > b.seq
	})
}

// An access is a view method call (At, Set, Ptr) of a kernel body whose
// indices are all affine in the index parameters: an index parameter plus
// or minus a constant, or a constant. Over a chunk of indices its indices
// span a box that one test per chunk checks against the extents; a chunk
// that passes runs a copy of the body in which the access is a plain load
// or store, without a bounds check.
type access struct {
	v      *param
	method string
	idx    []affine
}

// affine is an index expression r + c (r an index parameter's position),
// or the constant c when r is -1.
type affine struct {
	r int
	c int64
}

// accesses returns the affine accesses of k's body.
func (p *pkgInfo) accesses(k *kernelFunc) map[*ast.CallExpr]*access {
	acc := map[*ast.CallExpr]*access{}
	ast.Inspect(k.decl.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		v, m, ok := p.isViewMethod(k, call)
		if !ok || m == "Extent" {
			return true
		}
		nidx := len(call.Args)
		if m == "Set" {
			nidx--
		}
		a := &access{v: v, method: m}
		for _, e := range call.Args[:nidx] {
			af, ok := p.affineOf(k, e)
			if !ok {
				return true
			}
			a.idx = append(a.idx, af)
		}
		acc[call] = a
		return true
	})
	return acc
}

// affineOf returns e as an affine index, if it is one.
func (p *pkgInfo) affineOf(k *kernelFunc, e ast.Expr) (affine, bool) {
	e = ast.Unparen(e)
	if c, ok := p.intConst(e); ok {
		return affine{-1, c}, true
	}
	switch e := e.(type) {
	case *ast.Ident:
		for r, v := range k.index {
			if p.info.Uses[e] == v {
				return affine{r, 0}, true
			}
		}
	case *ast.BinaryExpr:
		if e.Op != token.ADD && e.Op != token.SUB {
			break
		}
		x, okx := p.affineOf(k, e.X)
		y, oky := p.affineOf(k, e.Y)
		if !okx || !oky || x.r >= 0 && y.r >= 0 {
			break
		}
		if e.Op == token.SUB {
			if y.r >= 0 {
				break
			}
			y.c = -y.c
		}
		r := max(x.r, y.r)
		return affine{r, x.c + y.c}, true
	}
	return affine{}, false
}

// intConst returns the value of a constant integer expression that fits
// an int64 with room to add to an index.
func (p *pkgInfo) intConst(e ast.Expr) (int64, bool) {
	tv, ok := p.info.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
		return 0, false
	}
	c, exact := constant.Int64Val(tv.Value)
	if !exact || c > 1<<40 || c < -(1<<40) {
		return 0, false
	}
	return c, true
}

// bodyCopy says how a copy of the body is written.
type bodyCopy struct {
	acc   map[*ast.CallExpr]*access // the accesses the chunk test covers
	rows  *rowBases                 // non-nil: those accesses are plain, through rows
	all   bool                      // every access is plain (a nocheck kernel, unchecked)
	loops *loopAnalysis             // non-nil: loops check their accesses once (host_loops.go)
	next  string                    // the label a return continues
	used  map[string]bool           // the gkP_ and gkS_ names the copy writes
	md    *mdHoist                  // non-nil: values the innermost index loop does not change go before it (host_md.go)
}

// hostBody returns k's body, as the statements inside its braces, with the
// edits above, and whether it had a return. With c.rows, the accesses of
// c.acc become loads and stores through the gkP (base) and gkS (byte
// stride) locals of their views and the row bases of rows; with c.all,
// every access does; with c.loops, each loop whose accesses a test before
// it can check runs in copies without checks, and as written when the
// test fails (host_loops.go).
func (p *pkgInfo) hostBody(k *kernelFunc, im *imports, c *bodyCopy) (string, bool) {
	if c.used == nil {
		c.used = map[string]bool{}
	}
	r := &bodyRender{p: p, k: k, im: im, q: im.qualifier(p.pkg), c: c}
	covered := map[*ast.CallExpr]bool{}
	if c.rows != nil {
		for call := range c.acc {
			covered[call] = true
		}
	}
	base := k.decl.Body.Lbrace + 1
	src := r.render(k.decl.Body, base, k.decl.Body.Rbrace, covered)
	// The body keeps its lines: a line directive gives its first
	// statement the position it has in the user's file, so that a panic's
	// stack, and a compile error, name the user's line, not the
	// generated file's (writeLoops ends the mapping after the body).
	orig := p.source(base, k.decl.Body.Rbrace)
	first := base + token.Pos(len(orig)-len(strings.TrimLeft(orig, " \t\r\n")))
	return r.lineAt(first) + strings.TrimSpace(src), r.returns
}

// bodyRender writes one copy of a body.
type bodyRender struct {
	p       *pkgInfo
	k       *kernelFunc
	im      *imports
	q       types.Qualifier
	c       *bodyCopy
	returns bool
	loopRender
}

// lineAt returns the line directive that gives the next character the
// position pos has in the user's file.
func (r *bodyRender) lineAt(pos token.Pos) string {
	at := r.p.fset.Position(pos)
	return fmt.Sprintf("/*line %s:%d:%d*/", filepath.Base(at.Filename), at.Line, at.Column)
}

// render returns the source in [from, to), which root spans, with the
// edits; the accesses of covered are plain loads and stores.
func (r *bodyRender) render(root ast.Node, from, to token.Pos, covered map[*ast.CallExpr]bool) string {
	p, k, c := r.p, r.k, r.c
	var edits []edit
	var visit func(n ast.Node) bool
	// The nodes being visited, and what to undo when each is left.
	var stack []func()
	var undo func()        // set by visit: what to undo when its node is left
	var rootDecls []string // the declarations to write before root
	inspect := func(n ast.Node) bool {
		if n == nil {
			if f := stack[len(stack)-1]; f != nil {
				f()
			}
			stack = stack[:len(stack)-1]
			return false
		}
		undo = nil
		if !visit(n) {
			if undo != nil {
				undo()
			}
			return false
		}
		stack = append(stack, undo)
		return true
	}
	visit = func(n ast.Node) bool {
		if text, ok := r.held(n); ok {
			edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: text})
			return false
		}
		if name, ok := r.mdValue(n, covered); ok {
			edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: name})
			return false
		}
		var team []edit // a nested range's edits, unless the loop is replaced
		if k.team != nil {
			if ed, descend, ok := p.teamEdits(k, r.im, n); ok {
				if _, loop := n.(*ast.RangeStmt); !loop || c.loops == nil {
					edits = append(edits, ed...)
					return descend
				}
				team = ed
			}
		}
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if c.loops == nil {
				break
			}
			loop := n.(ast.Stmt)
			if n != root && c.all {
				if text, ok := r.splitLoop(loop); ok {
					edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: text})
					return false
				}
			} else if n != root {
				if text, ok := r.testLoop(loop, covered); ok {
					edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: text})
					return false
				}
			}
			edits = append(edits, team...)
			// The parts of the covered accesses' offsets that do not
			// change in this loop, computed before it.
			var decls []string
			decls, undo = r.hoist(loop, covered)
			if text, ok := r.simdLoop(loop); ok {
				if n == root {
					rootDecls = decls
				} else if len(decls) > 0 {
					text = strings.Join(decls, "\n") + "\n" + r.lineAt(n.Pos()) + text
				}
				edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: text})
				return false
			}
			if n == root {
				rootDecls = decls
			} else if len(decls) > 0 {
				edits = append(edits, edit{pos: n.Pos(), end: n.Pos(), text: strings.Join(decls, "\n") + "\n" + r.lineAt(n.Pos())})
			}
		case *ast.CallExpr:
			if es, ok := p.scatterEdits(k, r.im, n, c.all); ok {
				edits = append(edits, es...)
				for _, e := range n.Args {
					ast.Inspect(e, inspect)
				}
				return false
			}
			edits = append(edits, p.viewHelperCallEdits(n, true)...)
			if a := c.acc[n]; a != nil && c.rows != nil {
				elem := types.TypeString(a.v.elem, r.q)
				ptr := fmt.Sprintf("(*%s)(%s)", elem, c.rows.ptr(a))
				switch a.method {
				case "At":
					edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: "(*" + ptr + ")"})
				case "Ptr":
					edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: ptr})
				case "Set":
					x := n.Args[len(n.Args)-1]
					edits = append(edits, edit{pos: n.Pos(), end: x.Pos(), text: "*" + ptr + " = ("}, edit{pos: x.End(), end: n.End(), text: ")"})
					ast.Inspect(x, inspect)
				}
				return false
			}
			if !c.all && !covered[n] {
				break
			}
			pr, m, ok := p.isViewMethod(k, n)
			if !ok || m != "At" && m != "Set" && m != "Ptr" {
				break
			}
			if es, ok := r.hoisted(n, pr, m); ok {
				edits = append(edits, es...)
				if m == "Set" {
					ast.Inspect(n.Args[len(n.Args)-1], inspect)
				}
				return false
			}
			edits = append(edits, r.plain(n, pr, m)...)
			for _, e := range n.Args {
				ast.Inspect(e, inspect)
			}
			return false
		case *ast.BinaryExpr:
			// Go may fuse x*y + z into one multiply-add (on arm64, or
			// amd64 with GOAMD64=v3); an explicit conversion of the
			// product rounds it, as the CUDA code (compiled with fused
			// multiply-adds off) does.
			if t, ok := p.info.Types[n].Type.(*types.Basic); ok && n.Op == token.MUL && t.Info()&types.IsFloat != 0 && p.info.Types[n].Value == nil {
				edits = append(edits, edit{pos: n.Pos(), end: n.Pos(), text: t.Name() + "("}, edit{pos: n.End(), end: n.End(), text: ")", close: true})
			}
		case *ast.StarExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && k.acc != nil && p.info.Uses[id] == k.acc {
				edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: "gkAcc"})
				return false
			}
		case *ast.ReturnStmt:
			edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: "continue " + c.next})
			r.returns = true
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if pn, ok := p.info.Uses[id].(*types.PkgName); ok {
					edits = append(edits, edit{pos: id.Pos(), end: id.End(), text: r.im.name(pn.Imported().Path())})
					return false
				}
			}
		case *ast.Ident:
			// A name of another package, dot-imported: qualified.
			if obj := p.info.Uses[n]; obj != nil && obj.Pkg() != nil && obj.Pkg() != p.pkg && obj.Parent() == obj.Pkg().Scope() {
				edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: r.im.name(obj.Pkg().Path()) + "." + n.Name})
			}
		}
		return true
	}
	ast.Inspect(root, inspect)
	r.rootDecls = rootDecls
	src := p.source(from, to)
	sortEdits(edits)
	var b strings.Builder
	at := 0
	for _, e := range edits {
		b.WriteString(src[at : e.pos-from])
		b.WriteString(e.text)
		at = int(e.end - from)
	}
	b.WriteString(src[at:])
	return b.String()
}

// strideText returns the text of the stride named name: its value where
// the chunk's copy folded it, else its name, then marked used.
func (r *bodyRender) strideText(name string) string {
	if rb := r.c.rows; rb != nil && rb.consts != nil {
		if v, ok := rb.consts[name]; ok {
			return fmt.Sprint(v)
		}
	}
	r.c.used[name] = true
	return name
}

// plain returns the edits that make the access n (method m of view pr) a
// load or store through the view's base and byte strides, its index
// expressions kept in place: base + i0*stride0 + i1*stride1 ...
func (r *bodyRender) plain(n *ast.CallExpr, pr *param, m string) []edit {
	nidx := len(n.Args)
	if m == "Set" {
		nidx--
	}
	elem := types.TypeString(pr.elem, r.q)
	base := "gkP_" + pr.name
	r.c.used[base] = true
	head := fmt.Sprintf("(*%s)(%s.Add(%s, (", elem, r.im.name("unsafe"), base)
	switch m {
	case "At":
		head = "(*" + head
	case "Set":
		head = "*" + head
	}
	edits := []edit{{pos: n.Pos(), end: n.Args[0].Pos(), text: head}}
	for d := range nidx {
		stride := r.strideText(fmt.Sprintf("gkS_%s_%d", pr.name, d))
		end := n.End()
		text := ")*" + stride + "))"
		switch {
		case d+1 < nidx:
			end, text = n.Args[d+1].Pos(), ")*"+stride+"+("
		case m == "At":
			text += ")"
		case m == "Set":
			end, text = n.Args[nidx].Pos(), text+" = ("
		}
		edits = append(edits, edit{pos: n.Args[d].End(), end: end, text: text})
	}
	if m == "Set" {
		edits = append(edits, edit{pos: n.Args[nidx].End(), end: n.End(), text: ")"})
	}
	return edits
}

// rowBases hoists, out of the innermost loop of the unchecked body, the
// part of each access's address that does not depend on the innermost
// index: the view's base plus the outer indices times their strides.
//
// With contig, the innermost index's byte stride is the element's size, a
// constant, in every view dimension it indexes, or, for the dimensions in
// rows, the size of a row of the view's dimensions after it (rowStrides);
// folded records those dimensions (as the conditions that their strides
// are those constants).
type rowBases struct {
	k      *kernelFunc
	inner  int               // the innermost index's position
	unsafe string            // the generated file's name for package unsafe
	names  map[string]string // the text of a row base → its variable
	decls  []string          // the declarations, before the innermost loop
	contig bool
	rows   map[string]int64 // a stride's name → its value in a row (rowStrides)
	folded map[string]bool
	consts map[string]int64 // the strides folded: name → value
	used   map[string]bool  // the gkP_ and gkS_ names written
}

// rowStrides returns, for the views whose accesses in acc index their
// last dimensions with constants only, as rows of positions (x.At(i, 0),
// x.At(i, 1), x.At(i, 2) of an (N, 3) view) do, the byte stride of the
// dimension before them that the innermost index inner indexes, were
// the view laid out right with those dimensions as small as the
// constants allow: the element's size times the product of the largest
// constants plus one (24 for rows of 3 float64). The rows' own strides
// stay out of the innermost loop (rowBases); this one, a constant, makes
// the address of a row a multiplication by a constant, as in a loop by
// hand over a slice with a stride of 3.
func rowStrides(acc map[*ast.CallExpr]*access, inner int) map[string]int64 {
	type dim struct {
		v *param
		d int
	}
	maxc := map[dim]int64{}
	notConst := map[dim]bool{}
	innerDims := map[dim]bool{}
	for _, a := range acc {
		for d, af := range a.idx {
			k := dim{a.v, d}
			switch {
			case af.r < 0:
				maxc[k] = max(maxc[k], af.c)
			case af.r == inner:
				innerDims[k] = true
				notConst[k] = true
			default:
				notConst[k] = true
			}
		}
	}
	out := map[string]int64{}
	for k := range innerDims {
		if k.d == k.v.rank-1 {
			continue
		}
		size := sizes.Sizeof(k.v.elem)
		for d := k.d + 1; d < k.v.rank; d++ {
			if notConst[dim{k.v, d}] || maxc[dim{k.v, d}] >= 16 {
				size = 0
				break
			}
			size *= maxc[dim{k.v, d}] + 1
		}
		if size > sizes.Sizeof(k.v.elem) { // rows of one are the unit strides' copy
			out[fmt.Sprintf("gkS_%s_%d", k.v.name, k.d)] = size
		}
	}
	return out
}

// ptr returns the address of access a.
func (rb *rowBases) ptr(a *access) string {
	var outer, inner []string
	for d, af := range a.idx {
		stride := fmt.Sprintf("gkS_%s_%d", a.v.name, d)
		if af.r == rb.inner && rb.contig {
			size := sizes.Sizeof(a.v.elem)
			if r, ok := rb.rows[stride]; ok {
				size = r
			}
			rb.folded[fmt.Sprintf("%s == %d", stride, size)] = true
			rb.consts[stride] = size
			rb.used[stride] = true // by the condition
			stride = fmt.Sprint(size)
		} else {
			rb.used[stride] = true
		}
		t := fmt.Sprintf("(%s)*%s", affineText(rb.k, af), stride)
		if af.r == rb.inner {
			inner = append(inner, t)
		} else {
			outer = append(outer, t)
		}
	}
	base := "gkP_" + a.v.name
	rb.used[base] = true
	if len(outer) > 0 {
		text := fmt.Sprintf("%s.Add(%s, %s)", rb.unsafe, base, strings.Join(outer, "+"))
		name, ok := rb.names[text]
		if !ok {
			name = fmt.Sprintf("gkR%d", len(rb.names))
			rb.names[text] = name
			rb.decls = append(rb.decls, name+" := "+text)
		}
		base = name
	}
	if len(inner) == 0 {
		return base
	}
	return fmt.Sprintf("%s.Add(%s, %s)", rb.unsafe, base, strings.Join(inner, "+"))
}

// sizes gives the sizes of the element types, which are the same on
// every platform.
var sizes = types.SizesFor("gc", "amd64")

// affineText writes an affine index as Go.
func affineText(k *kernelFunc, af affine) string {
	if af.r < 0 {
		return fmt.Sprint(af.c)
	}
	i := hostName(k.index[af.r].Name(), fmt.Sprintf("gkI%d", af.r))
	switch {
	case af.c > 0:
		return fmt.Sprintf("%s+%d", i, af.c)
	case af.c < 0:
		return fmt.Sprintf("%s-%d", i, -af.c)
	}
	return i
}

// chunkTest returns the condition under which every access of acc stays
// within its view's extents for all the indices of a chunk (gkLo, gkHi),
// which must not be empty, or "" when there is no access to check.
func chunkTest(k *kernelFunc, acc map[*ast.CallExpr]*access) string {
	// The least and greatest offset from each index, per view dimension.
	type key struct {
		view string
		d, r int
	}
	lo, hi := map[key]int64{}, map[key]int64{}
	for _, a := range acc {
		for d, af := range a.idx {
			kk := key{a.v.name, d, af.r}
			if c, ok := lo[kk]; !ok || af.c < c {
				lo[kk] = af.c
			}
			if c, ok := hi[kk]; !ok || af.c > c {
				hi[kk] = af.c
			}
		}
	}
	if len(lo) == 0 {
		return ""
	}
	var conds []string
	for r := range k.index {
		conds = append(conds, fmt.Sprintf("%s < %s", bound(k, "gkLo", r, 0), bound(k, "gkHi", r, 0)))
	}
	for kk, c := range lo {
		if kk.r < 0 {
			conds = append(conds, fmt.Sprintf("%d >= 0", c), fmt.Sprintf("%d < %s.Extent(%d)", hi[kk], kk.view, kk.d))
			continue
		}
		conds = append(conds, bound(k, "gkLo", kk.r, c)+" >= 0", fmt.Sprintf("%s <= %s.Extent(%d)", bound(k, "gkHi", kk.r, hi[kk]), kk.view, kk.d))
	}
	sort.Strings(conds)
	return strings.Join(slices.Compact(conds), " && ")
}

// bound writes gkLo or gkHi of index r, plus c.
func bound(k *kernelFunc, name string, r int, c int64) string {
	s := name
	if len(k.index) > 1 {
		s = fmt.Sprintf("%s[%d]", name, r)
	}
	if c != 0 {
		s += fmt.Sprintf("%+d", c)
	}
	return s
}

// source returns the text of the file between pos and end.
func (p *pkgInfo) source(pos, end token.Pos) string {
	f := p.fset.File(pos)
	return string(p.text[f.Name()][f.Offset(pos):f.Offset(end)])
}

// used reports whether the body of k refers to v.
func (p *pkgInfo) used(k *kernelFunc, v *types.Var) bool {
	found := false
	ast.Inspect(k.decl.Body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && p.info.Uses[id] == v {
			found = true
		}
		return !found
	})
	return found
}

// hostName returns the name a generated function gives the Go name n: n,
// or a gk name for the blank identifier.
func hostName(n, blank string) string {
	if n == "_" || n == "" {
		return blank
	}
	return n
}

// emitHost writes k's host binder, gkHost<Name>: it takes the launch's
// token and the arguments, builds the accessors (which check that the host
// can run the kernel on each view), takes the bases of the views that the
// unchecked copies of the body address (which only the token gives), and
// returns the chunk (or tile) function. A nocheck kernel has two: one
// whose accesses are all plain loads and stores, and, when the launch
// asks for checks (kernel.CheckHostBounds), the checked one of any kernel.
func (p *pkgInfo) emitHost(k *kernelFunc, im *imports, qname string) string {
	if k.team != nil {
		return p.emitTeamHost(k, im, qname)
	}
	accs := p.accesses(k)
	loops := p.analyzeLoops(k)
	k.hold = p.poolHoldOf(k)
	q := im.qualifier(p.pkg)
	kern := im.name(kernelPath)
	rank := len(k.index)
	var b strings.Builder
	// The signature (see kernel.Spec.Host).
	lohi := "int"
	if rank > 1 {
		lohi = fmt.Sprintf("[%d]int", rank)
	}
	chunk := "gkLo, gkHi " + lohi
	if k.acc != nil {
		chunk += ", gkAccP *" + types.TypeString(k.accElem, q)
	}
	if k.final != nil {
		chunk += ", " + k.final.Name() + " bool"
	}
	right := ""
	if rank > 1 {
		right = ", gkRight bool"
	}
	fmt.Fprintf(&b, "func gkHost%s(gkL *%s.Launch, gkArgs []any%s) (func(%s), error) {\n", k.name, kern, right, chunk)
	// The parameters, as locals of their Go names.
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
	}
	b.WriteString(p.scatterBinds(k))
	orders := [][]int{rightOrder(rank)}
	if rank > 1 {
		orders = append(orders, leftOrder(rank))
	}
	bases := map[string]bool{}
	var checked, unchecked []string
	for _, order := range orders {
		checked = append(checked, p.hostChunk(k, im, chunk, order, accs, loops, false, bases))
		if k.nocheck {
			unchecked = append(unchecked, p.hostChunk(k, im, chunk, order, accs, loops, true, bases))
		}
	}
	// The bases of the views that the unchecked copies address, which the
	// accessors give only during this call (gkL).
	for _, pr := range k.params {
		if bases["gkP_"+pr.name] {
			fmt.Fprintf(&b, "gkP_%s := %s.Base(gkL)\n", pr.name, pr.name)
		}
	}
	returns := func(fs []string) {
		if rank > 1 {
			fmt.Fprintf(&b, "if gkRight {\nreturn %s, nil\n}\n", fs[0])
		}
		fmt.Fprintf(&b, "return %s, nil\n", fs[len(fs)-1])
	}
	if k.nocheck {
		b.WriteString("if !gkL.Checks() {\n")
		returns(unchecked)
		b.WriteString("}\n")
	}
	returns(checked)
	b.WriteString("}\n")
	return b.String()
}

// hostChunk returns the chunk (or tile) function of k over its indices in
// order: the checked one, in which a test per chunk and per loop
// selects copies of the body without checks, or, with unchecked (a
// nocheck kernel), one in which every access is a plain load or store. It
// adds the bases it needs to bases.
func (p *pkgInfo) hostChunk(k *kernelFunc, im *imports, chunk string, order []int, accs map[*ast.CallExpr]*access, loops *loopAnalysis, unchecked bool, bases map[string]bool) string {
	used := map[string]bool{}
	test := chunkTest(k, accs)
	var b strings.Builder
	if k.acc != nil {
		b.WriteString("gkAcc := *gkAccP\n")
	}
	b.WriteString(p.holdText(k, true))
	newRows := func(contig bool, rows map[string]int64) *rowBases {
		rb := &rowBases{k: k, inner: order[len(order)-1], unsafe: im.name("unsafe"), names: map[string]string{}, used: used, rows: rows}
		if contig {
			rb.contig, rb.folded, rb.consts = true, map[string]bool{}, map[string]int64{}
			// The strides folded, known before the body is written, so
			// that the other accesses may use them too (strideText).
			for _, a := range accs {
				rb.ptr(a)
			}
			rb.names, rb.decls = map[string]string{}, nil
		}
		return rb
	}
	if unchecked || test != "" {
		// Two copies whose affine accesses are plain: the innermost
		// strides folded to the element size where they are that, and
		// any strides; and, for views of small rows indexed by
		// constants, a third, whose rows are laid out right.
		contig, rows := newRows(true, nil), newRows(false, nil)
		mdC, mdU := newMDHoist(k, order, loops), newMDHoist(k, order, loops)
		cbody, returns := p.hostBody(k, im, &bodyCopy{acc: accs, rows: contig, all: unchecked, loops: loops, next: "gkNextC", used: used, md: mdC})
		fast, _ := p.hostBody(k, im, &bodyCopy{acc: accs, rows: rows, all: unchecked, loops: loops, next: "gkNextU", used: used, md: mdU})
		if !unchecked {
			fmt.Fprintf(&b, "if %s {\n", test)
		}
		if rs := rowStrides(accs, order[len(order)-1]); len(rs) > 0 {
			right := newRows(true, rs)
			mdR := newMDHoist(k, order, loops)
			rbody, _ := p.hostBody(k, im, &bodyCopy{acc: accs, rows: right, all: unchecked, loops: loops, next: "gkNextR", used: used, md: mdR})
			conds := slices.Sorted(maps.Keys(right.folded))
			fmt.Fprintf(&b, "if %s {\n", strings.Join(conds, " && "))
			writeLoops(&b, k, order, rbody, returns, "gkNextR", mdR.pre(right.decls, rbody))
			b.WriteString("} else ")
		}
		if len(contig.folded) > 0 {
			conds := slices.Sorted(maps.Keys(contig.folded))
			fmt.Fprintf(&b, "if %s {\n", strings.Join(conds, " && "))
			if call, ok := p.streamChunk(k, im, accs, contig); ok {
				b.WriteString(call) // host_stream.go
			} else {
				writeLoops(&b, k, order, cbody, returns, "gkNextC", mdC.pre(contig.decls, cbody))
			}
			b.WriteString("} else {\n")
			writeLoops(&b, k, order, fast, returns, "gkNextU", mdU.pre(rows.decls, fast))
			b.WriteString("}\n")
		} else {
			writeLoops(&b, k, order, fast, returns, "gkNextU", mdU.pre(rows.decls, fast))
		}
		if !unchecked {
			b.WriteString("} else {\n")
		}
	}
	if !unchecked {
		md := newMDHoist(k, order, loops)
		body, returns := p.hostBody(k, im, &bodyCopy{acc: accs, loops: loops, next: "gkNext", used: used, md: md})
		writeLoops(&b, k, order, body, returns, "gkNext", md.pre(nil, body))
		if test != "" {
			b.WriteString("}\n")
		}
	}
	b.WriteString(p.holdText(k, false))
	if k.acc != nil {
		b.WriteString("*gkAccP = gkAcc\n")
	}
	// The byte strides the plain accesses use.
	var strides strings.Builder
	for _, pr := range k.params {
		for d := range pr.rank {
			if used[fmt.Sprintf("gkS_%s_%d", pr.name, d)] {
				fmt.Fprintf(&strides, "gkS_%s_%d := %s.ByteStride(%d)\n", pr.name, d, pr.name, d)
			}
		}
		if used["gkP_"+pr.name] {
			bases["gkP_"+pr.name] = true
		}
	}
	strides.WriteString(p.scatterPrologue(k, b.String()))
	// The parameters and bases the function refers to, as its locals, not
	// variables of the closure.
	names := idents(strides.String() + b.String())
	var copies []string
	for _, pr := range k.params {
		if pr.name != "_" && names[pr.name] {
			copies = append(copies, pr.name)
		}
	}
	for _, pr := range k.params {
		if names["gkP_"+pr.name] {
			copies = append(copies, "gkP_"+pr.name)
		}
	}
	var f strings.Builder
	fmt.Fprintf(&f, "func(%s) {\n", chunk)
	if len(copies) > 0 {
		fmt.Fprintf(&f, "%s := %s\n", strings.Join(copies, ", "), strings.Join(copies, ", "))
	}
	f.WriteString(strides.String())
	f.WriteString(b.String())
	f.WriteString("}")
	return f.String()
}

// idents returns the identifiers of the Go text src.
func idents(src string) map[string]bool {
	var sc scanner.Scanner
	fs := token.NewFileSet()
	sc.Init(fs.AddFile("", -1, len(src)), []byte(src), nil, 0)
	out := map[string]bool{}
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.IDENT {
			out[lit] = true
		}
	}
}

// writeLoops writes the loop nest over a chunk in order, with body
// innermost, pre (the row bases) before the innermost loop and, when the
// body returns, the label next on the innermost loop.
func writeLoops(b *strings.Builder, k *kernelFunc, order []int, body string, returns bool, next string, pre []string) {
	rank := len(k.index)
	for d, r := range order {
		if d == len(order)-1 {
			for _, l := range pre {
				b.WriteString(l + "\n")
			}
			if returns {
				fmt.Fprintf(b, "%s:\n", next)
			}
		}
		lo, hi := "gkLo", "gkHi"
		if rank > 1 {
			lo, hi = fmt.Sprintf("gkLo[%d]", r), fmt.Sprintf("gkHi[%d]", r)
		}
		i := hostName(k.index[r].Name(), fmt.Sprintf("gkI%d", r))
		fmt.Fprintf(b, "for %s := %s; %s < %s; %s++ {\n", i, lo, i, hi, i)
	}
	b.WriteString(body)
	b.WriteString("\n" + endLine)
	b.WriteString(strings.Repeat("}\n", rank))
}

// endLine marks where a body copied from the user's file ends: the
// generated file's own positions resume there (lineDirectives).
const endLine = "/*gk:endline*/"

// lineDirectives replaces each endLine mark of the formatted generated
// file src, named name, by a line directive that gives the character after
// it its own position in the file.
func lineDirectives(src []byte, name string) []byte {
	lines := strings.Split(string(src), "\n")
	for n, l := range lines {
		i := strings.Index(l, endLine)
		if i < 0 {
			continue
		}
		// The column counts the directive itself: find the fixed point.
		col, dir := 0, ""
		for range 4 {
			dir = fmt.Sprintf("/*line %s:%d:%d*/", name, n+1, col)
			col = i + len(dir) + 1
		}
		lines[n] = l[:i] + dir + l[i+len(endLine):]
	}
	return []byte(strings.Join(lines, "\n"))
}

// rightOrder is the loop nest with the last index innermost: 0, 1, ...
func rightOrder(rank int) []int {
	o := make([]int, rank)
	for r := range o {
		o[r] = r
	}
	return o
}

// leftOrder is the loop nest with the first index innermost.
func leftOrder(rank int) []int {
	o := make([]int, rank)
	for r := range o {
		o[r] = rank - 1 - r
	}
	return o
}
