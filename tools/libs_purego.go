//go:build (linux || darwin) && (amd64 || arm64)

package tools

import (
	"runtime"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// library is a Kokkos Tools shared library, called through purego. Its
// entry points are the C functions of Kokkos_Profiling_C_Interface.h;
// one it lacks is skipped. The events reach it through a stream, which
// calls it from one goroutine at a time with the events in an order it
// accepts (stream.go).
type library struct {
	path string
	fn   struct {
		init, finalize                                uintptr
		beginFor, endFor, beginReduce, endReduce      uintptr
		beginScan, endScan, beginFence, endFence      uintptr
		alloc, dealloc, beginCopy, endCopy, push, pop uintptr
	}
	s *stream
}

func openLibrary(path string) (*library, error) {
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, err
	}
	l := &library{path: path}
	l.s = newStream(l)
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
	stdio.once.Do(openStdio)
	return l, nil
}

// stdio is the C library's standard I/O, which the tools print through.
// A Go program ends without C's exit, which would flush the buffers of C
// streams, so whatever a tool printed to a standard output that is a file
// or a pipe (fully buffered in C) would be lost: the first library loaded
// makes C's stdout line-buffered, as it is on a terminal, and every
// library's finalize is followed by fflush(NULL).
var stdio struct {
	once   sync.Once
	fflush uintptr
}

// _IOLBF is setvbuf's mode of line buffering, the same in glibc and in
// macOS's libc.
const _IOLBF = 1

func openStdio() {
	name, stdout := "libc.so.6", "stdout"
	if runtime.GOOS == "darwin" {
		name, stdout = "/usr/lib/libSystem.B.dylib", "__stdoutp"
	}
	h, err := purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return
	}
	stdio.fflush, _ = purego.Dlsym(h, "fflush")
	setvbuf, _ := purego.Dlsym(h, "setvbuf")
	p, _ := purego.Dlsym(h, stdout) // the address of the variable FILE *stdout
	if stdio.fflush == 0 || setvbuf == 0 || p == 0 {
		return
	}
	fp := **(**uintptr)(unsafe.Pointer(&p))
	purego.SyscallN(stdio.fflush, fp)
	purego.SyscallN(setvbuf, fp, 0, _IOLBF, 0)
}

// flushStdio flushes every C output stream.
func flushStdio() {
	if stdio.fflush != 0 {
		purego.SyscallN(stdio.fflush, 0)
	}
}

// cstr returns s as a NUL-terminated C string in Go memory, which the
// event that holds it keeps alive.
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

// Finalize ends what is still open in the library, calls its
// kokkosp_finalize_library, and flushes C's output streams.
func (l *library) Finalize() { l.s.finalize() }

// The sink's methods, which the stream calls under its mutex.

func (l *library) begin(e *event) uint64 {
	var fn uintptr
	switch e.kind {
	case evFor:
		fn = l.fn.beginFor
	case evReduce:
		fn = l.fn.beginReduce
	case evScan:
		fn = l.fn.beginScan
	case evFence:
		fn = l.fn.beginFence
	case evCopy:
		if l.fn.beginCopy != 0 {
			dh, sh := handle(e.space), handle(e.srcSpace)
			callCopy(l.fn.beginCopy, &dh, e.name, e.ptr, &sh, e.src, e.srcPtr, e.size)
		}
		return 0
	}
	var lid uint64
	if fn != 0 {
		purego.SyscallN(fn, uintptr(unsafe.Pointer(e.name)), uintptr(e.dev), uintptr(unsafe.Pointer(&lid)))
	}
	return lid
}

func (l *library) end(e *event, lid uint64) {
	var fn uintptr
	switch e.kind {
	case evFor:
		fn = l.fn.endFor
	case evReduce:
		fn = l.fn.endReduce
	case evScan:
		fn = l.fn.endScan
	case evFence:
		fn = l.fn.endFence
	case evCopy:
		if l.fn.endCopy != 0 {
			purego.SyscallN(l.fn.endCopy)
		}
		return
	}
	// A library without the begin function has not seen the begin.
	if fn != 0 && l.beginFn(e.kind) != 0 {
		purego.SyscallN(fn, uintptr(lid))
	}
}

func (l *library) beginFn(k eventKind) uintptr {
	switch k {
	case evFor:
		return l.fn.beginFor
	case evReduce:
		return l.fn.beginReduce
	case evScan:
		return l.fn.beginScan
	}
	return l.fn.beginFence
}

func (l *library) point(e *event) {
	switch e.kind {
	case evPush:
		if l.fn.push != 0 {
			purego.SyscallN(l.fn.push, uintptr(unsafe.Pointer(e.name)))
		}
	case evPop:
		if l.fn.pop != 0 {
			purego.SyscallN(l.fn.pop)
		}
	case evAlloc, evDealloc:
		fn := l.fn.alloc
		if e.kind == evDealloc {
			fn = l.fn.dealloc
		}
		if fn != 0 {
			h := handle(e.space)
			callData(fn, &h, e.name, e.ptr, e.size)
		}
	}
}

func (l *library) finalize() {
	if l.fn.finalize != 0 {
		purego.SyscallN(l.fn.finalize)
	}
	flushStdio()
}

// The Tool's methods, which the core calls on the goroutines of the
// events.

func (l *library) kernel(k eventKind, name string, devID uint32, id uint64) {
	l.s.beginInterval(&event{kind: k, id: id, dev: devID, name: cstr(name)})
}

func (l *library) BeginParallelFor(name string, devID uint32, id uint64) {
	l.kernel(evFor, name, devID, id)
}
func (l *library) EndParallelFor(id uint64) { l.s.endInterval(id) }
func (l *library) BeginParallelReduce(name string, devID uint32, id uint64) {
	l.kernel(evReduce, name, devID, id)
}
func (l *library) EndParallelReduce(id uint64) { l.s.endInterval(id) }
func (l *library) BeginParallelScan(name string, devID uint32, id uint64) {
	l.kernel(evScan, name, devID, id)
}
func (l *library) EndParallelScan(id uint64) { l.s.endInterval(id) }
func (l *library) BeginFence(name string, devID uint32, id uint64) {
	l.kernel(evFence, name, devID, id)
}
func (l *library) EndFence(id uint64) { l.s.endInterval(id) }

func (l *library) AllocateData(space, label string, ptr uintptr, size uint64) {
	l.s.pointEvent(&event{kind: evAlloc, space: space, name: cstr(label), ptr: ptr, size: size})
}

func (l *library) DeallocateData(space, label string, ptr uintptr, size uint64) {
	l.s.pointEvent(&event{kind: evDealloc, space: space, name: cstr(label), ptr: ptr, size: size})
}

func (l *library) BeginDeepCopy(dstSpace, dstLabel string, dst uintptr, srcSpace, srcLabel string, src uintptr, size uint64) {
	l.s.beginInterval(&event{kind: evCopy, space: dstSpace, name: cstr(dstLabel), ptr: dst,
		srcSpace: srcSpace, src: cstr(srcLabel), srcPtr: src, size: size})
}

func (l *library) EndDeepCopy() { l.s.endCopy() }

func (l *library) PushRegion(name string) { l.s.pointEvent(&event{kind: evPush, name: cstr(name)}) }
func (l *library) PopRegion()             { l.s.pointEvent(&event{kind: evPop}) }
