// Package random is Kokkos's Kokkos_Random.hpp for gokkos: the generators
// XorShift64 and XorShift1024 (Random_XorShift64, Random_XorShift1024),
// their pools XorShift64Pool and XorShift1024Pool
// (Random_XorShift64_Pool, Random_XorShift1024_Pool) and Fill and
// FillRange (fill_random). A pool seeded as Kokkos seeds one gives Kokkos
// 4.6.1's sequences, state by state and draw by draw.
//
// A pool's states live in the memory of its execution space. On the host,
// a closure takes a generator with GetState, draws from it, and gives it
// back with FreeState; a Go kernel (package kernel) may take a pool as a
// parameter and do the same, on the host and on a device. Fill fills a
// view from a pool, on the device by a kernel for the common element
// types and ranks. See docs/guide/random.md.
package random
