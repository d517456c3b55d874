package cuda

import "fmt"

// Split returns part k of the index range [begin, end) cut into parts
// consecutive parts whose sizes differ by at most one, the larger ones
// first: part k is [lo, hi). The parts cover the range in order, so a loop
// over [begin, end) split across devices, device k running part k on its
// own stream, visits every index once, and joining the devices' partial
// results in the order of k gives the same result on every run with the
// same number of parts. Split panics when parts < 1, k is outside
// [0, parts) or begin > end.
func Split(begin, end, parts, k int) (lo, hi int) {
	if parts < 1 || k < 0 || k >= parts || begin > end {
		panic(fmt.Sprintf("cuda.Split(%d, %d, %d, %d): want parts >= 1, 0 <= k < parts and begin <= end", begin, end, parts, k))
	}
	n := end - begin
	q, r := n/parts, n%parts
	lo = begin + k*q + min(k, r)
	hi = lo + q
	if k < r {
		hi++
	}
	return lo, hi
}
