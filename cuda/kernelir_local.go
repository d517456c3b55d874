package cuda

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// The CUDA C of the description's composite types (kernelir's arrays,
// structs and pointers to structs). A Go array is a C struct holding a C
// array, gka_<N>_<elem> { T v[N]; }, so that it is assigned, passed and
// returned by value as Go's is (a C array is not); a Go struct is a C
// struct gks_<name> of its fields in order; a pointer is a C pointer.
// They live in registers or the thread's local memory. An array's index
// is not checked on the device (as a view's is not, by default): run a
// new kernel on the host first.

// irCompositeCType is the C type of a composite type, "void" for others.
func irCompositeCType(t kernelir.Type) string {
	switch {
	case t.IsArray():
		return "gka_" + strconv.Itoa(t.Len()) + "_" + irElemTag(t.Elem())
	case t.IsStruct():
		return "gks_" + t.StructName()
	case t.IsPointer():
		return irCompositeCType(t.Elem()) + "*"
	}
	return "void"
}

// irElemTag names an array's element type in the array's C type name.
func irElemTag(t kernelir.Type) string {
	if t.IsComposite() {
		return irCompositeCType(t)
	}
	return t.String()
}

// irFieldName is the C name of field n of struct t.
func irFieldName(t kernelir.Type, n int) string {
	f := t.Fields()[n]
	if f.Name == "_" {
		return "gkf_" + strconv.Itoa(n)
	}
	return irIdent(f.Name)
}

// irTypeDecls declares the composite types of k and of the helpers it
// calls (called), elements and fields first.
func irTypeDecls(k *kernelir.Kernel, called []string) string {
	kk := *k
	kk.Helpers = nil
	for _, f := range called {
		kk.Helpers = append(kk.Helpers, k.Helper(f))
	}
	var b strings.Builder
	for _, t := range kernelir.Composites(&kk) {
		switch {
		case t.IsArray():
			fmt.Fprintf(&b, "struct %s { %s v[%d]; };\n", irCompositeCType(t), irCType(t.Elem()), t.Len())
		case t.IsStruct():
			fmt.Fprintf(&b, "struct %s {", irCompositeCType(t))
			for n, f := range t.Fields() {
				fmt.Fprintf(&b, " %s %s;", irCType(f.Type), irFieldName(t, n))
			}
			b.WriteString(" };\n")
		}
	}
	return b.String()
}

// localExpr translates the composite nodes.
func (e *irFunc) localExpr(x kernelir.Expr) (irCx, bool) {
	switch x := x.(type) {
	case *kernelir.Index:
		return irCx{irWrap(e.expr(x.X), irPPrimary) + ".v[" + e.expr(x.I).s + "]", irPPrimary}, true
	case *kernelir.Sel:
		st := kernelir.TypeOf(x.X)
		sep := "."
		if st.IsPointer() {
			st, sep = st.Elem(), "->"
		}
		n, _ := st.Field(x.Name)
		return irCx{irWrap(e.expr(x.X), irPPrimary) + sep + irFieldName(st, n), irPPrimary}, true
	case *kernelir.Lit:
		var parts []string
		for _, el := range x.Elems {
			parts = append(parts, e.expr(el).s)
		}
		inner := strings.Join(parts, ", ")
		if x.T.IsArray() && len(parts) > 0 {
			inner = "{" + inner + "}"
		}
		return irCx{irCType(x.T) + "{" + inner + "}", irPPrimary}, true
	case *kernelir.Addr:
		n := e.lookup(x.Name)
		if n.ptr {
			return irCx{n.c, irPPrimary}, true
		}
		return irCx{"&" + n.c, irPUnary}, true
	}
	return irCx{}, false
}

// partLvalue translates a TargetPart.
func (e *irFunc) partLvalue(t *kernelir.Target) irLvalue {
	s := e.lookup(t.Name).c
	for _, st := range t.Path {
		in := st.In
		sep := "."
		if in.IsPointer() {
			in, sep = in.Elem(), "->"
		}
		if st.Field != "" {
			n, _ := in.Field(st.Field)
			s += sep + irFieldName(in, n)
			continue
		}
		idx := e.expr(st.Index).s
		if irHasCall(st.Index) {
			// The target is written twice by x op= y and x++: its
			// index is evaluated once, first, as Go does.
			tmp := e.temp()
			e.line("const %s %s = %s;", irCType(kernelir.TypeOf(st.Index)), tmp, idx)
			idx = tmp
		}
		s += ".v[" + idx + "]"
	}
	return irLvalue{write: s, read: irCx{s, irPPrimary}, t: t.T}
}

// irHasCall reports whether x calls a helper or an atomic.
func irHasCall(x kernelir.Expr) bool {
	switch x := x.(type) {
	case *kernelir.Call, *kernelir.Atomic:
		return true
	case *kernelir.Unary:
		return irHasCall(x.X)
	case *kernelir.Binary:
		return irHasCall(x.X) || irHasCall(x.Y)
	case *kernelir.Convert:
		return irHasCall(x.X)
	case *kernelir.Index:
		return irHasCall(x.X) || irHasCall(x.I)
	case *kernelir.Sel:
		return irHasCall(x.X)
	case *kernelir.At:
		return irAnyCall(x.Index)
	case *kernelir.Lit:
		return irAnyCall(x.Elems)
	case *kernelir.Math:
		return irAnyCall(x.Args)
	case *kernelir.MinMax:
		return irAnyCall(x.Args)
	}
	return false
}

func irAnyCall(xs []kernelir.Expr) bool {
	for _, x := range xs {
		if irHasCall(x) {
			return true
		}
	}
	return false
}

// A helper's view parameters make it a function template over the
// types of the views it is given (each view of a kernel has a type of
// its own): template <class GkV0, ...>, a view passed by value, as the
// kernel holds it.

// viewParam declares view parameter n of a helper; ok is false for other
// parameters.
func (e *irFunc) viewParam(n int, v kernelir.Var) (string, bool) {
	if !v.Type.IsView() {
		return "", false
	}
	t := "GkV" + strconv.Itoa(n)
	if v.Name == "_" || v.Name == "" {
		return t, true
	}
	name := e.declare(v.Name)
	e.bind(v.Name, irName{c: name, view: true})
	return t + " " + name, true
}

// irTemplate is the template header of helper f, "" when it takes no
// views.
func irTemplate(f *kernelir.Func) string {
	var ps []string
	for n, v := range f.Params {
		if v.Type.IsView() {
			ps = append(ps, "class GkV"+strconv.Itoa(n))
		}
	}
	if ps == nil {
		return ""
	}
	return "template <" + strings.Join(ps, ", ") + "> "
}

// A kernel's struct parameter is bound as its scalars (kernelir.Scalars),
// each a scalar argument <base>_<n> of the launch (widened to 32 bits as
// the narrow scalars are), and the body starts with the struct rebuilt
// from them: the launch binds numbers only.

// structParam declares struct parameter name of type t in the body: it
// returns the base of the scalars' names and the conversion "struct".
func (e *irFunc) structParam(name string, t kernelir.Type) (base, conv string) {
	base = "gkb_" + name
	n := 0
	var build func(t kernelir.Type) string
	build = func(t kernelir.Type) string {
		switch {
		case t.IsArray():
			var parts []string
			for range t.Len() {
				parts = append(parts, build(t.Elem()))
			}
			return irCType(t) + "{{" + strings.Join(parts, ", ") + "}}"
		case t.IsStruct():
			var parts []string
			for _, f := range t.Fields() {
				parts = append(parts, build(f.Type))
			}
			return irCType(t) + "{" + strings.Join(parts, ", ") + "}"
		}
		s := base + "_" + strconv.Itoa(n)
		n++
		if _, wide := irWidened(t); wide {
			s = "(" + irCType(t) + ")" + s
		}
		return s
	}
	e.line("const %s %s = %s;", irCType(t), name, build(t))
	return base, "struct"
}

// irWidened returns the element type a scalar of type t is bound as,
// and whether that is wider than t (int8, int16 and bool as int32, uint8
// and uint16 as uint32).
func irWidened(t kernelir.Type) (elemType, bool) {
	switch t {
	case kernelir.Bool, kernelir.Int8, kernelir.Int16:
		return elemInt32, true
	case kernelir.Uint8, kernelir.Uint16:
		return elemUint32, true
	case kernelir.Int32:
		return elemInt32, false
	case kernelir.Uint32:
		return elemUint32, false
	case kernelir.Int, kernelir.Int64:
		return elemInt64, false
	case kernelir.Uint64:
		return elemUint64, false
	case kernelir.Float32:
		return elemFloat32, false
	}
	return elemFloat64, false
}

// structScalars binds the bytes of a struct argument of type t, named
// base, as its scalars.
func structScalars(base string, arg *backend.Arg, t kernelir.Type) ([]scalarArg, error) {
	size, _ := kernelir.Layout(t)
	if len(arg.Bytes) != size {
		return nil, fmt.Errorf("struct %s of %d bytes, the kernel takes %d", base, len(arg.Bytes), size)
	}
	var out []scalarArg
	for n, s := range kernelir.Scalars(t) {
		e, _ := irWidened(s.Type)
		w, _ := kernelir.Layout(s.Type)
		var u uint64
		for k := w - 1; k >= 0; k-- {
			u = u<<8 | uint64(arg.Bytes[s.Offset+k])
		}
		switch s.Type {
		case kernelir.Int8:
			u = uint64(uint32(int32(int8(u))))
		case kernelir.Int16:
			u = uint64(uint32(int32(int16(u))))
		}
		out = append(out, scalarArg{base + "_" + strconv.Itoa(n), e, u})
	}
	return out, nil
}
