//go:build !amd64

package kokkos

// scanVector scans nothing where there is no vector kernel: scanExact
// takes every element.
func scanVector[T Number](d, s []T, acc T, inclusive, stream bool) (T, int) { return acc, 0 }
