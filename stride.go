package kokkos

// stridePastRank returns what Kokkos's stride(r) gives for a dimension r in
// [rank, 8) of a view of layout l with the given extents and strides, under
// the default build (KOKKOS_ENABLE_DEPRECATED_CODE_4, on in every 4.x
// release):
//
//	if (r >= rank()) {
//	  if constexpr (rank() == 0) return 1;
//	  LayoutRight (padded or not): return 1;
//	  LayoutLeft (padded or not):  return stride(rank()-1) * extent(rank()-1);
//	  LayoutStride:                return 0;
//	}
//
// (core/src/Kokkos_View.hpp:274-301 of the mdspan-based View, Kokkos 4.7;
// the legacy View of 4.6, /work/sbs/kokkos-src
// core/src/View/Kokkos_ViewMapping.hpp:605-628 (LayoutLeft), 1315-1325
// (LayoutRight), 2174-2197 (LayoutStride), gives the same values, from the
// extents 1 and, for LayoutStride, the strides 0 it keeps past the rank.)
// Only the rank-0 LayoutStride view differs between the two: 1 in 4.7, 0 in
// the legacy View; gokkos gives 4.7's 1.
func stridePastRank(l Layout, ext, str []int) int {
	n := len(ext)
	if n == 0 {
		return 1
	}
	switch l {
	case LayoutLeft:
		return str[n-1] * ext[n-1]
	case LayoutStride:
		return 0
	}
	return 1
}
