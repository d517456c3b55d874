package kokkos

import (
	"runtime"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/gokkos/kokkos/internal/prof"
	"github.com/gokkos/kokkos/internal/sched"
)

// This file holds the profiling events the root package reports through
// internal/prof (package tools registers the tools that receive them):
// allocations and deallocations, deep copies and fences. Kernels are
// reported by internal/sched, where every pattern runs. Each call site
// tests prof.On() first, so that with no tool registered the cost is one
// load and a branch.

// launchEmpty reports a pattern over an empty range, which returns before
// it dispatches any work, to the profiling tools, as Kokkos reports every
// pattern: it dispatches a region of no units on s. Without a tool it does
// nothing.
func launchEmpty(s HostExecutionSpace, label string, kind sched.Kind) {
	if prof.On() {
		launch(s, dispatch{Label: label, Kind: kind, Chunk: 1, Body: func(int, int) {}}, true)
	}
}

// toolSpace is a memory space's name as Kokkos Tools know it: Kokkos's
// names lack gokkos's "Space" suffix ("Host", "Cuda", "CudaUVM").
func toolSpace(s MemorySpace) string {
	if s == nil {
		s = HostSpace
	}
	return strings.TrimSuffix(s.Name(), "Space")
}

// profState is what the deallocation event needs of an Allocation; it
// must not point back to it, since it is the argument of its cleanup.
type profState struct {
	done  atomic.Bool
	epoch uint64 // prof.Epoch() at the allocation
	space string
	label string
	ptr   uintptr
	size  uint64
}

func (s *profState) deallocate() {
	if !s.done.Swap(true) && prof.On() && prof.Epoch() == s.epoch {
		prof.Deallocate(s.space, s.label, s.ptr, s.size)
	}
}

// profileAlloc reports a's allocation at ptr, and arranges its
// deallocation event: at the last Release, or when the garbage collector
// reclaims a's Go memory, whichever comes first.
func profileAlloc(a *Allocation, ptr uintptr) {
	s := &profState{epoch: prof.Epoch(), space: toolSpace(a.space), label: a.label, ptr: ptr, size: uint64(a.bytes)}
	a.prof = s
	prof.Allocate(s.space, s.label, s.ptr, s.size)
	runtime.AddCleanup(a, (*profState).deallocate, s)
}

// sliceAddr is the address of data's first element, 0 for an empty slice.
func sliceAddr[T any](data []T) uintptr {
	return uintptr(unsafe.Pointer(unsafe.SliceData(data)))
}

// beginCopy reports the start of a deep copy from s into d; s nil is a
// fill from the host value at x.
func beginCopy[T any](d, s *desc[T], x uintptr) {
	dm := memOf(d)
	size := uint64(d.span() * sizeOf[T]())
	if s == nil {
		prof.BeginDeepCopy(toolSpace(d.rec.Space()), d.label(), dm.lo, "Host", "Scalar", x, size)
		return
	}
	sm := memOf(s)
	prof.BeginDeepCopy(toolSpace(d.rec.Space()), d.label(), dm.lo, toolSpace(s.rec.Space()), s.label(), sm.lo, size)
}

// fenceID is the device id of the package Fence, as Kokkos's global
// fence reports it.
const fenceID = 0
