//go:build goexperiment.simd && amd64

package kernel

import (
	"simd/archsimd"
	"unsafe"
)

// The vector forms of the helpers of simd.go, built with GOEXPERIMENT=simd
// on amd64: the maps but MulInt64 are stream.go's, the same in every
// build (stream_amd64.s's assembly, unrolled, with non-temporal stores for large
// destinations: 2 times the speed of the single vectors here for 1024
// float64s in cache, 1.8 times in memory); the sums, dot products and
// MulInt64 as 256-bit vectors (AVX2), two accumulators per reduction, the
// upper halves of the registers cleared after the vector loop (so that
// the SSE code that follows pays no transition). Each falls back to the
// scalar form when the CPU lacks AVX2 (or AVX-512, for the 64-bit integer
// multiply).

// SIMD reports whether the sums and dot products of the host's vectorized
// loops run as vectors (the maps do on any amd64 processor with AVX2).
const SIMD = true

var (
	hasAVX2   = archsimd.X86.AVX2()
	hasAVX512 = archsimd.X86.AVX512()
)

// SumFloat64 returns s plus the n float64s from p, the floats in any order.
func SumFloat64(s float64, p unsafe.Pointer, n int) float64 {
	if !hasAVX2 || n < 8 {
		return sumScalar(s, p, n)
	}
	a := unsafe.Slice((*float64)(p), n)
	var v0, v1 archsimd.Float64x4
	i := 0
	for ; i+8 <= n; i += 8 {
		v0 = v0.Add(archsimd.LoadFloat64x4((*[4]float64)(unsafe.Pointer(&a[i]))))
		v1 = v1.Add(archsimd.LoadFloat64x4((*[4]float64)(unsafe.Pointer(&a[i+4]))))
	}
	var l [4]float64
	v0.Add(v1).Store(&l)
	archsimd.ClearAVXUpperBits()
	var r float64
	for _, x := range l {
		r += x
	}
	for ; i < n; i++ {
		r += a[i]
	}
	return s + r
}

// DotFloat64 returns s plus the sum of the n products of the float64s from p and
// q, the floats in any order.
func DotFloat64(s float64, p, q unsafe.Pointer, n int) float64 {
	if !hasAVX2 || n < 8 {
		return dotScalar(s, p, q, n)
	}
	a := unsafe.Slice((*float64)(p), n)
	b := unsafe.Slice((*float64)(q), n)
	var v0, v1 archsimd.Float64x4
	i := 0
	for ; i+8 <= n; i += 8 {
		v0 = v0.Add(archsimd.LoadFloat64x4((*[4]float64)(unsafe.Pointer(&a[i]))).Mul(archsimd.LoadFloat64x4((*[4]float64)(unsafe.Pointer(&b[i])))))
		v1 = v1.Add(archsimd.LoadFloat64x4((*[4]float64)(unsafe.Pointer(&a[i+4]))).Mul(archsimd.LoadFloat64x4((*[4]float64)(unsafe.Pointer(&b[i+4])))))
	}
	var l [4]float64
	v0.Add(v1).Store(&l)
	archsimd.ClearAVXUpperBits()
	var r float64
	for _, x := range l {
		r += x
	}
	for ; i < n; i++ {
		r += a[i] * b[i]
	}
	return s + r
}

// SumFloat32 returns s plus the n float32s from p, the floats in any order.
func SumFloat32(s float32, p unsafe.Pointer, n int) float32 {
	if !hasAVX2 || n < 16 {
		return sumScalar(s, p, n)
	}
	a := unsafe.Slice((*float32)(p), n)
	var v0, v1 archsimd.Float32x8
	i := 0
	for ; i+16 <= n; i += 16 {
		v0 = v0.Add(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(&a[i]))))
		v1 = v1.Add(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(&a[i+8]))))
	}
	var l [8]float32
	v0.Add(v1).Store(&l)
	archsimd.ClearAVXUpperBits()
	var r float32
	for _, x := range l {
		r += x
	}
	for ; i < n; i++ {
		r += a[i]
	}
	return s + r
}

// DotFloat32 returns s plus the sum of the n products of the float32s from p and
// q, the floats in any order.
func DotFloat32(s float32, p, q unsafe.Pointer, n int) float32 {
	if !hasAVX2 || n < 16 {
		return dotScalar(s, p, q, n)
	}
	a := unsafe.Slice((*float32)(p), n)
	b := unsafe.Slice((*float32)(q), n)
	var v0, v1 archsimd.Float32x8
	i := 0
	for ; i+16 <= n; i += 16 {
		v0 = v0.Add(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(&a[i]))).Mul(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(&b[i])))))
		v1 = v1.Add(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(&a[i+8]))).Mul(archsimd.LoadFloat32x8((*[8]float32)(unsafe.Pointer(&b[i+8])))))
	}
	var l [8]float32
	v0.Add(v1).Store(&l)
	archsimd.ClearAVXUpperBits()
	var r float32
	for _, x := range l {
		r += x
	}
	for ; i < n; i++ {
		r += a[i] * b[i]
	}
	return s + r
}

// SumInt32 returns s plus the n int32s from p, the floats in any order.
func SumInt32(s int32, p unsafe.Pointer, n int) int32 {
	if !hasAVX2 || n < 16 {
		return sumScalar(s, p, n)
	}
	a := unsafe.Slice((*int32)(p), n)
	var v0, v1 archsimd.Int32x8
	i := 0
	for ; i+16 <= n; i += 16 {
		v0 = v0.Add(archsimd.LoadInt32x8((*[8]int32)(unsafe.Pointer(&a[i]))))
		v1 = v1.Add(archsimd.LoadInt32x8((*[8]int32)(unsafe.Pointer(&a[i+8]))))
	}
	var l [8]int32
	v0.Add(v1).Store(&l)
	archsimd.ClearAVXUpperBits()
	var r int32
	for _, x := range l {
		r += x
	}
	for ; i < n; i++ {
		r += a[i]
	}
	return s + r
}

// DotInt32 returns s plus the sum of the n products of the int32s from p and
// q, the floats in any order.
func DotInt32(s int32, p, q unsafe.Pointer, n int) int32 {
	if !hasAVX2 || n < 16 {
		return dotScalar(s, p, q, n)
	}
	a := unsafe.Slice((*int32)(p), n)
	b := unsafe.Slice((*int32)(q), n)
	var v0, v1 archsimd.Int32x8
	i := 0
	for ; i+16 <= n; i += 16 {
		v0 = v0.Add(archsimd.LoadInt32x8((*[8]int32)(unsafe.Pointer(&a[i]))).Mul(archsimd.LoadInt32x8((*[8]int32)(unsafe.Pointer(&b[i])))))
		v1 = v1.Add(archsimd.LoadInt32x8((*[8]int32)(unsafe.Pointer(&a[i+8]))).Mul(archsimd.LoadInt32x8((*[8]int32)(unsafe.Pointer(&b[i+8])))))
	}
	var l [8]int32
	v0.Add(v1).Store(&l)
	archsimd.ClearAVXUpperBits()
	var r int32
	for _, x := range l {
		r += x
	}
	for ; i < n; i++ {
		r += a[i] * b[i]
	}
	return s + r
}

// SumInt64 returns s plus the n int64s from p, the floats in any order.
func SumInt64(s int64, p unsafe.Pointer, n int) int64 {
	if !hasAVX2 || n < 8 {
		return sumScalar(s, p, n)
	}
	a := unsafe.Slice((*int64)(p), n)
	var v0, v1 archsimd.Int64x4
	i := 0
	for ; i+8 <= n; i += 8 {
		v0 = v0.Add(archsimd.LoadInt64x4((*[4]int64)(unsafe.Pointer(&a[i]))))
		v1 = v1.Add(archsimd.LoadInt64x4((*[4]int64)(unsafe.Pointer(&a[i+4]))))
	}
	var l [4]int64
	v0.Add(v1).Store(&l)
	archsimd.ClearAVXUpperBits()
	var r int64
	for _, x := range l {
		r += x
	}
	for ; i < n; i++ {
		r += a[i]
	}
	return s + r
}

// DotInt64 returns s plus the sum of the n products of the int64s from p and
// q, the floats in any order.
func DotInt64(s int64, p, q unsafe.Pointer, n int) int64 {
	if !hasAVX512 || n < 8 {
		return dotScalar(s, p, q, n)
	}
	a := unsafe.Slice((*int64)(p), n)
	b := unsafe.Slice((*int64)(q), n)
	var v0, v1 archsimd.Int64x4
	i := 0
	for ; i+8 <= n; i += 8 {
		v0 = v0.Add(archsimd.LoadInt64x4((*[4]int64)(unsafe.Pointer(&a[i]))).Mul(archsimd.LoadInt64x4((*[4]int64)(unsafe.Pointer(&b[i])))))
		v1 = v1.Add(archsimd.LoadInt64x4((*[4]int64)(unsafe.Pointer(&a[i+4]))).Mul(archsimd.LoadInt64x4((*[4]int64)(unsafe.Pointer(&b[i+4])))))
	}
	var l [4]int64
	v0.Add(v1).Store(&l)
	archsimd.ClearAVXUpperBits()
	var r int64
	for _, x := range l {
		r += x
	}
	for ; i < n; i++ {
		r += a[i] * b[i]
	}
	return s + r
}

// MulInt64 stores the n int64s a[j] * b[j] from a and b at dst. A dst
// that overlaps a or b other than exactly takes the scalar loop, whose
// order it then depends on.
func MulInt64(dst, p, q unsafe.Pointer, n int) {
	if !hasAVX512 || n < 4 || !disjoint(dst, p, n*8) || !disjoint(dst, q, n*8) {
		mulScalar[int64](dst, p, q, n)
		return
	}
	c := unsafe.Slice((*int64)(dst), n)
	a := unsafe.Slice((*int64)(p), n)
	b := unsafe.Slice((*int64)(q), n)
	i := 0
	for ; i+4 <= n; i += 4 {
		archsimd.LoadInt64x4((*[4]int64)(unsafe.Pointer(&a[i]))).Mul(archsimd.LoadInt64x4((*[4]int64)(unsafe.Pointer(&b[i])))).Store((*[4]int64)(unsafe.Pointer(&c[i])))
	}
	archsimd.ClearAVXUpperBits()
	for ; i < n; i++ {
		c[i] = a[i] * b[i]
	}
}
