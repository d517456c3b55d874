package cuda

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// This file translates a kernel's description (package backend/kernelir)
// into the CUDA C body of this package's patterns (generate wraps it),
// with Go's semantics: integers wrap, shifts by the width or more give 0
// (or -1), the most negative integer divided by -1 is itself, min and max
// propagate NaNs. What the device cannot do as Go does is said where it
// happens: integer division by zero (Go panics) gives 0, and the
// remainder the dividend; a negative shift count (Go panics) shifts by a
// huge count; an index outside a view is unchecked unless CheckBounds.

// errNoCUDA is matched (errors.Is) by the error of emitKernel for a kernel
// that has no CUDA form: a view or accumulator of a type this package does
// not bind (int8, int16, uint8, uint16), an atomic it does not have, a
// helper of several results. The kernel runs on the host only.
var errNoCUDA = errors.New("no CUDA translation")

// irCode is the CUDA C form of a kernel, as emitKernel gives it.
type irCode struct {
	body, helpers string
	names, conv   []string
	params        []kernelir.Param // the kernel's parameters (struct arguments are bound field by field)
}

// irCodes caches the CUDA C form of each backend.Kernel (package kernel
// makes one per kernel) and the error of one that has none.
var irCodes sync.Map // *backend.Kernel -> *irCached

type irCached struct {
	once sync.Once
	code *irCode
	err  error
}

// kernelCode returns the CUDA C form of k, translated from its
// description once. A kernel without a description, or whose description
// has no CUDA form, gives an error wrapping backend.ErrUnsupported that
// says why; a description of another version says to run go generate.
func kernelCode(k *backend.Kernel) (*irCode, error) {
	v, ok := irCodes.Load(k)
	if !ok {
		v, _ = irCodes.LoadOrStore(k, &irCached{})
	}
	c := v.(*irCached)
	c.once.Do(func() {
		if k.IR == "" {
			why := k.NoDevice
			if why == "" {
				why = "it has no description: run go generate"
			}
			c.err = fmt.Errorf("%w: kernel %s: %s", backend.ErrUnsupported, k.Name, why)
			return
		}
		ir, err := kernelir.Parse(k.IR)
		if err != nil {
			c.err = fmt.Errorf("%w: kernel %s: %w", backend.ErrUnsupported, k.Name, err)
			return
		}
		var code irCode
		code.body, code.helpers, code.names, code.conv, err = emitKernel(ir)
		if err != nil {
			c.err = fmt.Errorf("%w: %w", backend.ErrUnsupported, err)
			return
		}
		code.params = ir.Params
		c.code = &code
	})
	return c.code, c.err
}

// emitKernel translates k into CUDA C: body is the body of the loop, over
// the index names of this package (i for a RangePolicy, i0..i5 for an
// MDRangePolicy), acc and final, and the bindings named in names; helpers
// is the file-scope source it needs (the support functions of Go's
// semantics, gkx_*, then a __device__ function gk_h_<Name> for each
// helper called, callees first); names[j] is the C name k.Params[j] is
// bound to (Bind for a view, Scalar for a scalar); conv[j] says what a
// scalar binding is given: "" the value as it is, "int32" converted to
// int32 (int8, int16, and bool as 0 or 1), "uint32" converted to uint32
// (uint8, uint16). A Go int is a long long (gk_i64); a reduction or scan
// over an int needs an int64 accumulator, over a bool an int (LAnd, LOr).
// An error wrapping errNoCUDA says the kernel has no CUDA form.
func emitKernel(k *kernelir.Kernel) (body, helpers string, names, conv []string, err error) {
	for _, pr := range k.Params {
		if pr.IsView() && !irCUDAElem(pr.Type) {
			return "", "", nil, nil, fmt.Errorf("%w: kernel %s: view %s has elements of type %s; package cuda binds views of float32, float64, int32, int64, uint32 and uint64 only, so the kernel runs on the host only",
				errNoCUDA, k.Name, pr.Name, pr.Type)
		}
	}
	if k.Acc != kernelir.Invalid && k.Acc != kernelir.Bool && k.Acc != kernelir.Int && !irCUDAElem(k.Acc) {
		return "", "", nil, nil, fmt.Errorf("%w: kernel %s: the accumulator has type *%s; package cuda reduces float32, float64, int32, int64, uint32, uint64 and bool only, so the kernel runs on the host only",
			errNoCUDA, k.Name, k.Acc)
	}
	defer func() {
		if r := recover(); r != nil {
			ee, ok := r.(irEmitError)
			if !ok {
				panic(r)
			}
			body, helpers, names, conv, err = "", "", nil, nil, ee.err
		}
	}()
	g := &irGen{k: k, support: map[string]bool{}, helpers: map[string]int{}, helperSrc: map[string]string{}}
	e := g.newFunc(nil)
	// This package's indices may be 32-bit (gk_idx); Go's are int, 64-bit:
	// an index is widened where it is used, except as a view's index.
	idx := indexNames(len(k.Index))
	for n, name := range k.Index {
		e.bind(name, irName{c: "((gk_i64)" + idx[n] + ")", bare: idx[n]})
	}
	if k.Acc == kernelir.Bool {
		e.accBool = true
	}
	if k.Final != "" {
		e.bind(k.Final, irName{c: "final"})
	}
	for _, pr := range k.Params {
		if pr.Token {
			names = append(names, e.tokenParam(pr))
			conv = append(conv, tokenConv)
			continue
		}
		if pr.UMap {
			names = append(names, e.umapParam(pr))
			conv = append(conv, umapConv)
			continue
		}
		name := e.declare(pr.Name)
		bound, cv := name, ""
		if pr.Type.IsStruct() {
			bound, cv = e.structParam(name, pr.Type)
		} else if !pr.IsView() {
			switch pr.Type {
			case kernelir.Bool:
				bound, cv = "gkb_"+name, "int32"
				e.line("const bool %s = %s != 0;", name, bound)
			case kernelir.Int8, kernelir.Int16:
				bound, cv = "gkb_"+name, "int32"
				e.line("const %s %s = (%s)%s;", irCType(pr.Type), name, irCType(pr.Type), bound)
			case kernelir.Uint8, kernelir.Uint16:
				bound, cv = "gkb_"+name, "uint32"
				e.line("const %s %s = (%s)%s;", irCType(pr.Type), name, irCType(pr.Type), bound)
			default:
				// This package binds scalars const: one the body
				// assigns is a copy.
				if irAssigns(k.Body, pr.Name) {
					bound = "gkb_" + name
					e.line("%s %s = %s;", irCType(pr.Type), name, bound)
				}
			}
		}
		names = append(names, bound)
		conv = append(conv, cv)
		if pr.IsView() {
			e.bind(pr.Name, irName{c: name, view: true})
		} else {
			e.bind(pr.Name, irName{c: name})
		}
	}
	e.stmts(k.Body)
	body = e.b.String()

	// The helpers the kernel calls, callees first.
	var order []string
	var visit func(f string)
	visit = func(f string) {
		if g.helpers[f] != 0 {
			return
		}
		g.helpers[f] = 1
		fe := g.emitHelper(k.Helper(f))
		for _, c := range fe.called {
			visit(c)
		}
		g.helpers[f] = 2
		g.helperSrc[f] = fe.b.String()
		order = append(order, f)
	}
	for _, c := range e.called {
		visit(c)
	}
	var h strings.Builder
	h.WriteString(irTypeDecls(k, order))
	for _, s := range irSupport {
		if g.support[s.name] {
			h.WriteString(s.src)
		}
	}
	for _, f := range order {
		h.WriteString(g.helperSrc[f])
	}
	return body, h.String(), names, conv, nil
}

// irCUDAElem reports whether this package binds views (and reduces
// values) of type t.
func irCUDAElem(t kernelir.Type) bool {
	switch t {
	case kernelir.Float32, kernelir.Float64, kernelir.Int32, kernelir.Int64, kernelir.Uint32, kernelir.Uint64:
		return true
	}
	return false
}

// irEmitError carries an error out of the emitter's recursion.
type irEmitError struct{ err error }

// irGen is the state of one kernel's translation shared by its functions:
// the support code used and the helpers translated.
type irGen struct {
	k         *kernelir.Kernel
	support   map[string]bool
	helpers   map[string]int // 1 while being translated, 2 when done
	helperSrc map[string]string
}

// irName is what a name of the description stands for in C.
type irName struct {
	c    string // the C expression
	bare string // an index's name unwidened, for view indices
	view bool
	ptr  bool // a helper's pointer parameter (kernelir_local.go)
}

// irFunc translates one function: the kernel's body or a helper.
type irFunc struct {
	g       *irGen
	fn      *kernelir.Func // nil for the kernel
	scopes  []map[string]irName
	used    map[string]bool // C names taken in this function
	tmp     int
	b       strings.Builder
	depth   int
	accBool bool     // acc is an int holding a bool
	results []string // a helper's named result, in C
	called  []string // helpers called, in order of first call
	frames  []*irFrame
	// unsigned maps the text of a wrapped signed operation, (T)(u), to
	// u, so that an enclosing operation goes on in the unsigned type.
	unsigned map[string]irCx
}

// irFrame is an enclosing loop or switch: what break and continue target.
type irFrame struct {
	loop     bool
	doWhile  bool   // a switch wrapped in do { } while (0) for its breaks
	contFlag string // the flag a continue through this switch sets
}

func (g *irGen) newFunc(fn *kernelir.Func) *irFunc {
	return &irFunc{g: g, fn: fn, scopes: []map[string]irName{{}}, used: map[string]bool{}, unsigned: map[string]irCx{}}
}

func (e *irFunc) where() string {
	if e.fn != nil {
		return e.fn.Name
	}
	return e.g.k.Name
}

// fail stops the translation with an error.
func (e *irFunc) fail(format string, args ...any) {
	panic(irEmitError{fmt.Errorf("kernel %s: %s", e.where(), fmt.Sprintf(format, args...))})
}

// hostOnly stops the translation of a kernel that has no CUDA form.
func (e *irFunc) hostOnly(format string, args ...any) {
	panic(irEmitError{fmt.Errorf("%w: kernel %s: %s", errNoCUDA, e.where(), fmt.Sprintf(format, args...))})
}

// line writes one line at the current depth.
func (e *irFunc) line(format string, args ...any) {
	e.b.WriteString(strings.Repeat("\t", e.depth))
	fmt.Fprintf(&e.b, format, args...)
	e.b.WriteByte('\n')
}

func (e *irFunc) push() { e.scopes = append(e.scopes, map[string]irName{}) }
func (e *irFunc) pop()  { e.scopes = e.scopes[:len(e.scopes)-1] }

func (e *irFunc) bind(name string, n irName) {
	if name != "_" {
		e.scopes[len(e.scopes)-1][name] = n
	}
}

func (e *irFunc) lookup(name string) irName {
	for n := len(e.scopes) - 1; n >= 0; n-- {
		if v, ok := e.scopes[n][name]; ok {
			return v
		}
	}
	e.fail("%s is not declared", name)
	return irName{}
}

// declare gives the name a C name: irIdent of it, made unique in the
// function (a shadowing declaration gets another name). The caller binds
// it in scope.
func (e *irFunc) declare(goName string) string {
	base := irIdent(goName)
	name := base
	for n := 2; e.used[name]; n++ {
		name = "gkv" + strconv.Itoa(n) + "_" + base
	}
	e.used[name] = true
	return name
}

// declareLocal declares a local in the current scope.
func (e *irFunc) declareLocal(goName string) string {
	c := e.declare(goName)
	e.bind(goName, irName{c: c})
	return c
}

// temp returns a fresh temporary name.
func (e *irFunc) temp() string {
	e.tmp++
	return "gkt" + strconv.Itoa(e.tmp)
}

// emitHelper translates helper f into a __device__ static function.
func (g *irGen) emitHelper(f *kernelir.Func) *irFunc {
	e := g.newFunc(f)
	if len(f.Results) > 1 {
		e.hostOnly("helper %s has %d results; the CUDA translation takes helpers of one result at most", f.Name, len(f.Results))
	}
	var params []string
	for n, v := range f.Params {
		if p, ok := e.viewParam(n, v); ok {
			params = append(params, p)
			continue
		}
		if v.Name == "_" || v.Name == "" {
			params = append(params, irCType(v.Type))
			continue
		}
		params = append(params, irCType(v.Type)+" "+e.declareLocal(v.Name))
		if v.Type.IsPointer() {
			e.bind(v.Name, irName{c: e.lookup(v.Name).c, ptr: true})
		}
	}
	ret := "void"
	if len(f.Results) == 1 {
		ret = irCType(f.Results[0].Type)
	}
	fmt.Fprintf(&e.b, "%s__device__ static %s gk_h_%s(%s) {\n", irTemplate(f), ret, f.Name, strings.Join(params, ", "))
	e.depth = 1
	if len(f.Results) == 1 && f.Results[0].Name != "" {
		v := f.Results[0]
		name := "gkr_result"
		if v.Name != "_" {
			name = e.declareLocal(v.Name)
		}
		e.results = []string{name}
		e.line("%s %s = %s;", ret, name, irZero(v.Type))
	}
	e.stmts(f.Body)
	e.b.WriteString("}\n")
	return e
}

// irCType is the C type of a description's type.
func irCType(t kernelir.Type) string {
	switch t {
	case kernelir.Bool:
		return "bool"
	case kernelir.Int, kernelir.Int64:
		return "gk_i64"
	case kernelir.Int8:
		return "signed char"
	case kernelir.Int16:
		return "short"
	case kernelir.Int32:
		return "int"
	case kernelir.Uint8:
		return "unsigned char"
	case kernelir.Uint16:
		return "unsigned short"
	case kernelir.Uint32:
		return "unsigned int"
	case kernelir.Uint64:
		return "gk_u64"
	case kernelir.Float32:
		return "float"
	case kernelir.Float64:
		return "double"
	}
	return irCompositeCType(t)
}

// irWideU is the unsigned C type arithmetic on an integer type of 32 or
// 64 bits goes through.
func irWideU(t kernelir.Type) string {
	if t.Bits() == 64 {
		return "gk_u64"
	}
	return "unsigned int"
}

// irPromoted is the C type an integer narrower than 32 bits computes in.
func irPromoted(t kernelir.Type) string {
	if t.IsSigned() {
		return "int"
	}
	return "unsigned int"
}

// irZero is the C zero of type t.
func irZero(t kernelir.Type) string {
	if t == kernelir.Bool {
		return "false"
	}
	if t.IsComposite() {
		return irCType(t) + "{}"
	}
	s, _ := irConst(&kernelir.Const{T: t})
	return s
}

// C identifiers: the mapping of Go names.

// irReserved are names a Go name does not keep in C: C and C++ keywords,
// the names this package's generated code gives the indices, the
// accumulator and its own code, and every function and macro name the
// translation emits or that CUDA's headers define.
var irReserved = map[string]bool{}

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
		atomic_fetch_max atomic_exchange atomic_compare_exchange
		atomic_mul atomic_div atomic_fetch_mul atomic_fetch_div`) {
		irReserved[w] = true
	}
}

// irIdent maps a Go name to a C identifier: the name itself when it is a
// safe C identifier (ASCII letters, digits and _, no leading _ or __
// anywhere, not starting with gk, not reserved), else "gkm_" and the name
// with each character other than an ASCII letter or digit written as
// Z<hex>Z and Z as ZZ, which no two names share.
func irIdent(name string) string {
	if irSafeIdent(name) {
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

func irSafeIdent(name string) bool {
	if name == "" || name[0] == '_' || strings.HasPrefix(name, "gk") || strings.Contains(name, "__") || irReserved[name] {
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
// placed in the helpers when used, in this order.

var irSupport = []struct{ name, src string }{
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
func (e *irFunc) use(name string) {
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
	irPLOr     = 4
	irPLAnd    = 5
	irPOr      = 6
	irPXor     = 7
	irPAnd     = 8
	irPEq      = 9
	irPRel     = 10
	irPShift   = 11
	irPAdd     = 12
	irPMul     = 13
	irPUnary   = 15
	irPPrimary = 16
)

// irCx is a C expression and its precedence.
type irCx struct {
	s    string
	prec int
}

// irWrap returns c's text, in parentheses when its precedence is below min.
func irWrap(c irCx, min int) string {
	if c.prec < min {
		return "(" + c.s + ")"
	}
	return c.s
}

func irInfix(l irCx, op string, r irCx, prec int) irCx {
	return irCx{irWrap(l, prec) + " " + op + " " + irWrap(r, prec+1), prec}
}

// irUnary applies a prefix operator, keeping - - and + + apart.
func irUnary(op string, c irCx) irCx {
	s := irWrap(c, irPUnary)
	if s[0] == '-' || s[0] == '+' {
		s = "(" + s + ")"
	}
	return irCx{op + s, irPUnary}
}

func irCast(t string, c irCx) irCx { return irUnary("("+t+")", c) }

func irCall(fn string, args ...irCx) irCx {
	s := make([]string, len(args))
	for n, a := range args {
		s[n] = a.s
	}
	return irCx{fn + "(" + strings.Join(s, ", ") + ")", irPPrimary}
}

// irConst prints constant c as a C literal of its type, with its
// precedence.
func irConst(c *kernelir.Const) (string, int) {
	t := c.T
	switch {
	case t == kernelir.Bool:
		if c.Bits != 0 {
			return "true", irPPrimary
		}
		return "false", irPPrimary
	case t.IsFloat():
		f := math.Float64frombits(c.Bits)
		bits, suffix := 64, ""
		if t == kernelir.Float32 {
			bits, suffix = 32, "f"
		}
		s := strconv.FormatFloat(f, 'g', -1, bits)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		if f < 0 {
			return s + suffix, irPUnary
		}
		return s + suffix, irPPrimary
	case t.IsUnsigned():
		u := c.Bits
		switch t {
		case kernelir.Uint64:
			return strconv.FormatUint(u, 10) + "ull", irPPrimary
		case kernelir.Uint32:
			return strconv.FormatUint(u, 10) + "u", irPPrimary
		}
		return "(" + irCType(t) + ")" + strconv.FormatUint(u, 10), irPUnary
	}
	n := int64(c.Bits)
	w := t.Bits()
	var s string
	switch {
	case w == 64 && n == math.MinInt64:
		s = "(-9223372036854775807ll - 1)"
	case w == 64:
		s = strconv.FormatInt(n, 10) + "ll"
	case w == 32 && n == math.MinInt32:
		s = "(-2147483647 - 1)"
	default:
		s = strconv.FormatInt(n, 10)
	}
	if w < 32 {
		if n < 0 {
			s = "(" + s + ")"
		}
		return "(" + irCType(t) + ")" + s, irPUnary
	}
	if s[0] == '(' {
		return s, irPPrimary
	}
	if n < 0 {
		return s, irPUnary
	}
	return s, irPPrimary
}

func irConstCx(c *kernelir.Const) irCx {
	s, p := irConst(c)
	return irCx{s, p}
}

// expr translates x into a C expression of the C type of x's type.
func (e *irFunc) expr(x kernelir.Expr) irCx {
	switch x := x.(type) {
	case *kernelir.Const:
		return irConstCx(x)
	case *kernelir.Ref:
		n := e.lookup(x.Name)
		return irCx{n.c, irPPrimary}
	case *kernelir.AccRead:
		if e.accBool {
			return irCx{"acc != 0", irPEq}
		}
		return irCx{"acc", irPPrimary}
	case *kernelir.At:
		return e.element(x.View, x.Index)
	case *kernelir.Extent:
		return irCast("gk_i64", irCx{e.view(x.View) + ".extent(" + strconv.Itoa(x.Dim) + ")", irPPrimary})
	case *kernelir.Unary:
		return e.unaryExpr(x)
	case *kernelir.Binary:
		if x.Op == "shl" || x.Op == "shr" {
			return e.shift(x.Op, e.expr(x.X), x.T, x.Y)
		}
		var rc *kernelir.Const
		if c, ok := x.Y.(*kernelir.Const); ok {
			rc = c
		}
		return e.binary(x.Op, e.expr(x.X), e.expr(x.Y), x.T, rc)
	case *kernelir.Convert:
		return e.conversion(x)
	case *kernelir.Call:
		return e.helperCall(x)
	case *kernelir.Math:
		return e.mathCall(x)
	case *kernelir.MinMax:
		e.use("minmax")
		fn := "gkx_min"
		if x.Max {
			fn = "gkx_max"
		}
		r := e.expr(x.Args[0])
		for _, a := range x.Args[1:] {
			r = irCall(fn, r, e.expr(a))
		}
		return r
	case *kernelir.Atomic:
		return e.atomicCall(x)
	case *kernelir.TeamQuery:
		return e.teamExpr(x)
	}
	if c, ok := e.tokenExpr(x); ok {
		return c
	}
	if c, ok := e.umapExpr(x); ok {
		return c
	}
	if c, ok := e.localExpr(x); ok {
		return c
	}
	e.fail("%T has no C translation", x)
	return irCx{}
}

// view returns the C name of view name.
func (e *irFunc) view(name string) string {
	n := e.lookup(name)
	if !n.view {
		e.fail("%s is not a view", name)
	}
	return n.c
}

func (e *irFunc) unaryExpr(x *kernelir.Unary) irCx {
	t := x.T
	v := e.expr(x.X)
	switch x.Op {
	case "not":
		return irUnary("!", v)
	case "cpl":
		if t.Bits() < 32 {
			return irCast(irCType(t), irUnary("~", v))
		}
		return irUnary("~", v)
	case "neg":
		switch {
		case t.IsFloat() || !t.IsSigned():
			if t.Bits() < 32 {
				return irCast(irCType(t), irUnary("-", v))
			}
			return irUnary("-", v)
		case t.Bits() < 32:
			return irCast(irCType(t), irUnary("-", v))
		default:
			zero := "0u"
			if t.Bits() == 64 {
				zero = "0ull"
			}
			return irCast(irCType(t), irInfix(irCx{zero, irPPrimary}, "-", e.toUnsigned(v, t), irPAdd))
		}
	}
	e.fail("operator %s has no C translation", x.Op)
	return irCx{}
}

var irCOps = map[string]string{
	"add": "+", "sub": "-", "mul": "*", "div": "/", "rem": "%", "eq": "==", "ne": "!=",
	"lt": "<", "le": "<=", "gt": ">", "ge": ">=",
}

// binary translates l op r, both of type t (r's constant value rc, or
// nil), with Go's semantics. Shifts go through shift.
func (e *irFunc) binary(op string, l, r irCx, t kernelir.Type, rc *kernelir.Const) irCx {
	narrow := !t.IsFloat() && t != kernelir.Bool && t.Bits() < 32
	fit := func(c irCx) irCx {
		if narrow {
			return irCast(irCType(t), c)
		}
		return c
	}
	switch op {
	case "land":
		return irInfix(l, "&&", r, irPLAnd)
	case "lor":
		return irInfix(l, "||", r, irPLOr)
	case "eq", "ne":
		return irInfix(l, irCOps[op], r, irPEq)
	case "lt", "le", "gt", "ge":
		return irInfix(l, irCOps[op], r, irPRel)
	case "add", "sub", "mul":
		p := irPAdd
		if op == "mul" {
			p = irPMul
		}
		cop := irCOps[op]
		switch {
		case t.IsFloat() || !t.IsSigned() && !narrow:
			return irInfix(l, cop, r, p)
		case narrow && op == "mul":
			return irCast(irCType(t), irInfix(irCast("unsigned int", l), "*", irCast("unsigned int", r), p))
		case narrow:
			return irCast(irCType(t), irInfix(l, cop, r, p))
		}
		inner := irInfix(e.toUnsigned(l, t), cop, e.toUnsigned(r, t), p)
		c := irCast(irCType(t), inner)
		e.unsigned[c.s] = inner
		return c
	case "div", "rem":
		if t.IsFloat() {
			return irInfix(l, "/", r, irPMul)
		}
		if rc != nil && rc.Bits != 0 && !(t.IsSigned() && int64(rc.Bits) == -1) {
			return fit(irInfix(l, irCOps[op], r, irPMul))
		}
		e.use("div")
		fn := "gkx_div"
		if op == "rem" {
			fn = "gkx_rem"
		}
		if narrow {
			return irCast(irCType(t), irCall(fn, irCast(irPromoted(t), l), irCast(irPromoted(t), r)))
		}
		return irCall(fn, l, r)
	case "and":
		return fit(irInfix(l, "&", r, irPAnd))
	case "or":
		return fit(irInfix(l, "|", r, irPOr))
	case "xor":
		return fit(irInfix(l, "^", r, irPXor))
	case "andnot":
		return fit(irInfix(l, "&", irUnary("~", r), irPAnd))
	}
	e.fail("operator %s has no C translation", op)
	return irCx{}
}

// toUnsigned converts c, of signed type t of 32 or 64 bits, to irWideU(t);
// a non-negative literal is written as the unsigned literal.
func (e *irFunc) toUnsigned(c irCx, t kernelir.Type) irCx {
	if u, ok := e.unsigned[c.s]; ok {
		return u
	}
	digits := strings.TrimSuffix(c.s, "ll")
	if digits != "" && strings.Trim(digits, "0123456789") == "" {
		if t.Bits() == 64 {
			return irCx{digits + "ull", irPPrimary}
		}
		return irCx{digits + "u", irPPrimary}
	}
	return irCast(irWideU(t), c)
}

// shift translates l << count or l >> count, l of type t.
func (e *irFunc) shift(op string, l irCx, t kernelir.Type, count kernelir.Expr) irCx {
	w := t.Bits()
	cv, isConst := count.(*kernelir.Const)
	if isConst && cv.Bits < uint64(w) && !(cv.T.IsSigned() && int64(cv.Bits) < 0) {
		c := irCx{strconv.FormatUint(cv.Bits, 10), irPPrimary}
		switch {
		case op == "shr" && w < 32:
			return irCast(irCType(t), irInfix(l, ">>", c, irPShift))
		case op == "shr":
			return irInfix(l, ">>", c, irPShift)
		case w < 32:
			return irCast(irCType(t), irInfix(irCast("unsigned int", l), "<<", c, irPShift))
		case t.IsSigned():
			return irCast(irCType(t), irInfix(e.toUnsigned(l, t), "<<", c, irPShift))
		}
		return irInfix(l, "<<", c, irPShift)
	}
	e.use("shift")
	fn := "gkx_shl"
	if op == "shr" {
		fn = "gkx_shr"
	}
	var n irCx
	if isConst {
		n = irConstCx(&kernelir.Const{T: kernelir.Uint64, Bits: cv.Bits})
	} else {
		n = irCast("gk_u64", e.expr(count))
	}
	if w < 32 {
		return irCast(irCType(t), irCall(fn, irCast(irPromoted(t), l), n))
	}
	return irCall(fn, l, n)
}

// element is NAME(idx...).
func (e *irFunc) element(view string, idx []kernelir.Expr) irCx {
	name := e.view(view)
	s := make([]string, len(idx))
	for n, x := range idx {
		if r, ok := x.(*kernelir.Ref); ok {
			if b := e.lookup(r.Name); b.bare != "" {
				s[n] = b.bare
				continue
			}
		}
		s[n] = e.expr(x).s
	}
	return irCx{name + "(" + strings.Join(s, ", ") + ")", irPPrimary}
}

// irLvalue is something assigned: its C text to write, and to read.
type irLvalue struct {
	write string
	read  irCx
	t     kernelir.Type
	blank bool
}

// lvalueOf translates the target of an assignment (not a new variable).
func (e *irFunc) lvalueOf(t *kernelir.Target) irLvalue {
	switch t.Kind {
	case kernelir.TargetBlank:
		return irLvalue{blank: true}
	case kernelir.TargetVar:
		n := e.lookup(t.Name)
		return irLvalue{write: n.c, read: irCx{n.c, irPPrimary}, t: t.T}
	case kernelir.TargetElem:
		el := e.element(t.Name, t.Index)
		return irLvalue{write: el.s, read: el, t: t.T}
	case kernelir.TargetAcc:
		if e.accBool {
			return irLvalue{write: "acc", read: irCx{"acc != 0", irPEq}, t: kernelir.Bool}
		}
		return irLvalue{write: "acc", read: irCx{"acc", irPPrimary}, t: t.T}
	case kernelir.TargetPart:
		return e.partLvalue(t)
	}
	e.fail("assignment to a target of kind %d has no C translation", t.Kind)
	return irLvalue{}
}

// irMathFuncs are the C names of the math functions.
var irMathFuncs = map[string]string{
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

// irAtomics maps kokkos's atomic operations (without the Atomic prefix) to
// this package's: the C function, and for those it has as a composition,
// whether the operand is 1 (Inc, Dec) and what the result adds.
var irAtomics = map[string]struct {
	c     string
	one   bool   // the value operand is 1
	after string // the result is the fetched value, then op v
}{
	"Load": {c: "atomic_load"}, "Store": {c: "atomic_store"},
	"Add": {c: "atomic_add"}, "FetchAdd": {c: "atomic_fetch_add"}, "AddFetch": {c: "atomic_add_fetch"},
	"Sub": {c: "atomic_sub"}, "FetchSub": {c: "atomic_fetch_sub"}, "SubFetch": {c: "atomic_fetch_sub", after: "sub"},
	"Inc": {c: "atomic_increment"}, "Dec": {c: "atomic_decrement"},
	"FetchInc": {c: "atomic_fetch_add", one: true}, "IncFetch": {c: "atomic_fetch_add", one: true, after: "add"},
	"FetchDec": {c: "atomic_fetch_sub", one: true}, "DecFetch": {c: "atomic_fetch_sub", one: true, after: "sub"},
	"Min": {c: "atomic_min"}, "FetchMin": {c: "atomic_fetch_min"},
	"Max": {c: "atomic_max"}, "FetchMax": {c: "atomic_fetch_max"},
	"Exchange": {c: "atomic_exchange"}, "CompareExchange": {c: "atomic_compare_exchange"},
	"Mul": {c: "atomic_mul"}, "Div": {c: "atomic_div"},
}

func (e *irFunc) mathCall(x *kernelir.Math) irCx {
	cn, ok := irMathFuncs[x.Func]
	if !ok {
		e.fail("math.%s has no C translation", x.Func)
	}
	var args []irCx
	for _, a := range x.Args {
		args = append(args, e.expr(a))
	}
	switch x.Func {
	case "Min", "Max":
		e.use("mathminmax")
	case "Signbit":
		e.use("signbit")
	case "Inf", "NaN", "IsNaN", "IsInf":
		e.use("inf")
	}
	return irCall(cn, args...)
}

func (e *irFunc) atomicCall(x *kernelir.Atomic) irCx {
	a, ok := irAtomics[x.Op]
	if !ok {
		e.hostOnly("kokkos.Atomic%s has no CUDA translation: package cuda has no such atomic function", x.Op)
	}
	el := e.element(x.View, x.Index)
	args := []irCx{{"&" + irWrap(el, irPUnary), irPUnary}}
	for _, v := range x.Args {
		args = append(args, e.expr(v))
	}
	one := irConstCx(&kernelir.Const{T: x.T, Bits: irOne(x.T)})
	if a.one {
		args = append(args, one)
	}
	r := irCall(a.c, args...)
	if a.after != "" {
		v := one
		if !a.one {
			v = args[1]
		}
		var rc *kernelir.Const
		if a.one {
			rc = &kernelir.Const{T: x.T, Bits: irOne(x.T)}
		}
		r = e.binary(a.after, r, v, x.T, rc)
	}
	return r
}

func irOne(t kernelir.Type) uint64 {
	if t.IsFloat() {
		return math.Float64bits(1)
	}
	return 1
}

func (e *irFunc) helperCall(c *kernelir.Call) irCx {
	if !irContains(e.called, c.Func) {
		e.called = append(e.called, c.Func)
	}
	var args []irCx
	for _, a := range c.Args {
		args = append(args, e.expr(a))
	}
	return irCall("gk_h_"+c.Func, args...)
}

func irContains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// conversion translates T(x).
func (e *irFunc) conversion(c *kernelir.Convert) irCx {
	t := c.T
	s := kernelir.TypeOf(c.X)
	v := e.expr(c.X)
	if irCType(s) == irCType(t) {
		return v
	}
	if s.IsFloat() && !t.IsFloat() {
		// Go leaves an out-of-range conversion to the implementation; a
		// value in range converts exactly through a 64-bit integer.
		switch {
		case t == kernelir.Uint64:
			return irCast("gk_u64", v)
		case t.Bits() == 64:
			return irCast("gk_i64", v)
		}
		return irCast(irCType(t), irCast("gk_i64", v))
	}
	return irCast(irCType(t), v)
}

// Statements.

func (e *irFunc) stmts(list []kernelir.Stmt) {
	for _, s := range list {
		e.stmt(s)
	}
}

// block writes list in braces after head ("if (c)", "else", ...), in a
// scope of its own.
func (e *irFunc) block(head string, list []kernelir.Stmt) {
	e.line("%s", strings.TrimSpace(head+" {"))
	e.depth++
	e.push()
	e.stmts(list)
	e.pop()
	e.depth--
	e.line("}")
}

func (e *irFunc) stmt(s kernelir.Stmt) {
	switch s := s.(type) {
	case *kernelir.Block:
		e.block("", s.Body)
	case *kernelir.ExprStmt:
		e.line("%s;", e.expr(s.X).s)
	case *kernelir.VarDecl:
		e.varDecl(s)
	case *kernelir.Assign:
		e.assign(s)
	case *kernelir.OpAssign:
		lv := e.lvalueOf(&s.Target)
		var v irCx
		if s.Op == "shl" || s.Op == "shr" {
			v = e.shift(s.Op, lv.read, lv.t, s.Value)
		} else {
			var rc *kernelir.Const
			if c, ok := s.Value.(*kernelir.Const); ok {
				rc = c
			}
			v = e.binary(s.Op, lv.read, e.expr(s.Value), lv.t, rc)
		}
		e.line("%s = %s;", lv.write, v.s)
	case *kernelir.IncDec:
		e.incDec(s)
	case *kernelir.If:
		if s.Init != nil {
			e.line("{")
			e.depth++
			e.push()
			e.stmt(s.Init)
			e.ifStmt(s, "")
			e.pop()
			e.depth--
			e.line("}")
			return
		}
		e.ifStmt(s, "")
	case *kernelir.For:
		e.forStmt(s)
	case *kernelir.Range:
		e.rangeStmt(s)
	case *kernelir.Switch:
		e.switchStmt(s)
	case *kernelir.Break:
		e.line("break;")
	case *kernelir.Continue:
		e.continueStmt()
	case *kernelir.Return:
		e.returnStmt(s)
	default:
		if !e.teamStmt(s) {
			e.fail("%T has no C translation", s)
		}
	}
}

func (e *irFunc) varDecl(s *kernelir.VarDecl) {
	var vals []irCx
	for _, v := range s.Values {
		vals = append(vals, e.expr(v))
	}
	for n, v := range s.Vars {
		if v.Name == "_" {
			if n < len(vals) {
				e.line("(void)%s;", irWrap(vals[n], irPUnary))
			}
			continue
		}
		val := irZero(v.Type)
		if n < len(vals) {
			val = vals[n].s
		}
		e.line("%s %s = %s;", irCType(v.Type), e.declareLocal(v.Name), val)
	}
}

func (e *irFunc) assign(s *kernelir.Assign) {
	if len(s.Values) != len(s.Targets) {
		e.hostOnly("an assignment of a call with several results has no C translation")
	}
	allNew := true
	for _, t := range s.Targets {
		allNew = allNew && t.Kind == kernelir.TargetNew
	}
	var news []func()
	one := func(n int, v irCx) {
		t := &s.Targets[n]
		if t.Kind == kernelir.TargetNew {
			// Declared once every value is translated: a value names the
			// variables in scope before the assignment.
			news = append(news, func() { e.line("%s %s = %s;", irCType(t.T), e.declareLocal(t.Name), v.s) })
			return
		}
		e.flush(&news)
		lv := e.lvalueOf(t)
		if lv.blank {
			e.line("(void)%s;", irWrap(v, irPUnary))
			return
		}
		e.line("%s = %s;", lv.write, v.s)
	}
	if len(s.Targets) == 1 || allNew {
		vals := make([]irCx, len(s.Values))
		for n, v := range s.Values {
			vals[n] = e.expr(v)
		}
		for n := range s.Targets {
			one(n, vals[n])
		}
		e.flush(&news)
		return
	}
	// Go evaluates every right side before assigning.
	tmps := make([]irCx, len(s.Values))
	for n, r := range s.Values {
		name := e.temp()
		e.line("const %s %s = %s;", irCType(kernelir.TypeOf(r)), name, e.expr(r).s)
		tmps[n] = irCx{name, irPPrimary}
	}
	for n := range s.Targets {
		one(n, tmps[n])
	}
	e.flush(&news)
}

// flush writes the declarations held back.
func (e *irFunc) flush(news *[]func()) {
	for _, f := range *news {
		f()
	}
	*news = nil
}

func (e *irFunc) incDec(s *kernelir.IncDec) {
	lv := e.lvalueOf(&s.Target)
	op, bop := "++", "add"
	if s.Dec {
		op, bop = "--", "sub"
	}
	if lv.t.IsFloat() || !lv.t.IsSigned() || lv.t.Bits() < 32 {
		e.line("%s%s;", lv.write, op)
		return
	}
	one := &kernelir.Const{T: lv.t, Bits: 1}
	e.line("%s = %s;", lv.write, e.binary(bop, lv.read, irConstCx(one), lv.t, one).s)
}

// ifStmt writes if (cond) {...} else ..., with prefix before "if".
func (e *irFunc) ifStmt(s *kernelir.If, prefix string) {
	e.line("%sif (%s) {", prefix, e.expr(s.Cond).s)
	e.depth++
	e.push()
	e.stmts(s.Then)
	e.pop()
	e.depth--
	switch el := s.Else.(type) {
	case nil:
		e.line("}")
	case *kernelir.Block:
		e.line("} else {")
		e.depth++
		e.push()
		e.stmts(el.Body)
		e.pop()
		e.depth--
		e.line("}")
	case *kernelir.If:
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
func (e *irFunc) simple(s kernelir.Stmt) string {
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

func (e *irFunc) forStmt(s *kernelir.For) {
	e.frames = append(e.frames, &irFrame{loop: true})
	defer func() { e.frames = e.frames[:len(e.frames)-1] }()
	if s.Init == nil && s.Post == nil {
		if s.Cond == nil {
			e.block("for (;;)", s.Body)
		} else {
			e.block("while ("+e.expr(s.Cond).s+")", s.Body)
		}
		return
	}
	e.push()
	defer e.pop()
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
	e.block(head+")", s.Body)
	if wrapped {
		e.depth--
		e.line("}")
	}
}

// irAssigns reports whether list assigns to the variable name in scope
// at its start (not to a variable of that name it declares).
func irAssigns(list []kernelir.Stmt, name string) bool {
	found := false
	targets := func(ts []kernelir.Target) bool {
		for _, t := range ts {
			if (t.Kind == kernelir.TargetVar || t.Kind == kernelir.TargetPart) && t.Name == name {
				return true
			}
		}
		return false
	}
	// one reports whether the statements after s see a declaration of
	// name (so that walk stops looking in this scope).
	var walk func(list []kernelir.Stmt)
	var one func(s kernelir.Stmt) bool
	one = func(s kernelir.Stmt) bool {
		switch s := s.(type) {
		case *kernelir.VarDecl:
			for _, v := range s.Vars {
				if v.Name == name {
					return true
				}
			}
		case *kernelir.Assign:
			if targets(s.Targets) {
				found = true
			}
			for _, t := range s.Targets {
				if t.Kind == kernelir.TargetNew && t.Name == name {
					return true
				}
			}
		case *kernelir.OpAssign:
			found = found || targets([]kernelir.Target{s.Target})
		case *kernelir.IncDec:
			found = found || targets([]kernelir.Target{s.Target})
		case *kernelir.Block:
			walk(s.Body)
		case *kernelir.If:
			if s.Init != nil && one(s.Init) {
				return false
			}
			walk(s.Then)
			if s.Else != nil {
				walk([]kernelir.Stmt{s.Else})
			}
		case *kernelir.For:
			if s.Init != nil && one(s.Init) {
				return false
			}
			if s.Post != nil {
				one(s.Post)
			}
			walk(s.Body)
		case *kernelir.Range:
			if s.Key.Kind == kernelir.TargetVar && s.Key.Name == name {
				found = true
			}
			if s.Key.Kind == kernelir.TargetNew && s.Key.Name == name {
				return false
			}
			walk(s.Body)
		case *kernelir.Switch:
			if s.Init != nil && one(s.Init) {
				return false
			}
			for _, c := range s.Cases {
				walk(c.Body)
			}
		case *kernelir.Nested:
			if s.Key.Kind == kernelir.TargetVar && s.Key.Name == name {
				found = true
			}
			if s.Key.Kind == kernelir.TargetNew && s.Key.Name == name {
				return false
			}
			walk(s.Body)
		case *kernelir.NestedScan:
			found = found || s.Total.Kind == kernelir.TargetVar && s.Total.Name == name
			if name != s.Key && name != s.Acc && name != s.Final {
				walk(s.Body)
			}
			return s.Total.Kind == kernelir.TargetNew && s.Total.Name == name
		case *kernelir.Collective:
			found = found || targets(s.Targets)
			for _, t := range s.Targets {
				if t.Kind == kernelir.TargetNew && t.Name == name {
					return true
				}
			}
		case *kernelir.ScratchDecl:
			return s.Name == name
		}
		return false
	}
	walk = func(list []kernelir.Stmt) {
		for _, s := range list {
			if one(s) {
				return
			}
		}
	}
	walk(list)
	return found
}

func (e *irFunc) rangeStmt(s *kernelir.Range) {
	nt := s.T
	ct := irCType(nt)
	limit := ""
	var decl []string
	if c, ok := s.N.(*kernelir.Const); ok {
		limit = irConstCx(c).s
	} else {
		limit = e.temp()
		decl = append(decl, limit+" = "+e.expr(s.N).s)
	}
	e.push()
	defer e.pop()
	// The counter is the key itself when the body does not assign it;
	// else a hidden counter whose value the key takes each iteration.
	counter := ""
	var first []string
	switch {
	case s.Key.Kind == kernelir.TargetNew && !irAssigns(s.Body, s.Key.Name):
		counter = e.declareLocal(s.Key.Name)
	default:
		counter = e.temp()
		switch s.Key.Kind {
		case kernelir.TargetNew:
			first = append(first, fmt.Sprintf("%s %s = %s;", ct, e.declareLocal(s.Key.Name), counter))
		case kernelir.TargetVar:
			first = append(first, fmt.Sprintf("%s = %s;", e.lookup(s.Key.Name).c, counter))
		}
	}
	decl = append([]string{counter + " = " + irZero(nt)}, decl...)
	e.frames = append(e.frames, &irFrame{loop: true})
	defer func() { e.frames = e.frames[:len(e.frames)-1] }()
	e.line("for (%s %s; %s < %s; %s++) {", ct, strings.Join(decl, ", "), counter, limit, counter)
	e.depth++
	for _, f := range first {
		e.line("%s", f)
	}
	e.push()
	e.stmts(s.Body)
	e.pop()
	e.depth--
	e.line("}")
}

// irBreaksAndContinues reports whether a break in body (not in a nested
// loop or switch) ends the switch of body, and whether a continue in it
// (not in a nested loop) goes to an enclosing loop.
func irBreaksAndContinues(cases []kernelir.Case) (brk, cont bool) {
	var walk func(list []kernelir.Stmt, nested bool)
	var one func(s kernelir.Stmt, nested bool)
	one = func(s kernelir.Stmt, nested bool) {
		switch s := s.(type) {
		case *kernelir.For, *kernelir.Range:
		case *kernelir.Switch:
			for _, c := range s.Cases {
				walk(c.Body, true)
			}
		case *kernelir.Break:
			if !nested {
				brk = true
			}
		case *kernelir.Continue:
			cont = true
		case *kernelir.Block:
			walk(s.Body, nested)
		case *kernelir.If:
			walk(s.Then, nested)
			if s.Else != nil {
				one(s.Else, nested)
			}
		}
	}
	walk = func(list []kernelir.Stmt, nested bool) {
		for _, s := range list {
			one(s, nested)
		}
	}
	for _, c := range cases {
		walk(c.Body, false)
	}
	return brk, cont
}

func (e *irFunc) switchStmt(s *kernelir.Switch) {
	brk, cont := irBreaksAndContinues(s.Cases)
	inLoop := false
	for _, f := range e.frames {
		inLoop = inLoop || f.loop
	}
	fr := &irFrame{doWhile: brk}
	if brk && cont && inLoop {
		fr.contFlag = e.temp()
	}
	e.line("{")
	e.depth++
	e.push()
	defer e.pop()
	if s.Init != nil {
		e.stmt(s.Init)
	}
	var tag irCx
	if s.Tag != nil {
		name := e.temp()
		e.line("const %s %s = %s;", irCType(kernelir.TypeOf(s.Tag)), name, e.expr(s.Tag).s)
		tag = irCx{name, irPPrimary}
	}
	if fr.contFlag != "" {
		e.line("bool %s = false;", fr.contFlag)
	}
	if brk {
		e.line("do {")
		e.depth++
	}
	e.frames = append(e.frames, fr)
	var def *kernelir.Case
	first := true
	for n := range s.Cases {
		cc := &s.Cases[n]
		if cc.Default {
			def = cc
			continue
		}
		var conds []irCx
		for _, x := range cc.Values {
			if s.Tag != nil {
				conds = append(conds, irInfix(tag, "==", e.expr(x), irPEq))
			} else {
				conds = append(conds, e.expr(x))
			}
		}
		cond := conds[0]
		for _, c := range conds[1:] {
			cond = irInfix(cond, "||", c, irPLOr)
		}
		prefix := "} else if"
		if first {
			prefix = "if"
		}
		first = false
		e.line("%s (%s) {", prefix, cond.s)
		e.depth++
		e.push()
		e.stmts(cc.Body)
		e.pop()
		e.depth--
	}
	if def != nil {
		if first {
			e.line("{")
		} else {
			e.line("} else {")
		}
		e.depth++
		e.push()
		e.stmts(def.Body)
		e.pop()
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
func (e *irFunc) continueStmt() {
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

func (e *irFunc) returnStmt(s *kernelir.Return) {
	if e.fn == nil {
		// The body is a function called once per index: return ends
		// this index.
		e.line("return;")
		return
	}
	switch {
	case len(s.Values) == 1 && len(e.fn.Results) == 1:
		e.line("return %s;", e.expr(s.Values[0]).s)
	case len(s.Values) == 0 && len(e.results) == 1:
		e.line("return %s;", e.results[0])
	case len(s.Values) == 0:
		e.line("return;")
	default:
		e.hostOnly("a return of several results has no C translation")
	}
}
