package kokkos

import "unsafe"

// scan32 scans n 32-bit integers from src into dst from acc, inclusive or
// exclusive, and returns acc plus their sum; n is a positive multiple of
// 8. Integer addition wraps the same for signed and unsigned elements, so
// one kernel serves both. (A 64-bit kernel in two lanes ran no faster than
// scanExact's four scalar lanes.)
//
//go:noescape
func scan32(dst, src unsafe.Pointer, n int, acc uint32, inclusive bool) uint32

// scanVector scans the longest prefix of s that the vector kernel takes
// into d from acc, for integers of 4 bytes, and returns acc after it and
// its length (0 for other element types). d is at least as long as s.
func scanVector[T Number](d, s []T, acc T, inclusive bool) (T, int) {
	n := len(s) &^ 7
	if sizeOf[T]() != 4 || n == 0 {
		return acc, 0
	}
	d = d[:n]
	r := scan32(unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(s)), n, *(*uint32)(unsafe.Pointer(&acc)), inclusive)
	return *(*T)(unsafe.Pointer(&r)), n
}
