package kokkos

import "unsafe"

// scan32 scans n 32-bit integers from src into dst from acc and returns
// acc plus their sum; n is a positive multiple of 8. mode is scanInclusive
// or not, plus scanStream for non-temporal stores (dst 16-byte aligned).
// Integer addition wraps the same for signed and unsigned elements, so one
// kernel serves both. (A 64-bit kernel in two lanes ran no faster than
// scanExact's four scalar lanes.)
//
//go:noescape
func scan32(dst, src unsafe.Pointer, n int, acc uint32, mode int) uint32

const (
	scanInclusive = 1
	scanStream    = 2
)

// scanVector scans the longest prefix of s that the vector kernel takes
// into d from acc, for integers of 4 bytes, and returns acc after it and
// its length (0 for other element types). d is at least as long as s.
// With stream, and d 16-byte aligned (a block of a large slice is), d is
// written with non-temporal stores, which do not read its lines first;
// the caller fences them (plan.StoreFence).
func scanVector[T Number](d, s []T, acc T, inclusive, stream bool) (T, int) {
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
	r := scan32(unsafe.Pointer(unsafe.SliceData(d[:n])), unsafe.Pointer(unsafe.SliceData(s)), n, *(*uint32)(unsafe.Pointer(&acc)), mode)
	return *(*T)(unsafe.Pointer(&r)), n
}
