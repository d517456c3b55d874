// Package algorithms holds Kokkos's sorting algorithms (Kokkos_Sort.hpp):
// Sort of a rank-1 view of numbers, whole or a sub-range, with or without
// a comparator; SortByKey, Kokkos::Experimental::sort_by_key; and BinSort
// with the bin operations BinOp1D and BinOp3D.
//
// On a host execution space (the pool by default) a view of numbers is
// sorted by a parallel least-significant-digit radix sort over the pool's
// workers, floating-point keys through the order-preserving transform of
// their bits; a comparator sorts by a parallel merge sort. Both are
// stable. On a device execution space (a *cuda.Stream) a view of numbers
// in the device's memory is sorted there, by a radix sort written as Go
// kernels (kernels.go): per-block digit counts in a team's scratch pad, a
// scan of the counts, and a stable scatter. A comparator is a Go function
// and runs on the host only: on a device space, the view is copied to the
// host, sorted there and copied back, as Kokkos does where it has no
// device sort.
//
// Floating-point keys sort in IEEE 754 total order: -NaN < -Inf < ... <
// -0 < +0 < ... < +Inf < +NaN, the same on the host and on the device
// (std::sort's '<', which Kokkos uses on host spaces, leaves the order of
// NaNs unspecified).
//
// See docs/guide/sorting.md.
package algorithms
