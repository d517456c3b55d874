//go:build (linux || darwin) && (amd64 || arm64)

package tools

import (
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// library is a Kokkos Tools shared library, called through purego. Its
// entry points are the C functions of Kokkos_Profiling_C_Interface.h;
// one it lacks is skipped.
type library struct {
	path string
	fn   struct {
		init, finalize                                uintptr
		beginFor, endFor, beginReduce, endReduce      uintptr
		beginScan, endScan, beginFence, endFence      uintptr
		alloc, dealloc, beginCopy, endCopy, push, pop uintptr
	}
	// ids maps the core's kernel and fence ids to the library's, which
	// its begin function writes and its end function expects.
	mu  sync.Mutex
	ids map[uint64]uint64
}

func openLibrary(path string) (*library, error) {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, err
	}
	l := &library{path: path, ids: map[uint64]uint64{}}
	for _, s := range []struct {
		name string
		p    *uintptr
	}{
		{"kokkosp_init_library", &l.fn.init},
		{"kokkosp_finalize_library", &l.fn.finalize},
		{"kokkosp_begin_parallel_for", &l.fn.beginFor},
		{"kokkosp_end_parallel_for", &l.fn.endFor},
		{"kokkosp_begin_parallel_reduce", &l.fn.beginReduce},
		{"kokkosp_end_parallel_reduce", &l.fn.endReduce},
		{"kokkosp_begin_parallel_scan", &l.fn.beginScan},
		{"kokkosp_end_parallel_scan", &l.fn.endScan},
		{"kokkosp_begin_fence", &l.fn.beginFence},
		{"kokkosp_end_fence", &l.fn.endFence},
		{"kokkosp_allocate_data", &l.fn.alloc},
		{"kokkosp_deallocate_data", &l.fn.dealloc},
		{"kokkosp_begin_deep_copy", &l.fn.beginCopy},
		{"kokkosp_end_deep_copy", &l.fn.endCopy},
		{"kokkosp_push_profile_region", &l.fn.push},
		{"kokkosp_pop_profile_region", &l.fn.pop},
	} {
		// A missing symbol leaves the entry 0: the event is skipped.
		*s.p, _ = purego.Dlsym(h, s.name)
	}
	return l, nil
}

// cstr returns s as a NUL-terminated C string, in Go memory that the call
// passing it keeps alive.
func cstr(s string) *byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return &b[0]
}

// A spaceHandle is Kokkos_Profiling_SpaceHandle: the space's name in
// char[64], NUL-terminated (at most 63 bytes are kept, as Kokkos's
// make_space_handle keeps them).
type spaceHandle [64]byte

func handle(name string) spaceHandle {
	var h spaceHandle
	copy(h[:63], name)
	return h
}

// init calls kokkosp_init_library(loadSeq, interfaceVersion, 0, NULL), as
// Kokkos does.
func (l *library) init(loadSeq int) {
	if l.fn.init != 0 {
		purego.SyscallN(l.fn.init, uintptr(loadSeq), interfaceVersion, 0, 0)
	}
}

func (l *library) Finalize() {
	if l.fn.finalize != 0 {
		purego.SyscallN(l.fn.finalize)
	}
}

func (l *library) begin(fn uintptr, name string, devID uint32, id uint64) {
	if fn == 0 {
		return
	}
	var lid uint64
	purego.SyscallN(fn, uintptr(unsafe.Pointer(cstr(name))), uintptr(devID), uintptr(unsafe.Pointer(&lid)))
	l.mu.Lock()
	l.ids[id] = lid
	l.mu.Unlock()
}

func (l *library) end(fn uintptr, id uint64) {
	l.mu.Lock()
	lid, ok := l.ids[id]
	delete(l.ids, id)
	l.mu.Unlock()
	if fn != 0 && ok {
		purego.SyscallN(fn, uintptr(lid))
	}
}

func (l *library) BeginParallelFor(name string, devID uint32, id uint64) {
	l.begin(l.fn.beginFor, name, devID, id)
}
func (l *library) EndParallelFor(id uint64) { l.end(l.fn.endFor, id) }
func (l *library) BeginParallelReduce(name string, devID uint32, id uint64) {
	l.begin(l.fn.beginReduce, name, devID, id)
}
func (l *library) EndParallelReduce(id uint64) { l.end(l.fn.endReduce, id) }
func (l *library) BeginParallelScan(name string, devID uint32, id uint64) {
	l.begin(l.fn.beginScan, name, devID, id)
}
func (l *library) EndParallelScan(id uint64) { l.end(l.fn.endScan, id) }
func (l *library) BeginFence(name string, devID uint32, id uint64) {
	l.begin(l.fn.beginFence, name, devID, id)
}
func (l *library) EndFence(id uint64) { l.end(l.fn.endFence, id) }

func (l *library) AllocateData(space, label string, ptr uintptr, size uint64) {
	if l.fn.alloc != 0 {
		h := handle(space)
		callData(l.fn.alloc, &h, cstr(label), ptr, size)
	}
}

func (l *library) DeallocateData(space, label string, ptr uintptr, size uint64) {
	if l.fn.dealloc != 0 {
		h := handle(space)
		callData(l.fn.dealloc, &h, cstr(label), ptr, size)
	}
}

func (l *library) BeginDeepCopy(dstSpace, dstLabel string, dst uintptr, srcSpace, srcLabel string, src uintptr, size uint64) {
	if l.fn.beginCopy != 0 {
		dh, sh := handle(dstSpace), handle(srcSpace)
		callCopy(l.fn.beginCopy, &dh, cstr(dstLabel), dst, &sh, cstr(srcLabel), src, size)
	}
}

func (l *library) EndDeepCopy() {
	if l.fn.endCopy != 0 {
		purego.SyscallN(l.fn.endCopy)
	}
}

func (l *library) PushRegion(name string) {
	if l.fn.push != 0 {
		purego.SyscallN(l.fn.push, uintptr(unsafe.Pointer(cstr(name))))
	}
}

func (l *library) PopRegion() {
	if l.fn.pop != 0 {
		purego.SyscallN(l.fn.pop)
	}
}
