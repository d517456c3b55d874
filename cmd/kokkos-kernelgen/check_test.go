package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// allowedSrc uses every construct of the subset.
const allowedSrc = `package k

import (
	"math"

	"github.com/gokkos/kokkos"
)

const scale = 2.5

const (
	lo int = -3
	hi     = 3
)

//kokkos:kernel
func sq(x float64) float64 { return x * x }

//kokkos:kernel
func norm(x, y float64) (r float64) {
	r = math.Sqrt(sq(x) + sq(y))
	return r
}

//kokkos:kernel
func clamp(x, a, b int) int {
	switch {
	case x < a:
		return a
	case x > b:
		return b
	default:
	}
	return x
}

//kokkos:kernel
func swap(a, b int32) (int32, int32) { return b, a }

//kokkos:kernel
func flag() bool { return true }

//kokkos:kernel
func Math(i int, a kokkos.View1[float64], out kokkos.View2[float64], ro kokkos.View1[float64]) {
	x := a.At(i) + ro.At(i)
	out.Set(i, 0, math.Sqrt(x)+math.Cbrt(x)+math.Exp(x)+math.Exp2(x)+math.Expm1(x))
	out.Set(i, 1, math.Log(x)+math.Log2(x)+math.Log10(x)+math.Log1p(x))
	out.Set(i, 2, math.Sin(x)+math.Cos(x)+math.Tan(x)+math.Asin(x)+math.Acos(x)+math.Atan(x)+math.Atan2(x, 2))
	out.Set(i, 3, math.Sinh(x)+math.Cosh(x)+math.Tanh(x)+math.Asinh(x)+math.Acosh(x)+math.Atanh(x))
	out.Set(i, 4, math.Pow(x, 3)+math.Abs(x)+math.Floor(x)+math.Ceil(x)+math.Trunc(x)+math.Round(x)+math.RoundToEven(x))
	out.Set(i, 5, math.Mod(x, 2)+math.Remainder(x, 2)+math.Min(x, 1)+math.Max(x, 1)+math.FMA(x, x, 1)+math.Hypot(x, 1))
	out.Set(i, 6, math.Copysign(x, -1)+math.Inf(1)+math.NaN()+math.Erf(x)+math.Erfc(x)+math.Gamma(x))
	if math.Signbit(x) || math.IsNaN(x) || math.IsInf(x, 0) && !flag() {
		out.Set(i, 7, 1)
	}
}

//kokkos:kernel
func Atomics(i int, n kokkos.View1[int64], f kokkos.View1[float32], r kokkos.View1[float32]) {
	kokkos.AtomicStore(n.Ptr(i), kokkos.AtomicLoad(n.Ptr(i+1)))
	_ = kokkos.AtomicExchange(n.Ptr(i), 1) + kokkos.AtomicCompareExchange(n.Ptr(i), 1, 2)
	kokkos.AtomicAdd(n.Ptr(i), 1)
	_ = kokkos.AtomicFetchAdd(n.Ptr(i), 1) + kokkos.AtomicAddFetch(n.Ptr(i), 1)
	kokkos.AtomicSub(n.Ptr(i), 1)
	_ = kokkos.AtomicFetchSub(n.Ptr(i), 1) + kokkos.AtomicSubFetch(n.Ptr(i), 1)
	kokkos.AtomicInc(n.Ptr(i))
	_ = kokkos.AtomicFetchInc(n.Ptr(i)) + kokkos.AtomicIncFetch(n.Ptr(i))
	kokkos.AtomicDec(n.Ptr(i))
	_ = kokkos.AtomicFetchDec(n.Ptr(i)) + kokkos.AtomicDecFetch(n.Ptr(i))
	kokkos.AtomicMul(n.Ptr(i), 2)
	_ = kokkos.AtomicFetchMul(n.Ptr(i), 2) + kokkos.AtomicMulFetch(n.Ptr(i), 2)
	kokkos.AtomicDiv(n.Ptr(i), 2)
	_ = kokkos.AtomicFetchDiv(n.Ptr(i), 2) + kokkos.AtomicDivFetch(n.Ptr(i), 2)
	kokkos.AtomicMod(n.Ptr(i), 2)
	_ = kokkos.AtomicFetchMod(n.Ptr(i), 2) + kokkos.AtomicModFetch(n.Ptr(i), 2)
	kokkos.AtomicMin(n.Ptr(i), 2)
	_ = kokkos.AtomicFetchMin(n.Ptr(i), 2) + kokkos.AtomicMinFetch(n.Ptr(i), 2)
	kokkos.AtomicMax(n.Ptr(i), 2)
	_ = kokkos.AtomicFetchMax(n.Ptr(i), 2) + kokkos.AtomicMaxFetch(n.Ptr(i), 2)
	kokkos.AtomicAnd(n.Ptr(i), 2)
	_ = kokkos.AtomicFetchAnd(n.Ptr(i), 2) + kokkos.AtomicAndFetch(n.Ptr(i), 2)
	kokkos.AtomicOr(n.Ptr(i), 2)
	_ = kokkos.AtomicFetchOr(n.Ptr(i), 2) + kokkos.AtomicOrFetch(n.Ptr(i), 2)
	kokkos.AtomicXor(n.Ptr(i), 2)
	_ = kokkos.AtomicFetchXor(n.Ptr(i), 2) + kokkos.AtomicXorFetch(n.Ptr(i), 2)
	kokkos.AtomicNand(n.Ptr(i), 2)
	_ = kokkos.AtomicFetchNand(n.Ptr(i), 2) + kokkos.AtomicNandFetch(n.Ptr(i), 2)
	kokkos.AtomicLshift(n.Ptr(i), 1)
	_ = kokkos.AtomicFetchLshift(n.Ptr(i), 1) + kokkos.AtomicLshiftFetch(n.Ptr(i), 1)
	kokkos.AtomicRshift(n.Ptr(i), 1)
	_ = kokkos.AtomicFetchRshift(n.Ptr(i), 1) + kokkos.AtomicRshiftFetch(n.Ptr(i), 1)
	kokkos.AtomicAdd(f.Ptr(i), float32(scale)*kokkos.AtomicLoad(r.Ptr(i)))
	kokkos.AtomicMax((f.Ptr(i)), 1.5)
}

//kokkos:kernel
func Statements(i, j int, m kokkos.View2[int32], v kokkos.View1[float64], n int, s float64, on bool) {
	var x int
	var y, z = 1.5, float32(2)
	var w int64 = 7
	const c = 'a' + 1
	k := i*m.Extent(1) + j
	k, q := k+1, int8(c)
	x += k
	x -= 1
	x *= 2
	x /= 3
	x %= 5
	x &= 0xff
	x |= 1 << 3
	x ^= 2
	x <<= 1
	x >>= 1
	x &^= 4
	x++
	x--
	y, s2 := float64(z)*scale, -s
	if t := x % 2; t == 0 && on {
		y = +y
	} else if t == 1 || !on {
		y = -y
	} else {
		y = 0
	}
	for a := 0; a < n; a++ {
		if a == 3 {
			continue
		}
		if a > 5 {
			break
		}
		x += a
	}
	for x > 100 {
		x /= 2
	}
	for {
		break
	}
	for range n {
		w++
	}
	for a := range n {
		w += int64(a)
	}
	var b int
	for b = range 4 {
		w += int64(b)
	}
	for range 3 {
	}
	switch r := x % 4; r {
	case 0, 1:
		w = ^w
	case 2:
		w = w >> 1
	default:
		{
			w = int64(lo) + hi
		}
	}
	i2, j2 := swap(int32(i), int32(j))
	sq(2)
	m.Set(i, j, int32(clamp(int(i2)+int(j2)+x+int(q), lo, hi))+int32(min(k, 3)+max(x, 1, 2)))
	v.Set(i, norm(y+s2, float64(w))+float64(math.MaxInt32)+math.Pi+float64(v.Extent(0)))
	*v.Ptr(i) += 1
	(*v.Ptr(i))++
	if s > 0 {
		return
	}
	{
		i := 3 // shadows the index
		v.Set(i, 1)
	}
}

//kokkos:kernel
func Dot(i int, a, b kokkos.View1[float64], acc *float64) {
	*acc += a.At(i) * b.At(i)
	*acc = max(*acc, *a.Ptr(i))
	(*acc)++
}

//kokkos:kernel
func Any(i int, a kokkos.View1[float64], acc *bool) { *acc = *acc || a.At(i) > 0 }

//kokkos:kernel
func Prefix(i int, in, out kokkos.View1[int64], acc *int64, final bool) {
	*acc += in.At(i)
	if final {
		out.Set(i, *acc)
	}
}

//kokkos:kernel
func Stores(i int, a, b, c, d kokkos.View1[int32], e kokkos.View2[int32], k int32) {
	*a.Ptr(i) = k
	(*b.Ptr(i))++
	*c.Ptr(i) <<= 1
	kokkos.AtomicInc(d.Ptr(i))
	_ = e.At(i, 0) + *e.Ptr(i, 1) + kokkos.AtomicLoad(e.Ptr(i, 2)) + int32(e.Extent(1))
}

//kokkos:kernel
func Box(i0, i1, i2 int, c kokkos.View3[uint8], d kokkos.View3[uint16]) {
	c.Set(i0, i1, i2, uint8(d.At(i0, i1, i2)>>8)+uint8(c.Extent(2)))
}
`

// checkedAllowed is allowedSrc, loaded and checked once.
var checkedAllowed = sync.OnceValues(func() (*pkgInfo, error) {
	p, err := loadSource(".", map[string]string{"k.go": allowedSrc})
	if err != nil {
		return nil, err
	}
	return p, p.checkBodies()
})

func TestCheckAllows(t *testing.T) {
	if _, err := checkedAllowed(); err != nil {
		t.Fatal(err)
	}
}

func TestCheckMarksWrites(t *testing.T) {
	p, err := checkedAllowed()
	if err != nil {
		t.Fatal(err)
	}
	written := map[string][]string{
		"Math":       {"out"},
		"Atomics":    {"n", "f", "r"}, // r is only loaded, through Ptr, which refuses read-only views
		"Statements": {"m", "v"},
		"Dot":        {"a"}, // *a.Ptr(i) is only read, through Ptr
		"Any":        nil,
		"Prefix":     {"out"},
		"Stores":     {"a", "b", "c", "d", "e"},
		"Box":        {"c"},
	}
	seen := 0
	for _, k := range p.kernels {
		if k.helper {
			continue
		}
		want, ok := written[k.name]
		if !ok {
			t.Errorf("kernel %s not in the table", k.name)
			continue
		}
		seen++
		for _, pr := range k.params {
			if w := slices.Contains(want, pr.name); pr.write != w {
				t.Errorf("kernel %s: %s.write = %v, want %v", k.name, pr.name, pr.write, w)
			}
		}
	}
	if seen != len(written) {
		t.Errorf("%d kernels checked, want %d", seen, len(written))
	}
}

// TestCheckOrder checks that the refusals of several kernels in several
// files come in position order, whatever the order they are found in (a
// right-hand side before its left, recursion after every body).
func TestCheckOrder(t *testing.T) {
	p, err := loadSource(".", map[string]string{
		"b.go": `package k

var counter int

//kokkos:kernel
func B(i int) {
	counter = len("ab")
}
`,
		"a.go": `package k

import "github.com/gokkos/kokkos"

//kokkos:kernel
func loop(n int) int { return loop(n) }

//kokkos:kernel
func A(i int, v kokkos.View1[float64]) {
	i = v.Extent(1)
	_ = map[int]int{}
}
`})
	if err != nil {
		t.Fatal(err)
	}
	err = p.checkBodies()
	if err == nil {
		t.Fatal("no refusals")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		got = append(got, l[strings.LastIndex(l, "/")+1:])
	}
	want := []string{
		"a.go:6:31: kernel loop: a recursive call of loop is not allowed in a kernel (use a loop)",
		"a.go:10:2: kernel A: an assignment to index parameter i is not allowed in a kernel (copy it to a local)",
		"a.go:10:15: kernel A: v.Extent(1) of a rank-1 view is not allowed in a kernel (use 0)",
		"a.go:11:6: kernel A: a composite literal of type map[int]int is not allowed in a kernel (use a local array or struct, or a view)",
		"b.go:7:2: kernel B: the package-level variable counter is not allowed in a kernel (pass it as a parameter)",
		"b.go:7:12: kernel B: a call of len is not allowed in a kernel (use v.Extent(r))",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// refusedHeader declares what the refused bodies use.
const refusedHeader = `package k

import (
	"fmt"
	"math"
	"os"

	"github.com/gokkos/kokkos"
)

var (
	counter int
	gp      = new(float64)
	pch     = make(chan int)
	ps      []int
	pm      map[int]int
	pe      any = 1
)

var (
	_ = fmt.Sprint
	_ = math.Pi
	_ = os.Args
	_ kokkos.View1[float64]
)

type celsius float64
`

// refused formats the refusal at "line:col" (the line counted from the
// first line of the case's source) of construct in kernel.
func refused(pos, kernel, construct, instead string) string {
	return fmt.Sprintf("%s: kernel %s: %s is not allowed in a kernel (%s)", pos, kernel, construct, instead)
}

type refusedCase struct {
	name string
	src  string // declarations; line 1 is the case's first line
	want []string
}

// refusedCases has a case for each construct outside the subset.
func refusedCases() []refusedCase {
	const calls = "call only helpers, math functions, kokkos atomics, min and max"
	cases := []refusedCase{
		{"function literal", `//kokkos:kernel
func FuncLit(i int) {
	_ = func() int { return i }
}`, []string{refused("3:6", "FuncLit", "a function literal", "write a //kokkos:kernel helper")}},
		{"map", `//kokkos:kernel
func Map(i int) {
	var m map[int]float64
	_ = m
}`, []string{refused("3:8", "Map", "a map", "use a view")}},
		{"slice", `//kokkos:kernel
func Slice(i int) {
	var s []float64
	_ = s
}`, []string{refused("3:8", "Slice", "a slice", "use a view")}},
		{"array", `//kokkos:kernel
func Array(i int) {
	var s [4]string
	_ = s
}`, []string{refused("3:8", "Array", "an array of string", "use arrays of numbers, bool, arrays and structs")}},
		{"string", `//kokkos:kernel
func String(i int) {
	s := "abc"
	_ = s
}`, []string{refused("3:7", "String", "a string", "compute on numbers")}},
		{"struct", `//kokkos:kernel
func Struct(i int) {
	var s struct{ x float64 }
	_ = s
}`, []string{refused("3:8", "Struct", "a value of unnamed struct type", "declare a struct type at package level")}},
		{"interface", `//kokkos:kernel
func Interface(i int) {
	var s any
	_ = s
}`, []string{refused("3:8", "Interface", "an interface", "use number types")}},
		{"pointer", `//kokkos:kernel
func Pointer(i int) {
	var q *float64
	_ = q
}`, []string{refused("3:8", "Pointer", "a pointer", "use a view, or acc in a reduction")}},
		{"channel", `//kokkos:kernel
func Channel(i int) {
	var ch chan int
	_ = ch
}`, []string{refused("3:9", "Channel", "a channel", "write to a view")}},
		{"address", `//kokkos:kernel
func Address(i int) {
	x := 1.0
	q := &x
	_ = q
}`, []string{refused("4:7", "Address", "taking the address &x", "use v.Ptr(...) of a view")}},
		{"dereference", `//kokkos:kernel
func Deref(i int) {
	_ = *gp
}`, []string{refused("3:6", "Deref", "the dereference *gp", "dereference only acc and v.Ptr(...)")}},
		{"go", `//kokkos:kernel
func Go(i int) {
	go func() {}()
}`, []string{refused("3:2", "Go", "a go statement", "the kernel already runs in parallel")}},
		{"defer", `//kokkos:kernel
func Defer(i int) {
	defer fmt.Println()
}`, []string{refused("3:2", "Defer", "a defer statement", "make the call before returning")}},
		{"select", `//kokkos:kernel
func Select(i int) {
	select {}
}`, []string{refused("3:2", "Select", "a select statement", "write to a view")}},
		{"send", `//kokkos:kernel
func Send(i int) {
	pch <- i
}`, []string{refused("3:2", "Send", "a channel send", "write to a view")}},
		{"receive", `//kokkos:kernel
func Receive(i int) {
	x := <-pch
	_ = x
}`, []string{refused("3:7", "Receive", "a channel receive", "read a view")}},
		{"composite literal", `//kokkos:kernel
func Composite(i int) {
	_ = []int{1, 2}
}`, []string{refused("3:6", "Composite", "a composite literal of type []int", "use a local array or struct, or a view")}},
		{"labels", `//kokkos:kernel
func Label(i int) {
L:
	for range 3 {
		if i > 0 {
			break L
		}
		continue L
	}
}`, []string{
			refused("3:1", "Label", "the label L", "use a flag, or return from a helper"),
			refused("6:4", "Label", "a labeled break", "use a flag, or return from a helper"),
			refused("8:3", "Label", "a labeled continue", "use a flag, or return from a helper"),
		}},
		{"goto", `//kokkos:kernel
func Goto(i int) {
	goto E
E:
}`, []string{
			refused("3:2", "Goto", "a goto", "use if or a loop"),
			refused("4:1", "Goto", "the label E", "use a flag, or return from a helper"),
		}},
		{"fallthrough", `//kokkos:kernel
func Fallthrough(i int) {
	switch i {
	case 0:
		fallthrough
	default:
	}
}`, []string{refused("5:3", "Fallthrough", "a fallthrough", "list the values in one case")}},
		{"type switch", `//kokkos:kernel
func TypeSwitch(i int) {
	switch pe.(type) {
	}
}`, []string{refused("3:2", "TypeSwitch", "a type switch", "use number types")}},
		{"type assertion", `//kokkos:kernel
func TypeAssert(i int) {
	_ = pe.(int)
}`, []string{refused("3:6", "TypeAssert", "a type assertion", "use number types")}},
		{"slice expression", `//kokkos:kernel
func SliceExpr(i int) {
	_ = ps[1:]
}`, []string{refused("3:6", "SliceExpr", "a slice expression", "use a view")}},
		{"index expression", `//kokkos:kernel
func Index(i int) {
	_ = ps[i]
}`, []string{refused("3:6", "Index", "an index expression on a slice", "use a view's At and Set")}},
		{"method value", `//kokkos:kernel
func MethodValue(i int, a kokkos.View1[float64]) {
	f := a.At
	_ = f
}`, []string{refused("3:7", "MethodValue", "the method value a.At", "call it")}},
		{"other view method", `//kokkos:kernel
func ViewMethod(i int, a kokkos.View1[float64]) {
	_ = a.Span()
}`, []string{refused("3:6", "ViewMethod", "a call of a.Span", "call only At, Set, Ptr and Extent")}},
		{"view as a value", `//kokkos:kernel
func ViewValue(i int, a kokkos.View1[float64]) {
	b := a
	_ = b
}`, []string{refused("3:7", "ViewValue", "the view a as a value", "call its At, Set, Ptr or Extent")}},
		{"v.Ptr outside", `//kokkos:kernel
func PtrOutside(i int, a kokkos.View1[float64]) {
	q := a.Ptr(i)
	_ = q
}`, []string{refused("3:7", "PtrOutside", "a.Ptr(...) outside *a.Ptr(...) and the atomics", "dereference it, or pass it to a kokkos atomic")}},
		{"non-constant Extent", `//kokkos:kernel
func ExtentVar(i int, a kokkos.View1[float64], b kokkos.View3[float64]) {
	_ = a.Extent(i) + b.Extent(i)
}`, []string{
			refused("3:15", "ExtentVar", "a non-constant rank in a.Extent", "use 0"),
			refused("3:29", "ExtentVar", "a non-constant rank in b.Extent", "use a constant from 0 to 2"),
		}},
		{"Extent out of range", `//kokkos:kernel
func ExtentRange(i int, a kokkos.View2[float64]) {
	_ = a.Extent(2) + a.Extent(-1)
}`, []string{
			refused("3:15", "ExtentRange", "a.Extent(2) of a rank-2 view", "use a constant from 0 to 1"),
			refused("3:29", "ExtentRange", "a.Extent(-1) of a rank-2 view", "use a constant from 0 to 1"),
		}},
		{"call of fmt.Println", `//kokkos:kernel
func CallFmt(i int) {
	fmt.Println(i)
}`, []string{refused("3:2", "CallFmt", "a call of fmt.Println", calls)}},
		{"call of another math function", `//kokkos:kernel
func CallMath(i int) {
	_ = math.Float64bits(1)
}`, []string{refused("3:6", "CallMath", "a call of math.Float64bits", calls)}},
		{"method call", `//kokkos:kernel
func CallMethod(i int) {
	_ = os.Stdout.Name()
}`, []string{refused("3:6", "CallMethod", "a call of os.Stdout.Name", calls)}},
		{"call of a function value", `//kokkos:kernel
func CallValue(i int) {
	f := func() {}
	f()
}`, []string{
			refused("3:7", "CallValue", "a function literal", "write a //kokkos:kernel helper"),
			refused("4:2", "CallValue", "a call of f", calls),
		}},
		{"call of a kernel", `//kokkos:kernel
func Callee(i int) {}

//kokkos:kernel
func CallKernel(i int) {
	Callee(i)
}`, []string{refused("6:2", "CallKernel", "a call of kernel Callee", "launch kernels with package kernel; share code through a helper")}},
		{"function value", `//kokkos:kernel
func FuncValue(i int) {
	f := math.Sqrt
	g := Callee
	_, _ = f, g
}`, []string{
			refused("3:7", "FuncValue", "the function value math.Sqrt", "call it"),
			refused("4:7", "FuncValue", "the function value Callee", "call it"),
		}},
		{"explicit type arguments", `//kokkos:kernel
func TypeArgs(i int, a kokkos.View1[float64]) {
	kokkos.AtomicAdd[float64](a.Ptr(i), 1)
}`, []string{refused("3:2", "TypeArgs", "the type arguments of kokkos.AtomicAdd[float64]", "leave them to inference")}},
		{"atomic on another pointer", `//kokkos:kernel
func AtomicPtr(i int) {
	x := 1.0
	kokkos.AtomicAdd(&x, 1)
}`, []string{refused("4:19", "AtomicPtr", "the pointer &x of kokkos.AtomicAdd", "pass v.Ptr(...) of a view parameter")}},
		{"non-constant atomic shift", `//kokkos:kernel
func AtomicShift(i int, n kokkos.View1[int64], k int) {
	kokkos.AtomicLshift(n.Ptr(i), uint(k))
}`, []string{refused("3:32", "AtomicShift", "a non-constant shift count", "use a constant")}},
		{"recursion", `//kokkos:kernel
func fact(n int) int {
	if n < 2 {
		return 1
	}
	return n * fact(n-1)
}`, []string{refused("6:13", "fact", "a recursive call of fact", "use a loop")}},
		{"mutual recursion", `//kokkos:kernel
func even(n int) bool { return n == 0 || odd(n-1) }

//kokkos:kernel
func odd(n int) bool { return n != 0 && even(n-1) }`, []string{
			refused("2:42", "even", "a recursive call of odd", "use a loop"),
			refused("5:41", "odd", "a recursive call of even", "use a loop"),
		}},
		{"assignment to an index", `//kokkos:kernel
func AssignIndex(i, j int) {
	i = 1
	j++
	i += 2
	i, x := 3, 4
	_ = x
}`, []string{
			refused("3:2", "AssignIndex", "an assignment to index parameter i", "copy it to a local"),
			refused("4:2", "AssignIndex", "an assignment to index parameter j", "copy it to a local"),
			refused("5:2", "AssignIndex", "an assignment to index parameter i", "copy it to a local"),
			refused("6:2", "AssignIndex", "an assignment to index parameter i", "copy it to a local"),
		}},
		{"assignment to a view", `//kokkos:kernel
func AssignView(i int, a, b kokkos.View1[float64]) {
	a = b
}`, []string{
			refused("3:2", "AssignView", "an assignment to view parameter a", "write its elements with a.Set"),
			refused("3:6", "AssignView", "the view b as a value", "call its At, Set, Ptr or Extent"),
		}},
		{"assignment to a scalar", `//kokkos:kernel
func AssignScalar(i int, s float64) {
	s = 1
}

//kokkos:kernel
func half(x float64) float64 {
	x /= 2
	return x
}`, []string{
			refused("3:2", "AssignScalar", "an assignment to parameter s", "copy it to a local"),
			refused("8:2", "half", "an assignment to parameter x", "copy it to a local"),
		}},
		{"assignment to final", `//kokkos:kernel
func AssignFinal(i int, acc *int64, final bool) {
	final = true
	*acc += 1
}`, []string{refused("3:2", "AssignFinal", "an assignment to final", "copy it to a local")}},
		{"acc", `//kokkos:kernel
func AssignAcc(i int, acc *float64) {
	acc = acc
	_ = acc
}`, []string{
			refused("3:2", "AssignAcc", "an assignment to acc", "assign to *acc"),
			refused("3:8", "AssignAcc", "the pointer acc", "use *acc"),
			refused("4:6", "AssignAcc", "the pointer acc", "use *acc"),
		}},
		{"package-level variables", `//kokkos:kernel
func PkgVar(i int) {
	x := counter
	counter++
	_, _ = x, os.Args
}`, []string{
			refused("3:7", "PkgVar", "the package-level variable counter", "pass it as a parameter"),
			refused("4:2", "PkgVar", "the package-level variable counter", "pass it as a parameter"),
			refused("5:12", "PkgVar", "the package-level variable os.Args", "pass it as a parameter"),
		}},
		{"nil", `//kokkos:kernel
func Nil(i int) {
	_ = pe == nil
}`, []string{
			refused("3:6", "Nil", "the package-level variable pe", "pass it as a parameter"),
			refused("3:12", "Nil", "nil", "use a view"),
		}},
		{"gk names", `//kokkos:kernel
func Reserved(i int, gks float64) {
	gkx := 1
	_ = gkx
}`, []string{
			refused("2:22", "Reserved", "the name gks", "names starting with gk are for generated code; rename it"),
			refused("3:2", "Reserved", "the name gkx", "names starting with gk are for generated code; rename it"),
		}},
		{"uint", `//kokkos:kernel
func Uint(i int) {
	x := uint(i)
	var y uint
	_, _ = x, y
}`, []string{
			refused("3:7", "Uint", "a uint value", "use int or uint64"),
			refused("4:8", "Uint", "a uint value", "use int or uint64"),
		}},
		{"uintptr", `//kokkos:kernel
func Uintptr(i int) {
	var y uintptr
	_ = y
}`, []string{refused("3:8", "Uintptr", "a uintptr value", "use int")}},
		{"complex", `//kokkos:kernel
func Complex(i int) {
	z := 1i
	var w complex64
	_, _ = z, w
}`, []string{
			refused("3:7", "Complex", "a complex value", "use two floats"),
			refused("4:8", "Complex", "a complex value", "use two floats"),
		}},
		{"named type", `//kokkos:kernel
func Named(i int) {
	var t celsius
	_ = t
}`, []string{refused("3:8", "Named", "a value of named type celsius", "convert it to float64")}},
		{"type declaration", `//kokkos:kernel
func TypeDecl(i int) {
	type t int
	var x t
	_ = x
}`, []string{
			refused("3:2", "TypeDecl", "a type declaration", "use the number types"),
			refused("4:8", "TypeDecl", "a value of named type t", "convert it to int"),
		}},
		{"range over a slice", `//kokkos:kernel
func RangeSlice(i int) {
	for range ps {
	}
}`, []string{refused("3:2", "RangeSlice", "a range over a slice", "range over an int n: for k := range n")}},
		{"bare return", `//kokkos:kernel
func halve(x float64) (y float64) {
	y = x / 2
	return
}`, []string{refused("4:2", "halve", "a bare return", "return the results")}},
	}
	for _, b := range []struct{ stmt, pos, name, instead string }{
		{"_ = new(int)", "3:6", "new", "use a local or a view"},
		{"_ = make([]int, 1)", "3:6", "make", "use a view"},
		{"_ = append(ps, 1)", "3:6", "append", "use a view"},
		{"_ = len(ps)", "3:6", "len", "use v.Extent(r)"},
		{"_ = cap(ps)", "3:6", "cap", "use v.Extent(r)"},
		{"copy(ps, ps)", "3:2", "copy", "copy with a loop over a view"},
		{"delete(pm, i)", "3:2", "delete", "use a view"},
		{"clear(pm)", "3:2", "clear", "use a view"},
		{"panic(i)", "3:2", "panic", "write a flag to a view"},
		{"print(i)", "3:2", "print", "write to a view"},
		{"println(i)", "3:2", "println", "write to a view"},
		{"_ = complex(1.0, 2.0)", "3:6", "complex", "use two floats"},
		{"_ = real(1i)", "3:6", "real", "use two floats"},
		{"_ = imag(1i)", "3:6", "imag", "use two floats"},
		{"_ = recover()", "3:6", "recover", "write a flag to a view"},
	} {
		k := "Builtin" + strings.ToUpper(b.name[:1]) + b.name[1:]
		cases = append(cases, refusedCase{"builtin " + b.name,
			fmt.Sprintf("//kokkos:kernel\nfunc %s(i int) {\n\t%s\n}", k, b.stmt),
			[]string{refused(b.pos, k, "a call of "+b.name, b.instead)}})
	}
	return cases
}

// TestCheckRefuses checks each refusal's text and position, and that
// checkBodies reports all of them in position order.
func TestCheckRefuses(t *testing.T) {
	cases := refusedCases()
	src := refusedHeader
	first := make([]int, len(cases)) // each case's first line in the file
	var want []string
	for n, c := range cases {
		src += "\n"
		first[n] = strings.Count(src, "\n") + 1
		src += c.src + "\n"
		for _, w := range c.want {
			want = append(want, "k.go:"+shiftLine(t, w, first[n]-1))
		}
	}
	p, err := loadSource(".", map[string]string{"k.go": src})
	if err != nil {
		t.Fatal(err)
	}
	err = p.checkBodies()
	if err == nil {
		t.Fatal("no refusals")
	}
	var got []string
	for _, l := range strings.Split(err.Error(), "\n") {
		i := strings.Index(l, "/k.go:")
		if i < 0 {
			t.Fatalf("refusal without a position: %q", l)
		}
		got = append(got, l[i+1:])
	}
	// Each case's refusals, by the lines the case spans.
	byCase := func(lines []string) [][]string {
		out := make([][]string, len(cases))
		for _, l := range lines {
			ln, _ := strconv.Atoi(strings.Split(l, ":")[1])
			n := len(cases) - 1
			for n > 0 && first[n] > ln {
				n--
			}
			out[n] = append(out[n], l)
		}
		return out
	}
	g, w := byCase(got), byCase(want)
	for n, c := range cases {
		if strings.Join(g[n], "\n") != strings.Join(w[n], "\n") {
			t.Errorf("%s: got\n\t%s\nwant\n\t%s", c.name, strings.Join(g[n], "\n\t"), strings.Join(w[n], "\n\t"))
		}
	}
	if !t.Failed() && strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("refusals out of position order:\n%s", strings.Join(got, "\n"))
	}
}

// shiftLine adds delta to the line of a "line:col: ..." refusal.
func shiftLine(t *testing.T, r string, delta int) string {
	line, rest, _ := strings.Cut(r, ":")
	n, err := strconv.Atoi(line)
	if err != nil {
		t.Fatalf("bad refusal %q", r)
	}
	return strconv.Itoa(n+delta) + ":" + rest
}
