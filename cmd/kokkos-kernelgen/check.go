package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"
)

// atomicFuncs are the atomic operations of package kokkos a kernel may
// call on an element v.Ptr(...) of a view.
var atomicFuncs = map[string]bool{
	"AtomicLoad": true, "AtomicStore": true, "AtomicExchange": true, "AtomicCompareExchange": true,
	"AtomicAdd": true, "AtomicFetchAdd": true, "AtomicAddFetch": true,
	"AtomicSub": true, "AtomicFetchSub": true, "AtomicSubFetch": true,
	"AtomicInc": true, "AtomicFetchInc": true, "AtomicIncFetch": true,
	"AtomicDec": true, "AtomicFetchDec": true, "AtomicDecFetch": true,
	"AtomicMul": true, "AtomicFetchMul": true, "AtomicMulFetch": true,
	"AtomicDiv": true, "AtomicFetchDiv": true, "AtomicDivFetch": true,
	"AtomicMod": true, "AtomicFetchMod": true, "AtomicModFetch": true,
	"AtomicMin": true, "AtomicFetchMin": true, "AtomicMinFetch": true,
	"AtomicMax": true, "AtomicFetchMax": true, "AtomicMaxFetch": true,
	"AtomicAnd": true, "AtomicFetchAnd": true, "AtomicAndFetch": true,
	"AtomicOr": true, "AtomicFetchOr": true, "AtomicOrFetch": true,
	"AtomicXor": true, "AtomicFetchXor": true, "AtomicXorFetch": true,
	"AtomicNand": true, "AtomicFetchNand": true, "AtomicNandFetch": true,
	"AtomicLshift": true, "AtomicFetchLshift": true, "AtomicLshiftFetch": true,
	"AtomicRshift": true, "AtomicFetchRshift": true, "AtomicRshiftFetch": true,
}

// shiftAtomics take a uint shift count, which a kernel gives as a constant
// (a kernel has no uint values).
var shiftAtomics = map[string]bool{
	"AtomicLshift": true, "AtomicFetchLshift": true, "AtomicLshiftFetch": true,
	"AtomicRshift": true, "AtomicFetchRshift": true, "AtomicRshiftFetch": true,
}

// builtinHints says, for each builtin a kernel may not call, what to do
// instead.
var builtinHints = map[string]string{
	"new": "use a local or a view", "make": "use a view",
	"append": "use a view", "copy": "copy with a loop over a view", "delete": "use a view", "clear": "use a view",
	"len": "use v.Extent(r)", "cap": "use v.Extent(r)",
	"panic": "write a flag to a view", "print": "write to a view", "println": "write to a view", "recover": "write a flag to a view",
	"complex": "use two floats", "real": "use two floats", "imag": "use two floats",
}

// refusal is one construct outside the subset.
type refusal struct {
	pos token.Pos
	msg string
}

// helperCall is a call of helper to in the body of from.
type helperCall struct {
	from, to *kernelFunc
	pos      token.Pos
}

// checker checks the body of one kernel or helper.
type checker struct {
	p     *pkgInfo
	k     *kernelFunc
	errs  []refusal
	calls []helperCall
	team  teamCheck // a team kernel's (check_team.go)
}

// checkBodies refuses, in every kernel and helper of p, each construct
// outside the subset, and marks the views each kernel writes (param.write).
// The error lists every refusal, one per line in position order, as
// "file:line:col: kernel K: ... is not allowed in a kernel (...)".
func (p *pkgInfo) checkBodies() error {
	var errs []refusal
	var calls []helperCall
	for _, k := range p.kernels {
		c := &checker{p: p, k: k}
		c.names()
		c.stmts(k.decl.Body.List)
		errs = append(errs, c.errs...)
		calls = append(calls, c.calls...)
	}
	p.propagateViewWrites()
	for _, cl := range calls {
		if !slices.Contains(cl.from.callees, cl.to) {
			cl.from.callees = append(cl.from.callees, cl.to)
		}
	}
	for _, cl := range calls {
		if reaches(cl.to, cl.from) {
			errs = append(errs, p.refusal(cl.pos, cl.from.name, "a recursive call of "+cl.to.name, "use a loop"))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].pos < errs[j].pos })
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = e.msg
	}
	return errors.New(strings.Join(lines, "\n"))
}

// reaches reports whether helper from calls helper to, directly or not, or
// is to.
func reaches(from, to *kernelFunc) bool {
	seen := map[*kernelFunc]bool{}
	var walk func(k *kernelFunc) bool
	walk = func(k *kernelFunc) bool {
		if k == to {
			return true
		}
		if seen[k] {
			return false
		}
		seen[k] = true
		return slices.ContainsFunc(k.callees, walk)
	}
	return walk(from)
}

// refusal formats the refusal of construct at pos in kernel, with what to
// do instead.
func (p *pkgInfo) refusal(pos token.Pos, kernel, construct, instead string) refusal {
	return refusal{pos, p.errorf(pos, kernel, "%s is not allowed in a kernel (%s)", construct, instead).Error()}
}

// refuse records the refusal of construct at pos.
func (c *checker) refuse(pos token.Pos, construct, instead string) {
	c.errs = append(c.errs, c.p.refusal(pos, c.k.name, construct, instead))
}

// names refuses the names, declared by the function (its name, parameters,
// results and locals), that start with gk: generated code uses them.
func (c *checker) names() {
	ast.Inspect(c.k.decl, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, "gk") && c.p.info.Defs[id] != nil {
			c.refuse(id.Pos(), "the name "+id.Name, "names starting with gk are for generated code; rename it")
		}
		return true
	})
}

func (c *checker) stmts(list []ast.Stmt) {
	for _, s := range list {
		c.stmt(s)
	}
}

func (c *checker) exprs(list []ast.Expr) {
	for _, e := range list {
		c.expr(e)
	}
}

func (c *checker) stmt(s ast.Stmt) {
	if c.scanStmt(s) {
		return
	}
	switch s := s.(type) {
	case nil, *ast.EmptyStmt:
	case *ast.BlockStmt:
		c.stmts(s.List)
	case *ast.ExprStmt:
		c.expr(s.X)
	case *ast.AssignStmt:
		if c.scratchDecl(s) || c.randomAssign(s) || c.scatterAssign(s) {
			return
		}
		c.exprs(s.Rhs)
		for _, l := range s.Lhs {
			if id, ok := l.(*ast.Ident); ok && s.Tok == token.DEFINE && c.p.info.Defs[id] != nil {
				continue // a new local
			}
			c.lvalue(l)
		}
	case *ast.IncDecStmt:
		c.lvalue(s.X)
	case *ast.DeclStmt:
		c.decl(s.Decl.(*ast.GenDecl))
	case *ast.IfStmt:
		c.stmt(s.Init)
		c.expr(s.Cond)
		c.stmt(s.Body)
		c.stmt(s.Else)
	case *ast.ForStmt:
		c.stmt(s.Init)
		if s.Cond != nil {
			c.expr(s.Cond)
		}
		c.stmt(s.Post)
		c.stmt(s.Body)
	case *ast.RangeStmt:
		if c.teamRange(s) {
			return
		}
		t := c.p.info.TypeOf(s.X)
		if b, ok := t.Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			c.expr(s.X)
		} else if c.rangeArray(s) {
		} else {
			what, _ := c.describe(t)
			c.refuse(s.Pos(), "a range over "+what, "range over an int n: for k := range n")
		}
		if s.Tok == token.ASSIGN {
			for _, e := range []ast.Expr{s.Key, s.Value} {
				if e != nil {
					c.lvalue(e)
				}
			}
		}
		c.stmt(s.Body)
	case *ast.SwitchStmt:
		c.stmt(s.Init)
		if s.Tag != nil {
			c.expr(s.Tag)
		}
		for _, cl := range s.Body.List {
			cl := cl.(*ast.CaseClause)
			c.exprs(cl.List)
			c.stmts(cl.Body)
		}
	case *ast.BranchStmt:
		switch {
		case s.Tok == token.GOTO:
			c.refuse(s.Pos(), "a goto", "use if or a loop")
		case s.Tok == token.FALLTHROUGH:
			c.refuse(s.Pos(), "a fallthrough", "list the values in one case")
		case s.Label != nil:
			c.refuse(s.Pos(), "a labeled "+s.Tok.String(), "use a flag, or return from a helper")
		}
	case *ast.LabeledStmt:
		c.refuse(s.Pos(), "the label "+s.Label.Name, "use a flag, or return from a helper")
		c.stmt(s.Stmt)
	case *ast.ReturnStmt:
		if len(s.Results) == 0 && len(c.k.results) > 0 {
			c.refuse(s.Pos(), "a bare return", "return the results")
		}
		c.exprs(s.Results)
	case *ast.GoStmt:
		c.refuse(s.Pos(), "a go statement", "the kernel already runs in parallel")
	case *ast.DeferStmt:
		c.refuse(s.Pos(), "a defer statement", "make the call before returning")
	case *ast.SelectStmt:
		c.refuse(s.Pos(), "a select statement", "write to a view")
	case *ast.SendStmt:
		c.refuse(s.Pos(), "a channel send", "write to a view")
	case *ast.TypeSwitchStmt:
		c.refuse(s.Pos(), "a type switch", "use number types")
	default:
		c.refuse(s.Pos(), "this statement", "see the subset in docs/kernels.md")
	}
}

// decl checks a declaration in a body: constants, and variables of the
// scalar types.
func (c *checker) decl(d *ast.GenDecl) {
	if d.Tok == token.TYPE {
		c.refuse(d.Pos(), "a type declaration", "use the number types")
		return
	}
	for _, sp := range d.Specs {
		vs := sp.(*ast.ValueSpec)
		if vs.Type != nil {
			if t := c.p.info.TypeOf(vs.Type); t != nil {
				if _, ok := scalarType(t); !ok {
					if handled, _ := c.local(vs.Type.Pos(), t); !handled {
						c.refuseType(vs.Type.Pos(), t)
					}
				}
			}
		}
		c.exprs(vs.Values)
	}
}

// lvalue checks the left-hand side of an assignment, ++ or --.
func (c *checker) lvalue(e ast.Expr) {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := c.p.info.Uses[x].(*types.Var)
		if !ok || x.Name == "_" || c.teamLvalue(x, v) {
			return
		}
		pr := c.param(v)
		switch {
		case isPkgVar(v):
			c.refuse(x.Pos(), "the package-level variable "+v.Name(), "pass it as a parameter")
		case c.isIndex(v):
			c.refuse(x.Pos(), "an assignment to index parameter "+v.Name(), "copy it to a local")
		case v == c.k.acc:
			c.refuse(x.Pos(), "an assignment to acc", "assign to *acc")
		case v == c.k.final:
			c.refuse(x.Pos(), "an assignment to final", "copy it to a local")
		case pr != nil && pr.isView():
			c.refuse(x.Pos(), "an assignment to view parameter "+v.Name(), "write its elements with "+v.Name()+".Set")
		case pr != nil:
			c.refuse(x.Pos(), "an assignment to parameter "+v.Name(), "copy it to a local")
		}
	case *ast.StarExpr:
		c.star(x)
	case *ast.IndexExpr, *ast.SelectorExpr:
		c.partLvalue(x)
	default:
		c.expr(x)
	}
}

// param returns the view or scalar parameter v, or nil.
func (c *checker) param(v *types.Var) *param {
	for _, pr := range c.k.params {
		if pr.v == v {
			return pr
		}
	}
	return nil
}

// isIndex reports whether v is an index parameter.
func (c *checker) isIndex(v *types.Var) bool {
	for _, x := range c.k.index {
		if x == v {
			return true
		}
	}
	return false
}

// isPkgVar reports whether v is a package-level variable.
func isPkgVar(v *types.Var) bool {
	return v.Parent() != nil && v.Parent().Parent() == types.Universe
}

// star checks *x, read or stored to: x must be acc or v.Ptr(...).
func (c *checker) star(x *ast.StarExpr) {
	switch in := ast.Unparen(x.X).(type) {
	case *ast.Ident:
		if c.k.acc != nil && c.p.info.Uses[in] == c.k.acc || c.isScanAcc(in) {
			return
		}
	case *ast.CallExpr:
		if pr, m, ok := c.p.isViewMethod(c.k, in); ok && m == "Ptr" {
			c.exprs(in.Args)
			// As View.Ptr, a kernel's Ptr refuses read-only views, read
			// or written through: the kernel behaves as its Go function.
			pr.write = true
			return
		}
	}
	c.refuse(x.Pos(), "the dereference "+types.ExprString(x), "dereference only acc and v.Ptr(...)")
}

// expr checks an expression.
func (c *checker) expr(e ast.Expr) {
	switch x := e.(type) {
	case *ast.Ident:
		c.ident(x)
		return
	case *ast.SelectorExpr:
		c.selector(x)
		return
	case *ast.CallExpr:
		c.call(x)
		return
	case *ast.StarExpr:
		c.star(x)
		return
	case *ast.FuncLit:
		c.refuse(x.Pos(), "a function literal", "write a //kokkos:kernel helper")
		return
	case *ast.CompositeLit:
		c.compositeLit(x)
		return
	case *ast.IndexExpr:
		if !c.arrayIndex(x) {
			c.refuseIndex(x, x.X)
		}
		return
	case *ast.IndexListExpr:
		c.refuseIndex(x, x.X)
		return
	case *ast.SliceExpr:
		c.refuse(x.Pos(), "a slice expression", "use a view")
		return
	case *ast.TypeAssertExpr:
		c.refuse(x.Pos(), "a type assertion", "use number types")
		return
	case *ast.UnaryExpr:
		switch x.Op {
		case token.AND:
			c.refuse(x.Pos(), "taking the address "+types.ExprString(x), "use v.Ptr(...) of a view")
			return
		case token.ARROW:
			c.refuse(x.Pos(), "a channel receive", "read a view")
			return
		}
	}
	if !c.typeOK(e) {
		return
	}
	switch x := e.(type) {
	case *ast.BasicLit:
	case *ast.ParenExpr:
		c.expr(x.X)
	case *ast.UnaryExpr:
		c.expr(x.X)
	case *ast.BinaryExpr:
		if c.compare(x) {
			return
		}
		c.expr(x.X)
		c.expr(x.Y)
	default:
		c.refuse(e.Pos(), "the expression "+types.ExprString(e), "see the subset in docs/kernels.md")
	}
}

// refuseIndex refuses the index expression e on x.
func (c *checker) refuseIndex(e, x ast.Expr) {
	what, _ := c.describe(c.p.info.TypeOf(x))
	c.refuse(e.Pos(), "an index expression on "+what, "use a view's At and Set")
}

// typeOK reports whether e has a type a kernel's values may have, and
// refuses it if not.
func (c *checker) typeOK(e ast.Expr) bool {
	tv, ok := c.p.info.Types[e]
	if !ok || tv.Type == nil {
		return true
	}
	switch t := tv.Type.(type) {
	case *types.Tuple:
		return true // a call with no result or several
	case *types.Basic:
		switch t.Kind() {
		case types.UntypedBool, types.UntypedInt, types.UntypedRune, types.UntypedFloat:
			return true
		}
	}
	if _, ok := scalarType(tv.Type); ok {
		return true
	}
	if handled, ok := c.local(e.Pos(), tv.Type); handled {
		return ok
	}
	c.refuseType(e.Pos(), tv.Type)
	return false
}

// refuseType refuses a value of type t at pos.
func (c *checker) refuseType(pos token.Pos, t types.Type) {
	what, instead := c.describe(t)
	c.refuse(pos, what, instead)
}

// describe names a type a kernel's values may not have, and says what to
// use instead.
func (c *checker) describe(t types.Type) (what, instead string) {
	if _, _, ok := viewType(t); ok {
		return "a view value", "call its At, Set, Ptr or Extent"
	}
	if isTokenType(t) {
		return "a token value", "take the token as a kernel parameter and call its Acquire, Release or Size"
	}
	qual := func(p *types.Package) string {
		if p == c.p.pkg {
			return ""
		}
		return p.Name()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		if b, ok := n.Underlying().(*types.Basic); ok && b.Info()&(types.IsNumeric|types.IsBoolean) != 0 {
			return "a value of named type " + types.TypeString(t, qual), "convert it to " + b.Name()
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.Uint:
			return "a uint value", "use int or uint64"
		case u.Kind() == types.Uintptr:
			return "a uintptr value", "use int"
		case u.Info()&types.IsString != 0:
			return "a string", "compute on numbers"
		case u.Info()&types.IsComplex != 0:
			return "a complex value", "use two floats"
		case u.Kind() == types.UntypedNil:
			return "nil", "use a view"
		}
	case *types.Map:
		return "a map", "use a view"
	case *types.Slice:
		return "a slice", "use a view"
	case *types.Array:
		return "an array", "use a view"
	case *types.Struct:
		return "a struct", "use scalars"
	case *types.Interface:
		return "an interface", "use number types"
	case *types.Pointer:
		return "a pointer", "use a view, or acc in a reduction"
	case *types.Chan:
		return "a channel", "write to a view"
	case *types.Signature:
		return "a function value", "call a //kokkos:kernel helper"
	}
	return "a value of type " + types.TypeString(t, qual), "use int, int8..int64, uint8..uint64, float32, float64 or bool"
}

// ident checks an identifier used as a value.
func (c *checker) ident(x *ast.Ident) {
	switch obj := c.p.info.Uses[x].(type) {
	case *types.Var:
		if c.teamIdent(x, obj) || c.scatterIdent(x, obj) {
			return
		}
		if isPkgVar(obj) {
			c.refuse(x.Pos(), "the package-level variable "+obj.Name(), "pass it as a parameter")
		} else if obj == c.k.acc {
			c.refuse(x.Pos(), "the pointer acc", "use *acc")
		} else if pr := c.param(obj); pr != nil && pr.token {
			c.refuse(x.Pos(), "the token "+obj.Name()+" as a value", "call its Acquire, Release or Size")
		} else if pr := c.param(obj); pr != nil && pr.umap {
			c.refuse(x.Pos(), "the map "+obj.Name()+" as a value", "call its Insert, Find, Exists, ValidAt, KeyAt, ValueAt or Capacity")
		} else if c.randomIdent(x, obj) {
		} else if c.isRecvPtr(x) {
			c.refuse(x.Pos(), "the pointer "+obj.Name()+" as a value", "read and write its fields, or call its methods")
		} else if pr := c.param(obj); pr != nil && pr.isView() {
			c.refuse(x.Pos(), "the view "+obj.Name()+" as a value", "call its At, Set, Ptr or Extent")
		}
		// Locals have been checked where they were declared.
	case *types.Const:
		c.typeOK(x)
	case *types.Nil:
		c.refuse(x.Pos(), "nil", "use a view")
	case *types.Func:
		c.refuse(x.Pos(), "the function value "+x.Name, "call it")
	}
}

// selector checks a selector used as a value (not called).
func (c *checker) selector(x *ast.SelectorExpr) {
	if id, ok := x.X.(*ast.Ident); ok {
		if _, ok := c.p.info.Uses[id].(*types.PkgName); ok {
			switch c.p.info.Uses[x.Sel].(type) {
			case *types.Const:
				c.typeOK(x)
			case *types.Var:
				c.refuse(x.Pos(), "the package-level variable "+types.ExprString(x), "pass it as a parameter")
			default:
				c.refuse(x.Pos(), "the function value "+types.ExprString(x), "call it")
			}
			return
		}
	}
	if sel := c.p.info.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
		if c.field(x) {
			return
		}
		c.refuse(x.Pos(), "the field "+types.ExprString(x), "use scalars")
		return
	}
	c.refuse(x.Pos(), "the method value "+types.ExprString(x), "call it")
}

// call checks a call or conversion.
func (c *checker) call(x *ast.CallExpr) {
	fun := ast.Unparen(x.Fun)
	if c.p.info.Types[fun].IsType() {
		if c.conversion(x) {
			return
		}
		if c.typeOK(x) {
			c.exprs(x.Args)
		}
		return
	}
	if c.teamCall(x) {
		return
	}
	switch fun.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		c.refuse(x.Pos(), "the type arguments of "+types.ExprString(fun), "leave them to inference")
		return
	}
	if c.scatterCall(x) {
		return
	}
	if pr, m, ok := c.p.isViewMethod(c.k, x); ok {
		c.viewMethod(x, pr, m)
		return
	}
	if pr, m, ok := c.p.isTokenMethod(c.k, x); ok {
		c.tokenMethod(x, pr, m)
		return
	}
	if c.umapCall(x) {
		return
	}
	if c.randomCall(x) {
		return
	}
	if c.methodCall(x) {
		return
	}
	const calls = "call only helpers, math functions, kokkos atomics, min and max"
	switch obj := c.p.calledFunc(x).(type) {
	case *types.Builtin:
		if obj.Name() == "len" && c.lenOf(x) {
			return
		}
		if (obj.Name() == "min" || obj.Name() == "max") && types.Universe.Lookup(obj.Name()) == obj {
			if c.typeOK(x) {
				c.exprs(x.Args)
			}
			return
		}
		hint, ok := builtinHints[obj.Name()]
		if !ok {
			hint = calls
		}
		c.refuse(x.Pos(), "a call of "+types.ExprString(fun), hint)
		return
	case *types.Func:
		if h := c.p.byObj[obj]; h != nil {
			if !h.helper {
				c.refuse(x.Pos(), "a call of kernel "+h.name, "launch kernels with package kernel; share code through a helper")
				return
			}
			c.calls = append(c.calls, helperCall{c.k, h, x.Pos()})
			c.helperArgs(h, x)
			return
		}
		if pkg := obj.Pkg(); pkg != nil && pkg.Path() == "math" && hasMath(obj.Name()) {
			c.exprs(x.Args)
			return
		}
		if pkg := obj.Pkg(); pkg != nil && pkg.Path() == kokkosPath {
			if atomicFuncs[obj.Name()] {
				c.atomic(x, obj.Name())
				return
			}
		}
	}
	c.refuse(x.Pos(), "a call of "+types.ExprString(fun), calls)
}

// viewMethod checks a call of method m of view parameter pr.
func (c *checker) viewMethod(x *ast.CallExpr, pr *param, m string) {
	switch m {
	case "At":
		c.exprs(x.Args)
	case "Set":
		c.exprs(x.Args)
		pr.write = true
	case "Extent":
		r := x.Args[0]
		instead := "use 0"
		if pr.rank > 1 {
			instead = fmt.Sprintf("use a constant from 0 to %d", pr.rank-1)
		}
		v := c.p.info.Types[r].Value
		if v == nil {
			c.refuse(r.Pos(), "a non-constant rank in "+pr.name+".Extent", instead)
			return
		}
		if n, exact := constant.Int64Val(constant.ToInt(v)); !exact || n < 0 || n >= int64(pr.rank) {
			c.refuse(r.Pos(), fmt.Sprintf("%s.Extent(%s) of a rank-%d view", pr.name, v, pr.rank), instead)
		}
	case "Ptr":
		c.refuse(x.Pos(), pr.name+".Ptr(...) outside *"+pr.name+".Ptr(...) and the atomics", "dereference it, or pass it to a kokkos atomic")
	default:
		c.refuse(x.Pos(), "a call of "+pr.name+"."+m, "call only At, Set, Ptr and Extent")
	}
}

// atomic checks a call of kokkos atomic name: its pointer argument must be
// v.Ptr(...) of a view parameter.
func (c *checker) atomic(x *ast.CallExpr, name string) {
	ptr := x.Args[0]
	call, ok := ast.Unparen(ptr).(*ast.CallExpr)
	var pr *param
	var m string
	if ok {
		pr, m, ok = c.p.isViewMethod(c.k, call)
	}
	if ok && m == "Ptr" {
		c.exprs(call.Args)
		pr.write = true // even a load: Ptr refuses read-only views
	} else {
		c.refuse(ptr.Pos(), "the pointer "+types.ExprString(ptr)+" of "+types.ExprString(x.Fun), "pass v.Ptr(...) of a view parameter")
	}
	for n, a := range x.Args[1:] {
		if n == 0 && shiftAtomics[name] {
			if c.p.info.Types[a].Value == nil {
				c.refuse(a.Pos(), "a non-constant shift count", "use a constant")
			}
			continue
		}
		c.expr(a)
	}
}
