package layout

// The kinds of a subview argument, two bits per dimension in a kinds word:
// an index drops the dimension, All and a Pair keep it.
const (
	ArgIndex uint32 = 0
	ArgAll   uint32 = 1
	ArgPair  uint32 = 2
)

// A Rule says, for one layout, which argument kinds keep it in a subview:
// those with kinds&^Clear == Pat, or with kinds&Any != 0 (some range among
// the positions Any marks). The generated Subview methods hold a Rule per
// layout as constants, so the decision costs two masks and compares.
type Rule struct{ Clear, Pat, Any uint32 }

// Keeps reports whether argument kinds keep the layout of r.
func (r Rule) Keeps(kinds uint32) bool { return kinds&^r.Clear == r.Pat || kinds&r.Any != 0 }

// SubviewPatterns returns Kokkos's rule for the layout of a subview of a
// rank-n view with m ranges (All or Pair) among its n arguments, one Rule
// for LayoutRight and one for LayoutLeft. Kokkos keeps the source's layout
// when
//
//   - Right: the arguments are indices, then one range at n-m, then only
//     All (the last argument All), or the result has rank 1 or 2 and the
//     last argument is a range;
//   - Left: the first m arguments are ranges, all All but the first and
//     the m-th, which may be Pairs, and the rest are indices, or the result
//     has rank 1 or 2 and the first argument is a range.
//
// Every other subview of m > 0 ranges is Stride. For m = 0 both rules are
// zero (the caller keeps the layout).
func SubviewPatterns(n, m int) (right, left Rule) {
	if m <= 0 || m > n {
		return Rule{}, Rule{}
	}
	right.Clear = 3 << (2 * (n - m))
	for r := n - m + 1; r < n; r++ {
		right.Pat |= ArgAll << (2 * r)
	}
	left.Clear = 3 | 3<<(2*(m-1))
	for r := 1; r < m-1; r++ {
		left.Pat |= ArgAll << (2 * r)
	}
	if m <= 2 {
		right.Any = 3 << (2 * (n - 1))
		left.Any = 3
	}
	return right, left
}

// SubviewOf returns the layout of a subview of a view of layout l from the
// kinds of its arguments (two bits per argument, ArgIndex, ArgAll or
// ArgPair) and the rules SubviewPatterns returns.
func SubviewOf(l Layout, kinds uint32, right, left Rule) Layout {
	switch {
	case l == Right && right.Keeps(kinds):
		return Right
	case l == Left && left.Keeps(kinds):
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
	r, lt := SubviewPatterns(n, m)
	return SubviewOf(l, kinds, r, lt)
}
