//go:build !(goexperiment.simd && amd64)

package kernel

import "unsafe"

// The helpers of simd.go for builds without GOEXPERIMENT=simd or off
// amd64: the sums and dot products are the scalar loops; the maps run
// stream.go's AVX2 assembly where the processor has it (each element is
// one rounded operation, as in the loop), the loops otherwise.

// SIMD reports whether the sums and dot products of the host's vectorized
// loops run as vectors (the maps do on any amd64 processor with AVX2).
const SIMD = false

// SumFloat64 returns s plus the n float64s from p, in order.
func SumFloat64(s float64, p unsafe.Pointer, n int) float64 { return sumScalar(s, p, n) }

// DotFloat64 returns s plus the n products of the float64s from p and q, in order.
func DotFloat64(s float64, p, q unsafe.Pointer, n int) float64 { return dotScalar(s, p, q, n) }

// AddFloat64 stores the n float64s a[j] + b[j] from a and b at dst, in order.
func AddFloat64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		addFloat64AVX2(dst, p, q, n, st)
		return
	}
	addScalar[float64](dst, p, q, n)
}

// SubFloat64 stores the n float64s a[j] - b[j] from a and b at dst, in order.
func SubFloat64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		subFloat64AVX2(dst, p, q, n, st)
		return
	}
	subScalar[float64](dst, p, q, n)
}

// MulFloat64 stores the n float64s a[j] * b[j] from a and b at dst, in order.
func MulFloat64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		mulFloat64AVX2(dst, p, q, n, st)
		return
	}
	mulScalar[float64](dst, p, q, n)
}

// SumFloat32 returns s plus the n float32s from p, in order.
func SumFloat32(s float32, p unsafe.Pointer, n int) float32 { return sumScalar(s, p, n) }

// DotFloat32 returns s plus the n products of the float32s from p and q, in order.
func DotFloat32(s float32, p, q unsafe.Pointer, n int) float32 { return dotScalar(s, p, q, n) }

// AddFloat32 stores the n float32s a[j] + b[j] from a and b at dst, in order.
func AddFloat32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		addFloat32AVX2(dst, p, q, n, st)
		return
	}
	addScalar[float32](dst, p, q, n)
}

// SubFloat32 stores the n float32s a[j] - b[j] from a and b at dst, in order.
func SubFloat32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		subFloat32AVX2(dst, p, q, n, st)
		return
	}
	subScalar[float32](dst, p, q, n)
}

// MulFloat32 stores the n float32s a[j] * b[j] from a and b at dst, in order.
func MulFloat32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		mulFloat32AVX2(dst, p, q, n, st)
		return
	}
	mulScalar[float32](dst, p, q, n)
}

// SumInt32 returns s plus the n int32s from p, in order.
func SumInt32(s int32, p unsafe.Pointer, n int) int32 { return sumScalar(s, p, n) }

// DotInt32 returns s plus the n products of the int32s from p and q, in order.
func DotInt32(s int32, p, q unsafe.Pointer, n int) int32 { return dotScalar(s, p, q, n) }

// AddInt32 stores the n int32s a[j] + b[j] from a and b at dst, in order.
func AddInt32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		addInt32AVX2(dst, p, q, n, st)
		return
	}
	addScalar[int32](dst, p, q, n)
}

// SubInt32 stores the n int32s a[j] - b[j] from a and b at dst, in order.
func SubInt32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		subInt32AVX2(dst, p, q, n, st)
		return
	}
	subScalar[int32](dst, p, q, n)
}

// MulInt32 stores the n int32s a[j] * b[j] from a and b at dst, in order.
func MulInt32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		mulInt32AVX2(dst, p, q, n, st)
		return
	}
	mulScalar[int32](dst, p, q, n)
}

// SumInt64 returns s plus the n int64s from p, in order.
func SumInt64(s int64, p unsafe.Pointer, n int) int64 { return sumScalar(s, p, n) }

// DotInt64 returns s plus the n products of the int64s from p and q, in order.
func DotInt64(s int64, p, q unsafe.Pointer, n int) int64 { return dotScalar(s, p, q, n) }

// AddInt64 stores the n int64s a[j] + b[j] from a and b at dst, in order.
func AddInt64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		addInt64AVX2(dst, p, q, n, st)
		return
	}
	addScalar[int64](dst, p, q, n)
}

// SubInt64 stores the n int64s a[j] - b[j] from a and b at dst, in order.
func SubInt64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		subInt64AVX2(dst, p, q, n, st)
		return
	}
	subScalar[int64](dst, p, q, n)
}

// MulInt64 stores the n int64s a[j] * b[j] from a and b at dst, in order.
func MulInt64(dst, p, q unsafe.Pointer, n int) { mulScalar[int64](dst, p, q, n) }
