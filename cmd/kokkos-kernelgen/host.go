package main

import (
	"fmt"
	"go/ast"
	"go/constant"
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
//     generated file's name for that package (gkmath, gkkokkos).
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

// hostBody returns k's body, as the statements inside its braces, with the
// edits above, and whether it had a return. With rows, the accesses of
// acc become loads and stores through the gkP (base) and gkS (byte
// stride) locals of their views and the row bases of rows; next is the
// label a return continues.
func (p *pkgInfo) hostBody(k *kernelFunc, im *imports, acc map[*ast.CallExpr]*access, rows *rowBases, next string) (string, bool) {
	unchecked := rows != nil
	var edits []edit
	returns := false
	q := im.qualifier(p.pkg)
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			edits = append(edits, p.viewHelperCallEdits(n, true)...)
			a := acc[n]
			if !unchecked || a == nil {
				break
			}
			elem := types.TypeString(a.v.elem, q)
			ptr := fmt.Sprintf("(*%s)(%s)", elem, rows.ptr(a))
			switch a.method {
			case "At":
				edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: "(*" + ptr + ")"})
			case "Ptr":
				edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: ptr})
			case "Set":
				x := n.Args[len(n.Args)-1]
				edits = append(edits, edit{pos: n.Pos(), end: x.Pos(), text: "*" + ptr + " = ("}, edit{pos: x.End(), end: n.End(), text: ")"})
				ast.Inspect(x, visit)
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
			edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: "continue " + next})
			returns = true
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok {
				if pn, ok := p.info.Uses[id].(*types.PkgName); ok {
					edits = append(edits, edit{pos: id.Pos(), end: id.End(), text: im.name(pn.Imported().Path())})
					return false
				}
			}
		case *ast.Ident:
			// A name of another package, dot-imported: qualified.
			if obj := p.info.Uses[n]; obj != nil && obj.Pkg() != nil && obj.Pkg() != p.pkg && obj.Parent() == obj.Pkg().Scope() {
				edits = append(edits, edit{pos: n.Pos(), end: n.End(), text: im.name(obj.Pkg().Path()) + "." + n.Name})
			}
		}
		return true
	}
	ast.Inspect(k.decl.Body, visit)
	src := p.source(k.decl.Body.Lbrace+1, k.decl.Body.Rbrace)
	base := k.decl.Body.Lbrace + 1
	sortEdits(edits)
	var b strings.Builder
	at := 0
	for _, e := range edits {
		b.WriteString(src[at : e.pos-base])
		b.WriteString(e.text)
		at = int(e.end - base)
	}
	b.WriteString(src[at:])
	// The body keeps its lines: a line directive gives its first
	// statement the position it has in the user's file, so that a panic's
	// stack, and a compile error, name the user's line, not the
	// generated file's (writeLoops ends the mapping after the body).
	first := base + token.Pos(len(src)-len(strings.TrimLeft(src, " \t\r\n")))
	at0 := p.fset.Position(first)
	return fmt.Sprintf("/*line %s:%d:%d*/", filepath.Base(at0.Filename), at0.Line, at0.Column) + strings.TrimSpace(b.String()), returns
}

// rowBases hoists, out of the innermost loop of the unchecked body, the
// part of each access's address that does not depend on the innermost
// index: the view's base plus the outer indices times their strides.
//
// With contig, the innermost index's byte stride is the element's size, a
// constant, in every view dimension it indexes; folded records those
// dimensions (as the conditions that their strides are the size).
type rowBases struct {
	k      *kernelFunc
	inner  int               // the innermost index's position
	unsafe string            // the generated file's name for package unsafe
	names  map[string]string // the text of a row base → its variable
	decls  []string          // the declarations, before the innermost loop
	contig bool
	folded map[string]bool
}

// ptr returns the address of access a.
func (rb *rowBases) ptr(a *access) string {
	var outer, inner []string
	for d, af := range a.idx {
		stride := fmt.Sprintf("gkS_%s_%d", a.v.name, d)
		if af.r == rb.inner && rb.contig {
			size := sizes.Sizeof(a.v.elem)
			rb.folded[fmt.Sprintf("%s == %d", stride, size)] = true
			stride = fmt.Sprint(size)
		}
		t := fmt.Sprintf("(%s)*%s", affineText(rb.k, af), stride)
		if af.r == rb.inner {
			inner = append(inner, t)
		} else {
			outer = append(outer, t)
		}
	}
	base := "gkP_" + a.v.name
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
// returns the chunk (or tile) function.
func (p *pkgInfo) emitHost(k *kernelFunc, im *imports, qname string) string {
	accs := p.accesses(k)
	test := chunkTest(k, accs)
	body, returns := p.hostBody(k, im, accs, nil, "gkNext")
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
	var copies []string
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
			copies = append(copies, name)
		}
	}
	if test != "" {
		// The bases of the views whose accesses the chunk test covers,
		// which the accessors give only during this call (gkL).
		for _, pr := range k.params {
			if accessed(accs, pr) {
				fmt.Fprintf(&b, "gkP_%s := %s.Base(gkL)\n", pr.name, pr.name)
				copies = append(copies, "gkP_"+pr.name)
			}
		}
	}
	orders := [][]int{rightOrder(rank)}
	if rank > 1 {
		orders = append(orders, leftOrder(rank))
	}
	for o, order := range orders {
		if rank > 1 && o == 0 {
			b.WriteString("if gkRight {\n")
		}
		fmt.Fprintf(&b, "return func(%s) {\n", chunk)
		if len(copies) > 0 {
			// Locals of the chunk, not variables of the closure.
			fmt.Fprintf(&b, "%s := %s\n", strings.Join(copies, ", "), strings.Join(copies, ", "))
		}
		if k.acc != nil {
			b.WriteString("gkAcc := *gkAccP\n")
		}
		if test != "" {
			// The byte strides of the views whose accesses the chunk test
			// covers.
			for _, pr := range k.params {
				if !accessed(accs, pr) {
					continue
				}
				for d := range pr.rank {
					fmt.Fprintf(&b, "gkS_%s_%d := %s.ByteStride(%d)\n", pr.name, d, pr.name, d)
				}
			}
			// Two unchecked copies: the innermost strides folded to the
			// element size where they are that, and any strides.
			contig := &rowBases{k: k, inner: order[len(order)-1], unsafe: im.name("unsafe"), names: map[string]string{}, contig: true, folded: map[string]bool{}}
			cbody, _ := p.hostBody(k, im, accs, contig, "gkNextC")
			rows := &rowBases{k: k, inner: order[len(order)-1], unsafe: im.name("unsafe"), names: map[string]string{}}
			fast, _ := p.hostBody(k, im, accs, rows, "gkNextU")
			fmt.Fprintf(&b, "if %s {\n", test)
			if len(contig.folded) > 0 {
				conds := slices.Sorted(maps.Keys(contig.folded))
				fmt.Fprintf(&b, "if %s {\n", strings.Join(conds, " && "))
				writeLoops(&b, k, order, cbody, returns, "gkNextC", contig.decls)
				b.WriteString("} else {\n")
				writeLoops(&b, k, order, fast, returns, "gkNextU", rows.decls)
				b.WriteString("}\n")
			} else {
				writeLoops(&b, k, order, fast, returns, "gkNextU", rows.decls)
			}
			b.WriteString("} else {\n")
			writeLoops(&b, k, order, body, returns, "gkNext", nil)
			b.WriteString("}\n")
		} else {
			writeLoops(&b, k, order, body, returns, "gkNext", nil)
		}
		if k.acc != nil {
			b.WriteString("*gkAccP = gkAcc\n")
		}
		b.WriteString("}, nil\n")
		if rank > 1 && o == 0 {
			b.WriteString("}\n")
		}
	}
	b.WriteString("}\n")
	return b.String()
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

// accessed reports whether acc has an access of view pr.
func accessed(acc map[*ast.CallExpr]*access, pr *param) bool {
	for _, a := range acc {
		if a.v == pr {
			return true
		}
	}
	return false
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
