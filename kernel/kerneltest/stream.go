package kerneltest

import "github.com/gokkos/kokkos"

// The kernels below are one elementwise statement over 1-D views at the
// kernel's index: the host writes the chunk whose views have unit stride
// as one call of a helper of package kernel (kernel/stream.go), which
// stores what the loop stores (stream_test.go checks each against the
// function called directly).

// StreamCopy is c = a.
//
//kokkos:kernel
func StreamCopy(i int, a, c kokkos.View1[float64]) { c.Set(i, a.At(i)) }

// StreamShift is c = a shifted by one.
//
//kokkos:kernel
func StreamShift(i int, a, c kokkos.View1[int32]) { c.Set(i, a.At(i+1)) }

// StreamScale is b = s c.
//
//kokkos:kernel
func StreamScale(i int, b, c kokkos.View1[float64], s float64) { b.Set(i, s*c.At(i)) }

// StreamScale32 is b = 3 c in float32.
//
//kokkos:kernel
func StreamScale32(i int, b, c kokkos.View1[float32]) { b.Set(i, c.At(i)*3) }

// StreamAdd is c = a + b.
//
//kokkos:kernel
func StreamAdd(i int, a, b, c kokkos.View1[float64]) { c.Set(i, a.At(i)+b.At(i)) }

// StreamSubInt is c = a - b in int64.
//
//kokkos:kernel
func StreamSubInt(i int, a, b, c kokkos.View1[int64]) { c.Set(i, a.At(i)-b.At(i)) }

// StreamTriad is a = b + s c.
//
//kokkos:kernel
func StreamTriad(i int, a, b, c kokkos.View1[float64], s float64) { a.Set(i, b.At(i)+s*c.At(i)) }

// StreamTriad32 is a = s c + b in float32, unchecked.
//
//kokkos:kernel nocheck
func StreamTriad32(i int, a, b, c kokkos.View1[float32], s float32) { a.Set(i, s*c.At(i)+b.At(i)) }

// StreamNstream is a += b + s c.
//
//kokkos:kernel
func StreamNstream(i int, a, b, c kokkos.View1[float64], s float64) { *a.Ptr(i) += b.At(i) + s*c.At(i) }

// StreamDotFast is the dot product of a and b, in any order.
//
//kokkos:kernel fastmath
func StreamDotFast(i int, a, b kokkos.View1[float64], acc *float64) { *acc += a.At(i) * b.At(i) }
