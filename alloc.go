package kokkos

import (
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
)

// An Allocation is the record under every managed view and every dal.Array:
// the label, the memory space, the size in bytes and the count of holders.
//
// Go copies a view by assignment without telling anyone, so the count cannot
// follow copies the way Kokkos's shared_ptr-like count does. Instead the
// count is explicit: a new allocation has one holder, Retain adds one and
// Release removes one. Views and subviews share their parent's Allocation;
// copying a view does not change the count.
//
// Go-heap memory (HostSpace) is reclaimed by the garbage collector once no
// view refers to it; for it Release only updates the count. Memory outside
// the Go heap, or any memory given a free function, is freed by the Release
// that drops the count to zero, exactly once, and by nothing else: see
// package backend for the rule and [SetLeakHandler] for what happens to an
// Allocation dropped before that Release.
type Allocation struct {
	label string
	space MemorySpace
	bytes int
	addr  uintptr
	refs  atomic.Int64
	// state is nil unless the memory has a free function.
	state *allocState
	// managed is false for views over caller memory (Unmanaged): they do
	// not count holders, and Retain and Release do nothing.
	managed bool
	// prof is nil unless the allocation was reported to a profiling tool.
	prof *profState
	// dead is set by the final Release. The element accessors of views
	// with flagForeign read it, as a plain load on their cold path, before
	// they touch the memory; a view used at the same time as its final
	// Release is a data race in the caller, which the race detector sees
	// here.
	dead bool
	// self is the Allocation itself, and nil from the final Release on of
	// an allocation whose memory that Release frees: the offset views'
	// accessors compare it with a field of theirs, one compare where a test
	// of dead would cost their inlining.
	self *Allocation
}

// allocState is what the leak report needs; it must not point back to the
// Allocation, or the Allocation would never become unreachable.
type allocState struct {
	freed atomic.Bool
	free  func() error
	label string
	space MemorySpace
	bytes int
	stack []uintptr // program counters of the allocating goroutine
}

func (s *allocState) freeOnce() error {
	if s.freed.Swap(true) {
		return nil
	}
	return s.free()
}

// newAllocation returns an Allocation with one holder for bytes bytes of
// memory in space, labelled label. free, if not nil, runs exactly once, when
// the last holder releases the allocation, and never otherwise: if the
// Allocation becomes unreachable before that, free never runs and the leak
// is reported (see SetLeakHandler).
func newAllocation(label string, space MemorySpace, bytes int, free func() error) *Allocation {
	if space == nil {
		space = HostSpace
	}
	a := &Allocation{label: label, space: space, bytes: bytes, managed: true}
	a.self = a
	a.refs.Store(1)
	if free != nil {
		s := &allocState{free: free, label: label, space: space, bytes: bytes}
		var pcs [maxLeakFrames]uintptr
		s.stack = slices.Clone(pcs[:runtime.Callers(2, pcs[:])])
		a.state = s
		runtime.AddCleanup(a, reportLeak, s)
	}
	return a
}

func unmanagedAllocation(label string, space MemorySpace, bytes int) *Allocation {
	a := &Allocation{label: label, space: space, bytes: bytes}
	a.self = a
	return a
}

// Label returns the label given when the memory was allocated.
func (a *Allocation) Label() string {
	if a == nil {
		return ""
	}
	return a.label
}

// Space returns the memory space of the allocation.
func (a *Allocation) Space() MemorySpace {
	if a == nil {
		return HostSpace
	}
	return a.space
}

// Bytes returns the allocation's size in bytes.
func (a *Allocation) Bytes() int {
	if a == nil {
		return 0
	}
	return a.bytes
}

// Addr returns the address of the allocation's first byte in its space, for
// memory outside the Go heap; it is 0 for Go-heap memory.
func (a *Allocation) Addr() uintptr {
	if a == nil {
		return 0
	}
	return a.addr
}

// UseCount returns the number of holders: one for the creator plus one per
// Retain, minus one per Release. It is 0 for unmanaged memory and after the
// final Release.
func (a *Allocation) UseCount() int {
	if a == nil || !a.managed {
		return 0
	}
	return int(a.refs.Load())
}

// Retain adds a holder. It panics if the allocation was already released,
// since the memory may be gone.
func (a *Allocation) Retain() {
	if a == nil || !a.managed {
		return
	}
	for {
		n := a.refs.Load()
		if n <= 0 {
			panic(fmt.Sprintf("kokkos: Retain of allocation %q after its final Release", a.label))
		}
		if a.refs.CompareAndSwap(n, n+1) {
			return
		}
	}
}

// Release removes a holder. The release that removes the last one frees
// memory outside the Go heap and returns the space's error, if any: from
// then on no view, slice or pointer into that memory may be used. Releasing
// more often than the allocation was held is an error wrapping ErrReleased,
// and frees nothing.
func (a *Allocation) Release() error {
	if a == nil || !a.managed {
		return nil
	}
	for {
		n := a.refs.Load()
		if n <= 0 {
			return errorf(ErrReleased, "kokkos: allocation %q released more times than it was held", a.label)
		}
		if a.refs.CompareAndSwap(n, n-1) {
			if n == 1 {
				a.dead = true
				if a.state != nil {
					a.self = nil
				}
			}
			if n == 1 && a.prof != nil {
				a.prof.deallocate()
			}
			if n == 1 && a.state != nil {
				return a.state.freeOnce()
			}
			return nil
		}
	}
}

// freesMemory reports whether the final Release frees a's memory: memory
// outside the Go heap, or any memory given a free function.
func (a *Allocation) freesMemory() bool { return a != nil && a.state != nil }

// Released reports whether the last holder has released the allocation.
func (a *Allocation) Released() bool {
	return a != nil && a.managed && a.refs.Load() <= 0
}
