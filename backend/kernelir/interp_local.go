package kernelir

import (
	"fmt"
	"math"
	"reflect"
)

// The Machine's values of composite types. A value of an array or struct
// type is a handle (the uint64 a variable holds) to its scalars, flat, in
// the arena of one Run: element n of an array at n times the element's
// slots, a field at the sum of the slots of the fields before it. An
// expression of such a type gives a fresh handle (a copy), which a
// declaration takes over and an assignment copies from. A pointer is the
// handle of the struct it points to.

// arena holds the composite values of one Run.
type arena struct{ vals [][]uint64 }

func (a *arena) alloc(n int) uint64 {
	a.vals = append(a.vals, make([]uint64, n))
	return uint64(len(a.vals) - 1)
}

// isAgg reports whether t is an array or struct type.
func isAgg(t Type) bool { return t >= numTypes && !t.IsPointer() && !t.IsView() }

func (x *exec) agg(h uint64) []uint64 { return x.ar.vals[h] }

// zero returns the zero value of t: 0, or a fresh handle.
func (x *exec) zero(t Type) uint64 {
	if isAgg(t) {
		return x.ar.alloc(t.Slots())
	}
	return 0
}

// copyOf returns a fresh handle holding what slots[off:] holds for a
// value of type t, or the scalar there.
func (x *exec) copyOf(slots []uint64, off int, t Type) uint64 {
	if !isAgg(t) {
		return slots[off]
	}
	h := x.ar.alloc(t.Slots())
	copy(x.agg(h), slots[off:off+t.Slots()])
	return h
}

// put stores value u of type t at slots[off:].
func (x *exec) put(slots []uint64, off int, t Type, u uint64) {
	if isAgg(t) {
		copy(slots[off:off+t.Slots()], x.agg(u))
		return
	}
	slots[off] = u
}

// index evaluates an array index of a (valid) index expression and
// fails, as Go panics, outside the array's length n.
func (x *exec) index(i Expr, n int) int {
	u := x.expr(i)
	if TypeOf(i).IsSigned() && int64(u) < 0 || u >= uint64(n) {
		if TypeOf(i).IsSigned() {
			runErr("index out of range [%d] with length %d", int64(u), n)
		}
		runErr("index out of range [%d] with length %d", u, n)
	}
	return int(u)
}

// loc returns where the value of e lies: the scalars of a variable (or
// of what a pointer points to) or, for a value that is no variable's, of
// a fresh copy, and the offset in them.
func (x *exec) loc(e Expr) ([]uint64, int) {
	switch e := e.(type) {
	case *Ref:
		return x.agg(*x.env.slot(e.Name)), 0
	case *Index:
		s, off := x.loc(e.X)
		at := TypeOf(e.X)
		return s, off + x.index(e.I, at.Len())*at.Elem().Slots()
	case *Sel:
		s, off := x.loc(e.X)
		st := TypeOf(e.X)
		if st.IsPointer() {
			st = st.Elem()
		}
		n, _ := st.Field(e.Name)
		return s, off + fieldOffset(st, n)
	}
	return x.agg(x.expr(e)), 0
}

// partLoc returns where target t (a TargetPart) stores.
func (x *exec) partLoc(t *Target) ([]uint64, int) {
	s, off := x.agg(*x.env.slot(t.Name)), 0
	for _, st := range t.Path {
		in := st.In
		if in.IsPointer() {
			in = in.Elem()
		}
		if st.Field != "" {
			n, _ := in.Field(st.Field)
			off += fieldOffset(in, n)
			continue
		}
		off += x.index(st.Index, in.Len()) * in.Elem().Slots()
	}
	return s, off
}

// localExpr evaluates the composite nodes.
func (x *exec) localExpr(e Expr) (uint64, bool) {
	switch e := e.(type) {
	case *Index:
		s, off := x.loc(e)
		return x.copyOf(s, off, e.T), true
	case *Sel:
		s, off := x.loc(e)
		return x.copyOf(s, off, e.T), true
	case *Lit:
		h := x.ar.alloc(e.T.Slots())
		for n, el := range e.Elems {
			var off int
			var t Type
			if e.T.IsArray() {
				t = e.T.Elem()
				off = n * t.Slots()
			} else {
				t = e.T.Fields()[n].Type
				off = fieldOffset(e.T, n)
			}
			x.put(x.agg(h), off, t, x.expr(el))
		}
		return h, true
	case *Addr:
		return *x.env.slot(e.Name), true
	}
	return 0, false
}

// aggFromGo flattens the Go value a, a struct (or array) of the fields
// (or elements) of t, into scalars; ok is false when a is not of t's
// shape.
func aggFromGo(t Type, a any) ([]uint64, bool) {
	out := make([]uint64, 0, t.Slots())
	var flat func(t Type, v reflect.Value) bool
	flat = func(t Type, v reflect.Value) bool {
		switch {
		case t.IsArray():
			if v.Kind() != reflect.Array || v.Len() != t.Len() {
				return false
			}
			for i := range v.Len() {
				if !flat(t.Elem(), v.Index(i)) {
					return false
				}
			}
			return true
		case t.IsStruct():
			fs := t.Fields()
			if v.Kind() != reflect.Struct || v.NumField() != len(fs) {
				return false
			}
			for n, f := range fs {
				if !flat(f.Type, v.Field(n)) {
					return false
				}
			}
			return true
		}
		u, ok := scalarFromValue(t, v)
		out = append(out, u)
		return ok
	}
	if !flat(t, reflect.ValueOf(a)) {
		return nil, false
	}
	return out, true
}

// scalarFromValue returns the bits of v, of kind t (an unexported field
// too).
func scalarFromValue(t Type, v reflect.Value) (uint64, bool) {
	switch v.Kind() {
	case reflect.Bool:
		return b2u(v.Bool()), t == Bool
	case reflect.Int:
		return uint64(v.Int()), t == Int
	case reflect.Int8:
		return uint64(v.Int()), t == Int8
	case reflect.Int16:
		return uint64(v.Int()), t == Int16
	case reflect.Int32:
		return uint64(v.Int()), t == Int32
	case reflect.Int64:
		return uint64(v.Int()), t == Int64
	case reflect.Uint8:
		return v.Uint(), t == Uint8
	case reflect.Uint16:
		return v.Uint(), t == Uint16
	case reflect.Uint32:
		return v.Uint(), t == Uint32
	case reflect.Uint64:
		return v.Uint(), t == Uint64
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(v.Float()), t == Float32 && v.Kind() == reflect.Float32 || t == Float64 && v.Kind() == reflect.Float64
	}
	return 0, false
}

// aggFromBytes reads the scalars of a value of type t from its bytes in
// memory (Layout, little-endian).
func aggFromBytes(t Type, b []byte) ([]uint64, bool) {
	if size, _ := Layout(t); len(b) != size {
		return nil, false
	}
	var out []uint64
	for _, s := range Scalars(t) {
		var u uint64
		n := s.Type.Bits() / 8
		if s.Type == Bool {
			n = 1
		}
		for k := n - 1; k >= 0; k-- {
			u = u<<8 | uint64(b[s.Offset+k])
		}
		switch {
		case s.Type == Float32:
			u = math.Float64bits(float64(math.Float32frombits(uint32(u))))
		case s.Type == Bool:
			u &= 1
		default:
			u = norm(s.Type, u)
		}
		out = append(out, u)
	}
	return out, true
}

// bindAggParam binds struct parameter j of m to a, the Go value or its
// bytes in memory ([]byte, as backend.Arg holds a struct).
func (m *Machine) bindAggParam(j int, p *Param, a any) error {
	var s []uint64
	var ok bool
	if b, isBytes := a.([]byte); isBytes {
		s, ok = aggFromBytes(p.Type, b)
	} else {
		s, ok = aggFromGo(p.Type, a)
	}
	if !ok {
		return fmt.Errorf("kernelir: kernel %s: argument %s is %T, want a struct of the fields of %s", m.k.Name, p.Name, a, p.Type)
	}
	if m.aggParams == nil {
		m.aggParams = map[int][]uint64{}
	}
	m.aggParams[j] = s
	return nil
}

// view returns view name: a helper's view parameter, or the kernel's.
func (x *exec) view(name string) *mview {
	if x.fn != nil {
		return x.vmap[name]
	}
	return x.viewOf(name)
}
