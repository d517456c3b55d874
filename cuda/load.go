package cuda

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
	"github.com/gokkos/kokkos/backend"
)

// EnvDriver names the environment variable that overrides the driver
// search: when set, the package loads that file and no other.
const EnvDriver = "GOKKOS_CUDA_DRIVER"

// EnvNVRTC names the environment variable that overrides the NVRTC search.
const EnvNVRTC = "GOKKOS_CUDA_NVRTC"

// DriverSearchPath lists, in order, the files tried when EnvDriver is unset.
// The last entry is the plain soname, resolved by the dynamic loader.
var DriverSearchPath = []string{
	"/usr/local/nvidia/lib64/libcuda.so.1",
	"/usr/lib/x86_64-linux-gnu/libcuda.so.1",
	"/usr/lib64/libcuda.so.1",
	"/usr/local/cuda/lib64/libcuda.so.1",
	"libcuda.so.1",
}

// ErrNoDriver is matched (errors.Is) by the error every function returns
// when the CUDA driver library could not be loaded.
var ErrNoDriver = errors.New("cuda: no CUDA driver found")

// NoDriverError reports that no CUDA driver library could be loaded. It
// lists each place tried and why it failed. errors.Is(err, ErrNoDriver)
// holds for it.
type NoDriverError struct {
	Library string   // "libcuda.so.1" or "libnvrtc.so"
	Tried   []string // each path tried, in order
	Reasons []string // why each path failed, parallel to Tried
}

func (e *NoDriverError) Error() string {
	var b strings.Builder
	if e.Library == "libnvrtc.so" {
		b.WriteString("cuda: no NVRTC library found; looked in: ")
	} else {
		b.WriteString("cuda: no CUDA driver found (set " + EnvDriver + " to the path of libcuda.so.1); looked in: ")
	}
	for i, p := range e.Tried {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p)
		if i < len(e.Reasons) && e.Reasons[i] != "" {
			b.WriteString(" (" + e.Reasons[i] + ")")
		}
	}
	return b.String()
}

// Is reports whether target is ErrNoDriver.
func (e *NoDriverError) Is(target error) bool { return target == ErrNoDriver }

// driver holds the loaded library and the addresses of the driver
// functions the package calls.
type driver struct {
	path   string
	handle uintptr

	cuInit, cuDriverGetVersion, cuGetErrorName, cuGetErrorString                 uintptr
	cuDeviceGetCount, cuDeviceGet, cuDeviceGetName, cuDeviceGetAttribute         uintptr
	cuDeviceTotalMem, cuDevicePrimaryCtxRetain, cuCtxSetCurrent, cuCtxGetCurrent uintptr
	cuDeviceCanAccessPeer, cuCtxEnablePeerAccess, cuMemcpyPeer                   uintptr
	cuCtxSynchronize, cuMemGetInfo, cuMemAlloc, cuMemFree, cuMemAllocManaged     uintptr
	cuMemAllocHost, cuMemFreeHost, cuMemHostRegister, cuMemHostUnregister        uintptr
	cuMemcpy, cuMemcpyAsync, cuMemcpyHtoD, cuMemcpyDtoH, cuMemcpyDtoD            uintptr
	cuMemcpyHtoDAsync, cuMemcpyDtoHAsync, cuMemcpy2D, cuMemcpy2DAsync            uintptr
	cuMemsetD8Async, cuMemsetD16Async, cuMemsetD32Async                          uintptr
	cuMemsetD2D8Async, cuMemsetD2D16Async, cuMemsetD2D32Async                    uintptr
	cuStreamCreate, cuStreamDestroy, cuStreamSynchronize                         uintptr
	cuEventCreate, cuEventRecord, cuEventSynchronize, cuEventDestroy             uintptr
	cuStreamWaitEvent                                                            uintptr
	cuStreamCreateWithPriority, cuCtxGetStreamPriorityRange, cuStreamGetPriority uintptr
	cuModuleLoadData, cuModuleUnload, cuModuleGetFunction, cuLaunchKernel        uintptr
	cuFuncGetAttribute, cuEventElapsedTime, cuMemsetD2D32                        uintptr
	cuStreamBeginCapture, cuStreamEndCapture, cuGraphInstantiate, cuGraphLaunch  uintptr
	cuGraphExecDestroy, cuGraphDestroy                                           uintptr
	cuFuncSetAttribute                                                           uintptr

	version int
}

func (d *driver) symbols() []struct {
	name string
	p    *uintptr
} {
	return []struct {
		name string
		p    *uintptr
	}{
		{"cuInit", &d.cuInit}, {"cuDriverGetVersion", &d.cuDriverGetVersion},
		{"cuGetErrorName", &d.cuGetErrorName}, {"cuGetErrorString", &d.cuGetErrorString},
		{"cuDeviceGetCount", &d.cuDeviceGetCount}, {"cuDeviceGet", &d.cuDeviceGet},
		{"cuDeviceGetName", &d.cuDeviceGetName}, {"cuDeviceGetAttribute", &d.cuDeviceGetAttribute},
		{"cuDeviceTotalMem_v2", &d.cuDeviceTotalMem}, {"cuDevicePrimaryCtxRetain", &d.cuDevicePrimaryCtxRetain},
		{"cuCtxSetCurrent", &d.cuCtxSetCurrent}, {"cuCtxGetCurrent", &d.cuCtxGetCurrent},
		{"cuDeviceCanAccessPeer", &d.cuDeviceCanAccessPeer}, {"cuCtxEnablePeerAccess", &d.cuCtxEnablePeerAccess},
		{"cuMemcpyPeer", &d.cuMemcpyPeer},
		{"cuCtxSynchronize", &d.cuCtxSynchronize}, {"cuMemGetInfo_v2", &d.cuMemGetInfo},
		{"cuMemAlloc_v2", &d.cuMemAlloc}, {"cuMemFree_v2", &d.cuMemFree},
		{"cuMemAllocManaged", &d.cuMemAllocManaged}, {"cuMemAllocHost_v2", &d.cuMemAllocHost},
		{"cuMemFreeHost", &d.cuMemFreeHost}, {"cuMemHostRegister_v2", &d.cuMemHostRegister},
		{"cuMemHostUnregister", &d.cuMemHostUnregister}, {"cuMemcpy", &d.cuMemcpy},
		{"cuMemcpyAsync", &d.cuMemcpyAsync}, {"cuMemcpyHtoD_v2", &d.cuMemcpyHtoD},
		{"cuMemcpyDtoH_v2", &d.cuMemcpyDtoH}, {"cuMemcpyDtoD_v2", &d.cuMemcpyDtoD},
		{"cuMemcpyHtoDAsync_v2", &d.cuMemcpyHtoDAsync}, {"cuMemcpyDtoHAsync_v2", &d.cuMemcpyDtoHAsync},
		{"cuMemcpy2D_v2", &d.cuMemcpy2D}, {"cuMemcpy2DAsync_v2", &d.cuMemcpy2DAsync},
		{"cuMemsetD8Async", &d.cuMemsetD8Async}, {"cuMemsetD16Async", &d.cuMemsetD16Async},
		{"cuMemsetD32Async", &d.cuMemsetD32Async}, {"cuMemsetD2D8Async", &d.cuMemsetD2D8Async},
		{"cuMemsetD2D16Async", &d.cuMemsetD2D16Async}, {"cuMemsetD2D32Async", &d.cuMemsetD2D32Async},
		{"cuStreamCreate", &d.cuStreamCreate}, {"cuStreamDestroy_v2", &d.cuStreamDestroy},
		{"cuStreamSynchronize", &d.cuStreamSynchronize},
		{"cuStreamCreateWithPriority", &d.cuStreamCreateWithPriority},
		{"cuCtxGetStreamPriorityRange", &d.cuCtxGetStreamPriorityRange},
		{"cuStreamGetPriority", &d.cuStreamGetPriority},
		{"cuEventCreate", &d.cuEventCreate}, {"cuEventRecord", &d.cuEventRecord},
		{"cuEventSynchronize", &d.cuEventSynchronize}, {"cuEventDestroy_v2", &d.cuEventDestroy},
		{"cuStreamWaitEvent", &d.cuStreamWaitEvent},
		{"cuModuleLoadData", &d.cuModuleLoadData}, {"cuModuleUnload", &d.cuModuleUnload},
		{"cuModuleGetFunction", &d.cuModuleGetFunction}, {"cuLaunchKernel", &d.cuLaunchKernel},
		{"cuFuncGetAttribute", &d.cuFuncGetAttribute}, {"cuEventElapsedTime", &d.cuEventElapsedTime},
		{"cuMemsetD2D32_v2", &d.cuMemsetD2D32},
		{"cuStreamBeginCapture_v2", &d.cuStreamBeginCapture}, {"cuStreamEndCapture", &d.cuStreamEndCapture},
		{"cuGraphInstantiateWithFlags", &d.cuGraphInstantiate}, {"cuGraphLaunch", &d.cuGraphLaunch},
		{"cuGraphExecDestroy", &d.cuGraphExecDestroy}, {"cuGraphDestroy", &d.cuGraphDestroy},
		{"cuFuncSetAttribute", &d.cuFuncSetAttribute},
	}
}

var (
	drvOnce sync.Once
	drv     *driver
	drvErr  error
)

// loadDriver loads and initializes the driver once; later calls return
// the first result.
func loadDriver() (*driver, error) {
	drvOnce.Do(func() {
		drv, drvErr = openDriver()
		if drvErr == nil {
			// kokkos.Fence, DeepCopy and Fill wait for device work.
			backend.RegisterFence(Synchronize)
		}
	})
	return drv, drvErr
}

func openDriver() (*driver, error) {
	paths := DriverSearchPath
	if p := os.Getenv(EnvDriver); p != "" {
		paths = []string{p}
	}
	nd := &NoDriverError{Library: "libcuda.so.1"}
	for _, p := range paths {
		if strings.Contains(p, "/") {
			if _, err := os.Stat(p); err != nil {
				nd.Tried = append(nd.Tried, p)
				nd.Reasons = append(nd.Reasons, "no such file")
				continue
			}
		}
		h, err := purego.Dlopen(p, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			nd.Tried = append(nd.Tried, p)
			nd.Reasons = append(nd.Reasons, err.Error())
			continue
		}
		d := &driver{path: p, handle: h}
		for _, s := range d.symbols() {
			a, err := purego.Dlsym(h, s.name)
			if err != nil || a == 0 {
				return nil, fmt.Errorf("cuda: driver %s lacks %s (driver too old?)", p, s.name)
			}
			*s.p = a
		}
		if r, _, _ := purego.SyscallN(d.cuInit, 0); r != 0 {
			return nil, d.err("cuInit", r, "", "")
		}
		var v int32
		if r, _, _ := purego.SyscallN(d.cuDriverGetVersion, uintptr(unsafe.Pointer(&v))); r != 0 {
			return nil, d.err("cuDriverGetVersion", r, "", "")
		}
		d.version = int(v)
		return d, nil
	}
	return nil, nd
}

// DriverPath returns the path of the loaded driver library, or the error
// that says why none could be loaded.
func DriverPath() (string, error) {
	d, err := loadDriver()
	if err != nil {
		return "", err
	}
	return d.path, nil
}

// DriverVersion returns the CUDA version the driver supports, as
// 1000*major + 10*minor (12040 for CUDA 12.4).
func DriverVersion() (int, error) {
	d, err := loadDriver()
	if err != nil {
		return 0, err
	}
	return d.version, nil
}

// Available returns nil when the driver loads and at least one device is
// present, and otherwise the error that says why CUDA cannot be used.
func Available() error {
	n, err := DeviceCount()
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("cuda: the CUDA driver reports no device")
	}
	return nil
}

// cString reads a NUL-terminated C string at p (memory owned by the
// driver, never freed).
func cString(p *byte) string {
	if p == nil {
		return ""
	}
	n := 0
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
