package cuda

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// DeviceSpace is device memory of one GPU (cuMemAlloc), named "CudaSpace".
// The host cannot access it: its blocks have Host == nil. Its blocks are
// freed by the last Release only, as package backend describes; a block
// dropped without it is leaked and reported, never freed.
type DeviceSpace struct {
	Device int // the GPU's ordinal
	ops        // CopyBytes, FillBytes, CopyBytes2D, CopyBytesAsync, CopyStrided, FillStrided
}

// PinnedSpace is page-locked host memory registered with one GPU, named
// "CudaHostPinnedSpace". Its blocks are Go memory registered with
// cuMemHostRegister: host code may read and write them, the GPU copies to
// and from them at full bus speed, and they stay valid Go memory after Free
// (Free only unregisters them), so a stale host access cannot crash. Its
// blocks are unregistered by the last Release only, as package backend
// describes; a block dropped without it is leaked and reported.
type PinnedSpace struct {
	Device int // the GPU's ordinal
	ops        // CopyBytes, FillBytes, CopyBytes2D, CopyBytesAsync, CopyStrided, FillStrided
}

// ManagedSpace is unified memory (cuMemAllocManaged) of one GPU, named
// "CudaUVMSpace", accessible from host and device. Its blocks are freed by
// the last Release only, as package backend describes: slices from a
// view's Data, Row, Col and Ptr are valid until that Release and must not
// be touched after it (the host address is unmapped), and a block dropped
// without it is leaked and reported, never freed, so such slices stay valid.
type ManagedSpace struct {
	Device int // the GPU's ordinal
	ops        // CopyBytes, FillBytes, CopyBytes2D, CopyBytesAsync, CopyStrided, FillStrided
}

// The spaces of device 0, as Kokkos's CudaSpace, CudaHostPinnedSpace and
// CudaUVMSpace.
var (
	Space           = DeviceSpace{}
	HostPinnedSpace = PinnedSpace{}
	UVMSpace        = ManagedSpace{}
)

// SpaceOn returns the device memory space of device dev.
func SpaceOn(dev int) DeviceSpace { return DeviceSpace{Device: dev} }

// HostPinnedSpaceOn returns the pinned host memory space registered with
// device dev.
func HostPinnedSpaceOn(dev int) PinnedSpace { return PinnedSpace{Device: dev} }

// UVMSpaceOn returns the unified memory space of device dev.
func UVMSpaceOn(dev int) ManagedSpace { return ManagedSpace{Device: dev} }

var (
	_ backend.BlockSpace = DeviceSpace{}
	_ backend.BlockSpace = PinnedSpace{}
	_ backend.BlockSpace = ManagedSpace{}
)

// Name returns "CudaSpace".
func (DeviceSpace) Name() string { return "CudaSpace" }

// HostAccessible returns false: the host cannot touch device memory.
func (DeviceSpace) HostAccessible() bool { return false }

// Platform returns "cuda": the space's addresses are CUDA device
// pointers, which a CUDA-aware library (an MPI) may take directly.
func (DeviceSpace) Platform() string { return "cuda" }

// Staging returns the pinned host memory of the same device, through which
// data moves fastest between this space and the host.
func (s DeviceSpace) Staging() backend.MemorySpace { return HostPinnedSpaceOn(s.Device) }

var _ backend.DeviceMemory = DeviceSpace{}

// Name returns "CudaHostPinnedSpace".
func (PinnedSpace) Name() string { return "CudaHostPinnedSpace" }

// HostAccessible returns true.
func (PinnedSpace) HostAccessible() bool { return true }

// Name returns "CudaUVMSpace".
func (ManagedSpace) Name() string { return "CudaUVMSpace" }

// HostAccessible returns true.
func (ManagedSpace) HostAccessible() bool { return true }

type kind uint8

const (
	kindDevice kind = iota
	kindPinned
	kindManaged
)

func (k kind) space() string {
	return [...]string{"CudaSpace", "CudaHostPinnedSpace", "CudaUVMSpace"}[k]
}

// An Allocation describes one live block.
type Allocation struct {
	Label  string  // the label given to Allocate
	Space  string  // "CudaSpace", "CudaHostPinnedSpace" or "CudaUVMSpace"
	Device int     // the device ordinal
	Addr   uintptr // the block's address (device pointer, or host pointer for pinned memory)
	Bytes  int     // the size asked for
	Site   string  // file:line of the first caller outside the library
}

func (a Allocation) String() string {
	return fmt.Sprintf("%s %q: %d bytes at %#x on device %d, allocated at %s", a.Space, a.Label, a.Bytes, a.Addr, a.Device, a.Site)
}

// entry is the registry's record of one block.
type entry struct {
	Allocation
	size  int // bytes actually reserved (>= Bytes, at least 1)
	kind  kind
	dev   *Device
	state atomic.Int32 // 0 live, 1 freed, 2 leaked
	buf   []byte       // pinned: the Go memory
	pin   *runtime.Pinner
}

// holder is what a Block's Free closes over; when it becomes unreachable
// while the block is live, a cleanup records a leak and keeps the block
// allocated: host slices over unified memory may still point into it.
type holder struct{ e *entry }

var reg struct {
	mu     sync.RWMutex
	live   []*entry // sorted by Addr
	leaked []Allocation
	// kept holds the leaked blocks for good: their memory stays allocated
	// (and a pinned block's Pinner reachable, which must not be collected
	// while pinned).
	kept []*entry
}

func register(e *entry) {
	reg.mu.Lock()
	i := sort.Search(len(reg.live), func(i int) bool { return reg.live[i].Addr >= e.Addr })
	reg.live = append(reg.live, nil)
	copy(reg.live[i+1:], reg.live[i:])
	reg.live[i] = e
	reg.mu.Unlock()
}

func unregister(e *entry) {
	reg.mu.Lock()
	i := sort.Search(len(reg.live), func(i int) bool { return reg.live[i].Addr >= e.Addr })
	for ; i < len(reg.live) && reg.live[i].Addr == e.Addr; i++ {
		if reg.live[i] == e {
			reg.live = append(reg.live[:i], reg.live[i+1:]...)
			break
		}
	}
	reg.mu.Unlock()
}

// lookup returns the live block holding [addr, addr+n), or an error
// matching ErrFreed.
func lookup(addr uintptr, n int) (*entry, error) {
	reg.mu.RLock()
	i := sort.Search(len(reg.live), func(i int) bool { return reg.live[i].Addr > addr })
	var e *entry
	if i > 0 {
		e = reg.live[i-1]
	}
	reg.mu.RUnlock()
	if e == nil || addr < e.Addr || n < 0 || addr+uintptr(n) > e.Addr+uintptr(e.size) || e.state.Load() != 0 {
		if e != nil && addr >= e.Addr && addr < e.Addr+uintptr(e.size) {
			return nil, fmt.Errorf("%w: range %#x+%d runs past the end of %s", ErrFreed, addr, n, e.Allocation)
		}
		return nil, fmt.Errorf("%w: no live block holds %#x+%d bytes", ErrFreed, addr, n)
	}
	return e, nil
}

// LiveAllocations returns every block of this package not yet freed,
// ordered by address.
func LiveAllocations() []Allocation {
	reg.mu.RLock()
	defer reg.mu.RUnlock()
	out := make([]Allocation, len(reg.live))
	for i, e := range reg.live {
		out[i] = e.Allocation
	}
	return out
}

// TakeLeaked returns, and forgets, the blocks whose holders all became
// unreachable before Free: each is a leak in the program, reported by
// package cudatest. Such a block is never freed, and it is no longer in
// LiveAllocations.
func TakeLeaked() []Allocation {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	out := reg.leaked
	reg.leaked = nil
	return out
}

// allocSite returns file:line of the first caller outside the library's
// non-test code.
func allocSite() string {
	var pcs [24]uintptr
	n := runtime.Callers(3, pcs[:])
	frames := runtime.CallersFrames(pcs[:n])
	last := "unknown"
	for {
		f, more := frames.Next()
		last = fmt.Sprintf("%s:%d", f.File, f.Line)
		if !strings.HasPrefix(f.Function, "github.com/gokkos/kokkos") || strings.HasSuffix(f.File, "_test.go") {
			return last
		}
		if !more {
			return last
		}
	}
}

// Allocate returns a block of device memory of at least bytes bytes
// (cuMemAlloc), zero-filled when zero is true. Failures are *Error values
// naming the call and the label; errors.Is(err, ErrOutOfMemory) holds when
// the device is out of memory.
func (s DeviceSpace) Allocate(label string, bytes int, zero bool) (backend.Block, error) {
	return allocate(s.Device, kindDevice, label, bytes, zero)
}

// Allocate returns a block of page-locked host memory of at least bytes
// bytes, zero-filled (Go memory always is). Its Addr and Host are the same
// host address, usable in copies of this package.
func (s PinnedSpace) Allocate(label string, bytes int, zero bool) (backend.Block, error) {
	return allocate(s.Device, kindPinned, label, bytes, zero)
}

// Allocate returns a block of unified memory of at least bytes bytes
// (cuMemAllocManaged, attached globally), zero-filled when zero is true.
// A request larger than the device's free memory is refused with an error
// matching ErrOutOfMemory before the driver is asked.
func (s ManagedSpace) Allocate(label string, bytes int, zero bool) (backend.Block, error) {
	return allocate(s.Device, kindManaged, label, bytes, zero)
}

func allocate(ordinal int, k kind, label string, bytes int, zero bool) (backend.Block, error) {
	if bytes < 0 {
		return backend.Block{}, fmt.Errorf("cuda: %s allocation %q of %d bytes", k.space(), label, bytes)
	}
	dev, err := GetDevice(ordinal)
	if err != nil {
		return backend.Block{}, err
	}
	size := max(bytes, 1)
	e := &entry{Allocation: Allocation{Label: label, Space: k.space(), Device: ordinal, Bytes: bytes, Site: allocSite()},
		size: size, kind: k, dev: dev}
	detail := fmt.Sprintf("%d bytes", bytes)
	var host unsafe.Pointer
	switch k {
	case kindDevice:
		var p uintptr
		if err := dev.call("cuMemAlloc_v2", label, dev.drv.cuMemAlloc, uintptr(unsafe.Pointer(&p)), uintptr(size)); err != nil {
			err.(*Error).Detail = detail
			return backend.Block{}, err
		}
		e.Addr = p
	case kindManaged:
		free, _, err := dev.MemInfo()
		if err != nil {
			return backend.Block{}, err
		}
		if int64(size) > free {
			return backend.Block{}, &Error{Call: "cuMemAllocManaged", Code: codeOutOfMemory, Name: "CUDA_ERROR_OUT_OF_MEMORY",
				Msg: fmt.Sprintf("refused: %d bytes asked, %d free on device %d", size, free, ordinal), Label: label, Detail: detail}
		}
		var p uintptr
		const attachGlobal = 1
		if err := dev.call("cuMemAllocManaged", label, dev.drv.cuMemAllocManaged, uintptr(unsafe.Pointer(&p)), uintptr(size), attachGlobal); err != nil {
			err.(*Error).Detail = detail
			return backend.Block{}, err
		}
		e.Addr = p
		host = *(*unsafe.Pointer)(unsafe.Pointer(&p))
	case kindPinned:
		const page = 4096
		buf := make([]byte, size+page)
		off := (page - int(uintptr(unsafe.Pointer(&buf[0]))%page)) % page
		buf = buf[off : off+size : off+size]
		host = unsafe.Pointer(&buf[0])
		e.pin = new(runtime.Pinner)
		e.pin.Pin(host)
		const portable = 1
		if err := dev.call("cuMemHostRegister_v2", label, dev.drv.cuMemHostRegister, uintptr(host), uintptr(size), portable); err != nil {
			e.pin.Unpin()
			err.(*Error).Detail = detail
			return backend.Block{}, err
		}
		e.buf = buf
		e.Addr = uintptr(host)
		zero = false
	}
	if zero {
		if err := fillSync(dev, e.Addr, 1, 0, size, label); err != nil {
			e.release()
			return backend.Block{}, err
		}
	}
	register(e)
	h := &holder{e}
	runtime.AddCleanup(h, leak, e)
	return backend.Block{Addr: e.Addr, Host: host, Free: h.free}, nil
}

// free returns the block to its space; a second call returns an error
// matching ErrFreed.
func (h *holder) free() error {
	e := h.e
	if !e.state.CompareAndSwap(0, 1) {
		return fmt.Errorf("%w: %s freed twice", ErrFreed, e.Allocation)
	}
	unregister(e)
	return e.release()
}

// leak is the cleanup of a holder that became unreachable: a block never
// freed is recorded as leaked and kept allocated, since host slices over
// unified memory may outlive every holder.
func leak(e *entry) {
	if !e.state.CompareAndSwap(0, 2) {
		return
	}
	unregister(e)
	reg.mu.Lock()
	reg.leaked = append(reg.leaked, e.Allocation)
	reg.kept = append(reg.kept, e)
	reg.mu.Unlock()
}

func (e *entry) release() error {
	dev := e.dev
	switch e.kind {
	case kindDevice, kindManaged:
		return dev.call("cuMemFree_v2", e.Label, dev.drv.cuMemFree, e.Addr)
	default:
		err := dev.call("cuMemHostUnregister", e.Label, dev.drv.cuMemHostUnregister, e.Addr)
		e.pin.Unpin()
		e.buf = nil
		return err
	}
}
