package cuda

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/ebitengine/purego"
)

// CUDA driver result codes the package tests for.
const (
	codeOutOfMemory = 2
)

// ErrOutOfMemory is matched (errors.Is) by an *Error whose code is
// CUDA_ERROR_OUT_OF_MEMORY, and by the error of a managed allocation
// refused because the device has too little free memory.
var ErrOutOfMemory = errors.New("cuda: out of memory")

// ErrFreed is matched (errors.Is) by the error of a Free called a second
// time on one block, and of a copy or fill that names an address range
// outside every live block of this package (freed, or never allocated
// here).
var ErrFreed = errors.New("cuda: memory freed or not allocated by package cuda")

// ErrInvalidDevice is matched by the error for a device number outside
// [0, DeviceCount()).
var ErrInvalidDevice = errors.New("cuda: invalid device")

// Error is a failed CUDA driver call.
type Error struct {
	Call   string // the driver function, such as "cuMemAlloc_v2"
	Code   int    // the CUresult
	Name   string // the CUresult's name, such as "CUDA_ERROR_OUT_OF_MEMORY"
	Msg    string // the driver's description of the code
	Label  string // the allocation's or view's label, where one applies
	Detail string // arguments worth knowing, such as the byte count
}

func (e *Error) Error() string {
	s := "cuda: " + e.Call
	if e.Label != "" {
		s += fmt.Sprintf(" (label %q)", e.Label)
	}
	if e.Detail != "" {
		s += " [" + e.Detail + "]"
	}
	return fmt.Sprintf("%s: %s (%d): %s", s, e.Name, e.Code, e.Msg)
}

// Is reports whether target is ErrOutOfMemory and e is an out-of-memory
// failure.
func (e *Error) Is(target error) bool {
	return target == ErrOutOfMemory && e.Code == codeOutOfMemory
}

// err builds the *Error for result code r of call.
func (d *driver) err(call string, r uintptr, label, detail string) *Error {
	e := &Error{Call: call, Code: int(r), Label: label, Detail: detail}
	var p *byte
	if c, _, _ := purego.SyscallN(d.cuGetErrorName, r, uintptr(unsafe.Pointer(&p))); c == 0 {
		e.Name = cString(p)
	} else {
		e.Name = fmt.Sprintf("CUDA_ERROR_%d", r)
	}
	p = nil
	if c, _, _ := purego.SyscallN(d.cuGetErrorString, r, uintptr(unsafe.Pointer(&p))); c == 0 {
		e.Msg = cString(p)
	} else {
		e.Msg = "unknown error"
	}
	return e
}
