package kokkos

// equalViews is Equal of every view kind, as Kokkos's ==: a and b refer to
// the same elements in the same way (sameView) and, when both are offset
// views, have the same begins. An OffsetView compared with a View or a
// DynRankView is compared without its begins, as Kokkos compares an
// OffsetView with a View.
func equalViews[T any](a, b View[T]) bool {
	ab, aok := a.(interface{ viewBegins() [MaxRank]int })
	bb, bok := b.(interface{ viewBegins() [MaxRank]int })
	if aok && bok && ab.viewBegins() != bb.viewBegins() {
		return false
	}
	return sameView(a.viewDesc(), b.viewDesc())
}
