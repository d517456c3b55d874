package kokkos

import "unsafe"

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

const (
	scanInclusive = 1
	scanStream    = 2
)

// scanVector scans the longest prefix of s that the vector kernel takes
// into d from acc, for integers of 4 bytes, and returns acc after it and
// its length (0 for other element types). d is at least as long as s.
// With stream, and d 16-byte aligned (a block of a large slice is), d is
// written with non-temporal stores, which do not read its lines first;
// the caller fences them (plan.StoreFence). While it scans, it prefetches
// the first len(s) elements of next into cache, if next has as many.
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
	r := scan32(unsafe.Pointer(unsafe.SliceData(d[:n])), unsafe.Pointer(unsafe.SliceData(s)), n, *(*uint32)(unsafe.Pointer(&acc)), mode, pf)
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
	r := sum32(unsafe.Pointer(unsafe.SliceData(s)), n)
	return *(*T)(unsafe.Pointer(&r)), n
}
