package random

import "github.com/gokkos/kokkos"

// KernelPieces returns the pieces a Go kernel that takes the pool binds on
// a device: its token and the view of its states (Token and States; zero
// pieces for the zero pool). Package kernel calls it; a host kernel takes
// the pool itself.
func (p XorShift64Pool) KernelPieces() []any { return p.s.pieces() }

// KernelPieces returns the pieces a Go kernel that takes the pool binds on
// a device: its token and the view of its states (see
// XorShift64Pool.KernelPieces).
func (p XorShift1024Pool) KernelPieces() []any { return p.s.pieces() }

func (s *poolState) pieces() []any {
	if s == nil {
		return []any{kokkos.UniqueToken{}, kokkos.View2[uint64]{}}
	}
	return []any{s.tok, s.states}
}
