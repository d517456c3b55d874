//go:build linux || darwin

package tools

import (
	"unsafe"

	"github.com/ebitengine/purego"
)

// On arm64 (AAPCS64, and Apple's variant of it) a struct argument of more
// than 16 bytes is copied by the caller to memory and passed as a pointer
// to that copy, in the next integer register: so a handle goes as the
// address of a copy that the callee may not keep.

// callData calls fn(SpaceHandle h, const char* label, const void* ptr,
// uint64_t size).
func callData(fn uintptr, h *spaceHandle, label *byte, ptr uintptr, size uint64) {
	purego.SyscallN(fn, uintptr(unsafe.Pointer(h)), uintptr(unsafe.Pointer(label)), ptr, uintptr(size))
}

// callCopy calls fn(SpaceHandle dh, const char* dl, const void* d,
// SpaceHandle sh, const char* sl, const void* s, uint64_t size).
func callCopy(fn uintptr, dh *spaceHandle, dl *byte, d uintptr, sh *spaceHandle, sl *byte, s uintptr, size uint64) {
	purego.SyscallN(fn, uintptr(unsafe.Pointer(dh)), uintptr(unsafe.Pointer(dl)), d,
		uintptr(unsafe.Pointer(sh)), uintptr(unsafe.Pointer(sl)), s, uintptr(size))
}
