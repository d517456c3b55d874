//go:build !amd64

package kokkos

// scanVector scans nothing where there is no vector kernel: scanExact
// takes every element.
func scanVector[T Number](d, s []T, acc T, inclusive, stream bool, next []T) (T, int) {
	return acc, 0
}

// sumVector sums nothing where there is no vector kernel: sumExact takes
// every element.
func sumVector[T Number](s []T) (T, int) { return 0, 0 }
