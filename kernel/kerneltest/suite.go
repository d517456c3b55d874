package kerneltest

import (
	"math"

	"github.com/gokkos/kokkos"
)

// The kernels below cover the subset: integer and floating-point
// arithmetic of every width, conversions, branches and loops, helpers,
// math functions, atomics, reductions, scans, views of every layout and
// MDRange kernels of every rank. suite_test.go runs each against the same
// function called directly.

// third is an untyped constant, used in float32 and float64 context.
const third = 1.0 / 3.0

// mask is a typed package-level constant.
const mask uint32 = 0xF0F0_F0F0

// WrapNarrow overflows sums and products of 8- and 16-bit integers in place.
//
//kokkos:kernel
func WrapNarrow(i int, a8 kokkos.View1[int8], a16 kokkos.View1[int16], b8 kokkos.View1[uint8], b16 kokkos.View1[uint16], k int8) {
	x8 := a8.At(i)
	a8.Set(i, x8*x8*k+x8+127-(-x8)+int8(i))
	x16 := a16.At(i)
	a16.Set(i, x16*x16*int16(k)+x16*x16+int16(i)*1000)
	y8 := b8.At(i)
	b8.Set(i, y8*y8*uint8(k)+y8+200-uint8(i))
	y16 := b16.At(i)
	b16.Set(i, y16*y16-y16*3+uint16(i)*5000-^y16)
}

// WrapWide overflows sums and products of 32- and 64-bit integers, and of narrow ones held in locals, in place.
//
//kokkos:kernel
func WrapWide(i int, a32 kokkos.View1[int32], a64 kokkos.View1[int64], b32 kokkos.View1[uint32], b64 kokkos.View1[uint64], k int32) {
	x32 := a32.At(i)
	n8 := int8(x32) * int8(x32>>8)
	u16 := uint16(x32) * uint16(k)
	a32.Set(i, x32*x32*k+x32+math.MaxInt32+int32(n8)+int32(u16))
	x64 := a64.At(i)
	a64.Set(i, x64*x64*int64(k)+x64*math.MaxInt64-math.MinInt64+int64(i))
	y32 := b32.At(i)
	y32 -= uint32(k)
	b32.Set(i, y32*y32*uint32(k)+y32+math.MaxUint32-^y32)
	y64 := b64.At(i)
	b64.Set(i, y64*y64*0x9E3779B97F4A7C15+y64+uint64(x64)-^uint64(0))
}

// DivRem stores quotients and remainders of signed and unsigned integers of every width, negative and most negative operands among them.
//
//kokkos:kernel
func DivRem(i int, a, b kokkos.View1[int64], out kokkos.View2[int64]) {
	x, y := a.At(i), b.At(i)
	out.Set(i, 0, x/y)
	out.Set(i, 1, x%y)
	x32, y32 := int32(x), int32(y)
	out.Set(i, 2, int64(x32/y32))
	out.Set(i, 3, int64(x32%y32))
	x16, y16 := int16(x), int16(y)
	out.Set(i, 4, int64(x16/y16))
	out.Set(i, 5, int64(x16%y16))
	x8, y8 := int8(x), int8(y)
	out.Set(i, 6, int64(x8/y8))
	out.Set(i, 7, int64(x8%y8))
	ux, uy := uint64(x), uint64(y)
	out.Set(i, 8, int64(ux/uy))
	out.Set(i, 9, int64(ux%uy))
	out.Set(i, 10, int64(uint32(x)/uint32(y)))
	out.Set(i, 11, int64(uint8(x)%uint8(y)))
	out.Set(i, 12, x/-7+x%8)
	out.Set(i, 13, int64(uint16(x)/10+uint16(y)%7))
	q := x
	q /= y
	q %= 1000
	out.Set(i, 14, q)
}

// Shifts shifts by variable counts, the width and more among them, and combines bits with & | ^ &^.
//
//kokkos:kernel
func Shifts(i int, a kokkos.View1[int64], s kokkos.View1[int32], out kokkos.View2[int64]) {
	x, c := a.At(i), s.At(i)
	out.Set(i, 0, x<<c)
	out.Set(i, 1, x>>c)
	out.Set(i, 2, int64(uint64(x)>>c))
	out.Set(i, 3, int64(int32(x)<<c))
	out.Set(i, 4, int64(int32(x)>>c))
	out.Set(i, 5, int64(uint32(x)>>c))
	out.Set(i, 6, int64(int8(x)>>c))
	out.Set(i, 7, int64(int8(x)<<c))
	out.Set(i, 8, int64(uint8(x)>>c))
	out.Set(i, 9, int64(uint16(x)<<c))
	out.Set(i, 10, int64(int16(x)>>c))
	u := uint64(c)
	out.Set(i, 11, x<<u>>(u/2))
	out.Set(i, 12, x&^(x>>3))
	out.Set(i, 13, (x|int64(c))^(x&0x5555)^^x)
	out.Set(i, 14, int64(uint32(x)&^mask|uint32(c)<<(c%32)))
	out.Set(i, 15, x>>int(c)+1<<(c%64))
	y := x
	y <<= c % 8
	y >>= 2
	y &^= 0xFF
	y |= int64(c)
	y ^= x
	out.Set(i, 16, y)
}

// FloatOps mixes float32 and float64 arithmetic, with untyped constants in float32 context, overflow and division by zero.
//
//kokkos:kernel
func FloatOps(i int, x, y kokkos.View1[float64], f, g kokkos.View1[float32], o64 kokkos.View2[float64], o32 kokkos.View2[float32]) {
	a, b := x.At(i), y.At(i)
	p, q := f.At(i), g.At(i)
	o64.Set(i, 0, a+b*third)
	o64.Set(i, 1, (a-b)/(a*b))
	o64.Set(i, 2, math.Sqrt(a*a+b*b))
	o64.Set(i, 3, a/(b-b))
	o64.Set(i, 4, -a*2.5e-3+b*1e300*1e10)
	o64.Set(i, 5, float64(p)*float64(q)+a)
	o64.Set(i, 6, math.Sqrt(a))
	o32.Set(i, 0, p*(1.0/3.0))
	o32.Set(i, 1, p*third+q/3)
	o32.Set(i, 2, float32(a)+p-q*0.1)
	o32.Set(i, 3, float32(math.Sqrt(float64(p*p+q))))
	o32.Set(i, 4, p/q-1e-7*q)
	o32.Set(i, 5, float32(a*b))
	o32.Set(i, 6, p*1e30*1e10)
	v := p
	v++
	v -= q
	v *= 2
	v /= 3
	v--
	o32.Set(i, 7, -v)
}

// Convert converts between the numeric types, floats to integers within range.
//
//kokkos:kernel
func Convert(i int, x kokkos.View1[float64], n kokkos.View1[int64], oi kokkos.View2[int64], of kokkos.View2[float64]) {
	v, m := x.At(i), n.At(i)
	oi.Set(i, 0, int64(int8(m)))
	oi.Set(i, 1, int64(uint8(m)))
	oi.Set(i, 2, int64(int16(m)))
	oi.Set(i, 3, int64(uint16(m)))
	oi.Set(i, 4, int64(int32(m)))
	oi.Set(i, 5, int64(uint32(m)))
	oi.Set(i, 6, int64(uint64(m)>>1))
	oi.Set(i, 7, int64(int8(v)))
	oi.Set(i, 8, int64(uint8(v+100)))
	oi.Set(i, 9, int64(int16(v*300)))
	oi.Set(i, 10, int64(uint16(v*300+30000)))
	oi.Set(i, 11, int64(int32(v*1e7)))
	oi.Set(i, 12, int64(uint32(v*1e7+1e9)))
	oi.Set(i, 13, int64(v*1e15))
	oi.Set(i, 14, int64(uint64(v*1e15+1e17)))
	oi.Set(i, 15, int64(float32(v)*1000))
	oi.Set(i, 16, int64(int(v*3)))
	oi.Set(i, 17, int64(int8(float32(v))+int8(uint16(m))))
	of.Set(i, 0, float64(m))
	of.Set(i, 1, float64(float32(m)))
	of.Set(i, 2, float64(uint64(m)))
	of.Set(i, 3, float64(float32(uint64(m))))
	of.Set(i, 4, float64(int8(m))+float64(uint16(m)))
	of.Set(i, 5, float64(float32(uint32(m))))
	of.Set(i, 6, float64(float32(v)))
	of.Set(i, 7, float64(float32(int32(m))))
	of.Set(i, 8, float64(int(m)>>3))
	of.Set(i, 9, float64(uint8(m))*v)
}

// Classify sorts values into codes with an if/else chain and switches with and without a tag.
//
//kokkos:kernel
func Classify(i int, x kokkos.View1[float64], code kokkos.View1[int32]) {
	v := x.At(i)
	var c int32
	if v < -0.5 {
		c = 1
	} else if v < 0 {
		c = 2
	} else if v < 0.5 {
		c = 3
	} else {
		c = 4
	}
	switch k := int(v*100) % 7; k {
	case 0, 1:
		c += 10
	case -1, -2, -3:
		c += 20
	case 5:
		c -= 30
	default:
		c *= 3
	}
	switch {
	case v > 0.9 || v < -0.9:
		c += 100
	case v > 0.25 && v < 0.3:
		c += 200
	}
	switch c % 4 {
	case 1:
		c++
	}
	code.Set(i, c)
}

// Collatz counts the steps of the Collatz sequence from each start, up to a limit, in a condition-only loop with break and continue.
//
//kokkos:kernel
func Collatz(i int, start kokkos.View1[int64], steps kokkos.View1[int32], limit int32) {
	n := start.At(i)
	var s int32
	for n != 1 {
		if s >= limit {
			break
		}
		s++
		if n%2 == 0 {
			n /= 2
			continue
		}
		n = 3*n + 1
	}
	steps.Set(i, s)
}

// FirstMatch finds the first element of block i equal to a target, returning from a nested loop.
//
//kokkos:kernel
func FirstMatch(i int, a kokkos.View3[int32], target int32, out kokkos.View1[int32]) {
	out.Set(i, -1)
	for j := 0; j < a.Extent(1); j++ {
		for k := range a.Extent(2) {
			if a.At(i, j, k) == target {
				out.Set(i, int32(j*100+k))
				return
			}
		}
	}
}

// Loops runs every loop form (three-clause, for range n, for k := range n, infinite) with break inside a switch inside a for.
//
//kokkos:kernel
func Loops(i int, x kokkos.View1[int64], n int, out kokkos.View2[int64]) {
	v := x.At(i)
	var s0 int64
	for k := 0; k < n; k += 2 {
		s0 += v ^ int64(k)
	}
	var s1 int64
	for range n {
		s1 = s1*3 + v
	}
	var s2 int64
	for k := range n + i%3 {
		switch {
		case k%3 == 0:
			continue
		case k == 7:
			if v > 0 {
				break
			}
			s2 -= 1000
		default:
			s2 += int64(k)
		}
		s2 ^= v >> k
	}
	var s3 int64
	k := 0
	for {
		k++
		if k > n {
			break
		}
		switch k % 4 {
		case 3:
			if v%2 == 0 {
				break
			}
			s3 *= 3
		case 1:
			s3 += v
			continue
		}
		s3 -= int64(k)
	}
	out.Set(i, 0, s0)
	out.Set(i, 1, s1)
	out.Set(i, 2, s2)
	out.Set(i, 3, s3)
}

// clampTo limits x to [lo, hi].
//
//kokkos:kernel
func clampTo(x, lo, hi float64) float64 { return min(max(x, lo), hi) }

// odd reports whether n is odd.
//
//kokkos:kernel
func odd(n int32) bool { return n%2 != 0 }

// blend combines an integer and a float under a flag, through clampTo and odd, into a float and an integer.
//
//kokkos:kernel
func blend(n int32, x float64, flip bool, k uint8) (float64, int32) {
	y := clampTo(x*float64(n), -10, 10)
	if odd(n) != flip {
		return -y, n*3 + int32(k)
	}
	return y / 2, n - int32(k)
}

// Helpers calls helpers that call helpers, with parameters and results of several types.
//
//kokkos:kernel
func Helpers(i int, a kokkos.View1[int32], x kokkos.View1[float64], out kokkos.View1[float64], cnt kokkos.View1[int32], flip bool) {
	y, m := blend(a.At(i), x.At(i), flip, uint8(i))
	if odd(m) {
		y += 1
	}
	var z float64
	z, _ = blend(m, y, !flip, 3)
	out.Set(i, y+z)
	cnt.Set(i, m)
}

// MathUnary applies each one-argument math function to x, scaled into its domain.
//
//kokkos:kernel
func MathUnary(i int, x kokkos.View1[float64], out kokkos.View2[float64]) {
	v := x.At(i)
	a := math.Abs(v)
	out.Set(i, 0, math.Sqrt(a))
	out.Set(i, 1, math.Cbrt(v))
	out.Set(i, 2, math.Exp(v*5))
	out.Set(i, 3, math.Exp2(v*10))
	out.Set(i, 4, math.Expm1(v))
	out.Set(i, 5, math.Log(a))
	out.Set(i, 6, math.Log2(a*100))
	out.Set(i, 7, math.Log10(a*1000))
	out.Set(i, 8, math.Log1p(v))
	out.Set(i, 9, math.Sin(v*10))
	out.Set(i, 10, math.Cos(v*10))
	out.Set(i, 11, math.Tan(v))
	out.Set(i, 12, math.Asin(v))
	out.Set(i, 13, math.Acos(v))
	out.Set(i, 14, math.Atan(v*10))
	out.Set(i, 15, math.Sinh(v*3))
	out.Set(i, 16, math.Cosh(v*3))
	out.Set(i, 17, math.Tanh(v*3))
	out.Set(i, 18, math.Asinh(v*10))
	out.Set(i, 19, math.Acosh(1+a*10))
	out.Set(i, 20, math.Atanh(v))
	out.Set(i, 21, math.Abs(v))
	out.Set(i, 22, math.Floor(v*10))
	out.Set(i, 23, math.Ceil(v*10))
	out.Set(i, 24, math.Trunc(v*10))
	out.Set(i, 25, math.Round(v*10))
	out.Set(i, 26, math.RoundToEven(v*10))
	out.Set(i, 27, math.Erf(v*2))
	out.Set(i, 28, math.Erfc(v*2))
	out.Set(i, 29, math.Gamma(v*5))
}

// MathBinary applies the two-argument math functions, FMA and the min and max builtins to pairs that include NaN, infinities and signed zeros.
//
//kokkos:kernel
func MathBinary(i int, x, y, z kokkos.View1[float64], out kokkos.View2[float64]) {
	a, b, c := x.At(i), y.At(i), z.At(i)
	out.Set(i, 0, math.Atan2(a, b))
	out.Set(i, 1, math.Pow(a, b))
	out.Set(i, 2, math.Mod(a, b))
	out.Set(i, 3, math.Remainder(a, b))
	out.Set(i, 4, math.Min(a, b))
	out.Set(i, 5, math.Max(a, b))
	out.Set(i, 6, math.FMA(a, b, c))
	out.Set(i, 7, math.Hypot(a, b))
	out.Set(i, 8, math.Copysign(a, b))
	out.Set(i, 9, min(a, b))
	out.Set(i, 10, max(a, b))
	out.Set(i, 11, min(a, b, c))
	out.Set(i, 12, max(c, a, b))
	out.Set(i, 13, a*b+c)
}

// MathSpecial builds infinities and NaN and classifies values with IsNaN, IsInf and Signbit.
//
//kokkos:kernel
func MathSpecial(i int, x kokkos.View1[float64], flags kokkos.View1[int32], out kokkos.View2[float64]) {
	v := x.At(i)
	var bits int32
	if math.IsNaN(v) {
		bits |= 1
	}
	if math.IsInf(v, 0) {
		bits |= 2
	}
	if math.IsInf(v, 1) {
		bits |= 4
	}
	if math.IsInf(v, -1) {
		bits |= 8
	}
	if math.Signbit(v) {
		bits |= 16
	}
	if v == math.Inf(1) {
		bits |= 32
	}
	if v != v {
		bits |= 64
	}
	if v == 0 {
		bits |= 128
	}
	flags.Set(i, bits)
	out.Set(i, 0, math.Inf(int(bits%3)-1))
	out.Set(i, 1, math.Copysign(math.Inf(1), v))
	out.Set(i, 2, v*math.Inf(-1))
	out.Set(i, 3, math.Copysign(0, v))
	out.Set(i, 4, 1/v)
	out.Set(i, 5, v-v)
	out.Set(i, 6, math.Max(v, math.NaN()))
	out.Set(i, 7, math.Min(v, 0))
	out.Set(i, 8, math.Max(v, math.Copysign(0, -1)))
	out.Set(i, 9, math.Pow(v, 0))
	out.Set(i, 10, math.Pow(v, -1))
	out.Set(i, 11, math.Pow(v, 3))
	out.Set(i, 12, math.Pow(v, 0.5))
	out.Set(i, 13, math.Pow(1, v))
	out.Set(i, 14, math.Pow(-1, v))
	out.Set(i, 15, math.Pow(v, math.Inf(1)))
	out.Set(i, 16, math.Pow(v, math.Inf(-1)))
	out.Set(i, 17, math.Sqrt(v))
	out.Set(i, 18, math.Floor(v))
	out.Set(i, 19, math.Mod(7.5, v))
}

// MinMax applies the min and max builtins to float32 with NaN and signed zeros, and to signed and unsigned integers.
//
//kokkos:kernel
func MinMax(i int, f, g kokkos.View1[float32], a, b kokkos.View1[int32], o32 kokkos.View2[float32], oi kokkos.View2[int64]) {
	p, q := f.At(i), g.At(i)
	o32.Set(i, 0, min(p, q))
	o32.Set(i, 1, max(p, q))
	o32.Set(i, 2, min(p, q, 0.5))
	o32.Set(i, 3, max(p, -q, float32(math.Inf(-1))))
	o32.Set(i, 4, float32(math.Min(float64(p), float64(q))))
	o32.Set(i, 5, float32(math.Max(float64(p), float64(q))))
	m, n := a.At(i), b.At(i)
	oi.Set(i, 0, int64(min(m, n)))
	oi.Set(i, 1, int64(max(m, n)))
	oi.Set(i, 2, int64(min(uint32(m), uint32(n))))
	oi.Set(i, 3, max(int64(m), 7, int64(n)))
	oi.Set(i, 4, int64(max(uint8(m), uint8(n))))
}

// AtomicInts accumulates into nb bins with the integer atomics, and uses fetched values only in ways that do not depend on the order.
//
//kokkos:kernel
func AtomicInts(i int, x kokkos.View1[int64], s32 kokkos.View1[int32], s64 kokkos.View1[int64], u32 kokkos.View1[uint32], u64 kokkos.View1[uint64], nb int) {
	b := i % nb
	v := x.At(i)
	kokkos.AtomicAdd(s32.Ptr(b), int32(v))
	kokkos.AtomicInc(s32.Ptr(nb + b))
	kokkos.AtomicMin(s32.Ptr(2*nb+b), int32(v>>7))
	kokkos.AtomicSub(s64.Ptr(b), v)
	kokkos.AtomicXor(s64.Ptr(nb+b), v)
	kokkos.AtomicMax(s64.Ptr(2*nb+b), v)
	kokkos.AtomicMax(u32.Ptr(b), uint32(v))
	kokkos.AtomicOr(u32.Ptr(nb+b), uint32(1)<<(v&31))
	kokkos.AtomicDec(u32.Ptr(2*nb + b))
	kokkos.AtomicMin(u64.Ptr(b), uint64(v))
	kokkos.AtomicAnd(u64.Ptr(nb+b), uint64(v)|0xFFFF)
	kokkos.AtomicAdd(u64.Ptr(2*nb+b), uint64(v))
	// Tickets: each index fetches a distinct value of a counter, so
	// their sum, minimum and maximum do not depend on the order.
	t := kokkos.AtomicFetchAdd(s64.Ptr(3*nb), 1)
	kokkos.AtomicAdd(s64.Ptr(3*nb+1), t)
	kokkos.AtomicMax(s64.Ptr(3*nb+2), t)
	kokkos.AtomicMin(s64.Ptr(3*nb+3), t)
	d := kokkos.AtomicFetchSub(u32.Ptr(3*nb), 1)
	kokkos.AtomicAdd(u64.Ptr(3*nb), uint64(d))
	e := kokkos.AtomicAddFetch(s32.Ptr(3*nb), 2)
	kokkos.AtomicMax(s32.Ptr(3*nb+1), e)
	// The first fetch of a minimum gets the initial value, the largest.
	m := kokkos.AtomicFetchMin(u64.Ptr(3*nb+1), uint64(i))
	kokkos.AtomicMax(u64.Ptr(3*nb+2), m)
}

// AtomicFloats adds small integers held in floats (exact in any order) and takes minima and maxima with the float atomics.
//
//kokkos:kernel
func AtomicFloats(i int, x kokkos.View1[float64], f64 kokkos.View1[float64], f32 kokkos.View1[float32], nb int) {
	b := i % nb
	v := x.At(i)
	w := math.Floor(v * 64)
	kokkos.AtomicAdd(f64.Ptr(b), w)
	kokkos.AtomicSub(f64.Ptr(nb+b), w*0.25)
	kokkos.AtomicMin(f64.Ptr(2*nb+b), v)
	kokkos.AtomicMax(f64.Ptr(3*nb+b), v)
	kokkos.AtomicAdd(f32.Ptr(b), float32(w))
	kokkos.AtomicMin(f32.Ptr(nb+b), float32(v))
	kokkos.AtomicMax(f32.Ptr(2*nb+b), float32(v))
	old := kokkos.AtomicFetchAdd(f32.Ptr(3*nb+b), 1)
	kokkos.AtomicMax(f32.Ptr(4*nb+b), old)
	kokkos.AtomicMax(f64.Ptr(4*nb+b), kokkos.AtomicFetchMin(f64.Ptr(5*nb+b), v))
}

// SumInt64 sums the squares of an int64 view, wrapping.
//
//kokkos:kernel
func SumInt64(i int, a kokkos.View1[int64], acc *int64) { *acc += a.At(i) * a.At(i) }

// ProdFloat64 multiplies factors near 1.
//
//kokkos:kernel
func ProdFloat64(i int, a kokkos.View1[float64], acc *float64) { *acc *= 1 + a.At(i)/64 }

// MinFloat32 is the smallest element of a float32 view.
//
//kokkos:kernel
func MinFloat32(i int, a kokkos.View1[float32], acc *float32) { *acc = min(*acc, a.At(i)) }

// MaxInt32 is the largest element of an int32 view, found with an if.
//
//kokkos:kernel
func MaxInt32(i int, a kokkos.View1[int32], acc *int32) {
	if v := a.At(i); v > *acc {
		*acc = v
	}
}

// AndUint32 is the bitwise and of a uint32 view's elements, each with bit i%32 set.
//
//kokkos:kernel
func AndUint32(i int, a kokkos.View1[uint32], acc *uint32) { *acc &= a.At(i) | 1<<(i%32) }

// OrUint64 is the bitwise or of a uint64 view's elements.
//
//kokkos:kernel
func OrUint64(i int, a kokkos.View1[uint64], acc *uint64) { *acc |= a.At(i) }

// AllBelow reports whether every element is below t.
//
//kokkos:kernel
func AllBelow(i int, a kokkos.View1[float64], t float64, acc *bool) { *acc = *acc && a.At(i) < t }

// AnyAbove reports whether some element is above t.
//
//kokkos:kernel
func AnyAbove(i int, a kokkos.View1[float64], t float64, acc *bool) { *acc = *acc || a.At(i) > t }

// Sum3 sums a rank-3 view weighted by its indices.
//
//kokkos:kernel
func Sum3(i, j, k int, a kokkos.View3[float64], acc *float64) {
	*acc += a.At(i, j, k) * float64(i+2*j+3*k)
}

// Max4 is the largest element of a rank-4 int32 view plus the sum of its indices.
//
//kokkos:kernel
func Max4(i, j, k, l int, a kokkos.View4[int32], acc *int32) {
	*acc = max(*acc, a.At(i, j, k, l)+int32(i+j+k+l))
}

// Sum5 sums a rank-5 int64 view, each element xored with a product of its indices.
//
//kokkos:kernel
func Sum5(i0, i1, i2, i3, i4 int, a kokkos.View5[int64], acc *int64) {
	*acc += a.At(i0, i1, i2, i3, i4) ^ int64(i0*i4+i2)
}

// Min6 is the smallest element of a rank-6 float32 view.
//
//kokkos:kernel
func Min6(i0, i1, i2, i3, i4, i5 int, a kokkos.View6[float32], acc *float32) {
	*acc = min(*acc, a.At(i0, i1, i2, i3, i4, i5))
}

// Prod6 multiplies factors near 1 from a rank-6 float64 view.
//
//kokkos:kernel
func Prod6(i0, i1, i2, i3, i4, i5 int, a kokkos.View6[float64], acc *float64) {
	*acc *= 1 + a.At(i0, i1, i2, i3, i4, i5)/32
}

// ScanInclusive32 is the inclusive prefix sum of int32 values, wrapping.
//
//kokkos:kernel
func ScanInclusive32(i int, in, out kokkos.View1[int32], acc *int32, final bool) {
	*acc += in.At(i)
	if final {
		out.Set(i, *acc)
	}
}

// ScanExclusive64 is the exclusive prefix sum of float64 values.
//
//kokkos:kernel
func ScanExclusive64(i int, in, out kokkos.View1[float64], acc *float64, final bool) {
	if final {
		out.Set(i, *acc)
	}
	*acc += in.At(i)
}

// Axpy2 adds a times x, read-only, to y, both of any layout and strides.
//
//kokkos:kernel
func Axpy2(i, j int, y, x kokkos.View2[float64], a float64) {
	y.Set(i, j, y.At(i, j)+a*x.At(i, j))
}

// Scale1 scales a rank-1 view, contiguous or not, in place.
//
//kokkos:kernel
func Scale1(i int, v kokkos.View1[float64], s float64) {
	*v.Ptr(i) *= s
}

// Scalars combines scalar parameters of every kind: bool, int8, uint16, float32, int and uint64.
//
//kokkos:kernel
func Scalars(i int, out kokkos.View1[int64], f kokkos.View1[float32], neg bool, k int8, u uint16, s float32, n int, m uint64) {
	v := int64(i)*int64(k) + int64(u) + int64(n) + int64(m>>60)
	if neg {
		v = -v
	}
	out.Set(i, v)
	f.Set(i, float32(i)*s+float32(k))
}

// Mix2 combines a float64 and an int32 rank-2 view with the indices.
//
//kokkos:kernel
func Mix2(i, j int, out, a kokkos.View2[float64], b kokkos.View2[int32]) {
	out.Set(i, j, a.At(i, j)*2+float64(b.At(i, j))-float64(i*j))
}

// Mix3 combines a rank-3 int64 view with the indices, reading a mirrored element.
//
//kokkos:kernel
func Mix3(i, j, k int, out, a kokkos.View3[int64]) {
	out.Set(i, j, k, a.At(i, j, k)*int64(i+1)-int64(j<<k)+a.At(a.Extent(0)-1-i, j, k))
}

// Mix4 scales a rank-4 float32 view and adds the indices.
//
//kokkos:kernel
func Mix4(i, j, k, l int, out, a kokkos.View4[float32], s float32) {
	out.Set(i, j, k, l, a.At(i, j, k, l)*s+float32(i-j+k-l))
}

// Mix5 combines a rank-5 int32 view with its indices, skipping a plane with an early return.
//
//kokkos:kernel
func Mix5(i0, i1, i2, i3, i4 int, out, a kokkos.View5[int32]) {
	if i2 == 1 {
		return
	}
	out.Set(i0, i1, i2, i3, i4, a.At(i0, i1, i2, i3, i4)^int32(i0<<4|i1<<3|i2<<2|i3<<1|i4))
}

// Mix6 adds to each element of a rank-6 float64 view the element mirrored in every dimension.
//
//kokkos:kernel
func Mix6(i0, i1, i2, i3, i4, i5 int, out, a kokkos.View6[float64]) {
	m := a.At(a.Extent(0)-1-i0, a.Extent(1)-1-i1, a.Extent(2)-1-i2, a.Extent(3)-1-i3, a.Extent(4)-1-i4, a.Extent(5)-1-i5)
	out.Set(i0, i1, i2, i3, i4, i5, a.At(i0, i1, i2, i3, i4, i5)+m*0.5)
}
