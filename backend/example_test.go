//go:build unix

package backend_test

import (
	"fmt"
	"syscall"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// mmapSpace is a memory space outside the Go heap: anonymous mappings,
// which the host may read and write.
type mmapSpace struct{}

func (mmapSpace) Name() string         { return "MmapSpace" }
func (mmapSpace) HostAccessible() bool { return true }

// Allocate maps bytes bytes; fresh mappings are zero, so zero needs nothing.
func (mmapSpace) Allocate(label string, bytes int, zero bool) (backend.Block, error) {
	mem, err := syscall.Mmap(-1, 0, max(bytes, 1), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return backend.Block{}, fmt.Errorf("mapping %d bytes for %q: %w", bytes, label, err)
	}
	p := unsafe.Pointer(&mem[0])
	return backend.Block{Addr: uintptr(p), Host: p, Free: func() error { return syscall.Munmap(mem) }}, nil
}

var _ backend.BlockSpace = mmapSpace{}

// A backend's memory space is a BlockSpace: views allocate in it with
// kokkos.InSpace, and the final Release of the view frees the block.
func ExampleBlockSpace() {
	v, err := kokkos.NewView2[float64]("grid", 3, 4, kokkos.InSpace(mmapSpace{}))
	if err != nil {
		fmt.Println(err)
		return
	}
	v.Set(2, 3, 1.5)
	fmt.Println(v.Space().Name(), v.At(2, 3), v.Span())
	if err := v.Release(); err != nil {
		fmt.Println(err)
	}
	fmt.Println(v.IsAllocated())
	// Output:
	// MmapSpace 1.5 12
	// false
}
