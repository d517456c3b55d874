package layout

// The kinds of a subview argument, two bits per dimension in a kinds word:
// an index drops the dimension, All and a Pair keep it.
const (
	ArgIndex uint32 = 0
	ArgAll   uint32 = 1
	ArgPair  uint32 = 2
)

// SubviewPatterns returns Kokkos's rule for the layout of a subview of a
// rank-n view with m ranges (All or Pair) among its n arguments, as the
// argument-kind patterns (see Subview) under which a layout is kept:
//
//   - Right stays Right when the arguments are indices, then one range
//     (All or Pair), at n-m, then only All: kinds&^rClear == rPat;
//   - Left stays Left when they are only All, then one range at m-1, then
//     indices: kinds&^lClear == lPat.
//
// Every other subview of m > 0 ranges is Stride. For m = 0 all four are 0.
// The generated Subview methods hold these patterns as constants.
func SubviewPatterns(n, m int) (rClear, rPat, lClear, lPat uint32) {
	if m <= 0 || m > n {
		return 0, 0, 0, 0
	}
	rClear = 3 << (2 * (n - m))
	for r := n - m + 1; r < n; r++ {
		rPat |= ArgAll << (2 * r)
	}
	lClear = 3 << (2 * (m - 1))
	for r := range m - 1 {
		lPat |= ArgAll << (2 * r)
	}
	return rClear, rPat, lClear, lPat
}

// SubviewOf returns the layout of a subview of a view of layout l from the
// kinds of its arguments (two bits per argument, ArgIndex, ArgAll or
// ArgPair) and the patterns SubviewPatterns returns.
func SubviewOf(l Layout, kinds, rClear, rPat, lClear, lPat uint32) Layout {
	switch {
	case l == Right && kinds&^rClear == rPat:
		return Right
	case l == Left && kinds&^lClear == lPat:
		return Left
	}
	return Stride
}

// Subview returns the layout of a subview with m ranges among the n
// arguments whose kinds are given, of a view of layout l (see
// SubviewPatterns). A subview of no range keeps l.
func Subview(l Layout, kinds uint32, n, m int) Layout {
	if m == 0 || l == Stride {
		return l
	}
	rc, rp, lc, lp := SubviewPatterns(n, m)
	return SubviewOf(l, kinds, rc, rp, lc, lp)
}
