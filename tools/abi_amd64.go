//go:build linux || darwin

package tools

import (
	"unsafe"

	"github.com/ebitengine/purego"
)

// On amd64 (System V ABI) a 64-byte struct argument is of class MEMORY:
// the caller copies it onto the stack, in the order of the arguments,
// and the integer arguments after it still take the registers rdi, rsi,
// rdx, rcx, r8, r9. purego.SyscallN puts its first six arguments in those
// registers and the rest on the stack in order, so a handle goes as its
// eight words after six register words.

// words returns h as the eight words it occupies on the stack.
func words(h *spaceHandle) [8]uintptr { return *(*[8]uintptr)(unsafe.Pointer(h)) }

// callData calls fn(SpaceHandle h, const char* label, const void* ptr,
// uint64_t size).
func callData(fn uintptr, h *spaceHandle, label *byte, ptr uintptr, size uint64) {
	w := words(h)
	purego.SyscallN(fn, uintptr(unsafe.Pointer(label)), ptr, uintptr(size), 0, 0, 0,
		w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7])
}

// callCopy calls fn(SpaceHandle dh, const char* dl, const void* d,
// SpaceHandle sh, const char* sl, const void* s, uint64_t size).
func callCopy(fn uintptr, dh *spaceHandle, dl *byte, d uintptr, sh *spaceHandle, sl *byte, s uintptr, size uint64) {
	a, b := words(dh), words(sh)
	purego.SyscallN(fn, uintptr(unsafe.Pointer(dl)), d, uintptr(unsafe.Pointer(sl)), s, uintptr(size), 0,
		a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
		b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7])
}
