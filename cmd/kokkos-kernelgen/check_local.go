package main

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"slices"
)

// Local arrays and structs in kernels and helpers: fixed-size arrays of
// scalars (and of arrays and structs), and structs of such fields that
// the package declares at package level, as locals, composite literals,
// elements, fields, helpers' parameters and results, and the receivers of
// methods marked as helpers. What stays outside: slices, unnamed struct
// types, named array types, structs with fields of other types or
// embedded fields, comparisons of arrays and structs, conversions to a
// struct type, pointers other than the receiver of a method with a
// pointer receiver.

// localType reports whether t is a scalar, or an array or struct a
// kernel's locals may have; if not, and t is an array or struct, what and
// instead say why.
func (p *pkgInfo) localType(t types.Type) (ok bool, what, instead string) {
	if _, ok := scalarType(t); ok {
		return true, "", ""
	}
	switch u := types.Unalias(t).(type) {
	case *types.Array:
		if _, _, isView := viewType(u.Elem()); isView {
			return false, "an array of views", "pass each view as a parameter"
		}
		if ok, what, instead := p.localType(u.Elem()); !ok {
			if what == "" {
				return false, "an array of " + types.TypeString(u.Elem(), p.qual()), "use arrays of numbers, bool, arrays and structs"
			}
			return false, what, instead
		}
		if u.Len() < 1 {
			return false, "an array of length 0", "give it a length"
		}
		return true, "", ""
	case *types.Named:
		st, isStruct := u.Underlying().(*types.Struct)
		if !isStruct {
			if _, isArr := u.Underlying().(*types.Array); isArr {
				return false, "a value of named array type " + types.TypeString(t, p.qual()), "use the array type " + types.TypeString(u.Underlying(), p.qual())
			}
			return false, "", ""
		}
		if isTokenType(t) {
			return false, "a token value", "take the token as a kernel parameter and call its Acquire, Release or Size"
		}
		if u.Obj().Pkg() != p.pkg || u.Obj().Parent() != p.pkg.Scope() || u.TypeArgs() != nil {
			return false, "a value of struct type " + types.TypeString(t, p.qual()), "declare a struct type at package level in this package"
		}
		for f := range st.Fields() {
			if f.Embedded() {
				return false, "the struct " + u.Obj().Name() + " with the embedded field " + f.Name(), "name the field"
			}
			if ok, _, _ := p.localType(f.Type()); !ok {
				return false, "the struct " + u.Obj().Name() + " with field " + f.Name() + " of type " + types.TypeString(f.Type(), p.qual()),
					"a struct in a kernel holds numbers, bool, arrays and structs of them"
			}
		}
		return true, "", ""
	case *types.Struct:
		return false, "a value of unnamed struct type", "declare a struct type at package level"
	}
	return false, "", ""
}

func (p *pkgInfo) qual() types.Qualifier {
	return func(q *types.Package) string {
		if q == p.pkg {
			return ""
		}
		return q.Name()
	}
}

// isComposite reports whether t is an array or struct type.
func isComposite(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Array, *types.Struct:
		return true
	}
	return false
}

// local accepts a value of type t at pos, or refuses it: handled is
// false for types that are not arrays or structs (the caller refuses
// them as before).
func (c *checker) local(pos token.Pos, t types.Type) (handled, ok bool) {
	if c.randomLocal(pos, t) {
		return true, false
	}
	ok, what, instead := c.p.localType(t)
	if ok {
		c.k.noteStructs(t)
		return true, true
	}
	if what == "" {
		return false, false
	}
	c.refuse(pos, what, instead)
	return true, false
}

// noteStructs records the struct types t uses, whose declarations the
// kernel's hash covers.
func (k *kernelFunc) noteStructs(t types.Type) {
	switch u := types.Unalias(t).(type) {
	case *types.Array:
		k.noteStructs(u.Elem())
	case *types.Pointer:
		k.noteStructs(u.Elem())
	case *types.Named:
		st, ok := u.Underlying().(*types.Struct)
		if !ok {
			return
		}
		if k.structs == nil {
			k.structs = map[string]bool{}
		}
		if k.structs[u.Obj().Name()] {
			return
		}
		k.structs[u.Obj().Name()] = true
		for f := range st.Fields() {
			k.noteStructs(f.Type())
		}
	}
}

// compositeLit checks T{...} of an array or struct type.
func (c *checker) compositeLit(x *ast.CompositeLit) {
	t := c.p.info.TypeOf(x)
	if !isComposite(t) {
		c.refuse(x.Pos(), "a composite literal of type "+types.TypeString(t, c.p.qual()), "use a local array or struct, or a view")
		return
	}
	if _, ok := c.local(x.Pos(), t); !ok {
		return
	}
	for _, el := range x.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if _, isArr := t.Underlying().(*types.Array); isArr {
				if c.p.info.Types[kv.Key].Value == nil {
					c.refuse(kv.Key.Pos(), "a non-constant key", "use a constant index")
				}
			}
			c.expr(kv.Value)
			continue
		}
		c.expr(el)
	}
}

// arrayIndex checks a[i] of an array a; false for other index
// expressions.
func (c *checker) arrayIndex(x *ast.IndexExpr) bool {
	if _, ok := c.p.info.TypeOf(x.X).Underlying().(*types.Array); !ok {
		return false
	}
	c.expr(x.X)
	c.expr(x.Index)
	return true
}

// field checks x.f, a field of a local struct or of the struct the
// pointer receiver points to; false when x.f is not such a field.
func (c *checker) field(x *ast.SelectorExpr) bool {
	sel := c.p.info.Selections[x]
	if sel == nil || sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
		return false
	}
	rt := sel.Recv()
	if pt, ok := rt.(*types.Pointer); ok {
		if !c.isRecvPtr(x.X) {
			return false
		}
		rt = pt.Elem()
	}
	if _, ok := c.local(x.Pos(), rt); !ok {
		return true
	}
	if !c.isRecvPtr(x.X) {
		c.expr(x.X)
	}
	return true
}

// isRecvPtr reports whether x is the pointer receiver of the method
// being checked.
func (c *checker) isRecvPtr(x ast.Expr) bool {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok || c.k.recv == nil {
		return false
	}
	_, isPtr := c.k.recv.Type().(*types.Pointer)
	return isPtr && c.p.info.Uses[id] == c.k.recv
}

// lenOf checks len(a) of an array a (a constant); false for other calls
// of len.
func (c *checker) lenOf(x *ast.CallExpr) bool {
	if len(x.Args) != 1 {
		return false
	}
	if _, ok := c.p.info.TypeOf(x.Args[0]).Underlying().(*types.Array); !ok || c.p.info.Types[x].Value == nil {
		return false
	}
	return true
}

// methodCall checks x.m(args) of a method marked as a helper; false for
// other calls.
func (c *checker) methodCall(x *ast.CallExpr) bool {
	se, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	sel := c.p.info.Selections[se]
	if sel == nil || sel.Kind() != types.MethodVal {
		return false
	}
	fn := sel.Obj().(*types.Func)
	h := c.p.byObj[fn]
	if h == nil && fn.Pkg() != c.p.pkg {
		return false
	}
	if h == nil {
		c.refuse(x.Pos(), "a call of method "+types.ExprString(se), "mark the method //kokkos:kernel")
		return true
	}
	if len(sel.Index()) != 1 {
		c.refuse(x.Pos(), "a call of promoted method "+types.ExprString(se), "call it on the field")
		return true
	}
	_, ptrRecv := fn.Type().(*types.Signature).Recv().Type().(*types.Pointer)
	_, xPtr := c.p.info.TypeOf(se.X).(*types.Pointer)
	switch {
	case ptrRecv && !xPtr:
		// An implicit &x: x must be a local variable.
		id, ok := ast.Unparen(se.X).(*ast.Ident)
		v, _ := c.p.info.Uses[id].(*types.Var)
		if !ok || v == nil || c.param(v) != nil || isPkgVar(v) {
			c.refuse(se.X.Pos(), "a call of pointer method "+se.Sel.Name+" on "+types.ExprString(se.X), "copy it to a local variable and call the method on that")
			return true
		}
	case ptrRecv:
		if !c.isRecvPtr(se.X) {
			c.refuse(se.X.Pos(), "the pointer "+types.ExprString(se.X), "call pointer methods on local variables")
			return true
		}
	case xPtr:
		c.refuse(se.X.Pos(), "a call of value method "+se.Sel.Name+" through the pointer "+types.ExprString(se.X), "call it on a local copy")
		return true
	default:
		c.expr(se.X)
	}
	c.calls = append(c.calls, helperCall{c.k, h, x.Pos()})
	c.helperArgs(h, x)
	return true
}

// partLvalue checks a store to an element or field: its root must be a
// local variable, or the pointer receiver.
func (c *checker) partLvalue(e ast.Expr) {
	root := e
	for {
		switch x := ast.Unparen(root).(type) {
		case *ast.IndexExpr:
			if _, ok := c.p.info.TypeOf(x.X).Underlying().(*types.Array); !ok {
				c.expr(e)
				return
			}
			root = x.X
			continue
		case *ast.SelectorExpr:
			if sel := c.p.info.Selections[x]; sel == nil || sel.Kind() != types.FieldVal {
				c.expr(e)
				return
			}
			root = x.X
			continue
		case *ast.Ident:
			v, ok := c.p.info.Uses[x].(*types.Var)
			switch {
			case ok && c.isRecvPtr(x):
				c.expr(e)
				return
			case ok && (c.param(v) != nil || v == c.k.recv):
				c.refuse(x.Pos(), "an assignment to part of parameter "+v.Name(), "copy it to a local")
				return
			case ok && !isPkgVar(v):
				c.expr(e)
				return
			}
		}
		c.refuse(e.Pos(), "an assignment to "+types.ExprString(e), "assign to elements and fields of local variables")
		return
	}
}

// rangeArray checks for k := range a of an array a; false for other
// ranges.
func (c *checker) rangeArray(s *ast.RangeStmt) bool {
	if _, ok := c.p.info.TypeOf(s.X).Underlying().(*types.Array); !ok {
		return false
	}
	if s.Value != nil && s.Tok != token.DEFINE {
		if id, ok := s.Value.(*ast.Ident); !ok || id.Name != "_" {
			c.refuse(s.Value.Pos(), "a range over an array assigning its values", "declare them, for k, v := range a")
		}
	}
	if s.Value != nil {
		c.expr(s.X)
	}
	return true
}

// compare refuses == and != of arrays and structs.
func (c *checker) compare(x *ast.BinaryExpr) bool {
	if (x.Op == token.EQL || x.Op == token.NEQ) && isComposite(c.p.info.TypeOf(x.X)) {
		c.refuse(x.Pos(), "a comparison of arrays or structs", "compare the elements or fields")
		return true
	}
	return false
}

// intConstOf returns the value of a constant integer expression.
func (p *pkgInfo) intConstOf(e ast.Expr) (int64, bool) {
	v := p.info.Types[e].Value
	if v == nil {
		return 0, false
	}
	n, ok := constant.Int64Val(constant.ToInt(v))
	return n, ok
}

// recvHelper classifies a marked method: a helper whose first parameter
// is its receiver, of a local struct type T or *T.
func (p *pkgInfo) recvHelper(fd *ast.FuncDecl, obj *types.Func, sig *types.Signature) (*kernelFunc, error) {
	name := fd.Name.Name
	recv := sig.Recv()
	rt := recv.Type()
	if pt, ok := rt.(*types.Pointer); ok {
		rt = pt.Elem()
	}
	n, ok := types.Unalias(rt).(*types.Named)
	if _, isStruct := rt.Underlying().(*types.Struct); !ok || !isStruct {
		return nil, p.errorf(fd.Pos(), name, "a method of %s cannot be a helper; a helper method has a receiver of a struct type", rt)
	}
	if ok, what, instead := p.localType(rt); !ok {
		return nil, p.errorf(fd.Pos(), name, "%s is not allowed in a kernel (%s)", what, instead)
	}
	k := &kernelFunc{decl: fd, obj: obj, name: n.Obj().Name() + "." + name, helper: true, recv: recv}
	if recv.Name() == "" || recv.Name() == "_" {
		return nil, p.errorf(fd.Pos(), k.name, "a helper method's receiver needs a name")
	}
	return k, nil
}

// helperParamOK reports whether a helper may take or return a value of
// type t.
func (p *pkgInfo) helperParamOK(t types.Type) bool {
	ok, _, _ := p.localType(t)
	return ok
}

// localTypeError is the message of a refused helper parameter or result.
func (p *pkgInfo) localTypeError(t types.Type) string {
	if _, what, instead := p.localType(t); what != "" {
		return fmt.Sprintf(": %s is not allowed in a kernel (%s)", what, instead)
	}
	return ""
}

// structNames returns "type T" for each struct type T that k and the
// helpers it calls use, sorted: their declarations count in k's hash.
func (p *pkgInfo) structNames(k *kernelFunc) []string {
	seen := map[string]bool{}
	var visit func(f *kernelFunc)
	done := map[*kernelFunc]bool{}
	visit = func(f *kernelFunc) {
		if done[f] {
			return
		}
		done[f] = true
		for n := range f.structs {
			seen["type "+n] = true
		}
		for _, h := range f.callees {
			visit(h)
		}
	}
	visit(k)
	return slices.Sorted(maps.Keys(seen))
}

// structParam returns the parameter v of kernel k of a struct type, nil
// if v is not a struct: a launch passes it by value as its bytes, which
// the device reads as C lays the struct out, so its Go layout must be
// C's, and it holds no bool (whose bytes C may read otherwise).
func (p *pkgInfo) structParam(k *kernelFunc, v *types.Var) (*param, error) {
	if _, ok := v.Type().Underlying().(*types.Struct); !ok {
		return nil, nil
	}
	if n, ok := v.Type().(*types.Named); ok && n.Obj().Pkg() != p.pkg {
		return nil, nil // another package's: the caller says what a kernel takes
	}
	if ok, what, instead := p.localType(v.Type()); !ok {
		if what == "" {
			what, instead = "a value of type "+v.Type().String(), "use a struct of numbers"
		}
		return nil, p.errorf(v.Pos(), k.name, "parameter %s: %s is not allowed in a kernel (%s)", v.Name(), what, instead)
	}
	if why := cLayoutDiffers(v.Type()); why != "" {
		return nil, p.errorf(v.Pos(), k.name, "parameter %s of type %s: %s; a struct parameter is passed as its bytes, as C lays them out (pass the fields as scalars, or use an integer)", v.Name(), types.TypeString(v.Type(), p.qual()), why)
	}
	k.noteStructs(v.Type())
	return &param{v: v, name: v.Name()}, nil
}

// cLayoutDiffers says why a value of type t (a scalar, array or struct of
// them) is not laid out in memory as C lays it out, "" when it is: C
// aligns each scalar to its size, an array to its element, a struct to
// its largest field, and pads a struct to a multiple of its alignment.
func cLayoutDiffers(t types.Type) string {
	var why string
	var layout func(t types.Type) (size, align int64)
	layout = func(t types.Type) (size, align int64) {
		switch u := t.Underlying().(type) {
		case *types.Basic:
			if u.Kind() == types.Bool {
				why = "it holds a bool"
			}
			n := sizes.Sizeof(u)
			return n, n
		case *types.Array:
			s, a := layout(u.Elem())
			return s * u.Len(), a
		case *types.Struct:
			var fields []*types.Var
			for f := range u.Fields() {
				fields = append(fields, f)
			}
			offs := sizes.Offsetsof(fields)
			size, align = 0, 1
			for n, f := range fields {
				s, a := layout(f.Type())
				size = (size + a - 1) / a * a
				if offs[n] != size && why == "" {
					why = "field " + f.Name() + " lies elsewhere in Go than in C"
				}
				size += s
				align = max(align, a)
			}
			size = (size + align - 1) / align * align
			if size != sizes.Sizeof(t) && why == "" {
				why = "its size differs in Go and in C"
			}
			return size, align
		}
		why = "it holds a " + t.String()
		return 0, 1
	}
	layout(t)
	return why
}

// conversion refuses T(x) of an array or struct type T; false for other
// conversions.
func (c *checker) conversion(x *ast.CallExpr) bool {
	t := c.p.info.TypeOf(x)
	if !isComposite(t) {
		return false
	}
	c.refuse(x.Pos(), "the conversion "+types.ExprString(x.Fun)+"(...)", "write a literal of its fields or elements")
	return true
}
