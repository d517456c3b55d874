package kernelir

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// Composite types: fixed-size arrays ([N]T), structs (named, of fields of
// scalar, array or struct types) and pointers to structs (*S, the
// receiver of a helper that stands for a method with a pointer receiver).
// A composite Type is a handle into a table of the process, the same
// handle for the same type: two arrays of the same length and element
// type are one Type, as two structs of the same name and fields are.
//
// Values of composite types are copied by assignment, by a helper's
// parameters and results, as Go's arrays and structs are. A pointer is
// never stored: it is a helper's parameter, given (addr x) of a local
// struct x or a pointer parameter of the calling helper.
//
// In the text, an array type is written [N]T (one atom, [4][3]float64
// for an array of arrays), a struct by its name, declared before its use
// by (struct name (field type)...), and a pointer *S.

// MaxArrayLen bounds an array's length, and MaxSlots the number of
// scalars in a value of one type: a kernel's locals live in registers or
// a GPU thread's local memory.
const (
	MaxArrayLen = 1 << 16
	MaxSlots    = 1 << 16
	maxTypes    = 1 << 15
)

// A Field is a field of a struct type.
type Field struct {
	Name string
	Type Type
}

type compKind uint8

const (
	kArray compKind = iota + 1
	kStruct
	kPointer
	kView
)

type compInfo struct {
	kind   compKind
	elem   Type // array element, pointer target
	n      int  // array length
	name   string
	fields []Field
	offs   []int // the slot offset of each field
	slots  int
}

var typeTab struct {
	sync.RWMutex
	list  []compInfo
	byKey map[string]Type
}

func comp(t Type) (compInfo, bool) {
	if t < numTypes {
		return compInfo{}, false
	}
	typeTab.RLock()
	defer typeTab.RUnlock()
	i := int(t) - int(numTypes)
	if i >= len(typeTab.list) {
		return compInfo{}, false
	}
	return typeTab.list[i], true
}

func intern(key string, c compInfo) (Type, error) {
	typeTab.Lock()
	defer typeTab.Unlock()
	if t, ok := typeTab.byKey[key]; ok {
		return t, nil
	}
	if len(typeTab.list) >= maxTypes {
		return Invalid, fmt.Errorf("%w: more than %d composite types", ErrInvalid, maxTypes)
	}
	if typeTab.byKey == nil {
		typeTab.byKey = map[string]Type{}
	}
	t := numTypes + Type(len(typeTab.list))
	typeTab.list = append(typeTab.list, c)
	typeTab.byKey[key] = t
	return t, nil
}

// ArrayOf returns the type [n]elem: elem is a scalar, array or struct
// type, n from 1 to MaxArrayLen. The error wraps ErrInvalid.
func ArrayOf(elem Type, n int) (Type, error) {
	if !elem.valid() || elem.IsPointer() || elem.IsView() {
		return Invalid, fmt.Errorf("%w: an array of %s", ErrInvalid, elem)
	}
	if n < 1 || n > MaxArrayLen || n*elem.Slots() > MaxSlots {
		return Invalid, fmt.Errorf("%w: an array [%d]%s", ErrInvalid, n, elem)
	}
	return intern("a"+strconv.Itoa(n)+","+strconv.Itoa(int(elem)), compInfo{kind: kArray, elem: elem, n: n, slots: n * elem.Slots()})
}

// StructOf returns the struct type name of fields, in order: each field
// of a scalar, array or struct type, the names distinct identifiers.
// The error wraps ErrInvalid.
func StructOf(name string, fields []Field) (Type, error) {
	if !isIdent(name) || name == "_" || isTypeWord(name) {
		return Invalid, fmt.Errorf("%w: struct name %q", ErrInvalid, name)
	}
	if len(fields) == 0 {
		return Invalid, fmt.Errorf("%w: struct %s has no fields", ErrInvalid, name)
	}
	var key strings.Builder
	key.WriteString("s" + name)
	c := compInfo{kind: kStruct, name: name, fields: append([]Field(nil), fields...)}
	seen := map[string]bool{}
	for _, f := range fields {
		if !isIdent(f.Name) || f.Name != "_" && seen[f.Name] {
			return Invalid, fmt.Errorf("%w: struct %s: field name %q", ErrInvalid, name, f.Name)
		}
		seen[f.Name] = true
		if !f.Type.valid() || f.Type.IsPointer() || f.Type.IsView() {
			return Invalid, fmt.Errorf("%w: struct %s: field %s of type %s", ErrInvalid, name, f.Name, f.Type)
		}
		c.offs = append(c.offs, c.slots)
		c.slots += f.Type.Slots()
		if c.slots > MaxSlots {
			return Invalid, fmt.Errorf("%w: struct %s is too large", ErrInvalid, name)
		}
		key.WriteString("," + f.Name + ":" + strconv.Itoa(int(f.Type)))
	}
	return intern(key.String(), c)
}

// PointerTo returns the type *s of struct type s. The error wraps
// ErrInvalid.
func PointerTo(s Type) (Type, error) {
	if !s.IsStruct() {
		return Invalid, fmt.Errorf("%w: a pointer to %s", ErrInvalid, s)
	}
	return intern("p"+strconv.Itoa(int(s)), compInfo{kind: kPointer, elem: s, slots: 1})
}

// isTypeWord reports whether s names a scalar type.
func isTypeWord(s string) bool { _, ok := typeByName(s); return ok }

// valid reports whether t is a scalar or composite type.
func (t Type) valid() bool {
	if t > Invalid && t < numTypes {
		return true
	}
	_, ok := comp(t)
	return ok
}

// IsScalar reports whether t is bool or a number type.
func (t Type) IsScalar() bool { return t > Invalid && t < numTypes }

// IsComposite reports whether t is an array, struct or pointer type.
func (t Type) IsComposite() bool { _, ok := comp(t); return ok }

// IsArray reports whether t is an array type.
func (t Type) IsArray() bool { c, ok := comp(t); return ok && c.kind == kArray }

// IsStruct reports whether t is a struct type.
func (t Type) IsStruct() bool { c, ok := comp(t); return ok && c.kind == kStruct }

// IsPointer reports whether t is a pointer type.
func (t Type) IsPointer() bool { c, ok := comp(t); return ok && c.kind == kPointer }

// Elem is the element type of an array or view, the struct a pointer
// points to; Invalid for other types.
func (t Type) Elem() Type {
	if c, ok := comp(t); ok && c.kind != kStruct {
		return c.elem
	}
	return Invalid
}

// Len is the length of an array type; 0 for other types.
func (t Type) Len() int {
	if c, ok := comp(t); ok && c.kind == kArray {
		return c.n
	}
	return 0
}

// StructName is the name of a struct type; "" for other types.
func (t Type) StructName() string { c, _ := comp(t); return c.name }

// Fields returns the fields of a struct type, in order; nil for other
// types.
func (t Type) Fields() []Field {
	c, _ := comp(t)
	return append([]Field(nil), c.fields...)
}

// Field returns the position of field name of struct type t (or of the
// struct a pointer t points to), and its type; -1 when there is none.
func (t Type) Field(name string) (int, Type) {
	if t.IsPointer() {
		t = t.Elem()
	}
	c, _ := comp(t)
	for n, f := range c.fields {
		if f.Name == name && name != "_" {
			return n, f.Type
		}
	}
	return -1, Invalid
}

// Slots is the number of scalars in a value of type t: 1 for a scalar
// (and a pointer), the sum over the elements or fields for an array or
// struct.
func (t Type) Slots() int {
	if c, ok := comp(t); ok {
		return c.slots
	}
	return 1
}

// fieldOffset is the slot offset of field n of struct t.
func fieldOffset(t Type, n int) int { c, _ := comp(t); return c.offs[n] }

func compositeString(t Type) (string, bool) {
	c, ok := comp(t)
	if !ok {
		return "", false
	}
	switch c.kind {
	case kArray:
		return "[" + strconv.Itoa(c.n) + "]" + c.elem.String(), true
	case kPointer:
		return "*" + c.elem.String(), true
	case kView:
		return "view" + strconv.Itoa(c.n) + "[" + c.elem.String() + "]", true
	}
	return c.name, true
}

// Structs returns the struct types that the types ts use, directly or in
// their elements, fields and pointers, each once, a struct after those of
// its fields: the order their declarations are written in.
func Structs(ts ...Type) []Type {
	var out []Type
	seen := map[Type]bool{}
	var visit func(t Type)
	visit = func(t Type) {
		c, ok := comp(t)
		if !ok || seen[t] {
			return
		}
		seen[t] = true
		switch c.kind {
		case kArray, kPointer:
			visit(c.elem)
		case kStruct:
			for _, f := range c.fields {
				visit(f.Type)
			}
			out = append(out, t)
		}
	}
	for _, t := range ts {
		visit(t)
	}
	return out
}

// Composites returns the array, struct and pointer types that k and its
// helpers use (in their parameters, results, declarations and literals,
// and the elements and fields of those), each once, a type after the
// types of its elements and fields: the order a backend declares them
// in.
func Composites(k *Kernel) []Type {
	ts := kernelTypes(k)
	for _, f := range k.Helpers {
		ts = append(ts, funcTypes(f)...)
	}
	var out []Type
	seen := map[Type]bool{}
	var visit func(t Type)
	visit = func(t Type) {
		c, ok := comp(t)
		if !ok || seen[t] {
			return
		}
		seen[t] = true
		switch c.kind {
		case kArray, kPointer:
			visit(c.elem)
		case kStruct:
			for _, f := range c.fields {
				visit(f.Type)
			}
		}
		out = append(out, t)
	}
	for _, t := range ts {
		visit(t)
	}
	return out
}

// ViewOf returns the type of a view of rank dimensions of elem, a number
// type: the type of a helper's view parameter, written view<rank>[elem]
// (view2[float64]). A view is passed by name: a call gives the view
// parameter of the kernel or of the calling helper, and the helper reads
// and writes its elements as the kernel does its own. Validate works out
// which of a helper's views it writes.
func ViewOf(elem Type, rank int) (Type, error) {
	if !elem.IsNumeric() || rank < 1 || rank > MaxRank {
		return Invalid, fmt.Errorf("%w: a view of rank %d of %s", ErrInvalid, rank, elem)
	}
	return intern("v"+strconv.Itoa(rank)+","+strconv.Itoa(int(elem)), compInfo{kind: kView, elem: elem, n: rank, slots: 1})
}

// IsView reports whether t is a view type.
func (t Type) IsView() bool { c, ok := comp(t); return ok && c.kind == kView }

// Rank is the rank of a view type; 0 for other types.
func (t Type) Rank() int {
	if c, ok := comp(t); ok && c.kind == kView {
		return c.n
	}
	return 0
}

// A Scalar is one scalar of a value of a composite type, in memory as C
// (and Go, for the types a description has) lays the value out: its
// byte offset and its type.
type Scalar struct {
	Offset int
	Type   Type
}

// Layout returns the size and alignment of a value of type t in memory,
// as C lays it out: a scalar's alignment is its size (bool and int8 1,
// int 8), an array's its element's, a struct's its largest field's, the
// fields in order each at the next multiple of its alignment and the
// size rounded up to the alignment. Go lays these types out alike on the
// 64-bit platforms.
func Layout(t Type) (size, align int) {
	c, ok := comp(t)
	if !ok {
		n := t.Bits() / 8
		if t == Bool {
			n = 1
		}
		return n, n
	}
	switch c.kind {
	case kArray:
		s, a := Layout(c.elem)
		return s * c.n, a
	case kStruct:
		size, align = 0, 1
		for _, f := range c.fields {
			s, a := Layout(f.Type)
			size = (size + a - 1) / a * a
			size += s
			align = max(align, a)
		}
		return (size + align - 1) / align * align, align
	}
	return 8, 8
}

// Scalars returns the scalars of a value of type t, in order, with their
// offsets (Layout).
func Scalars(t Type) []Scalar {
	var out []Scalar
	var walk func(t Type, off int)
	walk = func(t Type, off int) {
		c, ok := comp(t)
		if !ok {
			out = append(out, Scalar{off, t})
			return
		}
		switch c.kind {
		case kArray:
			s, _ := Layout(c.elem)
			for n := range c.n {
				walk(c.elem, off+n*s)
			}
		case kStruct:
			at := 0
			for _, f := range c.fields {
				s, a := Layout(f.Type)
				at = (at + a - 1) / a * a
				walk(f.Type, off+at)
				at += s
			}
		}
	}
	walk(t, 0)
	return out
}
