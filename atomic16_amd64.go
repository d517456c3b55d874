//go:build !race

package kokkos

import (
	"unsafe"

	"github.com/gokkos/kokkos/internal/cpu"
)

// cx16 says whether 16-byte aligned elements take the CMPXCHG16B path:
// whether the processor has the instruction (CPUID leaf 1, ECX bit 13). It
// is set once at start-up; tests of the lock path clear it while no
// operation runs.
var cx16 = cpu.X86HasCX16

// load16CX returns the 16 bytes at p, 16-byte aligned, as two words in
// memory order: LOCK CMPXCHG16B of 0 with 0, which writes 0 back where it
// finds 0 and otherwise only loads.
//
//go:noescape
func load16CX(p unsafe.Pointer) (lo, hi uint64)

// store16CX stores lo and hi at p, 16-byte aligned, by a LOCK CMPXCHG16B
// loop.
//
//go:noescape
func store16CX(p unsafe.Pointer, lo, hi uint64)

// cas16CX stores n0, n1 at p, 16-byte aligned, if it holds o0, o1, by
// LOCK CMPXCHG16B, and reports whether it did; c0, c1 is the value it
// found there (o0, o1 when it stored).
//
//go:noescape
func cas16CX(p unsafe.Pointer, o0, o1, n0, n1 uint64) (c0, c1 uint64, ok bool)

// peek16CX returns the two words at p by two plain loads: a value that may
// be torn, as the first guess of a compare-and-swap loop, which the first
// failed compare-and-swap corrects at no extra cost.
//
//go:noescape
func peek16CX(p unsafe.Pointer) (lo, hi uint64)

// addC128CX adds re + im i to the complex128 at p, 16-byte aligned, by a
// LOCK CMPXCHG16B loop, and returns the value it held before: Add without
// the calls of fetchC128's loop, which took twice the time.
//
//go:noescape
func addC128CX(p unsafe.Pointer, re, im float64) (ore, oim float64)

// subC128CX is addC128CX for Sub.
//
//go:noescape
func subC128CX(p unsafe.Pointer, re, im float64) (ore, oim float64)
