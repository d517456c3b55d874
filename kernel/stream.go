package kernel

import (
	"unsafe"

	"github.com/gokkos/kokkos/internal/cpu"
)

//go:generate go run mkstream.go

// Whole-chunk elementwise loops. The generator writes the chunk of a 1-D
// range kernel whose body is one statement of these forms over views
// whose accesses are at the kernel's index i (plus a constant), proved in
// range for the chunk and of unit stride, as one call of a helper here:
//
//	c.Set(i, a.At(i))                  Copy[T](pc, pa, n)
//	c.Set(i, s*a.At(i))                ScaleT(pc, pa, s, n)
//	c.Set(i, a.At(i) op b.At(i))       OpT(pc, pa, pb, n)
//	c.Set(i, a.At(i) + s*b.At(i))      TriadT(pc, pa, pb, s, n)
//	*c.Ptr(i) += a.At(i) + s*b.At(i)   NstreamT(pc, pa, pb, s, n)
//	*acc += a.At(i) * b.At(i)          acc = DotOrderedT(acc, pa, pb, n)
//
// The helpers run as AVX2 vectors on amd64 processors that have it
// (stream_amd64.s, chosen at run time), in any build, and as the scalar
// loops elsewhere. Each element is what the loop computes, rounded as it
// rounds: every product rounded on its own before the sum that takes it
// (no fused multiply-add). A destination that overlaps a source other
// than exactly takes the scalar loop, whose order its result depends on.
// Destinations of streamBytes or more that the helper only writes are
// written with non-temporal stores, which do not read the lines they fill
// into the cache first (1.3 to 1.5 times the plain stores' speed in
// memory, BenchmarkStream); Nstream reads its destination, and stores
// plainly (the non-temporal stores measured 5% slower), its three
// operands prefetched 512 bytes ahead.
//
// DotOrdered, for the float dot products of kernels not marked fastmath,
// adds the products one at a time in index order, each rounded, as the
// loop does, so its sum has the loop's bits; the products are vectors,
// and each source is prefetched ahead (stream_amd64.s, mkstream.go).

// useAVX2 reports whether the processor has AVX2 and the operating system
// saves the YMM registers: the helpers here then run stream_amd64.s (false
// off amd64). Tests clear it to check the scalar loops.
var useAVX2 = cpu.X86HasAVX2

// streamBytes is the size of a destination from which the helpers store
// around the cache, as Go's copy does from 1 MiB.
var streamBytes = 1 << 20

// disjoint reports whether the n bytes at dst are the bytes at p or
// apart from them.
func disjoint(dst, p unsafe.Pointer, n int) bool {
	a, b := uintptr(dst), uintptr(p)
	return a == b || a+uintptr(n) <= b || b+uintptr(n) <= a
}

// vectorMap reports whether a map of n elements of size bytes from p and
// q to dst runs as vectors, and whether it streams its stores.
func vectorMap(dst, p, q unsafe.Pointer, n, size int) (ok, stream bool) {
	if !useAVX2 || n < 32/size || !disjoint(dst, p, n*size) || !disjoint(dst, q, n*size) {
		return false, false
	}
	bytes := n * size
	return true, bytes >= streamBytes && uintptr(dst)%uintptr(size) == 0
}

// Copy stores the n Ts from p at dst, as the loop dst[j] = p[j] does.
func Copy[T any](dst, p unsafe.Pointer, n int) {
	c := unsafe.Slice((*T)(dst), n)
	a := unsafe.Slice((*T)(p), n)
	if disjoint(dst, p, n*int(unsafe.Sizeof(*new(T)))) {
		copy(c, a)
		return
	}
	for i := range c {
		c[i] = a[i]
	}
}

func scaleScalar[T number](dst, p unsafe.Pointer, s T, n int) {
	c := unsafe.Slice((*T)(dst), n)
	a := unsafe.Slice((*T)(p), len(c))
	for i := range c {
		c[i] = T(s * a[i])
	}
}

func triadScalar[T number](dst, p, q unsafe.Pointer, s T, n int) {
	c := unsafe.Slice((*T)(dst), n)
	a, b := unsafe.Slice((*T)(p), len(c)), unsafe.Slice((*T)(q), len(c))
	for i := range c {
		c[i] = a[i] + T(s*b[i])
	}
}

func nstreamScalar[T number](dst, p, q unsafe.Pointer, s T, n int) {
	c := unsafe.Slice((*T)(dst), n)
	a, b := unsafe.Slice((*T)(p), len(c)), unsafe.Slice((*T)(q), len(c))
	for i := range c {
		c[i] += a[i] + T(s*b[i])
	}
}

// ScaleFloat64 stores the n float64s s*p[j] at dst.
func ScaleFloat64(dst, p unsafe.Pointer, s float64, n int) {
	if ok, st := vectorMap(dst, p, p, n, 8); ok {
		scaleFloat64AVX2(dst, p, s, n, st)
		return
	}
	scaleScalar(dst, p, s, n)
}

// ScaleFloat32 stores the n float32s s*p[j] at dst.
func ScaleFloat32(dst, p unsafe.Pointer, s float32, n int) {
	if ok, st := vectorMap(dst, p, p, n, 4); ok {
		scaleFloat32AVX2(dst, p, s, n, st)
		return
	}
	scaleScalar(dst, p, s, n)
}

// TriadFloat64 stores the n float64s p[j] + s*q[j] at dst.
func TriadFloat64(dst, p, q unsafe.Pointer, s float64, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		triadFloat64AVX2(dst, p, q, s, n, st)
		return
	}
	triadScalar(dst, p, q, s, n)
}

// TriadFloat32 stores the n float32s p[j] + s*q[j] at dst.
func TriadFloat32(dst, p, q unsafe.Pointer, s float32, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		triadFloat32AVX2(dst, p, q, s, n, st)
		return
	}
	triadScalar(dst, p, q, s, n)
}

// NstreamFloat64 adds the n float64s p[j] + s*q[j] to those at dst.
func NstreamFloat64(dst, p, q unsafe.Pointer, s float64, n int) {
	if ok, _ := vectorMap(dst, p, q, n, 8); ok {
		nstreamFloat64AVX2(dst, p, q, s, n, false)
		return
	}
	nstreamScalar(dst, p, q, s, n)
}

// NstreamFloat32 adds the n float32s p[j] + s*q[j] to those at dst.
func NstreamFloat32(dst, p, q unsafe.Pointer, s float32, n int) {
	if ok, _ := vectorMap(dst, p, q, n, 4); ok {
		nstreamFloat32AVX2(dst, p, q, s, n, false)
		return
	}
	nstreamScalar(dst, p, q, s, n)
}

// The maps of simd.go, the same in every build but MulInt64 (simd_generic.go,
// simd_amd64.go): stream_amd64.s's AVX2 forms where vectorMap allows them,
// the scalar loops otherwise. A dst that overlaps a or b other than
// exactly takes the scalar loop, whose order it then depends on.

// AddFloat64 stores the n float64s a[j] + b[j] from a and b at dst.
func AddFloat64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		addFloat64AVX2(dst, p, q, n, st)
		return
	}
	addScalar[float64](dst, p, q, n)
}

// SubFloat64 stores the n float64s a[j] - b[j] from a and b at dst.
func SubFloat64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		subFloat64AVX2(dst, p, q, n, st)
		return
	}
	subScalar[float64](dst, p, q, n)
}

// MulFloat64 stores the n float64s a[j] * b[j] from a and b at dst.
func MulFloat64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		mulFloat64AVX2(dst, p, q, n, st)
		return
	}
	mulScalar[float64](dst, p, q, n)
}

// AddFloat32 stores the n float32s a[j] + b[j] from a and b at dst.
func AddFloat32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		addFloat32AVX2(dst, p, q, n, st)
		return
	}
	addScalar[float32](dst, p, q, n)
}

// SubFloat32 stores the n float32s a[j] - b[j] from a and b at dst.
func SubFloat32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		subFloat32AVX2(dst, p, q, n, st)
		return
	}
	subScalar[float32](dst, p, q, n)
}

// MulFloat32 stores the n float32s a[j] * b[j] from a and b at dst.
func MulFloat32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		mulFloat32AVX2(dst, p, q, n, st)
		return
	}
	mulScalar[float32](dst, p, q, n)
}

// AddInt32 stores the n int32s a[j] + b[j] from a and b at dst.
func AddInt32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		addInt32AVX2(dst, p, q, n, st)
		return
	}
	addScalar[int32](dst, p, q, n)
}

// SubInt32 stores the n int32s a[j] - b[j] from a and b at dst.
func SubInt32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		subInt32AVX2(dst, p, q, n, st)
		return
	}
	subScalar[int32](dst, p, q, n)
}

// MulInt32 stores the n int32s a[j] * b[j] from a and b at dst.
func MulInt32(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 4); ok {
		mulInt32AVX2(dst, p, q, n, st)
		return
	}
	mulScalar[int32](dst, p, q, n)
}

// AddInt64 stores the n int64s a[j] + b[j] from a and b at dst.
func AddInt64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		addInt64AVX2(dst, p, q, n, st)
		return
	}
	addScalar[int64](dst, p, q, n)
}

// SubInt64 stores the n int64s a[j] - b[j] from a and b at dst.
func SubInt64(dst, p, q unsafe.Pointer, n int) {
	if ok, st := vectorMap(dst, p, q, n, 8); ok {
		subInt64AVX2(dst, p, q, n, st)
		return
	}
	subScalar[int64](dst, p, q, n)
}

// DotOrderedFloat64 returns s plus the n products p[j]*q[j], each rounded,
// added in index order: the bits of the loop s += p[j]*q[j].
func DotOrderedFloat64(s float64, p, q unsafe.Pointer, n int) float64 {
	if useAVX2 && n >= 8 {
		return dotOrderedFloat64AVX2(s, p, q, n)
	}
	return dotScalar(s, p, q, n)
}

// DotOrderedFloat32 returns s plus the n products p[j]*q[j], each rounded,
// added in index order: the bits of the loop s += p[j]*q[j].
func DotOrderedFloat32(s float32, p, q unsafe.Pointer, n int) float32 {
	if useAVX2 && n >= 16 {
		return dotOrderedFloat32AVX2(s, p, q, n)
	}
	return dotScalar(s, p, q, n)
}
