package dal

import (
	"errors"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// How dal allocates under a kokkos.Allocation. Arrays and rank-1 views
// convert into each other without copying (kokkos.ViewOnAllocation1 one
// way; a view's Allocation, kokkos.ShapeOf's Offset and kokkos.ReadOnlyData
// the other), so that an array and its views count holders on the same
// Allocation.

// newAllocation returns an Allocation with one holder for bytes bytes of
// host memory in space, whose elements dal keeps as a Go slice; free, if
// not nil, runs at the last Release. space is one the host can access.
func newAllocation(label string, space kokkos.MemorySpace, bytes int, free func() error) (*kokkos.Allocation, error) {
	return kokkos.NewAllocation(label, space, 0, bytes, free)
}

// newBlockAllocation allocates bytes bytes in s, filled with zero bytes
// when zero is true, under a new Allocation with one holder whose last
// Release frees the block. The error is the space's own, or NewAllocation's
// (the block is then freed).
func newBlockAllocation(label string, s backend.BlockSpace, bytes int, zero bool) (*kokkos.Allocation, backend.Block, error) {
	b, err := s.Allocate(label, bytes, zero)
	if err != nil {
		return nil, backend.Block{}, err
	}
	a, err := kokkos.NewAllocation(label, s, b.Addr, bytes, b.Free)
	if err != nil {
		return nil, backend.Block{}, errors.Join(err, b.Free())
	}
	return a, b, nil
}
