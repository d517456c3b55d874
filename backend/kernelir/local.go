package kernelir

import (
	"reflect"
	"strconv"
	"strings"
)

// Nodes of the composite types (types.go): local arrays and structs.

// Index is x[i], element i of array x (an expression of an array type)
// for i of any integer type: an i outside 0 to len(x)-1 is an error (Go
// panics). Text: (index x i).
type Index struct {
	X Expr
	I Expr
	T Type // the element type, filled in by Validate
}

// Sel is x.Name, field Name of struct x, or of the struct a pointer x
// points to. Text: (field x Name).
type Sel struct {
	X    Expr
	Name string
	T    Type // the field's type, filled in by Validate
}

// Lit is the composite literal T{elems...} of an array or struct type T:
// every element (or field) in order, or none for the zero value. Text:
// (lit T elems...).
type Lit struct {
	T     Type
	Elems []Expr
}

// Addr is &x for a local variable x of a struct type, or x itself when x
// is a pointer (a helper's pointer parameter): it may only be an
// argument of a helper's pointer parameter. Text: (addr x).
type Addr struct {
	Name string
	T    Type // the pointer type, filled in by Validate
}

func (*Index) exprNode() {}
func (*Sel) exprNode()   {}
func (*Lit) exprNode()   {}
func (*Addr) exprNode()  {}

// TargetPart is a target that stores to part of a local array or struct
// (or of the struct a pointer parameter points to): Name is the
// variable, Path the elements and fields, outermost first. Text: the
// variable wrapped in (index target i) and (field target Name).
const TargetPart TargetKind = TargetBlank + 1

// A Step is one element or field of a TargetPart's path: the field
// Field, or, when Field is "", the element at Index.
type Step struct {
	Field string
	Index Expr
	In    Type // the type of the value the step selects from, filled in by Validate
}

// localType returns the type of the composite nodes; ok is false for
// other nodes.
func localType(x Expr) (Type, bool) {
	switch x := x.(type) {
	case *Index:
		return x.T, true
	case *Sel:
		return x.T, true
	case *Lit:
		return x.T, true
	case *Addr:
		return x.T, true
	}
	return Invalid, false
}

// Printing.

func (p *printer) localExpr(x Expr) bool {
	switch x := x.(type) {
	case *Index:
		p.b.WriteString("(index ")
		p.expr(x.X)
		p.b.WriteByte(' ')
		p.expr(x.I)
		p.b.WriteString(")")
	case *Sel:
		p.b.WriteString("(field ")
		p.expr(x.X)
		p.b.WriteString(" " + x.Name + ")")
	case *Lit:
		p.b.WriteString("(lit " + x.T.String())
		for _, e := range x.Elems {
			p.b.WriteByte(' ')
			p.expr(e)
		}
		p.b.WriteString(")")
	case *Addr:
		p.b.WriteString("(addr " + x.Name + ")")
	default:
		return false
	}
	return true
}

func (p *printer) partTarget(t Target) {
	for n := len(t.Path) - 1; n >= 0; n-- {
		if t.Path[n].Field != "" {
			p.b.WriteString("(field ")
		} else {
			p.b.WriteString("(index ")
		}
	}
	p.b.WriteString(t.Name)
	for _, s := range t.Path {
		if s.Field != "" {
			p.b.WriteString(" " + s.Field + ")")
		} else {
			p.b.WriteByte(' ')
			p.expr(s.Index)
			p.b.WriteString(")")
		}
	}
}

// structDecls writes the declarations of the struct types that ts use.
func (p *printer) structDecls(ts []Type) {
	for _, s := range Structs(ts...) {
		p.b.WriteString("(struct " + s.StructName())
		for _, f := range s.Fields() {
			p.b.WriteString(" (" + f.Name + " " + f.Type.String() + ")")
		}
		p.b.WriteString(")\n")
	}
}

// kernelTypes returns the types k's parameters and body declare.
func kernelTypes(k *Kernel) []Type {
	var ts []Type
	for _, p := range k.Params {
		ts = append(ts, p.Type)
	}
	return stmtTypes(ts, k.Body)
}

// funcTypes returns the types f's signature and body declare.
func funcTypes(f *Func) []Type {
	var ts []Type
	for _, v := range f.Params {
		ts = append(ts, v.Type)
	}
	for _, v := range f.Results {
		ts = append(ts, v.Type)
	}
	return stmtTypes(ts, f.Body)
}

// stmtTypes appends to ts the composite types that the nodes of list
// carry (declarations, literals, and, once validated, every typed node).
func stmtTypes(ts []Type, list []Stmt) []Type {
	walkNodes(reflect.ValueOf(list), func(t Type) {
		if t >= numTypes {
			ts = append(ts, t)
		}
	}, nil, nil)
	return ts
}

// Parsing.

// structDecl reads (struct name (field type)...) and declares it.
func (p *parser) structDecl(s *sx) (err error) {
	defer catch(&err)
	a := p.args(s, 2, true)
	name := p.name(a[0])
	var fs []Field
	for _, f := range a[1:] {
		l := p.list(f)
		if len(l) != 2 {
			p.fail(f, "want (field type)")
		}
		fs = append(fs, Field{Name: p.name(l[0]), Type: p.typ(l[1])})
	}
	t, err := StructOf(name, fs)
	if err != nil {
		p.fail(s, "%v", err)
	}
	if old, ok := p.structs[name]; ok && old != t {
		p.fail(s, "a second struct named %s, of other fields", name)
	}
	if p.structs == nil {
		p.structs = map[string]Type{}
	}
	p.structs[name] = t
	return nil
}

// compositeType reads the atom of a composite type: [N]T, *S or a
// declared struct's name.
func (p *parser) compositeType(s *sx) (Type, bool) {
	a := s.atom
	switch {
	case strings.HasPrefix(a, "["):
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return Invalid, false
		}
		n, err := strconv.Atoi(a[1:end])
		if err != nil {
			return Invalid, false
		}
		elem := p.typ(&sx{atom: a[end+1:], pos: s.pos})
		t, err := ArrayOf(elem, n)
		if err != nil {
			p.fail(s, "%v", err)
		}
		return t, true
	case strings.HasPrefix(a, "view") && strings.HasSuffix(a, "]"):
		open := strings.IndexByte(a, '[')
		rank, err := strconv.Atoi(a[4:max(open, 4)])
		if open < 0 || err != nil {
			return Invalid, false
		}
		elem := p.typ(&sx{atom: a[open+1 : len(a)-1], pos: s.pos})
		t, err := ViewOf(elem, rank)
		if err != nil {
			p.fail(s, "%v", err)
		}
		return t, true
	case strings.HasPrefix(a, "*"):
		t, ok := p.structs[a[1:]]
		if !ok {
			return Invalid, false
		}
		pt, err := PointerTo(t)
		if err != nil {
			p.fail(s, "%v", err)
		}
		return pt, true
	}
	t, ok := p.structs[a]
	return t, ok
}

// localExpr reads the composite nodes; ok is false for other heads.
func (p *parser) localExpr(s *sx) (Expr, bool) {
	switch s.head() {
	case "index":
		a := p.args(s, 2, false)
		return &Index{X: p.expr(a[0]), I: p.expr(a[1])}, true
	case "field":
		a := p.args(s, 2, false)
		return &Sel{X: p.expr(a[0]), Name: p.name(a[1])}, true
	case "lit":
		a := p.args(s, 1, true)
		return &Lit{T: p.typ(a[0]), Elems: p.exprs(a[1:])}, true
	case "addr":
		return &Addr{Name: p.name(p.args(s, 1, false)[0])}, true
	}
	return nil, false
}

// partTarget reads (index target i) or (field target name).
func (p *parser) partTarget(s *sx) (Target, bool) {
	var path []Step
	for s.isL {
		switch s.head() {
		case "index":
			a := p.args(s, 2, false)
			path = append(path, Step{Index: p.expr(a[1])})
			s = a[0]
		case "field":
			a := p.args(s, 2, false)
			path = append(path, Step{Field: p.name(a[1])})
			s = a[0]
		default:
			if len(path) == 0 {
				return Target{}, false
			}
			p.fail(s, "want a variable at the root of a target")
		}
	}
	if len(path) == 0 {
		return Target{}, false
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return Target{Kind: TargetPart, Name: p.name(s), Path: path}, true
}

// Validation.

// localExpr checks the composite nodes and returns their type; ok is
// false for other nodes.
func (v *validator) localExpr(x Expr) (Type, bool) {
	switch x := x.(type) {
	case *Index:
		t := v.expr(x.X)
		if !t.IsArray() {
			v.errf("an index of a %s", t)
		}
		if !v.expr(x.I).IsInteger() {
			v.errf("an array index that is not an integer")
		}
		if c, ok := x.I.(*Const); ok && (c.T.IsSigned() && int64(c.Bits) < 0 || c.Bits >= uint64(t.Len())) {
			v.errf("constant index %s of a %s", constText(c), t)
		}
		x.T = t.Elem()
	case *Sel:
		t := v.expr(x.X)
		if !t.IsStruct() && !(t.IsPointer() && x.X != nil) {
			v.errf("field %s of a %s", x.Name, t)
		}
		n, ft := t.Field(x.Name)
		if n < 0 {
			v.errf("%s has no field %s", t, x.Name)
		}
		x.T = ft
	case *Lit:
		switch {
		case x.T.IsArray():
			if len(x.Elems) != 0 && len(x.Elems) != x.T.Len() {
				v.errf("a literal of %d elements of a %s", len(x.Elems), x.T)
			}
			for _, e := range x.Elems {
				v.exprOf(e, x.T.Elem())
			}
		case x.T.IsStruct():
			fs := x.T.Fields()
			if len(x.Elems) != 0 && len(x.Elems) != len(fs) {
				v.errf("a literal of %d fields of a %s", len(x.Elems), x.T)
			}
			for n, e := range x.Elems {
				v.exprOf(e, fs[n].Type)
			}
		default:
			v.errf("a literal of a %s", x.T)
		}
	case *Addr:
		b := v.lookup(x.Name)
		if b == nil {
			v.errf("undeclared %s", x.Name)
		}
		switch {
		case b.t.IsPointer():
			x.T = b.t
		case b.t.IsStruct():
			pt, err := PointerTo(b.t)
			if err != nil {
				v.failf("%v", err)
			}
			x.T = pt
		default:
			v.errf("the address of a %s", b.t)
		}
	default:
		return Invalid, false
	}
	return TypeOf(x), true
}

// partTarget resolves a TargetPart and fills in its type.
func (v *validator) partTarget(t *Target) {
	b := v.lookup(t.Name)
	if b == nil {
		v.errf("assignment to undeclared %s", t.Name)
	}
	if b.readOnly {
		v.errf("assignment to %s, an index or the final flag", t.Name)
	}
	if len(t.Path) == 0 {
		v.errf("a part target without a path")
	}
	cur := b.t
	for n, s := range t.Path {
		t.Path[n].In = cur
		if s.Field != "" {
			if !cur.IsStruct() && !(n == 0 && cur.IsPointer()) {
				v.errf("field %s of a %s", s.Field, cur)
			}
			k, ft := cur.Field(s.Field)
			if k < 0 {
				v.errf("%s has no field %s", cur, s.Field)
			}
			cur = ft
			continue
		}
		if !cur.IsArray() {
			v.errf("an index of a %s", cur)
		}
		if s.Index == nil || !v.expr(s.Index).IsInteger() {
			v.errf("an array index that is not an integer")
		}
		if c, ok := s.Index.(*Const); ok && (c.T.IsSigned() && int64(c.Bits) < 0 || c.Bits >= uint64(cur.Len())) {
			v.errf("constant index %s of a %s", constText(c), cur)
		}
		cur = cur.Elem()
	}
	t.T = cur
}

// storable checks that a variable of type t may be declared: a scalar,
// array or struct, not a pointer.
func (v *validator) storable(name string, t Type) {
	if t.IsPointer() || t.IsView() {
		v.errf("a variable %s of type %s", name, t)
	}
}

// helperView is the view a helper's parameter name of type t stands
// for: written, as far as the helper's own checks go (helperWrites says
// which it writes); nil when t is not a view.
func helperView(name string, t Type) *Param {
	if !t.IsView() {
		return nil
	}
	return &Param{Name: name, Type: t.Elem(), Rank: t.Rank(), Write: true}
}

// helperWrites returns, for each helper, which of its view parameters it
// writes: a store to an element, an atomic, or a call that passes it to
// a view parameter its callee writes.
func helperWrites(fs []*Func, byName map[string]*Func) map[string][]bool {
	w := map[string][]bool{}
	for _, f := range fs {
		w[f.Name] = make([]bool, len(f.Params))
	}
	for changed := true; changed; {
		changed = false
		for _, f := range fs {
			names := map[string]int{}
			for n, p := range f.Params {
				if p.Type.IsView() {
					names[p.Name] = n
				}
			}
			if len(names) == 0 {
				continue
			}
			mark := func(name string) {
				if n, ok := names[name]; ok && !w[f.Name][n] {
					w[f.Name][n] = true
					changed = true
				}
			}
			walkStmts(f.Body, func(s Stmt) {
				for _, t := range targetsOf(s) {
					if t.Kind == TargetElem {
						mark(t.Name)
					}
				}
			}, func(x Expr) {
				switch x := x.(type) {
				case *Atomic:
					mark(x.View)
				case *Call:
					g := byName[x.Func]
					if g == nil {
						return
					}
					for n, a := range x.Args {
						if r, ok := a.(*Ref); ok && n < len(g.Params) && g.Params[n].Type.IsView() && w[g.Name][n] {
							mark(r.Name)
						}
					}
				}
			})
		}
	}
	return w
}

// targetsOf returns the targets s stores to.
func targetsOf(s Stmt) []Target {
	switch s := s.(type) {
	case *Assign:
		return s.Targets
	case *OpAssign:
		return []Target{s.Target}
	case *IncDec:
		return []Target{s.Target}
	}
	return nil
}

// viewArg checks argument a of call c for view parameter n of type t.
func (v *validator) viewArg(c *Call, n int, a Expr, t Type) {
	r, ok := a.(*Ref)
	if !ok {
		v.errf("argument %d of %s is not a view", n+1, c.Func)
	}
	p := v.views(r.Name)
	if p == nil {
		v.errf("argument %s of %s is not a view", r.Name, c.Func)
	}
	if p.Type != t.Elem() || p.Rank != t.Rank() {
		v.errf("view %s, rank %d of %s, given to %s's parameter of type %s", r.Name, p.Rank, p.Type, c.Func, t)
	}
	if v.writes[c.Func][n] && !p.Write {
		v.errf("view %s, which is not marked written, given to %s, which writes it", r.Name, c.Func)
	}
	r.T = t
}

// walkStmts calls fs on every statement of list and fx on every
// expression, nested ones too.
func walkStmts(list []Stmt, fs func(Stmt), fx func(Expr)) {
	walkNodes(reflect.ValueOf(list), nil, fs, fx)
}

var (
	typeType = reflect.TypeFor[Type]()
	stmtType = reflect.TypeFor[Stmt]()
	exprType = reflect.TypeFor[Expr]()
)

// walkNodes visits v, a part of a description's tree, and every node
// and Type below it, whatever its kind of node: ft gets each Type, fs
// each statement, fx each expression (each may be nil).
func walkNodes(v reflect.Value, ft func(Type), fs func(Stmt), fx func(Expr)) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Type() == stmtType && fs != nil {
			fs(v.Interface().(Stmt))
		}
		if v.Type() == exprType && fx != nil {
			fx(v.Interface().(Expr))
		}
		walkNodes(v.Elem(), ft, fs, fx)
	case reflect.Pointer:
		if !v.IsNil() {
			walkNodes(v.Elem(), ft, fs, fx)
		}
	case reflect.Slice, reflect.Array:
		for n := range v.Len() {
			walkNodes(v.Index(n), ft, fs, fx)
		}
	case reflect.Struct:
		for n := range v.NumField() {
			walkNodes(v.Field(n), ft, fs, fx)
		}
	case reflect.Uint16:
		if v.Type() == typeType && ft != nil {
			ft(Type(v.Uint()))
		}
	}
}
