package backend

import (
	"errors"
	"unsafe"
)

// A MemorySpace says where a view's elements live and who may touch them.
// Package kokkos names it kokkos.MemorySpace, for users.
//
// Its dynamic type must be comparable: spaces are compared with == (see the
// package documentation).
type MemorySpace interface {
	// Name is the space's name as Kokkos spells it, such as "HostSpace" or
	// "CudaSpace".
	Name() string
	// HostAccessible reports whether host code may read and write the
	// space's memory directly.
	HostAccessible() bool
}

// A BlockSpace is a memory space whose memory lies outside the Go heap.
// Views in such a space hold a Block under a kokkos.Allocation, which frees
// it by its last Release (see the package documentation for the lifetime
// rule).
type BlockSpace interface {
	MemorySpace
	// Allocate returns a block of at least bytes bytes. The label names
	// the allocation in errors and in leak reports. When zero is true the
	// block is filled with zero bytes.
	Allocate(label string, bytes int, zero bool) (Block, error)
}

// A Block is memory outside the Go heap.
type Block struct {
	// Addr is the block's address in its space (a device pointer for
	// CUDA device memory).
	Addr uintptr
	// Host is the block's address for host access, or nil when the host
	// cannot access the block. It stays valid until Free.
	Host unsafe.Pointer
	// Free returns the block to its space. Package kokkos calls it
	// exactly once, when the last holder releases the block, and never
	// for a leaked block.
	Free func() error
}

// ErrReleased is what a second Free of a block, or any use of an
// allocation after its final Release, wraps. Package kokkos exports it as
// kokkos.ErrReleased.
var ErrReleased = errors.New("kokkos: allocation released")
