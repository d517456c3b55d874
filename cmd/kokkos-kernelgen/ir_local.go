package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// The description of local arrays and structs (check_local.go): their
// types, literals, elements, fields, stores to parts of them, ranges over
// arrays, and methods, described as helpers whose first parameter is the
// receiver (a pointer receiver given (addr x) of the local it is called
// on).

// goType is the description's type of Go type t: a scalar, or an array,
// struct or pointer to a struct.
func (b *irBuilder) goType(pos token.Pos, t types.Type) kernelir.Type {
	if rank, elem, ok := viewType(t); ok {
		vt, err := kernelir.ViewOf(b.irType(pos, elem), rank)
		if err != nil {
			b.fail(pos, "%v", err)
		}
		return vt
	}
	switch u := types.Unalias(t).(type) {
	case *types.Array:
		at, err := kernelir.ArrayOf(b.goType(pos, u.Elem()), int(u.Len()))
		if err != nil {
			b.fail(pos, "%v", err)
		}
		return at
	case *types.Pointer:
		pt, err := kernelir.PointerTo(b.goType(pos, u.Elem()))
		if err != nil {
			b.fail(pos, "a pointer of type %s", t)
		}
		return pt
	case *types.Named:
		st, ok := u.Underlying().(*types.Struct)
		if !ok || u.Obj().Pkg() != b.p.pkg {
			break
		}
		var fs []kernelir.Field
		for f := range st.Fields() {
			fs = append(fs, kernelir.Field{Name: f.Name(), Type: b.goType(pos, f.Type())})
		}
		s, err := kernelir.StructOf(u.Obj().Name(), fs)
		if err != nil {
			b.fail(pos, "%v", err)
		}
		return s
	}
	return b.irType(pos, basicOf(t))
}

// irFuncName is the description's name of helper f: its Go name, or
// gkm_T_M for method M of type T.
func irFuncName(f *kernelFunc) string {
	if f.recv != nil {
		return "gkm_" + strings.ReplaceAll(f.name, ".", "_")
	}
	return f.name
}

// zeroOf is the zero value of t.
func zeroOf(t kernelir.Type) kernelir.Expr {
	if t.IsComposite() {
		return &kernelir.Lit{T: t}
	}
	return &kernelir.Const{T: t}
}

// localExpr describes composite literals, array elements and struct
// fields; ok is false for other expressions.
func (b *irBuilder) localExpr(x ast.Expr) (kernelir.Expr, bool) {
	switch x := x.(type) {
	case *ast.CompositeLit:
		t := b.typeOf(x)
		lit := &kernelir.Lit{T: t}
		if len(x.Elts) == 0 {
			return lit, true
		}
		switch {
		case t.IsArray():
			elems := make([]kernelir.Expr, t.Len())
			at := 0
			for _, el := range x.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					n, _ := b.p.intConstOf(kv.Key)
					at = int(n)
					el = kv.Value
				}
				elems[at] = b.exprAs(el, t.Elem())
				at++
			}
			for n := range elems {
				if elems[n] == nil {
					elems[n] = zeroOf(t.Elem())
				}
			}
			lit.Elems = elems
		default:
			fs := t.Fields()
			elems := make([]kernelir.Expr, len(fs))
			for n, el := range x.Elts {
				at := n
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					at, _ = t.Field(kv.Key.(*ast.Ident).Name)
					el = kv.Value
				}
				elems[at] = b.exprAs(el, fs[at].Type)
			}
			for n := range elems {
				if elems[n] == nil {
					elems[n] = zeroOf(fs[n].Type)
				}
			}
			lit.Elems = elems
		}
		return lit, true
	case *ast.IndexExpr:
		return &kernelir.Index{X: b.expr(x.X), I: b.arrayIndex(x.Index)}, true
	case *ast.SelectorExpr:
		sel := b.p.info.Selections[x]
		if sel == nil || sel.Kind() != types.FieldVal {
			return nil, false
		}
		return &kernelir.Sel{X: b.expr(x.X), Name: sel.Obj().Name()}, true
	}
	return nil, false
}

// arrayIndex describes an array's index: a constant as an int.
func (b *irBuilder) arrayIndex(x ast.Expr) kernelir.Expr {
	if b.constOf(x) != nil {
		return b.exprAs(x, kernelir.Int)
	}
	return b.expr(x)
}

// methodCall describes x.m(args) of a helper method; ok is false for
// other calls.
func (b *irBuilder) methodCall(c *ast.CallExpr) (kernelir.Expr, bool) {
	se, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	sel := b.p.info.Selections[se]
	if sel == nil || sel.Kind() != types.MethodVal {
		return nil, false
	}
	fn := sel.Obj().(*types.Func)
	h := b.p.byObj[fn]
	if h == nil {
		b.fail(c.Pos(), "the call of %s has no description", types.ExprString(se))
	}
	sig := fn.Type().(*types.Signature)
	call := &kernelir.Call{Func: irFuncName(h)}
	if _, ptr := sig.Recv().Type().(*types.Pointer); ptr {
		id, ok := ast.Unparen(se.X).(*ast.Ident)
		if !ok {
			b.fail(se.X.Pos(), "a pointer method called on %s", types.ExprString(se.X))
		}
		call.Args = append(call.Args, &kernelir.Addr{Name: id.Name})
	} else {
		call.Args = append(call.Args, b.expr(se.X))
	}
	for n, a := range c.Args {
		call.Args = append(call.Args, b.helperArg(a, sig.Params().At(n).Type()))
	}
	return call, true
}

// partTarget describes a store to an element or field of a local; ok is
// false for other targets.
func (b *irBuilder) partTarget(x ast.Expr) (kernelir.Target, bool) {
	var path []kernelir.Step
	e := ast.Unparen(x)
	for {
		switch y := e.(type) {
		case *ast.IndexExpr:
			if _, ok := b.p.info.TypeOf(y.X).Underlying().(*types.Array); !ok {
				return kernelir.Target{}, false
			}
			path = append(path, kernelir.Step{Index: b.arrayIndex(y.Index)})
			e = ast.Unparen(y.X)
			continue
		case *ast.SelectorExpr:
			sel := b.p.info.Selections[y]
			if sel == nil || sel.Kind() != types.FieldVal {
				return kernelir.Target{}, false
			}
			path = append(path, kernelir.Step{Field: sel.Obj().Name()})
			e = ast.Unparen(y.X)
			continue
		case *ast.Ident:
			if len(path) == 0 {
				return kernelir.Target{}, false
			}
			// Outermost first; Go evaluates the indices left to right.
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return kernelir.Target{Kind: kernelir.TargetPart, Name: y.Name, Path: path}, true
		}
		return kernelir.Target{}, false
	}
}

// rangeArray describes for k := range a of an array a: a range over
// len(a), a constant (a is not evaluated, as in Go). With a value, for
// k, v := range a, a is copied once before the loop (Go ranges over a
// copy of an array) into a local gkr<line>c<col>, and each iteration
// declares v, its element at the key (named gkk<line>c<col> when the key
// is blank).
func (b *irBuilder) rangeArray(s *ast.RangeStmt) (kernelir.Stmt, bool) {
	at, ok := b.p.info.TypeOf(s.X).Underlying().(*types.Array)
	if !ok {
		return nil, false
	}
	st := &kernelir.Range{Key: kernelir.Target{Kind: kernelir.TargetBlank}, T: kernelir.Int, N: &kernelir.Const{T: kernelir.Int, Bits: uint64(at.Len())}}
	if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
		if s.Tok == token.DEFINE {
			st.Key = kernelir.Target{Kind: kernelir.TargetNew, Name: id.Name, T: kernelir.Int}
		} else {
			st.Key = b.target(id)
		}
	}
	val, hasVal := s.Value.(*ast.Ident)
	if !hasVal || val.Name == "_" {
		st.Body = b.stmts(s.Body.List)
		return st, true
	}
	pos := b.p.fset.Position(s.Pos())
	suffix := fmt.Sprintf("%dc%d", pos.Line, pos.Column)
	if st.Key.Kind == kernelir.TargetBlank {
		st.Key = kernelir.Target{Kind: kernelir.TargetNew, Name: "gkk" + suffix, T: kernelir.Int}
	}
	copyName := "gkr" + suffix
	arrT := b.goType(s.X.Pos(), at)
	elem := &kernelir.Index{X: &kernelir.Ref{Name: copyName}, I: &kernelir.Ref{Name: st.Key.Name}}
	st.Body = append([]kernelir.Stmt{&kernelir.VarDecl{Vars: []kernelir.Var{{Name: val.Name, Type: arrT.Elem()}}, Values: []kernelir.Expr{elem}}}, b.stmts(s.Body.List)...)
	return &kernelir.Block{Body: []kernelir.Stmt{
		&kernelir.VarDecl{Vars: []kernelir.Var{{Name: copyName, Type: arrT}}, Values: []kernelir.Expr{b.expr(s.X)}},
		st,
	}}, true
}

// recvParam is the description of a helper method's receiver.
func (b *irBuilder) recvParam(f *kernelFunc) []kernelir.Var {
	if f.recv == nil {
		return nil
	}
	return []kernelir.Var{{Name: f.recv.Name(), Type: b.goType(f.recv.Pos(), f.recv.Type())}}
}

// helperArg describes argument a of a helper's parameter of type t: a
// view by its name.
func (b *irBuilder) helperArg(a ast.Expr, t types.Type) kernelir.Expr {
	if _, _, ok := viewType(t); ok {
		if id, ok := ast.Unparen(a).(*ast.Ident); ok {
			if name := b.views[b.p.info.Uses[id]]; name != "" {
				return &kernelir.Ref{Name: name}
			}
		}
		b.fail(a.Pos(), "a view argument that is not a view parameter")
	}
	return b.exprAs(a, b.goType(a.Pos(), t))
}

// paramType is the description's type of a kernel's parameter: a view's
// element type, a scalar's or a struct's type.
func (b *irBuilder) paramType(pr *param) kernelir.Type {
	if pr.elem == nil {
		return b.goType(pr.v.Pos(), pr.v.Type())
	}
	return b.irType(pr.v.Pos(), pr.elem)
}
