//go:build !(goexperiment.simd && amd64)

package kernel

import "unsafe"

// The helpers of simd.go for builds without GOEXPERIMENT=simd or off
// amd64: the sums, dot products and MulInt64 are the scalar loops; the
// other maps, the same in every build, are in stream.go.

// SIMD reports whether the sums and dot products of the host's vectorized
// loops run as vectors (the maps do on any amd64 processor with AVX2).
const SIMD = false

// SumFloat64 returns s plus the n float64s from p, in order.
func SumFloat64(s float64, p unsafe.Pointer, n int) float64 { return sumScalar(s, p, n) }

// DotFloat64 returns s plus the n products of the float64s from p and q, in order.
func DotFloat64(s float64, p, q unsafe.Pointer, n int) float64 { return dotScalar(s, p, q, n) }

// SumFloat32 returns s plus the n float32s from p, in order.
func SumFloat32(s float32, p unsafe.Pointer, n int) float32 { return sumScalar(s, p, n) }

// DotFloat32 returns s plus the n products of the float32s from p and q, in order.
func DotFloat32(s float32, p, q unsafe.Pointer, n int) float32 { return dotScalar(s, p, q, n) }

// SumInt32 returns s plus the n int32s from p, in order.
func SumInt32(s int32, p unsafe.Pointer, n int) int32 { return sumScalar(s, p, n) }

// DotInt32 returns s plus the n products of the int32s from p and q, in order.
func DotInt32(s int32, p, q unsafe.Pointer, n int) int32 { return dotScalar(s, p, q, n) }

// SumInt64 returns s plus the n int64s from p, in order.
func SumInt64(s int64, p unsafe.Pointer, n int) int64 { return sumScalar(s, p, n) }

// DotInt64 returns s plus the n products of the int64s from p and q, in order.
func DotInt64(s int64, p, q unsafe.Pointer, n int) int64 { return dotScalar(s, p, q, n) }

// MulInt64 stores the n int64s a[j] * b[j] from a and b at dst, in order.
func MulInt64(dst, p, q unsafe.Pointer, n int) { mulScalar[int64](dst, p, q, n) }
