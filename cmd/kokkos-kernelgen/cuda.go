package main

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"strconv"
	"strings"
)

// This file translates a checked kernel into the CUDA C body of package
// cuda's patterns (cuda.ParallelFor, ParallelReduce, ParallelScan), with
// Go's semantics: integers wrap, shifts by the width or more give 0 (or -1),
// the most negative integer divided by -1 is itself, min and max propagate
// NaNs. What the device cannot do as Go does is said where it happens:
// integer division by zero (Go panics) gives 0, and the remainder the
// dividend; a negative shift count (Go panics) shifts by a huge count.

// errNoCUDA is matched (errors.Is) by the error of a kernel that has no
// CUDA translation because package cuda cannot bind one of its parameters
// (a view of int8, int16, uint8 or uint16, or such an accumulator): the
// kernel then runs on the host only.
var errNoCUDA = errors.New("no CUDA translation")

// cudaCode is a kernel's CUDA C translation, for package cuda's patterns.
type cudaCode struct {
	// Body is the body of the loop, over the index names of package cuda
	// (i for a RangePolicy, i0..i5 for an MDRangePolicy), acc and final,
	// and the bindings named in Names. A Go int is a long long (gk_i64)
	// in it; for a reduction or scan over a Go int the accumulator must
	// be a long long too (an int64 reducer), and over a bool an int (LAnd,
	// LOr).
	Body string
	// Helpers is the file-scope source the body needs, for cuda.Helpers:
	// the support functions of Go's semantics (gkx_*) it uses, then a
	// __device__ static function gk_h_<Name> for each //kokkos:kernel
	// helper the kernel calls, directly or not, each defined before its
	// callers. It is "" when the body needs none.
	Helpers string
	// Names is the C name each of k.params is bound with: cuda.Bind for a
	// view, cuda.Scalar for a scalar.
	Names []string
	// Conv says, for each of k.params, what cuda.Scalar is given: "" the
	// value as it is (a view, or a scalar of a type cuda.Scalar takes:
	// float32, float64, int32, int64, uint32, uint64, int); "int32" the
	// value converted to int32 (int8 and int16, and bool as 1 for true
	// and 0 for false); "uint32" the value converted to uint32 (uint8,
	// uint16). The body converts such a binding back to the Go type first.
	Conv []string
}

// emitCUDA translates kernel k (not a helper) into CUDA C. An error that
// wraps errNoCUDA says the kernel has no device translation; any other is
// a construct the translation does not handle.
func (p *pkgInfo) emitCUDA(k *kernelFunc) (code cudaCode, err error) {
	if k.helper {
		return cudaCode{}, p.errorf(k.decl.Pos(), k.name, "a helper has no CUDA translation of its own; kernels that call it have")
	}
	for _, pr := range k.params {
		if pr.isView() && !cudaElem(pr.elem) {
			return cudaCode{}, fmt.Errorf("%w: %s: kernel %s: view %s has elements of type %s; package cuda binds views of float32, float64, int32, int64, uint32 and uint64 only, so the kernel runs on the host only",
				errNoCUDA, p.fset.Position(pr.v.Pos()), k.name, pr.name, pr.elem)
		}
	}
	if k.acc != nil && k.accElem.Kind() != types.Bool && k.accElem.Kind() != types.Int && !cudaElem(k.accElem) {
		return cudaCode{}, fmt.Errorf("%w: %s: kernel %s: the accumulator has type *%s; package cuda reduces float32, float64, int32, int64, uint32, uint64 and bool only, so the kernel runs on the host only",
			errNoCUDA, p.fset.Position(k.acc.Pos()), k.name, k.accElem)
	}
	defer func() {
		if r := recover(); r != nil {
			ee, ok := r.(emitError)
			if !ok {
				panic(r)
			}
			code, err = cudaCode{}, ee.err
		}
	}()
	g := &cGen{p: p, support: map[string]bool{}, helpers: map[*kernelFunc]int{}}
	e := g.newFunc(k)
	// Package cuda's indices may be 32-bit (gk_idx); Go's are int, 64-bit:
	// an index is widened where it is used, except as a view's index.
	idx := indexNames(len(k.index))
	for n, v := range k.index {
		e.names[v] = "((gk_i64)" + idx[n] + ")"
		e.bare[v] = idx[n]
	}
	if k.acc != nil {
		e.names[k.acc] = "acc"
		e.accBool = k.accElem.Kind() == types.Bool
	}
	if k.final != nil {
		e.names[k.final] = "final"
	}
	var conv []string
	for _, pr := range k.params {
		name := e.declare(pr.v)
		bound, cv := name, ""
		if !pr.isView() {
			switch pr.elem.Kind() {
			case types.Bool:
				bound, cv = "gkb_"+name, "int32"
				e.line("const bool %s = %s != 0;", name, bound)
			case types.Int8, types.Int16:
				bound, cv = "gkb_"+name, "int32"
				e.line("const %s %s = (%s)%s;", cType(pr.elem), name, cType(pr.elem), bound)
			case types.Uint8, types.Uint16:
				bound, cv = "gkb_"+name, "uint32"
				e.line("const %s %s = (%s)%s;", cType(pr.elem), name, cType(pr.elem), bound)
			default:
				// package cuda binds scalars const: one the body
				// assigns is a copy.
				if e.assigns(k.decl.Body, pr.v) {
					bound = "gkb_" + name
					e.line("%s %s = %s;", cType(pr.elem), name, bound)
				}
			}
		}
		code.Names = append(code.Names, bound)
		conv = append(conv, cv)
		if pr.isView() {
			e.views[pr.v] = name
		}
	}
	code.Conv = conv
	e.stmts(k.decl.Body.List)
	code.Body = e.b.String()

	// The helpers the kernel calls, callees first.
	var order []*kernelFunc
	var visit func(f *kernelFunc, from *kernelFunc)
	visit = func(f *kernelFunc, from *kernelFunc) {
		switch g.helpers[f] {
		case 2:
			return
		case 1:
			panic(emitError{p.errorf(from.decl.Pos(), from.name, "helper %s calls itself, directly or not; the CUDA translation has no recursion", f.name)})
		}
		g.helpers[f] = 1
		fe := g.emitHelper(f)
		for _, c := range fe.called {
			visit(c, f)
		}
		g.helpers[f] = 2
		g.helperSrc[f] = fe.b.String()
		order = append(order, f)
	}
	g.helperSrc = map[*kernelFunc]string{}
	for _, c := range e.called {
		visit(c, k)
	}
	var h strings.Builder
	for _, s := range supportCode {
		if g.support[s.name] {
			h.WriteString(s.src)
		}
	}
	for _, f := range order {
		h.WriteString(g.helperSrc[f])
	}
	code.Helpers = h.String()
	return code, nil
}

// cudaElem reports whether package cuda binds views (and reduces values)
// of type b.
func cudaElem(b *types.Basic) bool {
	switch b.Kind() {
	case types.Float32, types.Float64, types.Int32, types.Int64, types.Uint32, types.Uint64:
		return true
	}
	return false
}

// indexNames returns package cuda's index names for n indices.
func indexNames(n int) []string {
	if n == 1 {
		return []string{"i"}
	}
	s := make([]string, n)
	for d := range s {
		s[d] = "i" + strconv.Itoa(d)
	}
	return s
}

// emitError carries an error out of the emitter's recursion.
type emitError struct{ err error }

// cGen is the state of one kernel's translation shared by its functions:
// the support code used and the helpers translated.
type cGen struct {
	p         *pkgInfo
	support   map[string]bool
	helpers   map[*kernelFunc]int // 1 while being translated, 2 when done
	helperSrc map[*kernelFunc]string
}

// cFunc translates one Go function: the kernel's body or a helper.
type cFunc struct {
	g       *cGen
	p       *pkgInfo
	k       *kernelFunc
	names   map[types.Object]string // C names of parameters and locals
	bare    map[types.Object]string // the index parameters' names unwidened, for view indices
	views   map[types.Object]string // view parameters
	used    map[string]bool         // C names taken in this function
	tmp     int
	b       strings.Builder
	depth   int
	accBool bool          // acc is an int holding a bool
	results []*types.Var  // a helper's named results
	called  []*kernelFunc // helpers called, in order of first call
	frames  []*frame      // enclosing loops and switches
	// unsigned maps the text of a wrapped signed operation, (T)(u), to
	// u, so that an enclosing operation goes on in the unsigned type.
	unsigned map[string]cx
}

// frame is an enclosing loop or switch: what break and continue target.
type frame struct {
	loop     bool
	doWhile  bool   // a switch wrapped in do { } while (0) for its breaks
	contFlag string // the flag a continue through this switch sets
}

func (g *cGen) newFunc(k *kernelFunc) *cFunc {
	return &cFunc{g: g, p: g.p, k: k, names: map[types.Object]string{}, bare: map[types.Object]string{}, views: map[types.Object]string{}, used: map[string]bool{}, unsigned: map[string]cx{}}
}

// fail stops the translation with an error at pos.
func (e *cFunc) fail(pos token.Pos, format string, args ...any) {
	panic(emitError{e.p.errorf(pos, e.k.name, format, args...)})
}

// hostOnly stops the translation of a kernel that is valid Go but has no
// CUDA counterpart: the kernel is generated for the host only.
func (e *cFunc) hostOnly(pos token.Pos, format string, args ...any) {
	panic(emitError{fmt.Errorf("%w: %w", errNoCUDA, e.p.errorf(pos, e.k.name, format, args...))})
}

// line writes one line at the current depth.
func (e *cFunc) line(format string, args ...any) {
	e.b.WriteString(strings.Repeat("\t", e.depth))
	fmt.Fprintf(&e.b, format, args...)
	e.b.WriteByte('\n')
}

// declare gives obj a C name: cIdent of its Go name, made unique in the
// function (a shadowing declaration gets another name).
func (e *cFunc) declare(obj types.Object) string {
	base := cIdent(obj.Name())
	name := base
	for n := 2; e.used[name]; n++ {
		name = "gkv" + strconv.Itoa(n) + "_" + base
	}
	e.used[name] = true
	e.names[obj] = name
	return name
}

// temp returns a fresh temporary name.
func (e *cFunc) temp() string {
	e.tmp++
	return "gkt" + strconv.Itoa(e.tmp)
}

// emitHelper translates helper f into a __device__ static function.
func (g *cGen) emitHelper(f *kernelFunc) *cFunc {
	e := g.newFunc(f)
	sig := f.obj.Type().(*types.Signature)
	if sig.Results().Len() > 1 {
		e.fail(f.decl.Pos(), "helper %s has %d results; the CUDA translation takes helpers of one result at most", f.name, sig.Results().Len())
	}
	var params []string
	for n := range sig.Params().Len() {
		v := sig.Params().At(n)
		t := basicOf(v.Type())
		if t == nil {
			e.fail(v.Pos(), "helper parameter %s has type %s", v.Name(), v.Type())
		}
		if v.Name() == "_" || v.Name() == "" {
			params = append(params, cType(t))
			continue
		}
		params = append(params, cType(t)+" "+e.declare(v))
	}
	ret := "void"
	if sig.Results().Len() == 1 {
		ret = cType(basicOf(sig.Results().At(0).Type()))
	}
	fmt.Fprintf(&e.b, "__device__ static %s gk_h_%s(%s) {\n", ret, f.name, strings.Join(params, ", "))
	e.depth = 1
	if r := sig.Results(); r.Len() == 1 && r.At(0).Name() != "" {
		v := r.At(0)
		name := "gkr_result"
		if v.Name() != "_" {
			name = e.declare(v)
		}
		e.results = []*types.Var{v}
		e.names[v] = name
		e.line("%s %s = %s;", ret, name, zeroValue(basicOf(v.Type())))
	}
	e.stmts(f.decl.Body.List)
	e.b.WriteString("}\n")
	return e
}

// basicOf returns t's underlying basic type, or nil.
func basicOf(t types.Type) *types.Basic {
	b, _ := t.Underlying().(*types.Basic)
	return b
}

// cType is the C type of a Go basic type.
func cType(b *types.Basic) string {
	switch b.Kind() {
	case types.Bool, types.UntypedBool:
		return "bool"
	case types.Int, types.Int64, types.UntypedInt, types.UntypedRune:
		return "gk_i64"
	case types.Int8:
		return "signed char"
	case types.Int16:
		return "short"
	case types.Int32:
		return "int"
	case types.Uint8:
		return "unsigned char"
	case types.Uint16:
		return "unsigned short"
	case types.Uint32:
		return "unsigned int"
	case types.Uint64, types.Uint, types.Uintptr:
		return "gk_u64"
	case types.Float32:
		return "float"
	case types.Float64, types.UntypedFloat:
		return "double"
	}
	return "void"
}

// width is the number of bits of an integer type (Go's int has 64).
func width(b *types.Basic) int {
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32, types.Float32:
		return 32
	}
	return 64
}

func isFloat(b *types.Basic) bool  { return b.Info()&types.IsFloat != 0 }
func isSigned(b *types.Basic) bool { return b.Info()&types.IsUnsigned == 0 }

// wideU is the unsigned C type arithmetic on an integer type of 32 or 64
// bits goes through.
func wideU(b *types.Basic) string {
	if width(b) == 64 {
		return "gk_u64"
	}
	return "unsigned int"
}

// promoted is the C type an integer narrower than 32 bits computes in.
func promoted(b *types.Basic) string {
	if isSigned(b) {
		return "int"
	}
	return "unsigned int"
}

// zeroValue is the C zero of type b.
func zeroValue(b *types.Basic) string {
	if b.Kind() == types.Bool {
		return "false"
	}
	s, _ := cConst(constant.MakeInt64(0), b)
	return s
}

// C identifiers: the mapping of Go names.

// cReserved are names a Go name does not keep in C: C and C++ keywords,
// the names package cuda's generated code gives the indices, the
// accumulator and its own code, and every function and macro name the
// translation emits or that CUDA's headers define.
var cReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`alignas alignof and and_eq asm auto bitand bitor bool break case catch
		char char8_t char16_t char32_t class co_await co_return co_yield compl concept const consteval
		constexpr constinit const_cast continue decltype default delete do double dynamic_cast else enum
		explicit export extern false float for friend goto if inline int long mutable namespace new
		noexcept not not_eq nullptr operator or or_eq private protected public register
		reinterpret_cast requires restrict return short signed sizeof static static_assert static_cast
		struct switch template this thread_local throw true try typedef typeid typename union unsigned
		using virtual void volatile wchar_t while xor xor_eq
		i i0 i1 i2 i3 i4 i5 acc final value dst src Kokkos std
		threadIdx blockIdx blockDim gridDim warpSize
		NULL INFINITY NAN HUGE_VAL HUGE_VALF assert offsetof errno signbit isnan isinf isfinite
		isnormal fpclassify min max fmin fmax
		sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos atan atan2 sinh cosh tanh
		asinh acosh atanh pow fabs floor ceil trunc round rint fmod remainder fma hypot copysign erf
		erfc tgamma
		atomic_load atomic_store atomic_add atomic_sub atomic_fetch_add atomic_fetch_sub
		atomic_add_fetch atomic_increment atomic_decrement atomic_min atomic_max atomic_fetch_min
		atomic_fetch_max atomic_exchange atomic_compare_exchange`) {
		cReserved[w] = true
	}
}

// cIdent maps a Go name to a C identifier: the name itself when it is a
// safe C identifier (ASCII letters, digits and _, no leading _ or __
// anywhere, not starting with gk, not in cReserved), else "gkm_" and the
// name with each character other than an ASCII letter or digit written
// as Z<hex>Z and Z as ZZ, which no two names share.
func cIdent(name string) string {
	if safeIdent(name) {
		return name
	}
	var b strings.Builder
	b.WriteString("gkm_")
	for _, r := range name {
		switch {
		case r == 'Z':
			b.WriteString("ZZ")
		case r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'):
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "Z%xZ", r)
		}
	}
	return b.String()
}

func safeIdent(name string) bool {
	if name == "" || name[0] == '_' || strings.HasPrefix(name, "gk") || strings.Contains(name, "__") || cReserved[name] {
		return false
	}
	for _, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// Support code: the functions of Go's semantics the translation calls,
// placed in Helpers when used, in this order.

var supportCode = []struct{ name, src string }{
	{"div", `// Integer division and remainder as Go's: MinInt / -1 is MinInt and
// MinInt % -1 is 0. Go panics on division by zero; here x / 0 is 0 and
// x % 0 is x.
__device__ __forceinline__ int gkx_div(int a, int b) { return b == 0 ? 0 : b == -1 ? (int)(0u - (unsigned int)a) : a / b; }
__device__ __forceinline__ gk_i64 gkx_div(gk_i64 a, gk_i64 b) { return b == 0 ? 0 : b == -1 ? (gk_i64)(0ull - (gk_u64)a) : a / b; }
__device__ __forceinline__ unsigned int gkx_div(unsigned int a, unsigned int b) { return b == 0 ? 0u : a / b; }
__device__ __forceinline__ gk_u64 gkx_div(gk_u64 a, gk_u64 b) { return b == 0 ? 0ull : a / b; }
__device__ __forceinline__ int gkx_rem(int a, int b) { return b == 0 ? a : b == -1 ? 0 : a % b; }
__device__ __forceinline__ gk_i64 gkx_rem(gk_i64 a, gk_i64 b) { return b == 0 ? a : b == -1 ? 0 : a % b; }
__device__ __forceinline__ unsigned int gkx_rem(unsigned int a, unsigned int b) { return b == 0 ? a : a % b; }
__device__ __forceinline__ gk_u64 gkx_rem(gk_u64 a, gk_u64 b) { return b == 0 ? a : a % b; }
`},
	{"shift", `// Shifts as Go's: a count of the width or more shifts every bit out (a
// negative signed value shifted right gives -1). Go panics on a negative
// count; here it is taken as a count of 2^64 minus its magnitude.
__device__ __forceinline__ int gkx_shl(int x, gk_u64 n) { return n >= 32 ? 0 : (int)((unsigned int)x << n); }
__device__ __forceinline__ unsigned int gkx_shl(unsigned int x, gk_u64 n) { return n >= 32 ? 0u : x << n; }
__device__ __forceinline__ gk_i64 gkx_shl(gk_i64 x, gk_u64 n) { return n >= 64 ? 0 : (gk_i64)((gk_u64)x << n); }
__device__ __forceinline__ gk_u64 gkx_shl(gk_u64 x, gk_u64 n) { return n >= 64 ? 0ull : x << n; }
__device__ __forceinline__ int gkx_shr(int x, gk_u64 n) { return n >= 32 ? (x < 0 ? -1 : 0) : x >> n; }
__device__ __forceinline__ unsigned int gkx_shr(unsigned int x, gk_u64 n) { return n >= 32 ? 0u : x >> n; }
__device__ __forceinline__ gk_i64 gkx_shr(gk_i64 x, gk_u64 n) { return n >= 64 ? (x < 0 ? -1 : 0) : x >> n; }
__device__ __forceinline__ gk_u64 gkx_shr(gk_u64 x, gk_u64 n) { return n >= 64 ? 0ull : x >> n; }
`},
	{"signbit", `__device__ __forceinline__ bool gkx_signbit(float x) { return __float_as_int(x) < 0; }
__device__ __forceinline__ bool gkx_signbit(double x) { return __double_as_longlong(x) < 0; }
`},
	{"minmax", `// Go's min and max: a NaN argument gives NaN, and min(-0, +0) is -0.
template <class T> __device__ __forceinline__ T gkx_min(T a, T b) { return b < a ? b : a; }
template <class T> __device__ __forceinline__ T gkx_max(T a, T b) { return b > a ? b : a; }
__device__ __forceinline__ float gkx_min(float a, float b) { return a != a ? a : b != b ? b : a < b ? a : b < a ? b : gkx_signbit(a) ? a : b; }
__device__ __forceinline__ double gkx_min(double a, double b) { return a != a ? a : b != b ? b : a < b ? a : b < a ? b : gkx_signbit(a) ? a : b; }
__device__ __forceinline__ float gkx_max(float a, float b) { return a != a ? a : b != b ? b : a > b ? a : b > a ? b : gkx_signbit(a) ? b : a; }
__device__ __forceinline__ double gkx_max(double a, double b) { return a != a ? a : b != b ? b : a > b ? a : b > a ? b : gkx_signbit(a) ? b : a; }
`},
	{"inf", `// math.Inf, NaN, IsNaN and IsInf.
__device__ __forceinline__ double gkx_inf(gk_i64 sign) { return __longlong_as_double(sign >= 0 ? 0x7ff0000000000000ll : (gk_i64)0xfff0000000000000ull); }
__device__ __forceinline__ double gkx_nan() { return __longlong_as_double(0x7ff8000000000001ll); }
__device__ __forceinline__ bool gkx_isnan(double x) { return x != x; }
__device__ __forceinline__ bool gkx_isinf(double x, gk_i64 sign) { return sign >= 0 && x == gkx_inf(1) || sign <= 0 && x == gkx_inf(-1); }
`},
	{"mathminmax", `// math.Min and math.Max: an infinity of the right sign wins over a NaN,
// then a NaN gives NaN, and Min(-0, +0) is -0, Max(-0, +0) is +0.
__device__ __forceinline__ double gkx_math_min(double x, double y) { return x == gkx_inf(-1) || y == gkx_inf(-1) ? gkx_inf(-1) : x != x || y != y ? gkx_nan() : x == 0 && x == y ? (gkx_signbit(x) ? x : y) : x < y ? x : y; }
__device__ __forceinline__ double gkx_math_max(double x, double y) { return x == gkx_inf(1) || y == gkx_inf(1) ? gkx_inf(1) : x != x || y != y ? gkx_nan() : x == 0 && x == y ? (gkx_signbit(x) ? y : x) : x > y ? x : y; }
`},
}

// use marks support code (and what it needs) as used.
func (e *cFunc) use(name string) {
	e.g.support[name] = true
	switch name {
	case "minmax":
		e.g.support["signbit"] = true
	case "mathminmax":
		e.g.support["signbit"] = true
		e.g.support["inf"] = true
	}
}

// Expressions.

// C operator precedences, higher binding tighter.
const (
	pCond    = 3
	pLOr     = 4
	pLAnd    = 5
	pOr      = 6
	pXor     = 7
	pAnd     = 8
	pEq      = 9
	pRel     = 10
	pShift   = 11
	pAdd     = 12
	pMul     = 13
	pUnary   = 15
	pPrimary = 16
)

// cx is a C expression and its precedence.
type cx struct {
	s    string
	prec int
}

// wrap returns c's text, in parentheses when its precedence is below min.
func wrap(c cx, min int) string {
	if c.prec < min {
		return "(" + c.s + ")"
	}
	return c.s
}

func infix(l cx, op string, r cx, prec int) cx {
	return cx{wrap(l, prec) + " " + op + " " + wrap(r, prec+1), prec}
}

// unary applies a prefix operator, keeping - - and + + apart.
func unary(op string, c cx) cx {
	s := wrap(c, pUnary)
	if s[0] == '-' || s[0] == '+' {
		s = "(" + s + ")"
	}
	return cx{op + s, pUnary}
}

func cast(t string, c cx) cx { return unary("("+t+")", c) }

func call(fn string, args ...cx) cx {
	s := make([]string, len(args))
	for n, a := range args {
		s[n] = a.s
	}
	return cx{fn + "(" + strings.Join(s, ", ") + ")", pPrimary}
}

// typeOf returns the basic type of expression x.
func (e *cFunc) typeOf(x ast.Expr) *types.Basic {
	tv, ok := e.p.info.Types[x]
	if !ok || tv.Type == nil {
		e.fail(x.Pos(), "an expression without a type")
	}
	b := basicOf(tv.Type)
	if b == nil {
		e.fail(x.Pos(), "an expression of type %s", tv.Type)
	}
	return b
}

// constOf returns x's constant value, or nil.
func (e *cFunc) constOf(x ast.Expr) constant.Value {
	return e.p.info.Types[x].Value
}

// cConst prints constant v as a C literal of type b, with its precedence.
func cConst(v constant.Value, b *types.Basic) (string, int) {
	switch b.Kind() {
	case types.UntypedInt, types.UntypedRune:
		if _, ok := constant.Int64Val(constant.ToInt(v)); !ok {
			b = types.Typ[types.Uint64]
		} else {
			b = types.Typ[types.Int64]
		}
	case types.UntypedFloat:
		b = types.Typ[types.Float64]
	}
	switch {
	case b.Info()&types.IsBoolean != 0:
		if constant.BoolVal(v) {
			return "true", pPrimary
		}
		return "false", pPrimary
	case isFloat(b):
		f, _ := constant.Float64Val(constant.ToFloat(v))
		bits, suffix := 64, ""
		if b.Kind() == types.Float32 {
			f32, _ := constant.Float32Val(constant.ToFloat(v))
			f, bits, suffix = float64(f32), 32, "f"
		}
		s := strconv.FormatFloat(f, 'g', -1, bits)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		if f < 0 {
			return s + suffix, pUnary
		}
		return s + suffix, pPrimary
	}
	iv := constant.ToInt(v)
	if !isSigned(b) {
		u, _ := constant.Uint64Val(iv)
		switch b.Kind() {
		case types.Uint64:
			return strconv.FormatUint(u, 10) + "ull", pPrimary
		case types.Uint32:
			return strconv.FormatUint(u, 10) + "u", pPrimary
		}
		return "(" + cType(b) + ")" + strconv.FormatUint(u, 10), pUnary
	}
	n, _ := constant.Int64Val(iv)
	var s string
	switch {
	case width(b) == 64 && n == math.MinInt64:
		s = "(-9223372036854775807ll - 1)"
	case width(b) == 64:
		s = strconv.FormatInt(n, 10) + "ll"
	case width(b) == 32 && n == math.MinInt32:
		s = "(-2147483647 - 1)"
	default:
		s = strconv.FormatInt(n, 10)
	}
	if width(b) < 32 {
		if n < 0 {
			s = "(" + s + ")"
		}
		return "(" + cType(b) + ")" + s, pUnary
	}
	if s[0] == '(' {
		return s, pPrimary
	}
	if n < 0 {
		return s, pUnary
	}
	return s, pPrimary
}

func constCx(v constant.Value, b *types.Basic) cx {
	s, p := cConst(v, b)
	return cx{s, p}
}

// exprAs translates x, a constant printed as type t.
func (e *cFunc) exprAs(x ast.Expr, t *types.Basic) cx {
	if v := e.constOf(x); v != nil {
		return constCx(v, t)
	}
	return e.expr(x)
}

// expr translates x into a C expression of the C type of x's Go type.
func (e *cFunc) expr(x ast.Expr) cx {
	if v := e.constOf(x); v != nil {
		return constCx(v, e.typeOf(x))
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return e.expr(x.X)
	case *ast.Ident:
		obj := e.p.info.Uses[x]
		if name, ok := e.names[obj]; ok {
			if obj == e.k.acc {
				e.fail(x.Pos(), "acc is used as a pointer; read *acc")
			}
			return cx{name, pPrimary}
		}
		e.fail(x.Pos(), "%s has no C translation", x.Name)
	case *ast.StarExpr:
		return e.deref(x).read
	case *ast.UnaryExpr:
		return e.unaryExpr(x)
	case *ast.BinaryExpr:
		if x.Op == token.SHL || x.Op == token.SHR {
			t := e.typeOf(x)
			return e.shift(x.Op, e.exprAs(x.X, t), t, x.Y)
		}
		t := e.typeOf(x.X)
		if e.constOf(x.X) != nil {
			t = e.typeOf(x.Y)
		}
		return e.binary(x.Op, e.exprAs(x.X, t), e.exprAs(x.Y, t), t, e.constOf(x.Y))
	case *ast.CallExpr:
		return e.callExpr(x, false)
	}
	e.fail(x.Pos(), "%T has no C translation", x)
	return cx{}
}

func (e *cFunc) unaryExpr(x *ast.UnaryExpr) cx {
	t := e.typeOf(x)
	v := e.expr(x.X)
	switch x.Op {
	case token.ADD:
		return v
	case token.NOT:
		return unary("!", v)
	case token.XOR:
		if width(t) < 32 {
			return cast(cType(t), unary("~", v))
		}
		return unary("~", v)
	case token.SUB:
		switch {
		case isFloat(t) || !isSigned(t):
			if width(t) < 32 {
				return cast(cType(t), unary("-", v))
			}
			return unary("-", v)
		case width(t) < 32:
			return cast(cType(t), unary("-", v))
		default:
			zero := "0u"
			if width(t) == 64 {
				zero = "0ull"
			}
			return cast(cType(t), infix(cx{zero, pPrimary}, "-", e.toUnsigned(v, t), pAdd))
		}
	}
	e.fail(x.Pos(), "operator %s has no C translation", x.Op)
	return cx{}
}

// binary translates l op r, both of type t (r's constant value rc, or
// nil), with Go's semantics. Shifts go through shift.
func (e *cFunc) binary(op token.Token, l, r cx, t *types.Basic, rc constant.Value) cx {
	narrow := !isFloat(t) && t.Kind() != types.Bool && width(t) < 32
	fit := func(c cx) cx {
		if narrow {
			return cast(cType(t), c)
		}
		return c
	}
	switch op {
	case token.LAND:
		return infix(l, "&&", r, pLAnd)
	case token.LOR:
		return infix(l, "||", r, pLOr)
	case token.EQL, token.NEQ:
		return infix(l, op.String(), r, pEq)
	case token.LSS, token.LEQ, token.GTR, token.GEQ:
		return infix(l, op.String(), r, pRel)
	case token.ADD, token.SUB, token.MUL:
		p := pAdd
		if op == token.MUL {
			p = pMul
		}
		switch {
		case isFloat(t) || !isSigned(t) && !narrow:
			return infix(l, op.String(), r, p)
		case narrow && op == token.MUL:
			return cast(cType(t), infix(cast("unsigned int", l), "*", cast("unsigned int", r), p))
		case narrow:
			return cast(cType(t), infix(l, op.String(), r, p))
		}
		inner := infix(e.toUnsigned(l, t), op.String(), e.toUnsigned(r, t), p)
		c := cast(cType(t), inner)
		e.unsigned[c.s] = inner
		return c
	case token.QUO, token.REM:
		if isFloat(t) {
			return infix(l, "/", r, pMul)
		}
		if rc != nil && constant.Sign(rc) != 0 && !(isSigned(t) && constant.Compare(rc, token.EQL, constant.MakeInt64(-1))) {
			return fit(infix(l, op.String(), r, pMul))
		}
		e.use("div")
		fn := "gkx_div"
		if op == token.REM {
			fn = "gkx_rem"
		}
		if narrow {
			return cast(cType(t), call(fn, cast(promoted(t), l), cast(promoted(t), r)))
		}
		return call(fn, l, r)
	case token.AND:
		return fit(infix(l, "&", r, pAnd))
	case token.OR:
		return fit(infix(l, "|", r, pOr))
	case token.XOR:
		return fit(infix(l, "^", r, pXor))
	case token.AND_NOT:
		return fit(infix(l, "&", unary("~", r), pAnd))
	}
	panic(emitError{fmt.Errorf("operator %s has no C translation", op)})
}

// toUnsigned converts c, of signed type t of 32 or 64 bits, to wideU(t);
// a non-negative literal is written as the unsigned literal.
func (e *cFunc) toUnsigned(c cx, t *types.Basic) cx {
	if u, ok := e.unsigned[c.s]; ok {
		return u
	}
	digits := strings.TrimSuffix(c.s, "ll")
	if digits != "" && strings.Trim(digits, "0123456789") == "" {
		if width(t) == 64 {
			return cx{digits + "ull", pPrimary}
		}
		return cx{digits + "u", pPrimary}
	}
	return cast(wideU(t), c)
}

// shift translates l << count or l >> count, l of type t.
func (e *cFunc) shift(op token.Token, l cx, t *types.Basic, count ast.Expr) cx {
	return e.shiftCx(op, l, t, count, e.constOf(count))
}

func (e *cFunc) shiftCx(op token.Token, l cx, t *types.Basic, count ast.Expr, cv constant.Value) cx {
	w := width(t)
	if cv != nil {
		if n, ok := constant.Uint64Val(constant.ToInt(cv)); ok && n < uint64(w) {
			c := cx{strconv.FormatUint(n, 10), pPrimary}
			switch {
			case op == token.SHR && w < 32:
				return cast(cType(t), infix(l, ">>", c, pShift))
			case op == token.SHR:
				return infix(l, ">>", c, pShift)
			case w < 32:
				return cast(cType(t), infix(cast("unsigned int", l), "<<", c, pShift))
			case isSigned(t):
				return cast(cType(t), infix(e.toUnsigned(l, t), "<<", c, pShift))
			}
			return infix(l, "<<", c, pShift)
		}
	}
	e.use("shift")
	fn := "gkx_shl"
	if op == token.SHR {
		fn = "gkx_shr"
	}
	var n cx
	if cv != nil {
		n = constCx(cv, types.Typ[types.Uint64])
	} else {
		n = cast("gk_u64", e.expr(count))
	}
	if w < 32 {
		return cast(cType(t), call(fn, cast(promoted(t), l), n))
	}
	return call(fn, l, n)
}

// lvalue is something assigned: its C text to write, and to read.
type lvalue struct {
	write string
	read  cx
	t     *types.Basic
	blank bool
}

// deref translates *acc or *v.Ptr(idx...).
func (e *cFunc) deref(x *ast.StarExpr) lvalue {
	switch y := ast.Unparen(x.X).(type) {
	case *ast.Ident:
		if obj := e.p.info.Uses[y]; obj != nil && obj == e.k.acc {
			if e.accBool {
				return lvalue{write: "acc", read: cx{"acc != 0", pEq}, t: types.Typ[types.Bool]}
			}
			return lvalue{write: "acc", read: cx{"acc", pPrimary}, t: e.typeOf(x)}
		}
	case *ast.CallExpr:
		if name, m, args, ok := e.viewCall(y); ok && m == "Ptr" {
			el := e.element(name, args)
			return lvalue{write: el.s, read: el, t: e.typeOf(x)}
		}
	}
	e.fail(x.Pos(), "a pointer other than *acc and *v.Ptr(...) has no C translation")
	return lvalue{}
}

// viewCall reports whether call is v.M(args) on a view parameter.
func (e *cFunc) viewCall(c *ast.CallExpr) (name, method string, args []ast.Expr, ok bool) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", "", nil, false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return "", "", nil, false
	}
	name, ok = e.views[e.p.info.Uses[id]]
	return name, sel.Sel.Name, c.Args, ok
}

// element is NAME(idx...).
func (e *cFunc) element(name string, idx []ast.Expr) cx {
	s := make([]string, len(idx))
	for n, x := range idx {
		if id, ok := ast.Unparen(x).(*ast.Ident); ok && e.bare[e.p.info.Uses[id]] != "" {
			s[n] = e.bare[e.p.info.Uses[id]]
			continue
		}
		s[n] = e.exprAs(x, types.Typ[types.Int]).s
	}
	return cx{name + "(" + strings.Join(s, ", ") + ")", pPrimary}
}

// lvalueOf translates the left side of an assignment.
func (e *cFunc) lvalueOf(x ast.Expr) lvalue {
	switch y := ast.Unparen(x).(type) {
	case *ast.Ident:
		if y.Name == "_" {
			return lvalue{blank: true}
		}
		obj := e.p.info.Uses[y]
		if obj == nil {
			obj = e.p.info.Defs[y]
		}
		if name, ok := e.names[obj]; ok && obj != e.k.acc {
			return lvalue{write: name, read: cx{name, pPrimary}, t: basicOf(obj.Type())}
		}
	case *ast.StarExpr:
		return e.deref(y)
	}
	e.fail(x.Pos(), "assignment to %s has no C translation", types.ExprString(x))
	return lvalue{}
}

// mathFuncs are the functions of package math a kernel may call, by Go's
// name, and their C names.
var mathFuncs = map[string]string{
	"Sqrt": "sqrt", "Cbrt": "cbrt", "Exp": "exp", "Exp2": "exp2", "Expm1": "expm1", "Log": "log",
	"Log2": "log2", "Log10": "log10", "Log1p": "log1p", "Sin": "sin", "Cos": "cos", "Tan": "tan",
	"Asin": "asin", "Acos": "acos", "Atan": "atan", "Atan2": "atan2", "Sinh": "sinh", "Cosh": "cosh",
	"Tanh": "tanh", "Asinh": "asinh", "Acosh": "acosh", "Atanh": "atanh", "Pow": "pow", "Abs": "fabs",
	"Floor": "floor", "Ceil": "ceil", "Trunc": "trunc", "Round": "round", "RoundToEven": "rint",
	"Mod": "fmod", "Remainder": "remainder", "FMA": "fma", "Hypot": "hypot", "Copysign": "copysign",
	"Erf": "erf", "Erfc": "erfc", "Gamma": "tgamma",
	"Min": "gkx_math_min", "Max": "gkx_math_max", "Signbit": "gkx_signbit", "Inf": "gkx_inf",
	"NaN": "gkx_nan", "IsNaN": "gkx_isnan", "IsInf": "gkx_isinf",
}

// cudaAtomics maps kokkos's atomic functions to package cuda's: the C
// function, and for those cuda has as a composition, the operand added
// (1 for Inc, Dec) and what the result adds.
var cudaAtomics = map[string]struct {
	c     string
	one   bool   // the value operand is 1
	after string // the result is the fetched value, then op v
}{
	"AtomicLoad": {c: "atomic_load"}, "AtomicStore": {c: "atomic_store"},
	"AtomicAdd": {c: "atomic_add"}, "AtomicFetchAdd": {c: "atomic_fetch_add"}, "AtomicAddFetch": {c: "atomic_add_fetch"},
	"AtomicSub": {c: "atomic_sub"}, "AtomicFetchSub": {c: "atomic_fetch_sub"}, "AtomicSubFetch": {c: "atomic_fetch_sub", after: "-"},
	"AtomicInc": {c: "atomic_increment"}, "AtomicDec": {c: "atomic_decrement"},
	"AtomicFetchInc": {c: "atomic_fetch_add", one: true}, "AtomicIncFetch": {c: "atomic_fetch_add", one: true, after: "+"},
	"AtomicFetchDec": {c: "atomic_fetch_sub", one: true}, "AtomicDecFetch": {c: "atomic_fetch_sub", one: true, after: "-"},
	"AtomicMin": {c: "atomic_min"}, "AtomicFetchMin": {c: "atomic_fetch_min"},
	"AtomicMax": {c: "atomic_max"}, "AtomicFetchMax": {c: "atomic_fetch_max"},
	"AtomicExchange": {c: "atomic_exchange"}, "AtomicCompareExchange": {c: "atomic_compare_exchange"},
}

// callExpr translates a call; stmt says it is an expression statement.
func (e *cFunc) callExpr(c *ast.CallExpr, stmt bool) cx {
	if tv := e.p.info.Types[c.Fun]; tv.IsType() {
		return e.conversion(c)
	}
	if name, m, args, ok := e.viewCall(c); ok {
		switch m {
		case "At":
			return e.element(name, args)
		case "Set":
			if !stmt {
				break
			}
			el := e.element(name, args[:len(args)-1])
			v := e.exprAs(args[len(args)-1], e.typeOf(args[len(args)-1]))
			return cx{el.s + " = " + v.s, 2}
		case "Extent":
			r := e.constOf(args[0])
			if r == nil {
				e.fail(c.Pos(), "%s.Extent needs a constant dimension", name)
			}
			return cast("gk_i64", cx{name + ".extent(" + r.ExactString() + ")", pPrimary})
		}
		e.fail(c.Pos(), "view method %s has no C translation here", m)
	}
	switch fn := e.p.calledFunc(c).(type) {
	case *types.Builtin:
		if fn.Name() == "min" || fn.Name() == "max" {
			t := e.typeOf(c)
			e.use("minmax")
			r := e.exprAs(c.Args[0], t)
			for _, a := range c.Args[1:] {
				r = call("gkx_"+fn.Name(), r, e.exprAs(a, t))
			}
			return r
		}
	case *types.Func:
		if k := e.p.byObj[fn]; k != nil && k.helper {
			if !containsFunc(e.called, k) {
				e.called = append(e.called, k)
			}
			sig := fn.Type().(*types.Signature)
			var args []cx
			for n, a := range c.Args {
				args = append(args, e.exprAs(a, basicOf(sig.Params().At(n).Type())))
			}
			return call("gk_h_"+fn.Name(), args...)
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == "math" {
			return e.mathCall(c, fn.Name())
		}
		if fn.Pkg() != nil && fn.Pkg().Path() == kokkosPath && strings.HasPrefix(fn.Name(), "Atomic") {
			return e.atomicCall(c, fn.Name())
		}
	}
	e.fail(c.Pos(), "the call of %s has no C translation", types.ExprString(c.Fun))
	return cx{}
}

func containsFunc(s []*kernelFunc, k *kernelFunc) bool {
	for _, x := range s {
		if x == k {
			return true
		}
	}
	return false
}

// conversion translates T(x).
func (e *cFunc) conversion(c *ast.CallExpr) cx {
	t := e.typeOf(c)
	x := c.Args[0]
	s := e.typeOf(x)
	v := e.expr(x)
	if cType(s) == cType(t) {
		return v
	}
	if isFloat(s) && !isFloat(t) {
		// Go leaves an out-of-range conversion to the implementation; a
		// value in range converts exactly through a 64-bit integer.
		switch {
		case t.Kind() == types.Uint64:
			return cast("gk_u64", v)
		case width(t) == 64:
			return cast("gk_i64", v)
		}
		return cast(cType(t), cast("gk_i64", v))
	}
	return cast(cType(t), v)
}

func (e *cFunc) mathCall(c *ast.CallExpr, name string) cx {
	cn, ok := mathFuncs[name]
	if !ok {
		e.fail(c.Pos(), "math.%s has no C translation", name)
	}
	f64, i64 := types.Typ[types.Float64], types.Typ[types.Int]
	var args []cx
	for n, a := range c.Args {
		at := f64
		if name == "Inf" || name == "IsInf" && n == 1 {
			at = i64
		}
		args = append(args, e.exprAs(a, at))
	}
	switch name {
	case "Min", "Max":
		e.use("mathminmax")
	case "Signbit":
		e.use("signbit")
	case "Inf", "NaN", "IsNaN", "IsInf":
		e.use("inf")
	}
	return call(cn, args...)
}

func (e *cFunc) atomicCall(c *ast.CallExpr, name string) cx {
	a, ok := cudaAtomics[name]
	if !ok {
		e.hostOnly(c.Pos(), "kokkos.%s has no CUDA translation: package cuda has no such atomic function", name)
	}
	if len(c.Args) == 0 {
		e.fail(c.Pos(), "kokkos.%s without arguments", name)
	}
	pc, ok := ast.Unparen(c.Args[0]).(*ast.CallExpr)
	var vname, m string
	var idx []ast.Expr
	if ok {
		vname, m, idx, ok = e.viewCall(pc)
	}
	if !ok || m != "Ptr" {
		e.fail(c.Args[0].Pos(), "the pointer of kokkos.%s must be v.Ptr(...) of a view", name)
	}
	el := e.element(vname, idx)
	t := basicOf(e.p.info.Types[c.Args[0]].Type.(*types.Pointer).Elem())
	args := []cx{{"&" + wrap(el, pUnary), pUnary}}
	for _, x := range c.Args[1:] {
		args = append(args, e.exprAs(x, t))
	}
	one := constCx(constant.MakeInt64(1), t)
	if a.one {
		args = append(args, one)
	}
	r := call(a.c, args...)
	if a.after != "" {
		v := one
		if !a.one {
			v = args[1]
		}
		r = e.binary(map[string]token.Token{"+": token.ADD, "-": token.SUB}[a.after], r, v, t, nil)
	}
	return r
}

// Statements.

func (e *cFunc) stmts(list []ast.Stmt) {
	for _, s := range list {
		e.stmt(s)
	}
}

// block writes list in braces after head ("if (c)", "else", ...).
func (e *cFunc) block(head string, list []ast.Stmt) {
	e.line("%s", strings.TrimSpace(head+" {"))
	e.depth++
	e.stmts(list)
	e.depth--
	e.line("}")
}

func (e *cFunc) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.EmptyStmt:
	case *ast.BlockStmt:
		e.block("", s.List)
	case *ast.ExprStmt:
		c, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			e.fail(s.Pos(), "an expression statement that is not a call")
		}
		e.line("%s;", e.callExpr(c, true).s)
	case *ast.DeclStmt:
		e.declStmt(s)
	case *ast.AssignStmt:
		e.assign(s)
	case *ast.IncDecStmt:
		e.incDec(s)
	case *ast.IfStmt:
		if s.Init != nil {
			e.line("{")
			e.depth++
			e.stmt(s.Init)
			e.ifStmt(s, "")
			e.depth--
			e.line("}")
			return
		}
		e.ifStmt(s, "")
	case *ast.ForStmt:
		e.forStmt(s)
	case *ast.RangeStmt:
		e.rangeStmt(s)
	case *ast.SwitchStmt:
		e.switchStmt(s)
	case *ast.BranchStmt:
		if s.Label != nil {
			e.fail(s.Pos(), "a labeled %s has no C translation", s.Tok)
		}
		switch s.Tok {
		case token.BREAK:
			e.line("break;")
		case token.CONTINUE:
			e.continueStmt()
		default:
			e.fail(s.Pos(), "%s has no C translation", s.Tok)
		}
	case *ast.ReturnStmt:
		e.returnStmt(s)
	default:
		e.fail(s.Pos(), "%T has no C translation", s)
	}
}

func (e *cFunc) declStmt(s *ast.DeclStmt) {
	gd, ok := s.Decl.(*ast.GenDecl)
	if !ok {
		e.fail(s.Pos(), "a declaration that is not var or const")
	}
	if gd.Tok == token.CONST {
		return // constants are folded where used
	}
	if gd.Tok != token.VAR {
		e.fail(s.Pos(), "a %s declaration has no C translation", gd.Tok)
	}
	for _, spec := range gd.Specs {
		vs := spec.(*ast.ValueSpec)
		var vals []cx
		for n, v := range vs.Values {
			vals = append(vals, e.exprAs(v, basicOf(e.p.info.Defs[vs.Names[n]].Type())))
		}
		for n, id := range vs.Names {
			obj := e.p.info.Defs[id]
			if id.Name == "_" || obj == nil {
				if n < len(vals) {
					e.line("(void)%s;", wrap(vals[n], pUnary))
				}
				continue
			}
			t := basicOf(obj.Type())
			if t == nil {
				e.fail(id.Pos(), "a variable of type %s", obj.Type())
			}
			val := zeroValue(t)
			if n < len(vals) {
				val = vals[n].s
			}
			e.line("%s %s = %s;", cType(t), e.declare(obj), val)
		}
	}
}

func (e *cFunc) assign(s *ast.AssignStmt) {
	if s.Tok != token.ASSIGN && s.Tok != token.DEFINE {
		op := map[token.Token]token.Token{
			token.ADD_ASSIGN: token.ADD, token.SUB_ASSIGN: token.SUB, token.MUL_ASSIGN: token.MUL,
			token.QUO_ASSIGN: token.QUO, token.REM_ASSIGN: token.REM, token.AND_ASSIGN: token.AND,
			token.OR_ASSIGN: token.OR, token.XOR_ASSIGN: token.XOR, token.SHL_ASSIGN: token.SHL,
			token.SHR_ASSIGN: token.SHR, token.AND_NOT_ASSIGN: token.AND_NOT,
		}[s.Tok]
		lv := e.lvalueOf(s.Lhs[0])
		var v cx
		if op == token.SHL || op == token.SHR {
			v = e.shift(op, lv.read, lv.t, s.Rhs[0])
		} else {
			v = e.binary(op, lv.read, e.exprAs(s.Rhs[0], lv.t), lv.t, e.constOf(s.Rhs[0]))
		}
		e.line("%s = %s;", lv.write, v.s)
		return
	}
	if len(s.Rhs) != len(s.Lhs) {
		e.hostOnly(s.Pos(), "an assignment of a call with several results has no C translation")
	}
	// Which left sides a := declares.
	isNew := make([]bool, len(s.Lhs))
	allNew := true
	for n, l := range s.Lhs {
		if id, ok := l.(*ast.Ident); ok && s.Tok == token.DEFINE && id.Name != "_" && e.p.info.Defs[id] != nil {
			isNew[n] = true
		} else {
			allNew = false
		}
	}
	one := func(n int, v cx) {
		if isNew[n] {
			obj := e.p.info.Defs[s.Lhs[n].(*ast.Ident)]
			t := basicOf(obj.Type())
			if t == nil {
				e.fail(s.Lhs[n].Pos(), "a variable of type %s", obj.Type())
			}
			e.line("%s %s = %s;", cType(t), e.declare(obj), v.s)
			return
		}
		lv := e.lvalueOf(s.Lhs[n])
		if lv.blank {
			e.line("(void)%s;", wrap(v, pUnary))
			return
		}
		e.line("%s = %s;", lv.write, v.s)
	}
	rhsType := func(n int) *types.Basic {
		if isNew[n] {
			return basicOf(e.p.info.Defs[s.Lhs[n].(*ast.Ident)].Type())
		}
		if id, ok := s.Lhs[n].(*ast.Ident); ok && id.Name == "_" {
			return e.typeOf(s.Rhs[n])
		}
		return e.lvalueOf(s.Lhs[n]).t
	}
	if len(s.Lhs) == 1 || allNew {
		for n := range s.Lhs {
			one(n, e.exprAs(s.Rhs[n], rhsType(n)))
		}
		return
	}
	// Go evaluates every right side before assigning.
	tmps := make([]cx, len(s.Rhs))
	for n, r := range s.Rhs {
		t := rhsType(n)
		name := e.temp()
		e.line("const %s %s = %s;", cType(t), name, e.exprAs(r, t).s)
		tmps[n] = cx{name, pPrimary}
	}
	for n := range s.Lhs {
		one(n, tmps[n])
	}
}

func (e *cFunc) incDec(s *ast.IncDecStmt) {
	lv := e.lvalueOf(s.X)
	op := "++"
	bop := token.ADD
	if s.Tok == token.DEC {
		op, bop = "--", token.SUB
	}
	if isFloat(lv.t) || !isSigned(lv.t) || width(lv.t) < 32 {
		e.line("%s%s;", lv.write, op)
		return
	}
	one := constCx(constant.MakeInt64(1), lv.t)
	e.line("%s = %s;", lv.write, e.binary(bop, lv.read, one, lv.t, constant.MakeInt64(1)).s)
}

// ifStmt writes if (cond) {...} else ..., with prefix before "if".
func (e *cFunc) ifStmt(s *ast.IfStmt, prefix string) {
	e.line("%sif (%s) {", prefix, e.expr(s.Cond).s)
	e.depth++
	e.stmts(s.Body.List)
	e.depth--
	switch el := s.Else.(type) {
	case nil:
		e.line("}")
	case *ast.BlockStmt:
		e.line("} else {")
		e.depth++
		e.stmts(el.List)
		e.depth--
		e.line("}")
	case *ast.IfStmt:
		if el.Init == nil {
			e.ifStmt(el, "} else ")
			return
		}
		e.line("} else {")
		e.depth++
		e.stmt(el)
		e.depth--
		e.line("}")
	}
}

// simple translates a simple statement as one C line, for a for
// statement's header: the statement's own line when it has one, else a
// lambda called in place.
func (e *cFunc) simple(s ast.Stmt) string {
	saved, depth := e.b, e.depth
	e.b, e.depth = strings.Builder{}, 0
	e.stmt(s)
	out := strings.TrimSuffix(e.b.String(), "\n")
	e.b, e.depth = saved, depth
	if !strings.Contains(out, "\n") {
		return out
	}
	return "[&] { " + strings.Join(strings.Split(out, "\n"), " ") + " }();"
}

func (e *cFunc) forStmt(s *ast.ForStmt) {
	e.frames = append(e.frames, &frame{loop: true})
	defer func() { e.frames = e.frames[:len(e.frames)-1] }()
	if s.Init == nil && s.Post == nil {
		if s.Cond == nil {
			e.block("for (;;)", s.Body.List)
		} else {
			e.block("while ("+e.expr(s.Cond).s+")", s.Body.List)
		}
		return
	}
	// init first: the condition may name what it declares. An init of
	// several lines goes before the loop, in a block.
	init, wrapped := ";", false
	if s.Init != nil {
		saved, depth := e.b, e.depth
		e.b, e.depth = strings.Builder{}, depth+1
		e.stmt(s.Init)
		out := e.b.String()
		e.b, e.depth = saved, depth
		if strings.Count(out, "\n") == 1 {
			init = strings.TrimSpace(out)
		} else {
			wrapped = true
			e.line("{")
			e.b.WriteString(out)
			e.depth++
		}
	}
	head := "for (" + init
	if s.Cond != nil {
		head += " " + e.expr(s.Cond).s
	}
	head += ";"
	if s.Post != nil {
		head += " " + strings.TrimSuffix(e.simple(s.Post), ";")
	}
	e.block(head+")", s.Body.List)
	if wrapped {
		e.depth--
		e.line("}")
	}
}

// assigns reports whether body assigns to obj.
func (e *cFunc) assigns(body ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs = n.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{n.X}
		}
		for _, l := range lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok && e.p.info.Uses[id] == obj {
				found = true
			}
		}
		return !found
	})
	return found
}

func (e *cFunc) rangeStmt(s *ast.RangeStmt) {
	nt := e.typeOf(s.X)
	if nt.Info()&types.IsInteger == 0 {
		e.fail(s.X.Pos(), "a range over %s has no C translation", nt)
	}
	if nt.Info()&types.IsUntyped != 0 {
		nt = types.Typ[types.Int]
	}
	var key types.Object
	keyNew := false
	if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
		if s.Tok == token.DEFINE {
			key, keyNew = e.p.info.Defs[id], true
		} else {
			key = e.p.info.Uses[id]
		}
		if key != nil {
			nt = basicOf(key.Type())
		}
	} else if s.Key != nil && !ok {
		e.fail(s.Key.Pos(), "a range key that is not a variable")
	}
	ct := cType(nt)
	limit := ""
	var decl []string
	if v := e.constOf(s.X); v != nil {
		limit = constCx(v, nt).s
	} else {
		limit = e.temp()
		decl = append(decl, limit+" = "+e.exprAs(s.X, nt).s)
	}
	// The counter is the key itself when the body does not assign it;
	// else a hidden counter whose value the key takes each iteration.
	counter := ""
	var first []string
	if key != nil && keyNew && !e.assigns(s.Body, key) {
		counter = e.declare(key)
	} else {
		counter = e.temp()
		if key != nil {
			if keyNew {
				first = append(first, fmt.Sprintf("%s %s = %s;", ct, e.declare(key), counter))
			} else {
				first = append(first, fmt.Sprintf("%s = %s;", e.names[key], counter))
			}
		}
	}
	decl = append([]string{counter + " = " + zeroValue(nt)}, decl...)
	e.frames = append(e.frames, &frame{loop: true})
	defer func() { e.frames = e.frames[:len(e.frames)-1] }()
	e.line("for (%s %s; %s < %s; %s++) {", ct, strings.Join(decl, ", "), counter, limit, counter)
	e.depth++
	for _, f := range first {
		e.line("%s", f)
	}
	e.stmts(s.Body.List)
	e.depth--
	e.line("}")
}

// breaksAndContinues reports whether a break in body (not in a nested
// loop or switch) ends the switch of body, and whether a continue in it
// (not in a nested loop) goes to an enclosing loop.
func breaksAndContinues(body *ast.BlockStmt) (brk, cont bool) {
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m := m.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
				return false
			case *ast.SwitchStmt:
				walk(m.Body, true)
				return false
			case *ast.BranchStmt:
				if m.Tok == token.BREAK && !nested {
					brk = true
				}
				if m.Tok == token.CONTINUE {
					cont = true
				}
			}
			return true
		})
	}
	walk(body, false)
	return brk, cont
}

func (e *cFunc) switchStmt(s *ast.SwitchStmt) {
	brk, cont := breaksAndContinues(s.Body)
	inLoop := false
	for _, f := range e.frames {
		inLoop = inLoop || f.loop
	}
	fr := &frame{doWhile: brk}
	if brk && cont && inLoop {
		fr.contFlag = e.temp()
	}
	e.line("{")
	e.depth++
	if s.Init != nil {
		e.stmt(s.Init)
	}
	var tag cx
	var tagT *types.Basic
	if s.Tag != nil {
		tagT = e.typeOf(s.Tag)
		if tagT.Info()&types.IsUntyped != 0 {
			tagT = basicOf(types.Default(tagT))
		}
		name := e.temp()
		e.line("const %s %s = %s;", cType(tagT), name, e.exprAs(s.Tag, tagT).s)
		tag = cx{name, pPrimary}
	}
	if fr.contFlag != "" {
		e.line("bool %s = false;", fr.contFlag)
	}
	if brk {
		e.line("do {")
		e.depth++
	}
	e.frames = append(e.frames, fr)
	var def *ast.CaseClause
	first := true
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		if cc.List == nil {
			def = cc
			continue
		}
		var conds []cx
		for _, x := range cc.List {
			if s.Tag != nil {
				conds = append(conds, infix(tag, "==", e.exprAs(x, tagT), pEq))
			} else {
				conds = append(conds, e.expr(x))
			}
		}
		cond := conds[0]
		for _, c := range conds[1:] {
			cond = infix(cond, "||", c, pLOr)
		}
		prefix := "} else if"
		if first {
			prefix = "if"
		}
		first = false
		e.line("%s (%s) {", prefix, cond.s)
		e.depth++
		e.stmts(cc.Body)
		e.depth--
	}
	if def != nil {
		if first {
			e.line("{")
		} else {
			e.line("} else {")
		}
		e.depth++
		e.stmts(def.Body)
		e.depth--
		first = false
	}
	if !first {
		e.line("}")
	}
	e.frames = e.frames[:len(e.frames)-1]
	if brk {
		e.depth--
		e.line("} while (0);")
	}
	if fr.contFlag != "" {
		saved := e.b
		e.b = strings.Builder{}
		e.continueStmt()
		c := strings.TrimSpace(e.b.String())
		e.b = saved
		if strings.Contains(c, "\n") {
			c = "{ " + strings.Join(strings.Fields(strings.ReplaceAll(c, "\n", " ")), " ") + " }"
		}
		e.line("if (%s) %s", fr.contFlag, c)
	}
	e.depth--
	e.line("}")
}

// continueStmt writes a continue of the innermost loop: through each
// switch wrapped in do { } while (0) between, by its flag and a break.
func (e *cFunc) continueStmt() {
	for n := len(e.frames) - 1; n >= 0; n-- {
		f := e.frames[n]
		if f.loop {
			break
		}
		if f.doWhile {
			e.line("%s = true;", f.contFlag)
			e.line("break;")
			return
		}
	}
	e.line("continue;")
}

func (e *cFunc) returnStmt(s *ast.ReturnStmt) {
	if !e.k.helper {
		// The body is a function called once per index: return ends
		// this index.
		e.line("return;")
		return
	}
	switch {
	case len(s.Results) == 1:
		sig := e.k.obj.Type().(*types.Signature)
		e.line("return %s;", e.exprAs(s.Results[0], basicOf(sig.Results().At(0).Type())).s)
	case len(s.Results) == 0 && len(e.results) == 1:
		e.line("return %s;", e.names[e.results[0]])
	case len(s.Results) == 0:
		e.line("return;")
	default:
		e.hostOnly(s.Pos(), "a return of several results has no C translation")
	}
}
