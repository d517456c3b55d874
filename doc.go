// Package kokkos provides performance-portable multidimensional arrays
// (views) for Go, modelled on Kokkos: views of rank 0 to 8 with runtime
// extents, three layouts, labels, memory spaces and traits, zero-copy
// subviews and checked conversions.
package kokkos
