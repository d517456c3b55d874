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
// Views in such a space hold a Block, which is freed when the last holder
// releases it.
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
	// cannot access the block.
	Host unsafe.Pointer
	// Free returns the block to its space. It is called exactly once,
	// when the last holder releases the block.
	Free func() error
	// FreeWhenUnreachable delays Free, after the last Release, until no
	// view refers to the block any longer (a runtime cleanup runs it).
	// Spaces whose host-accessible memory is unmapped by Free, such as
	// CUDA unified memory, set it: a view kept past the last Release must
	// not let host code touch unmapped memory.
	FreeWhenUnreachable bool
}

type hostSpace struct{}

func (hostSpace) Name() string         { return "HostSpace" }
func (hostSpace) HostAccessible() bool { return true }

// HostSpace is ordinary Go memory, the default memory space.
var HostSpace MemorySpace = hostSpace{}
