// Package testutil holds helpers that the tests of several packages share.
package testutil

import "math/rand/v2"

// ForEachIndex calls f for every multi-index of extents ext, the last index
// varying fastest; not at all when some extent is 0, and once, with an
// empty index, when ext is empty. f must not keep idx.
func ForEachIndex(ext []int, f func(idx []int)) {
	for _, e := range ext {
		if e == 0 {
			return
		}
	}
	idx := make([]int, len(ext))
	for {
		f(idx)
		r := len(ext) - 1
		for ; r >= 0; r-- {
			idx[r]++
			if idx[r] < ext[r] {
				break
			}
			idx[r] = 0
		}
		if r < 0 {
			return
		}
	}
}

// GappedStrides returns the strides of a LayoutStride view of extents ext
// whose dimensions are laid out in a random order, each with a random gap
// of 0 or 1 element before the next.
func GappedStrides(rng *rand.Rand, ext []int) []int {
	str := make([]int, len(ext))
	s := 1
	for _, r := range rng.Perm(len(ext)) {
		str[r] = s
		s *= ext[r] + rng.IntN(2)
	}
	return str
}
