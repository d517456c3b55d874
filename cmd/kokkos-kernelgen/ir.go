package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strings"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// This file builds the description of a checked kernel (package
// backend/kernelir) from its Go syntax and types: every node carries the
// Go type it computes in, constants are folded and written in the type
// their context gives them, and each helper is described once for the
// package.

// errNoIR is matched (errors.Is) by the error of a kernel that has no
// description: it then runs on the host only.
var errNoIR = errors.New("no description")

// irError carries an error out of the builder's recursion.
type irError struct{ err error }

// irBuilder builds the description of one function.
type irBuilder struct {
	p     *pkgInfo
	k     *kernelFunc
	views map[types.Object]string
	team  *teamBuild // a team kernel's (ir_team.go); nil otherwise
}

// buildKernel describes kernel k (not a helper); its Helpers are left
// empty (buildHelpers describes them once for the package).
func (p *pkgInfo) buildKernel(k *kernelFunc) (ir *kernelir.Kernel, err error) {
	if err := p.umapNoIR(k); err != nil {
		return nil, err
	}
	if tv := p.teamVar(k); tv != nil {
		return p.buildTeamKernel(k, tv)
	}
	defer catchIR(&err)
	if k.team != nil {
		return nil, fmt.Errorf("%w: %w", errNoIR, p.errorf(k.decl.Pos(), k.name, "a team kernel has no description yet: it runs on the host only"))
	}
	b := &irBuilder{p: p, k: k, views: map[types.Object]string{}}
	ir = &kernelir.Kernel{Name: k.name, Pattern: kernelir.Pattern(k.pattern)}
	for _, v := range k.index {
		ir.Index = append(ir.Index, v.Name())
	}
	for _, pr := range k.params {
		if pr.token {
			ir.Params = append(ir.Params, kernelir.Param{Name: pr.name, Token: true})
			continue
		}
		if pr.pool != "" {
			ir.Params = append(ir.Params, randomParams(pr)...)
			continue
		}
		if prm, ok := b.scatterParam(pr); ok {
			ir.Params = append(ir.Params, prm)
			continue
		}
		if pr.umap {
			ir.Params = append(ir.Params, b.umapParam(pr))
			continue
		}
		ir.Params = append(ir.Params, kernelir.Param{Name: pr.name, Type: b.paramType(pr), Rank: pr.rank, Write: pr.write})
		if pr.isView() {
			b.views[pr.v] = pr.name
		}
	}
	if k.acc != nil {
		ir.Acc = b.irType(k.acc.Pos(), k.accElem)
	}
	if k.final != nil {
		ir.Final = k.final.Name()
	}
	ir.Body = b.stmts(k.decl.Body.List)
	return ir, nil
}

// buildHelpers describes every helper of p, in source order.
func (p *pkgInfo) buildHelpers() (fs []*kernelir.Func, err error) {
	defer catchIR(&err)
	for _, f := range p.kernels {
		if !f.helper {
			continue
		}
		b := &irBuilder{p: p, k: f, views: map[types.Object]string{}}
		for _, pr := range f.params {
			if pr.isView() {
				b.views[pr.v] = pr.name
			}
		}
		sig := f.obj.Type().(*types.Signature)
		fn := &kernelir.Func{Name: irFuncName(f), Params: b.recvParam(f)}
		for n := range sig.Params().Len() {
			v := sig.Params().At(n)
			name := v.Name()
			if name == "" {
				name = "_"
			}
			fn.Params = append(fn.Params, kernelir.Var{Name: name, Type: b.goType(v.Pos(), v.Type())})
		}
		for n := range sig.Results().Len() {
			v := sig.Results().At(n)
			fn.Results = append(fn.Results, kernelir.Var{Name: v.Name(), Type: b.goType(v.Pos(), v.Type())})
		}
		fn.Body = b.stmts(f.decl.Body.List)
		fs = append(fs, fn)
	}
	return p.withRandomHelpers(fs)
}

func catchIR(err *error) {
	if r := recover(); r != nil {
		ie, ok := r.(irError)
		if !ok {
			panic(r)
		}
		*err = ie.err
	}
}

// fail stops the description with an error at pos.
func (b *irBuilder) fail(pos token.Pos, format string, args ...any) {
	panic(irError{fmt.Errorf("%w: %w", errNoIR, b.p.errorf(pos, b.k.name, format, args...))})
}

// irType is the description's type of Go basic type t.
func (b *irBuilder) irType(pos token.Pos, t *types.Basic) kernelir.Type {
	if t == nil {
		b.fail(pos, "a value of a type other than a number or bool")
	}
	switch t.Kind() {
	case types.Bool, types.UntypedBool:
		return kernelir.Bool
	case types.Int, types.UntypedInt, types.UntypedRune:
		return kernelir.Int
	case types.Int8:
		return kernelir.Int8
	case types.Int16:
		return kernelir.Int16
	case types.Int32:
		return kernelir.Int32
	case types.Int64:
		return kernelir.Int64
	case types.Uint8:
		return kernelir.Uint8
	case types.Uint16:
		return kernelir.Uint16
	case types.Uint32:
		return kernelir.Uint32
	case types.Uint64:
		return kernelir.Uint64
	case types.Float32:
		return kernelir.Float32
	case types.Float64, types.UntypedFloat:
		return kernelir.Float64
	}
	b.fail(pos, "a value of type %s", t)
	return kernelir.Invalid
}

// typeOf is the description's type of expression x.
func (b *irBuilder) typeOf(x ast.Expr) kernelir.Type {
	tv, ok := b.p.info.Types[x]
	if !ok || tv.Type == nil {
		b.fail(x.Pos(), "an expression without a type")
	}
	return b.goType(x.Pos(), tv.Type)
}

func (b *irBuilder) constOf(x ast.Expr) constant.Value { return b.p.info.Types[x].Value }

// konst is constant v as a value of type t.
func (b *irBuilder) konst(pos token.Pos, v constant.Value, t kernelir.Type) *kernelir.Const {
	c := &kernelir.Const{T: t}
	switch {
	case t == kernelir.Bool:
		if constant.BoolVal(v) {
			c.Bits = 1
		}
	case t == kernelir.Float32:
		f, _ := constant.Float32Val(constant.ToFloat(v))
		c.Bits = math.Float64bits(float64(f))
	case t == kernelir.Float64:
		f, _ := constant.Float64Val(constant.ToFloat(v))
		c.Bits = math.Float64bits(f)
	case t.IsSigned():
		n, ok := constant.Int64Val(constant.ToInt(v))
		if !ok {
			b.fail(pos, "the constant %s does not fit %s", v, t)
		}
		c.Bits = uint64(n)
	default:
		u, ok := constant.Uint64Val(constant.ToInt(v))
		if !ok {
			b.fail(pos, "the constant %s does not fit %s", v, t)
		}
		c.Bits = u
	}
	return c
}

// exprAs describes x, a constant written as type t.
func (b *irBuilder) exprAs(x ast.Expr, t kernelir.Type) kernelir.Expr {
	if v := b.constOf(x); v != nil {
		return b.konst(x.Pos(), v, t)
	}
	return b.expr(x)
}

// count describes a shift count: a constant as a uint64.
func (b *irBuilder) count(x ast.Expr) kernelir.Expr {
	if v := b.constOf(x); v != nil {
		return b.konst(x.Pos(), v, kernelir.Uint64)
	}
	return b.expr(x)
}

var irOps = map[token.Token]string{
	token.ADD: "add", token.SUB: "sub", token.MUL: "mul", token.QUO: "div", token.REM: "rem",
	token.AND: "and", token.OR: "or", token.XOR: "xor", token.AND_NOT: "andnot", token.SHL: "shl",
	token.SHR: "shr", token.EQL: "eq", token.NEQ: "ne", token.LSS: "lt", token.LEQ: "le",
	token.GTR: "gt", token.GEQ: "ge", token.LAND: "land", token.LOR: "lor",
}

var irAssignOps = map[token.Token]string{
	token.ADD_ASSIGN: "add", token.SUB_ASSIGN: "sub", token.MUL_ASSIGN: "mul", token.QUO_ASSIGN: "div",
	token.REM_ASSIGN: "rem", token.AND_ASSIGN: "and", token.OR_ASSIGN: "or", token.XOR_ASSIGN: "xor",
	token.SHL_ASSIGN: "shl", token.SHR_ASSIGN: "shr", token.AND_NOT_ASSIGN: "andnot",
}

func (b *irBuilder) expr(x ast.Expr) kernelir.Expr {
	if v := b.constOf(x); v != nil {
		return b.konst(x.Pos(), v, b.typeOf(x))
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return b.expr(x.X)
	case *ast.Ident:
		obj := b.p.info.Uses[x]
		if obj != nil && obj == b.k.acc {
			b.fail(x.Pos(), "acc is used as a pointer; read *acc")
		}
		if b.isTeam(x) {
			b.fail(x.Pos(), "the team %s is used other than by its methods and kernel's collectives", x.Name)
		}
		if _, ok := obj.(*types.Var); ok && b.views[obj] == "" {
			return &kernelir.Ref{Name: x.Name}
		}
		b.fail(x.Pos(), "%s has no description", x.Name)
	case *ast.StarExpr:
		switch y := ast.Unparen(x.X).(type) {
		case *ast.Ident:
			if obj := b.p.info.Uses[y]; obj != nil && obj == b.k.acc {
				return &kernelir.AccRead{}
			} else if b.scanAcc(obj) {
				return &kernelir.Ref{Name: y.Name}
			}
		case *ast.CallExpr:
			if name, m, args, ok := b.viewCall(y); ok && m == "Ptr" {
				return &kernelir.At{View: name, Index: b.indices(args)}
			}
		}
		b.fail(x.Pos(), "a pointer other than *acc and *v.Ptr(...)")
	case *ast.UnaryExpr:
		t := b.typeOf(x)
		switch x.Op {
		case token.ADD:
			return b.expr(x.X)
		case token.NOT:
			return &kernelir.Unary{Op: "not", T: kernelir.Bool, X: b.expr(x.X)}
		case token.XOR:
			return &kernelir.Unary{Op: "cpl", T: t, X: b.expr(x.X)}
		case token.SUB:
			return &kernelir.Unary{Op: "neg", T: t, X: b.expr(x.X)}
		}
		b.fail(x.Pos(), "operator %s", x.Op)
	case *ast.BinaryExpr:
		op, ok := irOps[x.Op]
		if !ok {
			b.fail(x.Pos(), "operator %s", x.Op)
		}
		if x.Op == token.SHL || x.Op == token.SHR {
			t := b.typeOf(x)
			return &kernelir.Binary{Op: op, T: t, X: b.exprAs(x.X, t), Y: b.count(x.Y)}
		}
		t := b.typeOf(x.X)
		if b.constOf(x.X) != nil {
			t = b.typeOf(x.Y)
		}
		return &kernelir.Binary{Op: op, T: t, X: b.exprAs(x.X, t), Y: b.exprAs(x.Y, t)}
	case *ast.CallExpr:
		return b.call(x)
	}
	if y, ok := b.localExpr(x); ok {
		return y
	}
	b.fail(x.Pos(), "%T has no description", x)
	return nil
}

// viewCall reports whether call is v.M(args) on a view parameter.
func (b *irBuilder) viewCall(c *ast.CallExpr) (name, method string, args []ast.Expr, ok bool) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", "", nil, false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", "", nil, false
	}
	name = b.views[b.p.info.Uses[id]]
	return name, sel.Sel.Name, c.Args, name != ""
}

func (b *irBuilder) indices(idx []ast.Expr) []kernelir.Expr {
	out := make([]kernelir.Expr, len(idx))
	for n, x := range idx {
		out[n] = b.exprAs(x, kernelir.Int)
	}
	return out
}

func (b *irBuilder) call(c *ast.CallExpr) kernelir.Expr {
	if tv := b.p.info.Types[c.Fun]; tv.IsType() {
		return &kernelir.Convert{T: b.typeOf(c), X: b.expr(c.Args[0])}
	}
	if x := b.teamExpr(c); x != nil {
		return x
	}
	if x, ok := b.tokenCall(c); ok {
		return x
	}
	if x, ok := b.randomCall(c); ok {
		return x
	}
	if x, ok := b.scatterCall(c); ok {
		return x
	}
	if x, ok := b.umapCall(c); ok {
		return x
	}
	if name, m, args, ok := b.viewCall(c); ok {
		switch m {
		case "At":
			return &kernelir.At{View: name, Index: b.indices(args)}
		case "Extent":
			r := b.constOf(args[0])
			if r == nil {
				b.fail(c.Pos(), "%s.Extent needs a constant dimension", name)
			}
			d, _ := constant.Int64Val(constant.ToInt(r))
			return &kernelir.Extent{View: name, Dim: int(d)}
		}
		b.fail(c.Pos(), "view method %s as a value", m)
	}
	if x, ok := b.methodCall(c); ok {
		return x
	}
	switch fn := b.p.calledFunc(c).(type) {
	case *types.Builtin:
		if fn.Name() == "min" || fn.Name() == "max" {
			t := b.typeOf(c)
			mm := &kernelir.MinMax{Max: fn.Name() == "max", T: t}
			for _, a := range c.Args {
				mm.Args = append(mm.Args, b.exprAs(a, t))
			}
			return mm
		}
	case *types.Func:
		if k := b.p.byObj[fn]; k != nil && k.helper {
			sig := fn.Type().(*types.Signature)
			call := &kernelir.Call{Func: fn.Name()}
			for n, a := range c.Args {
				call.Args = append(call.Args, b.helperArg(a, sig.Params().At(n).Type()))
			}
			return call
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == "math" {
			if _, ok := kernelir.MathFuncs[fn.Name()]; !ok {
				b.fail(c.Pos(), "math.%s has no description", fn.Name())
			}
			m := &kernelir.Math{Func: fn.Name()}
			for n, a := range c.Args {
				t := kernelir.Float64
				if fn.Name() == "Inf" || fn.Name() == "IsInf" && n == 1 {
					t = kernelir.Int
				}
				m.Args = append(m.Args, b.exprAs(a, t))
			}
			return m
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == kokkosPath && strings.HasPrefix(fn.Name(), "Atomic") {
			return b.atomic(c, fn.Name())
		}
	}
	b.fail(c.Pos(), "the call of %s has no description", types.ExprString(c.Fun))
	return nil
}

func (b *irBuilder) atomic(c *ast.CallExpr, name string) kernelir.Expr {
	pc, ok := ast.Unparen(c.Args[0]).(*ast.CallExpr)
	var vname, m string
	var idx []ast.Expr
	if ok {
		vname, m, idx, ok = b.viewCall(pc)
	}
	if !ok || m != "Ptr" {
		b.fail(c.Args[0].Pos(), "the pointer of kokkos.%s must be v.Ptr(...) of a view", name)
	}
	pt, ok := b.p.info.Types[c.Args[0]].Type.(*types.Pointer)
	if !ok {
		b.fail(c.Args[0].Pos(), "the pointer of kokkos.%s has no element type", name)
	}
	t := b.irType(c.Pos(), basicOf(pt.Elem()))
	a := &kernelir.Atomic{Op: strings.TrimPrefix(name, "Atomic"), View: vname, Index: b.indices(idx)}
	for n, x := range c.Args[1:] {
		if n == 0 && shiftAtomics[name] {
			a.Args = append(a.Args, b.count(x))
			continue
		}
		a.Args = append(a.Args, b.exprAs(x, t))
	}
	return a
}

// Statements.

func (b *irBuilder) stmts(list []ast.Stmt) []kernelir.Stmt {
	out := []kernelir.Stmt{}
	for _, s := range list {
		if d, ok := s.(*ast.DeclStmt); ok {
			out = append(out, b.decl(d)...)
			continue
		}
		if st := b.stmt(s); st != nil {
			out = append(out, st)
		}
	}
	return out
}

// decl describes a var declaration, one VarDecl per specification;
// constants are folded where they are used.
func (b *irBuilder) decl(s *ast.DeclStmt) []kernelir.Stmt {
	gd, ok := s.Decl.(*ast.GenDecl)
	if !ok {
		b.fail(s.Pos(), "a declaration that is not var or const")
	}
	if gd.Tok == token.CONST {
		return nil
	}
	if gd.Tok != token.VAR {
		b.fail(s.Pos(), "a %s declaration", gd.Tok)
	}
	var out []kernelir.Stmt
	for _, spec := range gd.Specs {
		vs := spec.(*ast.ValueSpec)
		if st := b.teamDecl(vs); st != nil {
			out = append(out, st)
			continue
		}
		if len(vs.Values) != 0 && len(vs.Values) != len(vs.Names) {
			b.fail(vs.Pos(), "a var declaration of a call with several results")
		}
		d := &kernelir.VarDecl{}
		for n, id := range vs.Names {
			var t kernelir.Type
			if obj := b.p.info.Defs[id]; obj != nil {
				t = b.goType(id.Pos(), obj.Type())
			} else {
				t = b.typeOf(vs.Values[n])
			}
			d.Vars = append(d.Vars, kernelir.Var{Name: id.Name, Type: t})
		}
		for n, v := range vs.Values {
			d.Values = append(d.Values, b.exprAs(v, d.Vars[n].Type))
		}
		out = append(out, d)
	}
	return out
}

// stmt describes s; nil for a statement that does nothing (an empty
// statement, a constant declaration).
func (b *irBuilder) stmt(s ast.Stmt) kernelir.Stmt {
	switch s := s.(type) {
	case nil, *ast.EmptyStmt:
		return nil
	case *ast.BlockStmt:
		return &kernelir.Block{Body: b.stmts(s.List)}
	case *ast.ExprStmt:
		c, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			b.fail(s.Pos(), "an expression statement that is not a call")
		}
		if st := b.teamStmt(c); st != nil {
			return st
		}
		if st, ok := b.randomStmt(c); ok {
			return st
		}
		if name, m, args, ok := b.viewCall(c); ok && m == "Set" {
			last := args[len(args)-1]
			return &kernelir.Assign{
				Targets: []kernelir.Target{{Kind: kernelir.TargetElem, Name: name, Index: b.indices(args[:len(args)-1])}},
				Values:  []kernelir.Expr{b.exprAs(last, b.typeOf(last))},
			}
		}
		return &kernelir.ExprStmt{X: b.call(c)}
	case *ast.DeclStmt:
		d := b.decl(s)
		if len(d) == 1 {
			return d[0]
		}
		b.fail(s.Pos(), "a declaration of several specifications here")
	case *ast.AssignStmt:
		if st, ok := b.randomAssign(s); ok {
			return st
		}
		return b.assign(s)
	case *ast.IncDecStmt:
		return &kernelir.IncDec{Dec: s.Tok == token.DEC, Target: b.target(s.X)}
	case *ast.IfStmt:
		st := &kernelir.If{Init: b.stmt(s.Init), Cond: b.expr(s.Cond), Then: b.stmts(s.Body.List)}
		if s.Else != nil {
			st.Else = b.stmt(s.Else)
		}
		return st
	case *ast.ForStmt:
		st := &kernelir.For{Init: b.stmt(s.Init), Post: b.stmt(s.Post), Body: b.stmts(s.Body.List)}
		if s.Cond != nil {
			st.Cond = b.expr(s.Cond)
		}
		return st
	case *ast.RangeStmt:
		return b.rangeStmt(s)
	case *ast.SwitchStmt:
		st := &kernelir.Switch{Init: b.stmt(s.Init)}
		tagT := kernelir.Bool
		if s.Tag != nil {
			tagT = b.typeOf(s.Tag)
			st.Tag = b.exprAs(s.Tag, tagT)
		}
		for _, c := range s.Body.List {
			cc := c.(*ast.CaseClause)
			kc := kernelir.Case{Default: cc.List == nil, Body: b.stmts(cc.Body)}
			for _, x := range cc.List {
				if s.Tag != nil {
					kc.Values = append(kc.Values, b.exprAs(x, tagT))
				} else {
					kc.Values = append(kc.Values, b.exprAs(x, kernelir.Bool))
				}
			}
			st.Cases = append(st.Cases, kc)
		}
		return st
	case *ast.BranchStmt:
		if s.Label != nil {
			b.fail(s.Pos(), "a labeled %s", s.Tok)
		}
		switch s.Tok {
		case token.BREAK:
			return &kernelir.Break{}
		case token.CONTINUE:
			return &kernelir.Continue{}
		}
		b.fail(s.Pos(), "%s", s.Tok)
	case *ast.ReturnStmt:
		if b.inScan() {
			return &kernelir.Continue{} // it ends the index of a nested scan
		}
		st := &kernelir.Return{}
		if b.k.helper {
			sig := b.k.obj.Type().(*types.Signature)
			if len(s.Results) == sig.Results().Len() {
				for n, r := range s.Results {
					st.Values = append(st.Values, b.exprAs(r, b.goType(r.Pos(), sig.Results().At(n).Type())))
				}
			} else {
				for _, r := range s.Results {
					st.Values = append(st.Values, b.expr(r))
				}
			}
		}
		return st
	}
	b.fail(s.Pos(), "%T has no description", s)
	return nil
}

// target describes the left side of an assignment.
func (b *irBuilder) target(x ast.Expr) kernelir.Target {
	switch y := ast.Unparen(x).(type) {
	case *ast.Ident:
		if y.Name == "_" {
			return kernelir.Target{Kind: kernelir.TargetBlank}
		}
		obj := b.p.info.Uses[y]
		if obj == nil {
			obj = b.p.info.Defs[y]
		}
		if _, ok := obj.(*types.Var); ok && obj != b.k.acc && b.views[obj] == "" {
			return kernelir.Target{Kind: kernelir.TargetVar, Name: y.Name}
		}
	case *ast.StarExpr:
		switch z := ast.Unparen(y.X).(type) {
		case *ast.Ident:
			if obj := b.p.info.Uses[z]; obj != nil && obj == b.k.acc {
				return kernelir.Target{Kind: kernelir.TargetAcc}
			} else if b.scanAcc(obj) {
				return kernelir.Target{Kind: kernelir.TargetVar, Name: z.Name}
			}
		case *ast.CallExpr:
			if name, m, args, ok := b.viewCall(z); ok && m == "Ptr" {
				return kernelir.Target{Kind: kernelir.TargetElem, Name: name, Index: b.indices(args)}
			}
		}
	}
	if t, ok := b.partTarget(x); ok {
		return t
	}
	b.fail(x.Pos(), "assignment to %s has no description", types.ExprString(x))
	return kernelir.Target{}
}

// lhsType is the type the left side x of an assignment stores.
func (b *irBuilder) lhsType(x ast.Expr) kernelir.Type {
	if id, ok := ast.Unparen(x).(*ast.Ident); ok {
		obj := b.p.info.Uses[id]
		if obj == nil {
			obj = b.p.info.Defs[id]
		}
		if obj != nil {
			return b.goType(x.Pos(), obj.Type())
		}
	}
	return b.typeOf(x)
}

func (b *irBuilder) assign(s *ast.AssignStmt) kernelir.Stmt {
	if b.scatterAssign(s) {
		return nil
	}
	if s.Tok == token.ASSIGN || s.Tok == token.DEFINE {
		if st := b.teamAssign(s.Lhs, s.Rhs, s.Tok == token.DEFINE, s.Pos()); st != nil {
			return st
		}
	}
	if op, ok := irAssignOps[s.Tok]; ok {
		t := b.lhsType(s.Lhs[0])
		var v kernelir.Expr
		if op == "shl" || op == "shr" {
			v = b.count(s.Rhs[0])
		} else {
			v = b.exprAs(s.Rhs[0], t)
		}
		return &kernelir.OpAssign{Op: op, Target: b.target(s.Lhs[0]), Value: v}
	}
	st := &kernelir.Assign{}
	for _, l := range s.Lhs {
		if id, ok := l.(*ast.Ident); ok && s.Tok == token.DEFINE && id.Name != "_" && b.p.info.Defs[id] != nil {
			obj := b.p.info.Defs[id]
			st.Targets = append(st.Targets, kernelir.Target{Kind: kernelir.TargetNew, Name: id.Name, T: b.goType(id.Pos(), obj.Type())})
			continue
		}
		st.Targets = append(st.Targets, b.target(l))
	}
	if len(s.Rhs) != len(s.Lhs) {
		st.Values = []kernelir.Expr{b.expr(s.Rhs[0])}
		return st
	}
	for n, r := range s.Rhs {
		var t kernelir.Type
		switch tg := st.Targets[n]; tg.Kind {
		case kernelir.TargetNew:
			t = tg.T
		case kernelir.TargetBlank:
			t = b.typeOf(r)
		default:
			t = b.lhsType(s.Lhs[n])
		}
		st.Values = append(st.Values, b.exprAs(r, t))
	}
	return st
}

func (b *irBuilder) rangeStmt(s *ast.RangeStmt) kernelir.Stmt {
	if st := b.teamRange(s); st != nil {
		return st
	}
	if st, ok := b.rangeArray(s); ok {
		return st
	}
	nt := b.typeOf(s.X)
	st := &kernelir.Range{Key: kernelir.Target{Kind: kernelir.TargetBlank}}
	if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
		var key types.Object
		if s.Tok == token.DEFINE {
			key = b.p.info.Defs[id]
		} else {
			key = b.p.info.Uses[id]
		}
		if key != nil {
			nt = b.goType(id.Pos(), key.Type())
			if s.Tok == token.DEFINE {
				st.Key = kernelir.Target{Kind: kernelir.TargetNew, Name: id.Name, T: nt}
			} else {
				st.Key = b.target(id)
			}
		}
	} else if s.Key != nil && !ok {
		b.fail(s.Key.Pos(), "a range key that is not a variable")
	}
	st.T = nt
	st.N = b.exprAs(s.X, nt)
	st.Body = b.stmts(s.Body.List)
	return st
}

// hasMath reports whether a kernel may call math.name.
func hasMath(name string) bool {
	_, ok := kernelir.MathFuncs[name]
	return ok
}

// basicOf returns t's underlying basic type, or nil.
func basicOf(t types.Type) *types.Basic {
	b, _ := t.Underlying().(*types.Basic)
	return b
}
