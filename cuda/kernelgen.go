package cuda

import (
	"fmt"
	"strconv"
	"strings"
)

// This file writes the CUDA C++ source of a kernel around a loop body: one
// accessor type per bound view, the index computation of the policy, and
// the reduction or scan machinery. It only builds strings, so every part of
// it is tested, and compiled by NVRTC, on machines without a GPU.

// elemType is an element type a device body can use.
type elemType uint8

const (
	elemFloat32 elemType = iota
	elemFloat64
	elemInt32
	elemInt64
	elemUint32
	elemUint64
	elemBool // reduction values only (LAnd, LOr), stored as int
	numElemTypes
)

var elemInfo = [...]struct {
	c, goName string
	size      int
}{
	elemFloat32: {"float", "float32", 4},
	elemFloat64: {"double", "float64", 8},
	elemInt32:   {"int", "int32", 4},
	elemInt64:   {"long long", "int64", 8},
	elemUint32:  {"unsigned int", "uint32", 4},
	elemUint64:  {"unsigned long long", "uint64", 8},
	elemBool:    {"int", "bool", 4},
}

func (e elemType) c() string      { return elemInfo[e].c }
func (e elemType) size() int      { return elemInfo[e].size }
func (e elemType) String() string { return elemInfo[e].goName }

// patternKind is the parallel pattern a kernel implements.
type patternKind uint8

const (
	patFor patternKind = iota
	patReduce
	patScan
)

// viewSig is what of a bound view the generated code depends on; extents,
// strides and the address are kernel arguments.
type viewSig struct {
	name     string
	elem     elemType
	rank     int
	unit     int // the dimension whose stride is 1, folded in; -1 for none
	readOnly bool
	atomic   bool
	restrict bool
}

// scalarSig is a bound scalar.
type scalarSig struct {
	name string
	elem elemType
}

// valueSig is the accumulator of a reduction or scan.
type valueSig struct {
	ctype string // the C type of the accumulator, such as "double" or "gk_valloc<float>"
	size  int    // its size in bytes, a multiple of 4
	init  string // C statements that set `value` to the identity
	join  string // C statements that fold `src` into `dst`
}

// kernelSig is everything that decides a kernel's source. Two launches
// with equal signatures and bodies share one compiled kernel.
type kernelSig struct {
	pattern patternKind
	rank    int    // 1 for a RangePolicy, 2 to 6 for an MDRangePolicy
	order   [6]int // MDRange: dimensions from fastest (threadIdx.x) to slowest
	wide    bool   // 64-bit indices
	check   bool   // bounds checking
	views   []viewSig
	scalars []scalarSig
	value   valueSig
	helpers string // file-scope source placed before the views (Helpers)
	team    bool   // a team kernel (kernelir_team.go): rank 1 over the league
}

// reduceBlock is the block size of reductions and scans.
const reduceBlock = 256

// cKeywords are names a binding may not take: C++ keywords and the names
// the generated code gives the indices, the accumulator and the final flag.
var cKeywords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`alignas alignof and asm auto bool break case catch char class const
		constexpr const_cast continue decltype default delete do double dynamic_cast else enum explicit
		export extern false float for friend goto if inline int long mutable namespace new noexcept not
		nullptr operator or private protected public register reinterpret_cast return short signed sizeof
		static static_assert static_cast struct switch template this throw true try typedef typeid typename
		union unsigned using virtual void volatile wchar_t while xor
		i i0 i1 i2 i3 i4 i5 acc final value dst src Kokkos`) {
		cKeywords[w] = true
	}
}

// checkName reports why name cannot name a binding, or "" when it can.
func checkName(name string) string {
	if name == "" {
		return "an empty name"
	}
	for k, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || k > 0 && r >= '0' && r <= '9') {
			return fmt.Sprintf("%q is not a C identifier (letters, digits and _, not starting with a digit)", name)
		}
	}
	if cKeywords[name] {
		return fmt.Sprintf("%q is a C++ keyword or a name the generated kernel uses (i, i0..i5, acc, final, value, dst, src, Kokkos)", name)
	}
	if strings.HasPrefix(name, "gk_") || strings.HasPrefix(name, "__") {
		return fmt.Sprintf("%q starts with a prefix the generated kernel reserves (gk_, __)", name)
	}
	return ""
}

// indexNames returns the index variables of a body: i for a RangePolicy,
// i0..i{rank-1} for an MDRangePolicy.
func indexNames(rank int) []string {
	if rank == 1 {
		return []string{"i"}
	}
	n := make([]string, rank)
	for d := range n {
		n[d] = "i" + strconv.Itoa(d)
	}
	return n
}

// prelude is the code every kernel starts with: integer types, the
// Kokkos-style atomic helpers, the word-wise warp shuffle and the bounds
// check report.
const prelude = `typedef long long gk_i64;
typedef unsigned long long gk_u64;

template <class T> struct gk_valloc { T val; gk_i64 loc; };

__device__ __forceinline__ float gk_bits(unsigned int b, float) { return __uint_as_float(b); }
__device__ __forceinline__ double gk_bits(gk_u64 b, double) { return __longlong_as_double((gk_i64)b); }
__device__ __forceinline__ unsigned int gk_word(float v) { return __float_as_uint(v); }
__device__ __forceinline__ gk_u64 gk_word(double v) { return (gk_u64)__double_as_longlong(v); }

// Atomic operations on every element type, as Kokkos names them.
__device__ __forceinline__ float atomic_fetch_add(float* p, float v) { return atomicAdd(p, v); }
__device__ __forceinline__ double atomic_fetch_add(double* p, double v) { return atomicAdd(p, v); }
__device__ __forceinline__ int atomic_fetch_add(int* p, int v) { return atomicAdd(p, v); }
__device__ __forceinline__ unsigned int atomic_fetch_add(unsigned int* p, unsigned int v) { return atomicAdd(p, v); }
__device__ __forceinline__ gk_u64 atomic_fetch_add(gk_u64* p, gk_u64 v) { return atomicAdd(p, v); }
__device__ __forceinline__ gk_i64 atomic_fetch_add(gk_i64* p, gk_i64 v) { return (gk_i64)atomicAdd((gk_u64*)p, (gk_u64)v); }
template <class T> __device__ __forceinline__ T atomic_fetch_sub(T* p, T v) { return atomic_fetch_add(p, (T)(T(0) - v)); }
template <class T> __device__ __forceinline__ void atomic_add(T* p, T v) { (void)atomic_fetch_add(p, v); }
template <class T> __device__ __forceinline__ void atomic_sub(T* p, T v) { (void)atomic_fetch_sub(p, v); }
template <class T> __device__ __forceinline__ T atomic_add_fetch(T* p, T v) { return atomic_fetch_add(p, v) + v; }
template <class T> __device__ __forceinline__ void atomic_increment(T* p) { (void)atomic_fetch_add(p, T(1)); }
template <class T> __device__ __forceinline__ void atomic_decrement(T* p) { (void)atomic_fetch_sub(p, T(1)); }
__device__ __forceinline__ int atomic_compare_exchange(int* p, int cmp, int v) { return atomicCAS(p, cmp, v); }
__device__ __forceinline__ unsigned int atomic_compare_exchange(unsigned int* p, unsigned int cmp, unsigned int v) { return atomicCAS(p, cmp, v); }
__device__ __forceinline__ gk_u64 atomic_compare_exchange(gk_u64* p, gk_u64 cmp, gk_u64 v) { return atomicCAS(p, cmp, v); }
__device__ __forceinline__ gk_i64 atomic_compare_exchange(gk_i64* p, gk_i64 cmp, gk_i64 v) { return (gk_i64)atomicCAS((gk_u64*)p, (gk_u64)cmp, (gk_u64)v); }
__device__ __forceinline__ float atomic_compare_exchange(float* p, float cmp, float v) { return __uint_as_float(atomicCAS((unsigned int*)p, __float_as_uint(cmp), __float_as_uint(v))); }
__device__ __forceinline__ double atomic_compare_exchange(double* p, double cmp, double v) { return __longlong_as_double((gk_i64)atomicCAS((gk_u64*)p, (gk_u64)__double_as_longlong(cmp), (gk_u64)__double_as_longlong(v))); }
__device__ __forceinline__ int atomic_exchange(int* p, int v) { return atomicExch(p, v); }
__device__ __forceinline__ unsigned int atomic_exchange(unsigned int* p, unsigned int v) { return atomicExch(p, v); }
__device__ __forceinline__ gk_u64 atomic_exchange(gk_u64* p, gk_u64 v) { return atomicExch(p, v); }
__device__ __forceinline__ gk_i64 atomic_exchange(gk_i64* p, gk_i64 v) { return (gk_i64)atomicExch((gk_u64*)p, (gk_u64)v); }
__device__ __forceinline__ float atomic_exchange(float* p, float v) { return atomicExch(p, v); }
__device__ __forceinline__ double atomic_exchange(double* p, double v) { return __longlong_as_double((gk_i64)atomicExch((gk_u64*)p, (gk_u64)__double_as_longlong(v))); }
__device__ __forceinline__ int atomic_fetch_max(int* p, int v) { return atomicMax(p, v); }
__device__ __forceinline__ unsigned int atomic_fetch_max(unsigned int* p, unsigned int v) { return atomicMax(p, v); }
__device__ __forceinline__ gk_i64 atomic_fetch_max(gk_i64* p, gk_i64 v) { return atomicMax(p, v); }
__device__ __forceinline__ gk_u64 atomic_fetch_max(gk_u64* p, gk_u64 v) { return atomicMax(p, v); }
__device__ __forceinline__ int atomic_fetch_min(int* p, int v) { return atomicMin(p, v); }
__device__ __forceinline__ unsigned int atomic_fetch_min(unsigned int* p, unsigned int v) { return atomicMin(p, v); }
__device__ __forceinline__ gk_i64 atomic_fetch_min(gk_i64* p, gk_i64 v) { return atomicMin(p, v); }
__device__ __forceinline__ gk_u64 atomic_fetch_min(gk_u64* p, gk_u64 v) { return atomicMin(p, v); }
template <class T> __device__ __forceinline__ T gk_cas_max(T* p, T v) {
	T old = *(volatile T*)p;
	while (old < v) { T seen = atomic_compare_exchange(p, old, v); if (seen == old) break; old = seen; }
	return old;
}
template <class T> __device__ __forceinline__ T gk_cas_min(T* p, T v) {
	T old = *(volatile T*)p;
	while (v < old) { T seen = atomic_compare_exchange(p, old, v); if (seen == old) break; old = seen; }
	return old;
}
__device__ __forceinline__ float atomic_fetch_max(float* p, float v) { return gk_cas_max(p, v); }
__device__ __forceinline__ double atomic_fetch_max(double* p, double v) { return gk_cas_max(p, v); }
__device__ __forceinline__ float atomic_fetch_min(float* p, float v) { return gk_cas_min(p, v); }
__device__ __forceinline__ double atomic_fetch_min(double* p, double v) { return gk_cas_min(p, v); }
template <class T> __device__ __forceinline__ void atomic_max(T* p, T v) { (void)atomic_fetch_max(p, v); }
template <class T> __device__ __forceinline__ void atomic_min(T* p, T v) { (void)atomic_fetch_min(p, v); }
// Multiplication and division, a compare-and-swap loop that compares bits
// (a NaN ends it), as kokkos's AtomicMul and AtomicDiv.
template <class T> __device__ __forceinline__ bool gk_same_bits(T a, T b) { return a == b; }
__device__ __forceinline__ bool gk_same_bits(float a, float b) { return __float_as_uint(a) == __float_as_uint(b); }
__device__ __forceinline__ bool gk_same_bits(double a, double b) { return __double_as_longlong(a) == __double_as_longlong(b); }
template <class T> __device__ __forceinline__ T atomic_fetch_mul(T* p, T v) {
	T old = *(volatile T*)p;
	for (;;) { T seen = atomic_compare_exchange(p, old, (T)(old * v)); if (gk_same_bits(seen, old)) return old; old = seen; }
}
// gk_quo divides as the kernels' / does: an integer by 0 gives 0, by -1
// the negation, wrapping.
template <class T> __device__ __forceinline__ T gk_quo(T a, T b) {
	return b == T(0) ? T(0) : ((T)(-1) < T(0) && b == (T)(-1)) ? (T)(0ull - (gk_u64)a) : (T)(a / b);
}
__device__ __forceinline__ float gk_quo(float a, float b) { return a / b; }
__device__ __forceinline__ double gk_quo(double a, double b) { return a / b; }
template <class T> __device__ __forceinline__ T atomic_fetch_div(T* p, T v) {
	T old = *(volatile T*)p;
	for (;;) { T seen = atomic_compare_exchange(p, old, gk_quo(old, v)); if (gk_same_bits(seen, old)) return old; old = seen; }
}
template <class T> __device__ __forceinline__ void atomic_mul(T* p, T v) { (void)atomic_fetch_mul(p, v); }
template <class T> __device__ __forceinline__ void atomic_div(T* p, T v) { (void)atomic_fetch_div(p, v); }
template <class T> __device__ __forceinline__ T atomic_load(T* p) { return *(volatile T*)p; }
template <class T> __device__ __forceinline__ void atomic_store(T* p, T v) { (void)atomic_exchange(p, v); }

// An element of a view with the Atomic trait: every read, write and update
// is atomic, as with Kokkos::MemoryTraits<Kokkos::Atomic>.
template <class T> struct gk_atomic_ref {
	T* p;
	__device__ __forceinline__ operator T() const { return *(volatile T*)p; }
	__device__ __forceinline__ T operator=(T v) const { (void)atomic_exchange(p, v); return v; }
	__device__ __forceinline__ T operator+=(T v) const { return atomic_fetch_add(p, v) + v; }
	__device__ __forceinline__ T operator-=(T v) const { return atomic_fetch_sub(p, v) - v; }
	__device__ __forceinline__ T operator++() const { return atomic_fetch_add(p, T(1)) + T(1); }
	__device__ __forceinline__ T operator++(int) const { return atomic_fetch_add(p, T(1)); }
	__device__ __forceinline__ T operator--() const { return atomic_fetch_sub(p, T(1)) - T(1); }
	__device__ __forceinline__ T operator--(int) const { return atomic_fetch_sub(p, T(1)); }
	__device__ __forceinline__ T* operator&() const { return p; }
};

namespace Kokkos {
using ::atomic_fetch_add; using ::atomic_fetch_sub; using ::atomic_add; using ::atomic_sub;
using ::atomic_add_fetch; using ::atomic_increment; using ::atomic_decrement;
using ::atomic_compare_exchange; using ::atomic_exchange; using ::atomic_fetch_max;
using ::atomic_fetch_min; using ::atomic_max; using ::atomic_min; using ::atomic_load; using ::atomic_store;
}

// gk_shfl_down and gk_shfl_up move any value of whole 32-bit words
// between the lanes of a warp.
template <class T> __device__ __forceinline__ T gk_shfl_down(const T& v, int d) {
	T r; const unsigned int* s = (const unsigned int*)&v; unsigned int* o = (unsigned int*)&r;
#pragma unroll
	for (int k = 0; k < (int)(sizeof(T) / 4); k++) o[k] = __shfl_down_sync(0xffffffffu, s[k], d);
	return r;
}
template <class T> __device__ __forceinline__ T gk_shfl_up(const T& v, int d) {
	T r; const unsigned int* s = (const unsigned int*)&v; unsigned int* o = (unsigned int*)&r;
#pragma unroll
	for (int k = 0; k < (int)(sizeof(T) / 4); k++) o[k] = __shfl_up_sync(0xffffffffu, s[k], d);
	return r;
}

// Out-of-bounds accesses are reported through rep (bounds checking only):
// rep[0] is set once, rep[1] names the view, rep[2] its rank, rep[3..10]
// the indices. gk_sink takes the access instead of the element.
__device__ __align__(16) char gk_sink[16];
__device__ __noinline__ void gk_oob(gk_u64* rep, int view, int rank, gk_i64 a, gk_i64 b, gk_i64 c, gk_i64 d, gk_i64 e, gk_i64 f, gk_i64 g, gk_i64 h) {
	if (atomicCAS(rep, 0ull, 1ull) == 0ull) {
		rep[1] = view; rep[2] = rank;
		rep[3] = a; rep[4] = b; rep[5] = c; rep[6] = d; rep[7] = e; rep[8] = f; rep[9] = g; rep[10] = h;
		__threadfence();
	}
}
`

// viewType returns the C++ struct name of bound view k.
func viewType(k int) string { return "gk_view_" + strconv.Itoa(k) }

// writeView writes the accessor type of bound view k: the pointer, the
// extents and strides (kernel arguments), and operator() of the view's
// rank with the unit stride folded in.
func writeView(b *strings.Builder, k int, v viewSig, check bool) {
	t := v.elem.c()
	ptr := t + "*"
	if v.readOnly {
		ptr = "const " + t + "*"
	}
	if v.restrict {
		ptr += " __restrict__"
	}
	ret := t + "&"
	switch {
	case v.atomic:
		ret = "gk_atomic_ref<" + t + ">"
	case v.readOnly:
		ret = "const " + t + "&"
	}
	fmt.Fprintf(b, "struct %s {\n\t%s p;\n", viewType(k), ptr)
	if v.rank > 0 {
		fmt.Fprintf(b, "\tgk_idx e[%d];\n\tgk_idx s[%d];\n", v.rank, v.rank)
	}
	if check {
		b.WriteString("\tgk_u64* rep;\n")
	}
	params := make([]string, v.rank)
	terms := make([]string, v.rank)
	for d := range params {
		params[d] = "gk_idx i" + strconv.Itoa(d)
		if d == v.unit {
			terms[d] = "i" + strconv.Itoa(d)
		} else {
			terms[d] = fmt.Sprintf("i%d * s[%d]", d, d)
		}
	}
	off := strings.Join(terms, " + ")
	if off == "" {
		off = "0"
	}
	fmt.Fprintf(b, "\t__device__ __forceinline__ %s operator()(%s) const {\n", ret, strings.Join(params, ", "))
	if check && v.rank > 0 {
		conds := make([]string, v.rank)
		args := make([]string, 8)
		for d := range args {
			args[d] = "0"
		}
		for d := range conds {
			conds[d] = fmt.Sprintf("(gk_u64)i%d >= (gk_u64)e[%d]", d, d)
			args[d] = "i" + strconv.Itoa(d)
		}
		fmt.Fprintf(b, "\t\tif (%s) { gk_oob(rep, %d, %d, %s); return ", strings.Join(conds, " || "), k, v.rank, strings.Join(args, ", "))
		if v.atomic {
			fmt.Fprintf(b, "%s{(%s*)gk_sink}; }\n", ret, t)
		} else {
			fmt.Fprintf(b, "*(%s*)gk_sink; }\n", t)
		}
	}
	if v.atomic {
		fmt.Fprintf(b, "\t\treturn %s{(%s*)p + (%s)};\n\t}\n", ret, t, off)
	} else {
		fmt.Fprintf(b, "\t\treturn p[%s];\n\t}\n", off)
	}
	if v.rank > 0 {
		b.WriteString("\t__device__ __forceinline__ gk_idx extent(int r) const { return e[r]; }\n")
		b.WriteString("\t__device__ __forceinline__ int extent_int(int r) const { return (int)e[r]; }\n")
		b.WriteString("\t__device__ __forceinline__ gk_idx stride(int r) const { return s[r]; }\n")
		fmt.Fprintf(b, "\t__device__ __forceinline__ gk_idx size() const { gk_idx n = 1; for (int r = 0; r < %d; r++) n *= e[r]; return n; }\n", v.rank)
	}
	fmt.Fprintf(b, "\t__device__ __forceinline__ %s data() const { return p; }\n};\n", ptr)
}

// kernelNames are the entry points of a kernel of each pattern.
var kernelNames = [...][]string{
	patFor:    {"gk_for"},
	patReduce: {"gk_reduce_blocks", "gk_reduce_final"},
	patScan:   {"gk_scan_blocks", "gk_scan_partials", "gk_scan_final"},
}

// generate returns the CUDA C++ source of the kernel of sig around body.
// label names the kernel in a comment.
func generate(sig *kernelSig, body, label string) string {
	if sig.team {
		return generateTeam(sig, body, label)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// gokkos kernel %s\n", strconv.Quote(label))
	b.WriteString(prelude)
	if sig.wide {
		b.WriteString("typedef long long gk_idx;\n\n")
	} else {
		b.WriteString("typedef int gk_idx;\n\n")
	}
	if sig.helpers != "" {
		b.WriteString(sig.helpers)
		if !strings.HasSuffix(sig.helpers, "\n") {
			b.WriteString("\n")
		}
	}
	for k, v := range sig.views {
		writeView(&b, k, v, sig.check)
	}
	idx := indexNames(sig.rank)

	// The body, as a function of the indices, the accumulator and the
	// bindings; #line makes compiler messages count the body's lines.
	var params []string
	for _, n := range idx {
		params = append(params, "const gk_idx "+n)
	}
	if sig.pattern != patFor {
		fmt.Fprintf(&b, "typedef %s gk_value;\n", sig.value.ctype)
		fmt.Fprintf(&b, "__device__ __forceinline__ void gk_init(gk_value& value) {\n%s\n}\n", sig.value.init)
		fmt.Fprintf(&b, "__device__ __forceinline__ void gk_join(gk_value& dst, const gk_value& src) {\n%s\n}\n", sig.value.join)
		params = append(params, "gk_value& acc")
	}
	if sig.pattern == patScan {
		params = append(params, "const bool final")
	}
	var bind, args []string
	for k, v := range sig.views {
		bind = append(bind, "const "+viewType(k)+" "+v.name)
		args = append(args, v.name)
	}
	for _, s := range sig.scalars {
		bind = append(bind, "const "+s.elem.c()+" "+s.name)
		args = append(args, s.name)
	}
	params = append(params, bind...)
	fmt.Fprintf(&b, "__device__ __forceinline__ void gk_body(%s) {\n#line 1 %q\n%s\n}\n", strings.Join(params, ", "), bodyFile, body)
	b.WriteString("#line 10000 \"kernel.cu\"\n")

	bindParams := strings.Join(bind, ", ")
	if bindParams != "" {
		bindParams = ", " + bindParams
	}
	bindArgs := strings.Join(args, ", ")
	if bindArgs != "" {
		bindArgs = ", " + bindArgs
	}
	switch sig.pattern {
	case patFor:
		writeFor(&b, sig, idx, bindParams, bindArgs)
	case patReduce:
		writeReduce(&b, sig, idx, bindParams, bindArgs)
	case patScan:
		writeScan(&b, bindParams, bindArgs)
	}
	return b.String()
}

// writeMDLoops writes the loops of an MDRange: the fastest dimension on
// threadIdx.x, the next on threadIdx.y, each a thread-stride loop over its
// grid dimension; the other dimensions flattened onto blockIdx.z. inner is
// the code run for each index inside the box.
func writeMDLoops(b *strings.Builder, sig *kernelSig, idx []string, inner string) {
	r := sig.rank
	f0, f1 := sig.order[0], sig.order[1]
	b.WriteString("\tgk_idx gk_nz = 1;\n")
	for k := 2; k < r; k++ {
		fmt.Fprintf(b, "\tgk_nz *= gk_r.hi[%d] - gk_r.lo[%d];\n", sig.order[k], sig.order[k])
	}
	b.WriteString("\tfor (gk_idx gk_z = blockIdx.z; gk_z < gk_nz; gk_z += gridDim.z) {\n")
	if r > 2 {
		b.WriteString("\t\tgk_idx gk_rem = gk_z;\n")
	}
	for k := 2; k < r; k++ {
		d := sig.order[k]
		fmt.Fprintf(b, "\t\tconst gk_idx %s = gk_r.lo[%d] + gk_rem %% (gk_r.hi[%d] - gk_r.lo[%d]);\n", idx[d], d, d, d)
		if k < r-1 {
			fmt.Fprintf(b, "\t\tgk_rem /= gk_r.hi[%d] - gk_r.lo[%d];\n", d, d)
		}
	}
	fmt.Fprintf(b, "\t\tfor (gk_idx %s = gk_r.lo[%d] + (gk_idx)blockIdx.y * blockDim.y + threadIdx.y; %s < gk_r.hi[%d]; %s += (gk_idx)gridDim.y * blockDim.y)\n",
		idx[f1], f1, idx[f1], f1, idx[f1])
	fmt.Fprintf(b, "\t\t\tfor (gk_idx %s = gk_r.lo[%d] + (gk_idx)blockIdx.x * blockDim.x + threadIdx.x; %s < gk_r.hi[%d]; %s += (gk_idx)gridDim.x * blockDim.x)\n",
		idx[f0], f0, idx[f0], f0, idx[f0])
	fmt.Fprintf(b, "\t\t\t\t%s\n\t}\n", inner)
}

func writeFor(b *strings.Builder, sig *kernelSig, idx []string, bindParams, bindArgs string) {
	if sig.rank == 1 {
		fmt.Fprintf(b, "extern \"C\" __global__ void gk_for(const gk_idx gk_begin, const gk_idx gk_end%s) {\n", bindParams)
		b.WriteString("\tconst gk_idx gk_step = (gk_idx)gridDim.x * blockDim.x;\n")
		b.WriteString("\tfor (gk_idx i = gk_begin + (gk_idx)blockIdx.x * blockDim.x + threadIdx.x; i < gk_end; i += gk_step)\n")
		fmt.Fprintf(b, "\t\tgk_body(i%s);\n}\n", bindArgs)
		return
	}
	fmt.Fprintf(b, "struct gk_box { gk_idx lo[%d]; gk_idx hi[%d]; };\n", sig.rank, sig.rank)
	fmt.Fprintf(b, "extern \"C\" __global__ void gk_for(const gk_box gk_r%s) {\n", bindParams)
	writeMDLoops(b, sig, idx, fmt.Sprintf("gk_body(%s%s);", strings.Join(idx, ", "), bindArgs))
	b.WriteString("}\n")
}

// blockReduce is the block-wide reduction of reductions and scans: warps
// reduce by shuffles, then the first warp reduces the warps' results, in a
// fixed order, so the result is the same on every run. Thread 0 gets it.
const blockReduce = `__device__ __forceinline__ void gk_block_reduce(gk_value& v, int t, int nt) {
	__shared__ gk_value gk_warps[32];
	const int lane = t & 31, warp = t >> 5, nw = (nt + 31) >> 5;
#pragma unroll
	for (int d = 16; d > 0; d >>= 1) { gk_value o = gk_shfl_down(v, d); if (lane + d < 32 && t + d < nt) gk_join(v, o); }
	__syncthreads();
	if (lane == 0) gk_warps[warp] = v;
	__syncthreads();
	if (warp == 0) {
		if (lane < nw) v = gk_warps[lane]; else gk_init(v);
#pragma unroll
		for (int d = 16; d > 0; d >>= 1) { gk_value o = gk_shfl_down(v, d); if (lane + d < 32) gk_join(v, o); }
	}
}
`

// reduceFinal folds the blocks' partial results in a fixed order and
// stores the result at out: a gk_value, or for a boolean reducer an int
// read back as a Go bool.
const reduceFinal = `extern "C" __global__ void gk_reduce_final(const gk_value* partial, const int n, void* out, const int as_bool) {
	gk_value v; gk_init(v);
	for (int k = threadIdx.x; k < n; k += blockDim.x) gk_join(v, partial[k]);
	gk_block_reduce(v, threadIdx.x, blockDim.x);
	if (threadIdx.x == 0) {
		if (as_bool) *(bool*)out = *(int*)&v != 0; else *(gk_value*)out = v;
	}
}
`

func writeReduce(b *strings.Builder, sig *kernelSig, idx []string, bindParams, bindArgs string) {
	b.WriteString(blockReduce)
	b.WriteString(reduceFinal)
	if sig.rank == 1 {
		fmt.Fprintf(b, "extern \"C\" __global__ void gk_reduce_blocks(const gk_idx gk_begin, const gk_idx gk_end, gk_value* gk_partial%s) {\n", bindParams)
		b.WriteString("\tgk_value acc; gk_init(acc);\n")
		b.WriteString("\tconst gk_idx gk_step = (gk_idx)gridDim.x * blockDim.x;\n")
		b.WriteString("\tfor (gk_idx i = gk_begin + (gk_idx)blockIdx.x * blockDim.x + threadIdx.x; i < gk_end; i += gk_step)\n")
		fmt.Fprintf(b, "\t\tgk_body(i, acc%s);\n", bindArgs)
		b.WriteString("\tgk_block_reduce(acc, threadIdx.x, blockDim.x);\n")
		b.WriteString("\tif (threadIdx.x == 0) gk_partial[blockIdx.x] = acc;\n}\n")
		return
	}
	fmt.Fprintf(b, "struct gk_box { gk_idx lo[%d]; gk_idx hi[%d]; };\n", sig.rank, sig.rank)
	fmt.Fprintf(b, "extern \"C\" __global__ void gk_reduce_blocks(const gk_box gk_r, gk_value* gk_partial%s) {\n", bindParams)
	b.WriteString("\tgk_value acc; gk_init(acc);\n")
	writeMDLoops(b, sig, idx, fmt.Sprintf("gk_body(%s, acc%s);", strings.Join(idx, ", "), bindArgs))
	b.WriteString("\tconst int gk_t = threadIdx.x + blockDim.x * threadIdx.y;\n")
	b.WriteString("\tgk_block_reduce(acc, gk_t, blockDim.x * blockDim.y);\n")
	b.WriteString("\tif (gk_t == 0) gk_partial[blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)] = acc;\n}\n")
}

// The scan runs in three kernels over a fixed grid: each block reduces its
// chunk of the range; one block scans the blocks' totals; each block then
// scans its chunk tile by tile, starting from its prefix, and calls the
// body with final set.
const scanKernels = `// gk_block_scan returns the exclusive prefix of v over the block's threads
// (in thread order) and sets total to the block's total.
__device__ __forceinline__ gk_value gk_block_scan(gk_value v, gk_value& total) {
	__shared__ gk_value gk_warps[32];
	const int t = threadIdx.x, lane = t & 31, warp = t >> 5, nw = blockDim.x >> 5;
	gk_value incl = v;
#pragma unroll
	for (int d = 1; d < 32; d <<= 1) { gk_value o = gk_shfl_up(incl, d); if (lane >= d) { gk_join(o, incl); incl = o; } }
	__syncthreads();
	if (lane == 31) gk_warps[warp] = incl;
	__syncthreads();
	if (warp == 0) {
		gk_value w; if (lane < nw) w = gk_warps[lane]; else gk_init(w);
#pragma unroll
		for (int d = 1; d < 32; d <<= 1) { gk_value o = gk_shfl_up(w, d); if (lane >= d) { gk_join(o, w); w = o; } }
		if (lane < nw) gk_warps[lane] = w;
	}
	__syncthreads();
	gk_value before; gk_init(before);
	if (warp > 0) before = gk_warps[warp - 1];
	total = gk_warps[nw - 1];
	gk_value excl = gk_shfl_up(incl, 1);
	if (lane == 0) gk_init(excl);
	gk_join(before, excl);
	return before;
}
`

func writeScan(b *strings.Builder, bindParams, bindArgs string) {
	b.WriteString(blockReduce)
	b.WriteString(scanKernels)
	fmt.Fprintf(b, "extern \"C\" __global__ void gk_scan_blocks(const gk_idx gk_begin, const gk_idx gk_end, const gk_idx gk_chunk, gk_value* gk_partial%s) {\n", bindParams)
	b.WriteString("\tgk_value acc; gk_init(acc);\n")
	b.WriteString("\tconst gk_idx gk_lo = gk_begin + (gk_idx)blockIdx.x * gk_chunk;\n")
	b.WriteString("\tconst gk_idx gk_hi = min(gk_end, gk_lo + gk_chunk);\n")
	b.WriteString("\tfor (gk_idx i = gk_lo + threadIdx.x; i < gk_hi; i += blockDim.x)\n")
	fmt.Fprintf(b, "\t\tgk_body(i, acc, false%s);\n", bindArgs)
	b.WriteString("\tgk_block_reduce(acc, threadIdx.x, blockDim.x);\n")
	b.WriteString("\tif (threadIdx.x == 0) gk_partial[blockIdx.x] = acc;\n}\n")
	b.WriteString(`extern "C" __global__ void gk_scan_partials(gk_value* partial, const int n, gk_value* total) {
	gk_value carry; gk_init(carry);
	for (int base = 0; base < n; base += blockDim.x) {
		const int k = base + threadIdx.x;
		gk_value v; if (k < n) v = partial[k]; else gk_init(v);
		gk_value sum;
		gk_value excl = gk_block_scan(v, sum);
		gk_value x = carry; gk_join(x, excl);
		__syncthreads();
		if (k < n) partial[k] = x;
		gk_join(carry, sum);
	}
	if (threadIdx.x == 0) *total = carry;
}
`)
	fmt.Fprintf(b, "extern \"C\" __global__ void gk_scan_final(const gk_idx gk_begin, const gk_idx gk_end, const gk_idx gk_chunk, const gk_value* gk_partial%s) {\n", bindParams)
	b.WriteString("\tgk_value gk_carry = gk_partial[blockIdx.x];\n")
	b.WriteString("\tconst gk_idx gk_lo = gk_begin + (gk_idx)blockIdx.x * gk_chunk;\n")
	b.WriteString("\tconst gk_idx gk_hi = min(gk_end, gk_lo + gk_chunk);\n")
	b.WriteString("\tfor (gk_idx gk_base = gk_lo; gk_base < gk_hi; gk_base += blockDim.x) {\n")
	b.WriteString("\t\tconst gk_idx i = gk_base + threadIdx.x;\n")
	b.WriteString("\t\tgk_value gk_v; gk_init(gk_v);\n")
	fmt.Fprintf(b, "\t\tif (i < gk_hi) gk_body(i, gk_v, false%s);\n", bindArgs)
	b.WriteString("\t\tgk_value gk_sum;\n\t\tgk_value gk_x = gk_block_scan(gk_v, gk_sum);\n")
	b.WriteString("\t\tgk_value acc = gk_carry; gk_join(acc, gk_x);\n")
	fmt.Fprintf(b, "\t\tif (i < gk_hi) gk_body(i, acc, true%s);\n", bindArgs)
	b.WriteString("\t\tgk_join(gk_carry, gk_sum);\n\t\t__syncthreads();\n\t}\n}\n")
}
