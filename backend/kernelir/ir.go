// Package kernelir describes a Go kernel (a function marked
// //kokkos:kernel, see package kernel) as a small tree that a backend
// compiles from: the kernel's indices, views and scalars, and its body as
// statements and typed expressions with exactly the semantics of the Go
// body. The command kokkos-kernelgen writes the description into the
// generated file as text (Spec.IR); Parse reads it back, Print writes it,
// Validate checks it, and a Machine (interp.go) runs it on the host.
//
// # Semantics
//
// Every node means what the Go construct it comes from means, as the Go
// specification defines it:
//
//   - Integers wrap on overflow at their type's width (int is 64 bits);
//     x / y truncates toward zero and x % y has the sign of x; the most
//     negative value divided by -1 is itself, and its remainder 0. Division
//     by zero is an error (Go panics).
//   - x << n and x >> n shift by any count n >= 0: a count of the width or
//     more gives 0, or -1 for a negative signed x shifted right. A negative
//     count is an error (Go panics).
//   - Floating-point operations round to their type (float32 or float64)
//     after each operation; a multiply and an add are never fused.
//   - A conversion between integer types keeps the low bits; from float to
//     integer truncates toward zero (Go leaves values out of range to the
//     implementation); to float rounds to nearest even.
//   - min and max (Go's builtins) give a NaN when an argument is a NaN,
//     and min(-0, +0) is -0.
//   - Math functions are those of Go's package math, by name.
//   - Atomics are those of package kokkos, by name without the "Atomic"
//     prefix (FetchAdd is kokkos.AtomicFetchAdd).
//   - A view access outside the view's extents is an error (the host
//     kernel panics).
//
// A team kernel (team.go) runs its body once per thread of each team of a
// league; its nodes mean what the methods of kernel.Team and the team
// collectives of package kernel mean.
//
// The interpreter computes exactly this, calling Go's package math for
// the math functions. A backend may differ from it in two ways only. Its
// math functions may differ from Go's by their documented error bounds:
// none for Sqrt, Abs, Floor, Ceil, Trunc, Round, RoundToEven, Mod,
// Remainder, FMA, Copysign, Min, Max, Signbit, Inf, NaN, IsNaN and IsInf;
// 2 units in the last place for Cbrt, Exp, Exp2, Expm1, Log, Log2, Log10,
// Log1p, Sin, Cos, Tan, Asin, Acos, Atan, Atan2, Sinh, Cosh, Tanh and
// Hypot; 4 for Pow, Erf, Erfc, Gamma, Asinh, Acosh and Atanh (CUDA's
// bounds, for arguments where Go's own functions are accurate). And where
// Go panics (a division by zero, a negative shift count, an index outside
// a view), or leaves the result to the implementation (a float converted
// to an integer it does not fit), a backend documents what it does.
//
// # Text form
//
// The text starts with the line "kernelir 1" (the version), followed by
// S-expressions: the helpers a kernel may call, (func ...), and the
// kernel, (kernel ...). Print writes the canonical form; Parse accepts
// any spacing. A name is a Go identifier; a bare name in an expression is
// a variable (index, scalar parameter, final flag or local), or a view
// given to a helper's view parameter. Local arrays and structs, methods'
// pointer receivers and helpers' views have types of their own (types.go)
// and nodes of their own (local.go). See docs/internals/design.md, "The
// kernel description", for the grammar.
package kernelir

import (
	"errors"
	"fmt"
)

// Version is the version of the description this package reads and
// writes: the first line of the text is "kernelir <Version>".
const Version = 1

// ErrSyntax is matched (errors.Is) by the error of Parse for text that is
// not a description.
var ErrSyntax = errors.New("kernelir: malformed description")

// ErrVersion is matched by the error of Parse for a description of
// another version: regenerate it (run go generate).
var ErrVersion = errors.New("kernelir: description of another version")

// ErrInvalid is matched by the error of Validate (and Parse) for a
// description that breaks its rules: an unknown name, mismatched types, a
// break outside a loop.
var ErrInvalid = errors.New("kernelir: invalid description")

// ErrRun is matched by the error of a Machine for what makes the Go body
// panic: an index outside a view, an integer division by zero, a negative
// shift count.
var ErrRun = errors.New("kernelir: run-time error")

// Type is the type of a value: bool, int (64 bits), the sized integers and
// the two floating-point types, or a composite type (types.go): an array,
// a struct, a pointer to a struct.
type Type uint16

const (
	Invalid Type = iota
	Bool
	Int
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float32
	Float64
	numTypes
)

var typeNames = [...]string{"invalid", "bool", "int", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}

func (t Type) String() string {
	if t < numTypes {
		return typeNames[t]
	}
	if s, ok := compositeString(t); ok {
		return s
	}
	return fmt.Sprintf("Type(%d)", uint16(t))
}

// typeByName returns the type named s.
func typeByName(s string) (Type, bool) {
	for t := Bool; t < numTypes; t++ {
		if typeNames[t] == s {
			return t, true
		}
	}
	return Invalid, false
}

// IsInteger reports whether t is one of the integer types.
func (t Type) IsInteger() bool { return t >= Int && t <= Uint64 }

// IsSigned reports whether t is a signed integer type.
func (t Type) IsSigned() bool { return t >= Int && t <= Int64 }

// IsUnsigned reports whether t is an unsigned integer type.
func (t Type) IsUnsigned() bool { return t >= Uint8 && t <= Uint64 }

// IsFloat reports whether t is float32 or float64.
func (t Type) IsFloat() bool { return t == Float32 || t == Float64 }

// IsNumeric reports whether t is an integer or float type.
func (t Type) IsNumeric() bool { return t.IsInteger() || t.IsFloat() }

// Bits is the width of t: 8 to 64 (int has 64), 1 for bool.
func (t Type) Bits() int {
	switch t {
	case Bool:
		return 1
	case Int8, Uint8:
		return 8
	case Int16, Uint16:
		return 16
	case Int32, Uint32, Float32:
		return 32
	}
	return 64
}

// Pattern is the parallel pattern of a kernel.
type Pattern uint8

const (
	PatternFor    Pattern = iota // func(i..., params)
	PatternReduce                // func(i..., params, acc *T)
	PatternScan                  // func(i, params, acc *T, final bool)
)

var patternNames = [...]string{"for", "reduce", "scan"}

func (p Pattern) String() string {
	if int(p) < len(patternNames) {
		return patternNames[p]
	}
	return fmt.Sprintf("Pattern(%d)", uint8(p))
}

// A Kernel is the description of one kernel and of the helpers it may
// call.
type Kernel struct {
	Name    string // the Go function's name
	Pattern Pattern
	Index   []string // the index parameters, 1 to 6, each an int
	Params  []Param  // the parameters after the indices, before acc
	Acc     Type     // the accumulator's element type (*acc); Invalid for For
	Final   string   // the name of a scan's final flag (a bool)
	// Team names the kernel.Team parameter of a team kernel (team.go),
	// which has no Index; "" for a kernel over indices.
	Team string
	Body []Stmt
	// Helpers are the helpers described with the kernel; the body calls
	// them by name. Package-level descriptions list every helper of a
	// generated file, called or not.
	Helpers []*Func
}

// A Param is a view or a scalar parameter.
type Param struct {
	Name  string
	Type  Type // a view's element type, or the scalar's type
	Rank  int  // 1 to 6 for a view, 0 for a scalar
	Write bool // the body writes the view (Set, *Ptr, atomics): it must not be read-only
	Token bool // a unique token (token.go); Type and Rank are zero
	// UMap says the parameter is an UnorderedMap (umap.go): Type is its
	// key type, Value its value type (Invalid for a set); Rank is zero.
	UMap  bool
	Value Type
}

// IsView reports whether p is a view.
func (p Param) IsView() bool { return p.Rank > 0 }

// A Func is a helper: a function of scalars to scalars.
type Func struct {
	Name    string
	Params  []Var // a name "_" for a parameter the body does not name
	Results []Var // a name "" for an unnamed result; a named result starts at zero
	Body    []Stmt
}

// A Var is a named, typed value: a helper's parameter or result, a local.
type Var struct {
	Name string
	Type Type
}

// Helper returns the helper named name, or nil.
func (k *Kernel) Helper(name string) *Func {
	for _, f := range k.Helpers {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// Param returns the parameter named name, or nil.
func (k *Kernel) Param(name string) *Param {
	for j := range k.Params {
		if k.Params[j].Name == name {
			return &k.Params[j]
		}
	}
	return nil
}

// Expressions. Each has a type (TypeOf), filled in by Validate where the
// text leaves it implicit (a variable, a view element, a call).

// An Expr is an expression node.
type Expr interface{ exprNode() }

// Const is a constant of type T: an integer sign- or zero-extended to 64
// bits, a float as math.Float64bits of its value (a float32's value is
// exactly a float32), a bool 0 or 1.
type Const struct {
	T    Type
	Bits uint64
}

// Ref reads a variable: an index (an int), a scalar parameter, the final
// flag of a scan, a helper's parameter or named result, a local.
type Ref struct {
	Name string
	T    Type // filled in by Validate
}

// Unary is -x ("neg"), ^x ("cpl", bitwise complement) or !x ("not") of
// type T.
type Unary struct {
	Op string
	T  Type
	X  Expr
}

// Binary is x op y with operands of type T (for "shl" and "shr", x of
// type T and y of any integer type). The arithmetic operators "add",
// "sub", "mul", "div", "rem", "and", "or", "xor", "andnot" (&^), "shl",
// "shr" give a T; the comparisons "eq", "ne", "lt", "le", "gt", "ge" and
// "land" (&&) and "lor" (||), which evaluates y only when needed, give a
// bool.
type Binary struct {
	Op   string
	T    Type
	X, Y Expr
}

// Convert is the Go conversion T(x).
type Convert struct {
	T Type
	X Expr
}

// At is v.At(index...) of view parameter View, also *v.Ptr(index...) read:
// the element at the indices, of the view's element type.
type At struct {
	View  string
	Index []Expr // as many as the view's rank, each an int
	T     Type   // filled in by Validate
}

// Extent is v.Extent(Dim), an int.
type Extent struct {
	View string
	Dim  int
}

// AccRead is *acc, the accumulator of a reduction or scan.
type AccRead struct {
	T Type // filled in by Validate
}

// Call calls helper Func; with one result it is an expression of that
// type; with several, it may only be the one value of an Assign with as
// many targets, or of a Return.
type Call struct {
	Func    string
	Args    []Expr
	Results []Type // filled in by Validate
}

// Math calls Go's math.Func: its arguments are float64 (int for Inf's
// and IsInf's second), its result float64 (bool for Signbit, IsNaN and
// IsInf).
type Math struct {
	Func string
	Args []Expr
}

// MinMax is Go's builtin min (or max) of one or more values of type T.
type MinMax struct {
	Max  bool
	T    Type
	Args []Expr
}

// Atomic is kokkos.Atomic<Op>(v.Ptr(index...), args...) on an element of
// view View: Op is Load, Store, Exchange, CompareExchange, or one of Add,
// Sub, Mul, Div, Mod, Min, Max, And, Or, Xor, Nand, Lshift, Rshift, Inc,
// Dec as it is (no result), with the prefix Fetch (the old value) or with
// the suffix Fetch (the new value). The shift counts are uint64
// constants.
type Atomic struct {
	Op    string
	View  string
	Index []Expr
	Args  []Expr
	T     Type // the view's element type, filled in by Validate
}

func (*Const) exprNode()   {}
func (*Ref) exprNode()     {}
func (*Unary) exprNode()   {}
func (*Binary) exprNode()  {}
func (*Convert) exprNode() {}
func (*At) exprNode()      {}
func (*Extent) exprNode()  {}
func (*AccRead) exprNode() {}
func (*Call) exprNode()    {}
func (*Math) exprNode()    {}
func (*MinMax) exprNode()  {}
func (*Atomic) exprNode()  {}

// TypeOf returns the type of x: Invalid for a call of no result or of
// several, or for an atomic that returns nothing.
func TypeOf(x Expr) Type {
	switch x := x.(type) {
	case *Const:
		return x.T
	case *Ref:
		return x.T
	case *Unary:
		if x.Op == "not" {
			return Bool
		}
		return x.T
	case *Binary:
		switch x.Op {
		case "eq", "ne", "lt", "le", "gt", "ge", "land", "lor":
			return Bool
		}
		return x.T
	case *Convert:
		return x.T
	case *At:
		return x.T
	case *Extent:
		return Int
	case *AccRead:
		return x.T
	case *Call:
		if len(x.Results) == 1 {
			return x.Results[0]
		}
	case *Math:
		switch x.Func {
		case "Signbit", "IsNaN", "IsInf":
			return Bool
		}
		return Float64
	case *MinMax:
		return x.T
	case *Atomic:
		if atomicResult(x.Op) != resNone {
			return x.T
		}
	case *TeamQuery:
		return TeamQueries[x.Q]
	case *TokenAcquire, *TokenSize:
		return Int
	default:
		if t, ok := localType(x); ok {
			return t
		}
		if t, ok := umapType(x); ok {
			return t
		}
	}
	return Invalid
}

// Statements.

// A Stmt is a statement node.
type Stmt interface{ stmtNode() }

// VarDecl is var names = values: each variable declared in order, with
// its value, or zero when there are no values (a "_" declares nothing).
// Every value is evaluated before the first variable is in scope.
type VarDecl struct {
	Vars   []Var
	Values []Expr
}

// Assign is targets = values (Go's = and :=): every value (and each
// target's indices) is evaluated first, then stored, left to right. A
// single value that is a call of several results gives one per target.
type Assign struct {
	Targets []Target
	Values  []Expr
}

// TargetKind says what a Target stores to.
type TargetKind uint8

const (
	TargetVar   TargetKind = iota // an existing local
	TargetNew                     // a new local, declared by := (Name, T)
	TargetElem                    // v.Set(index..., x) or *v.Ptr(index...) = x
	TargetAcc                     // *acc
	TargetBlank                   // _
)

// A Target is what an assignment stores to.
type Target struct {
	Kind  TargetKind
	Name  string // a local (TargetVar, TargetNew) or a view (TargetElem)
	T     Type   // the type stored (TargetNew: given; else filled in by Validate)
	Index []Expr // TargetElem
	Path  []Step // TargetPart (local.go)
}

// OpAssign is target op= value, op one of Binary's arithmetic operators.
type OpAssign struct {
	Op     string
	Target Target
	Value  Expr
}

// IncDec is target++ (or target-- when Dec).
type IncDec struct {
	Dec    bool
	Target Target
}

// ExprStmt evaluates a call or an atomic for its effect.
type ExprStmt struct{ X Expr }

// If is if init; cond { then } else else: Else is nil, a *Block or an
// *If. Init's declarations are in scope in Cond, Then and Else.
type If struct {
	Init Stmt
	Cond Expr
	Then []Stmt
	Else Stmt
}

// For is for init; cond; post { body }: Init, Cond and Post may be nil
// (no Cond: loop until break or return).
type For struct {
	Init Stmt
	Cond Expr
	Post Stmt
	Body []Stmt
}

// Range is for key := range n (or key = range n, or range n) over the
// integers 0 to n-1 of type T: n is evaluated once; a new key is a fresh
// variable each iteration.
type Range struct {
	Key  Target // TargetNew, TargetVar or TargetBlank
	T    Type
	N    Expr
	Body []Stmt
}

// Switch is switch init; tag { cases }: the first case whose value equals
// tag (or that is true, without a tag) runs; else the default, if any.
// Case values are evaluated in order until one matches.
type Switch struct {
	Init  Stmt
	Tag   Expr // nil for a switch on true
	Cases []Case
}

// A Case is one clause of a Switch; Default has no values.
type Case struct {
	Default bool
	Values  []Expr
	Body    []Stmt
}

// Break ends the innermost loop or switch.
type Break struct{}

// Continue starts the next iteration of the innermost loop.
type Continue struct{}

// Return ends the kernel's call for this index, or returns a helper's
// results (one Call of several results may stand for them; none stand
// for named results' values).
type Return struct{ Values []Expr }

// Block is a block of statements, a scope of its own.
type Block struct{ Body []Stmt }

func (*VarDecl) stmtNode()  {}
func (*Assign) stmtNode()   {}
func (*OpAssign) stmtNode() {}
func (*IncDec) stmtNode()   {}
func (*ExprStmt) stmtNode() {}
func (*If) stmtNode()       {}
func (*For) stmtNode()      {}
func (*Range) stmtNode()    {}
func (*Switch) stmtNode()   {}
func (*Break) stmtNode()    {}
func (*Continue) stmtNode() {}
func (*Return) stmtNode()   {}
func (*Block) stmtNode()    {}

// MathFuncs are the functions of package math a description may call,
// with their number of arguments.
var MathFuncs = map[string]int{
	"Sqrt": 1, "Cbrt": 1, "Exp": 1, "Exp2": 1, "Expm1": 1, "Log": 1, "Log2": 1, "Log10": 1, "Log1p": 1,
	"Sin": 1, "Cos": 1, "Tan": 1, "Asin": 1, "Acos": 1, "Atan": 1, "Atan2": 2, "Sinh": 1, "Cosh": 1,
	"Tanh": 1, "Asinh": 1, "Acosh": 1, "Atanh": 1, "Pow": 2, "Abs": 1, "Floor": 1, "Ceil": 1,
	"Trunc": 1, "Round": 1, "RoundToEven": 1, "Mod": 2, "Remainder": 2, "FMA": 3, "Hypot": 2,
	"Copysign": 2, "Erf": 1, "Erfc": 1, "Gamma": 1, "Min": 2, "Max": 2, "Signbit": 1, "Inf": 1,
	"NaN": 0, "IsNaN": 1, "IsInf": 2,
}

// atomic results.
const (
	resNone = iota
	resOld
	resNew
)

// atomicBase splits an atomic Op into its operation and result.
func atomicBase(op string) (base string, res int) {
	switch {
	case len(op) > 5 && op[:5] == "Fetch":
		return op[5:], resOld
	case len(op) > 5 && op[len(op)-5:] == "Fetch":
		return op[:len(op)-5], resNew
	case op == "Load" || op == "Exchange" || op == "CompareExchange":
		return op, resOld
	}
	return op, resNone
}

func atomicResult(op string) int { _, r := atomicBase(op); return r }

// atomicOps are the operations of the atomics, with their number of value
// arguments and whether they take integers only.
var atomicOps = map[string]struct {
	args    int
	intOnly bool
	fetch   bool // has Fetch forms
}{
	"Load": {0, false, false}, "Store": {1, false, false}, "Exchange": {1, false, false},
	"CompareExchange": {2, false, false},
	"Add":             {1, false, true}, "Sub": {1, false, true}, "Mul": {1, false, true}, "Div": {1, false, true},
	"Mod": {1, true, true}, "Min": {1, false, true}, "Max": {1, false, true}, "And": {1, true, true},
	"Or": {1, true, true}, "Xor": {1, true, true}, "Nand": {1, true, true}, "Lshift": {1, true, true},
	"Rshift": {1, true, true}, "Inc": {0, false, true}, "Dec": {0, false, true},
}
