package kokkos

import (
	"unsafe"

	"github.com/gokkos/kokkos/internal/cpu"
)

// scan32 scans n 32-bit integers from src into dst from acc and returns
// acc plus their sum; n is a positive multiple of 8. mode is scanInclusive
// or not, plus scanStream for non-temporal stores (dst 16-byte aligned).
// Integer addition wraps the same for signed and unsigned elements, so one
// kernel serves both. (A 64-bit kernel in two lanes ran no faster than
// scanExact's four scalar lanes.) It prefetches the 4n bytes at pf into
// cache, 32 bytes a step: the input of a block that the goroutine reduces
// next, whose reads from memory so overlap the scan. Prefetches do not
// fault, but pf should point to 4n bytes of the program's memory.
//
//go:noescape
func scan32(dst, src unsafe.Pointer, n int, acc uint32, mode int, pf unsafe.Pointer) uint32

// scan32AVX512 is scan32 in 64-byte vectors; with scanStream, dst must be
// 64-byte aligned.
//
//go:noescape
func scan32AVX512(dst, src unsafe.Pointer, n int, acc uint32, mode int, pf unsafe.Pointer) uint32

// sum32AVX2 is sum32 in 32-byte vectors.
//
//go:noescape
func sum32AVX2(src unsafe.Pointer, n int) uint32

// The kernels the processor and the operating system allow: sum32AVX2
// where both support AVX2 (its sum runs at twice sum32's speed in cache),
// scan32AVX512 where they support AVX-512 (0.074 ns an element in cache on
// a Zen 5 core against 0.17 for scan32: a step of sixteen in five shuffles
// and masked additions, against two steps of eight in six shuffles each;
// a 32-byte scan measured only 1.3× scan32 and is not kept). Tests clear
// them to check the kernels they stand for.
var useAVX2, useAVX512 = cpu.X86HasAVX2, cpu.X86HasAVX512

const (
	scanInclusive = 1
	scanStream    = 2
)

// scanVector scans the longest prefix of s that the vector kernel takes
// into d from acc, for integers of 4 bytes, and returns acc after it and
// its length (0 for other element types). d is at least as long as s.
// With stream, and d 16-byte aligned (64-byte for scan32AVX512; a block of
// a large slice is), d is written with non-temporal stores, which do not
// read its lines first; the caller fences them (plan.StoreFence). While it
// scans, it prefetches the first len(s) elements of next into cache, if
// next has as many.
func scanVector[T Number](d, s []T, acc T, inclusive, stream bool, next []T) (T, int) {
	n := len(s) &^ 7
	if sizeOf[T]() != 4 || n == 0 {
		return acc, 0
	}
	mode := 0
	if inclusive {
		mode = scanInclusive
	}
	if stream && uintptr(unsafe.Pointer(unsafe.SliceData(d)))%16 == 0 {
		mode |= scanStream
	}
	pf := unsafe.Pointer(unsafe.SliceData(s))
	if len(next) >= n {
		pf = unsafe.Pointer(unsafe.SliceData(next))
	}
	dp, sp, a := unsafe.Pointer(unsafe.SliceData(d[:n])), unsafe.Pointer(unsafe.SliceData(s)), *(*uint32)(unsafe.Pointer(&acc))
	var r uint32
	if useAVX512 && (mode&scanStream == 0 || uintptr(dp)%64 == 0) {
		r = scan32AVX512(dp, sp, n, a, mode, pf)
	} else {
		r = scan32(dp, sp, n, a, mode, pf)
	}
	return *(*T)(unsafe.Pointer(&r)), n
}

// sum32 returns the wrapping sum of n 32-bit integers at src; n is a
// positive multiple of 8.
//
//go:noescape
func sum32(src unsafe.Pointer, n int) uint32

// sumVector returns the sum of the longest prefix of s that the vector
// kernel takes, for integers of 4 bytes, and its length (0 for other
// element types).
func sumVector[T Number](s []T) (T, int) {
	n := len(s) &^ 7
	if sizeOf[T]() != 4 || n == 0 {
		return 0, 0
	}
	var r uint32
	if useAVX2 {
		r = sum32AVX2(unsafe.Pointer(unsafe.SliceData(s)), n)
	} else {
		r = sum32(unsafe.Pointer(unsafe.SliceData(s)), n)
	}
	return *(*T)(unsafe.Pointer(&r)), n
}
