//go:build !amd64 || race

package kokkos

import "unsafe"

// cx16 is false where every 16-byte element takes the lock path: on
// processors other than amd64, and under the race detector, which sees the
// lock path's plain loads and stores and its mutexes but nothing inside
// assembly.
var cx16 = false

func load16CX(unsafe.Pointer) (lo, hi uint64)  { panic("kokkos: no 16-byte compare-and-swap") }
func store16CX(unsafe.Pointer, uint64, uint64) { panic("kokkos: no 16-byte compare-and-swap") }
func peek16CX(unsafe.Pointer) (lo, hi uint64)  { panic("kokkos: no 16-byte compare-and-swap") }
func cas16CX(unsafe.Pointer, uint64, uint64, uint64, uint64) (c0, c1 uint64, ok bool) {
	panic("kokkos: no 16-byte compare-and-swap")
}
func addC128CX(unsafe.Pointer, float64, float64) (ore, oim float64) {
	panic("kokkos: no 16-byte compare-and-swap")
}
func subC128CX(unsafe.Pointer, float64, float64) (ore, oim float64) {
	panic("kokkos: no 16-byte compare-and-swap")
}
