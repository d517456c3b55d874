package kokkos

import "unsafe"

// A MemorySpace says where a view's elements live and who may touch them.
//
// HostSpace is ordinary Go memory, managed by the garbage collector. Other
// spaces (CUDA device, pinned and unified memory, in package
// github.com/gokkos/kokkos/cuda) hold memory outside the Go heap; they
// implement BlockSpace as well.
type MemorySpace interface {
	// Name is the space's name as Kokkos spells it, such as "HostSpace" or
	// "CudaSpace".
	Name() string
	// HostAccessible reports whether host code may read and write the
	// space's memory directly.
	HostAccessible() bool
}

// A BlockSpace is a memory space whose memory lies outside the Go heap.
// Views in such a space hold a Block under an Allocation.
//
// Memory outside the Go heap is freed by the last Release and by nothing
// else. Block.Free runs exactly once, when Release drops the Allocation's
// count of holders to zero; the garbage collector never frees such memory.
// Slices and pointers that Data, Row, Col and Ptr return for host-accessible
// blocks (CUDA unified memory, a mapping) are valid until that Release and
// must not be used after it, as with syscall.Munmap. An Allocation that
// becomes unreachable before its final Release leaks its block: the block is
// never freed, so such slices stay valid, and the leak is reported once, to
// the handler of SetLeakHandler (by default on standard error). Tests find
// leaks without waiting for the collector by wrapping their space in
// github.com/gokkos/kokkos/backend/backendtest.CheckedSpace.
//
// Spaces are compared with ==, so a BlockSpace must be of a comparable type
// (a small struct or a pointer).
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
	// Free returns the block to its space. The package calls it exactly
	// once, when the last holder releases the block, and never for a
	// leaked block (see BlockSpace).
	Free func() error
}

type hostSpace struct{}

func (hostSpace) Name() string         { return "HostSpace" }
func (hostSpace) HostAccessible() bool { return true }

// HostSpace is ordinary Go memory, the default memory space.
var HostSpace MemorySpace = hostSpace{}
