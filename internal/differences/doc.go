// Package differences pins, one test per row, the places where gokkos
// deliberately differs from Kokkos's View, DynRankView, deep_copy and
// OffsetView and from oneDAL's array, as docs/kokkos-differences.md lists
// them: each test checks what gokkos does and what a port writes instead, so
// that a change of behaviour fails here and the page is updated with it.
// The package has no code of its own.
package differences
