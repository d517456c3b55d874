//go:build !(goexperiment.simd && amd64)

package kernel

import "unsafe"

// The scalar forms of the helpers of simd.go, for builds without
// GOEXPERIMENT=simd or off amd64.

// SIMD reports whether the host's vectorized loops run as vectors.
const SIMD = false

// SumFloat64 returns s plus the n float64s from p, in order.
func SumFloat64(s float64, p unsafe.Pointer, n int) float64 { return sumScalar(s, p, n) }

// DotFloat64 returns s plus the n products of the float64s from p and q, in order.
func DotFloat64(s float64, p, q unsafe.Pointer, n int) float64 { return dotScalar(s, p, q, n) }

// AddFloat64 stores the n float64s a[j] + b[j] from a and b at dst, in order.
func AddFloat64(dst, p, q unsafe.Pointer, n int) { addScalar[float64](dst, p, q, n) }

// SubFloat64 stores the n float64s a[j] - b[j] from a and b at dst, in order.
func SubFloat64(dst, p, q unsafe.Pointer, n int) { subScalar[float64](dst, p, q, n) }

// MulFloat64 stores the n float64s a[j] * b[j] from a and b at dst, in order.
func MulFloat64(dst, p, q unsafe.Pointer, n int) { mulScalar[float64](dst, p, q, n) }

// SumFloat32 returns s plus the n float32s from p, in order.
func SumFloat32(s float32, p unsafe.Pointer, n int) float32 { return sumScalar(s, p, n) }

// DotFloat32 returns s plus the n products of the float32s from p and q, in order.
func DotFloat32(s float32, p, q unsafe.Pointer, n int) float32 { return dotScalar(s, p, q, n) }

// AddFloat32 stores the n float32s a[j] + b[j] from a and b at dst, in order.
func AddFloat32(dst, p, q unsafe.Pointer, n int) { addScalar[float32](dst, p, q, n) }

// SubFloat32 stores the n float32s a[j] - b[j] from a and b at dst, in order.
func SubFloat32(dst, p, q unsafe.Pointer, n int) { subScalar[float32](dst, p, q, n) }

// MulFloat32 stores the n float32s a[j] * b[j] from a and b at dst, in order.
func MulFloat32(dst, p, q unsafe.Pointer, n int) { mulScalar[float32](dst, p, q, n) }

// SumInt32 returns s plus the n int32s from p, in order.
func SumInt32(s int32, p unsafe.Pointer, n int) int32 { return sumScalar(s, p, n) }

// DotInt32 returns s plus the n products of the int32s from p and q, in order.
func DotInt32(s int32, p, q unsafe.Pointer, n int) int32 { return dotScalar(s, p, q, n) }

// AddInt32 stores the n int32s a[j] + b[j] from a and b at dst, in order.
func AddInt32(dst, p, q unsafe.Pointer, n int) { addScalar[int32](dst, p, q, n) }

// SubInt32 stores the n int32s a[j] - b[j] from a and b at dst, in order.
func SubInt32(dst, p, q unsafe.Pointer, n int) { subScalar[int32](dst, p, q, n) }

// MulInt32 stores the n int32s a[j] * b[j] from a and b at dst, in order.
func MulInt32(dst, p, q unsafe.Pointer, n int) { mulScalar[int32](dst, p, q, n) }

// SumInt64 returns s plus the n int64s from p, in order.
func SumInt64(s int64, p unsafe.Pointer, n int) int64 { return sumScalar(s, p, n) }

// DotInt64 returns s plus the n products of the int64s from p and q, in order.
func DotInt64(s int64, p, q unsafe.Pointer, n int) int64 { return dotScalar(s, p, q, n) }

// AddInt64 stores the n int64s a[j] + b[j] from a and b at dst, in order.
func AddInt64(dst, p, q unsafe.Pointer, n int) { addScalar[int64](dst, p, q, n) }

// SubInt64 stores the n int64s a[j] - b[j] from a and b at dst, in order.
func SubInt64(dst, p, q unsafe.Pointer, n int) { subScalar[int64](dst, p, q, n) }

// MulInt64 stores the n int64s a[j] * b[j] from a and b at dst, in order.
func MulInt64(dst, p, q unsafe.Pointer, n int) { mulScalar[int64](dst, p, q, n) }
