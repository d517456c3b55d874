package cuda

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/ebitengine/purego"
)

// Device attribute numbers (CUdevice_attribute).
const (
	attrMultiprocessorCount    = 16
	attrMaxThreadsPerMultiproc = 39
)

// A Device is one CUDA GPU, with its primary context retained for the
// life of the process. Devices are created once per ordinal and shared.
type Device struct {
	drv      *driver
	ordinal  int
	handle   int32   // CUdevice
	ctx      uintptr // primary CUcontext
	name     string
	sms      int
	threads  int // maximum resident threads per multiprocessor
	totalMem int64

	stagersMu sync.Mutex
	stagers   []*stager

	kernOnce sync.Once
	kern     *deviceKernels // loaded loop bodies and their scratch memory
}

var (
	devMu   sync.Mutex
	devices = map[int]*Device{}
	// devFast holds the first devices once made, read without devMu on
	// every launch.
	devFast [16]atomic.Pointer[Device]
)

// DeviceCount returns the number of CUDA devices, or the error that says
// why the driver could not be used.
func DeviceCount() (int, error) {
	d, err := loadDriver()
	if err != nil {
		return 0, err
	}
	var n int32
	if r, _, _ := purego.SyscallN(d.cuDeviceGetCount, uintptr(unsafe.Pointer(&n))); r != 0 {
		return 0, d.err("cuDeviceGetCount", r, "", "")
	}
	return int(n), nil
}

// GetDevice returns device n (0-based), retaining its primary context on
// first use. A number outside [0, DeviceCount()) is an error matching
// ErrInvalidDevice.
func GetDevice(n int) (*Device, error) {
	d, err := loadDriver()
	if err != nil {
		return nil, err
	}
	if n >= 0 && n < len(devFast) {
		if dev := devFast[n].Load(); dev != nil {
			return dev, nil
		}
	}
	devMu.Lock()
	defer devMu.Unlock()
	if dev := devices[n]; dev != nil {
		return dev, nil
	}
	count, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	if n < 0 || n >= count {
		return nil, fmt.Errorf("%w %d: the driver reports %d device(s)", ErrInvalidDevice, n, count)
	}
	dev := &Device{drv: d, ordinal: n}
	if r, _, _ := purego.SyscallN(d.cuDeviceGet, uintptr(unsafe.Pointer(&dev.handle)), uintptr(n)); r != 0 {
		return nil, d.err("cuDeviceGet", r, "", fmt.Sprintf("device %d", n))
	}
	h := uintptr(dev.handle)
	if r, _, _ := purego.SyscallN(d.cuDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(&dev.ctx)), h); r != 0 {
		return nil, d.err("cuDevicePrimaryCtxRetain", r, "", fmt.Sprintf("device %d", n))
	}
	var name [256]byte
	if r, _, _ := purego.SyscallN(d.cuDeviceGetName, uintptr(unsafe.Pointer(&name[0])), 256, h); r == 0 {
		dev.name = cString(&name[0])
	}
	dev.sms = dev.attr(attrMultiprocessorCount)
	dev.threads = dev.attr(attrMaxThreadsPerMultiproc)
	var total uint64
	if r, _, _ := purego.SyscallN(d.cuDeviceTotalMem, uintptr(unsafe.Pointer(&total)), h); r == 0 {
		dev.totalMem = int64(total)
	}
	devices[n] = dev
	if n < len(devFast) {
		devFast[n].Store(dev)
	}
	return dev, nil
}

func (dev *Device) attr(a int) int {
	var v int32
	if r, _, _ := purego.SyscallN(dev.drv.cuDeviceGetAttribute, uintptr(unsafe.Pointer(&v)), uintptr(a), uintptr(dev.handle)); r != 0 {
		return 0
	}
	return int(v)
}

// Ordinal returns the device's number.
func (dev *Device) Ordinal() int { return dev.ordinal }

// Name returns the device's product name, such as "NVIDIA H100 80GB HBM3".
func (dev *Device) Name() string { return dev.name }

// Multiprocessors returns the device's number of streaming multiprocessors.
func (dev *Device) Multiprocessors() int { return dev.sms }

// TotalMemory returns the device's memory in bytes.
func (dev *Device) TotalMemory() int64 { return dev.totalMem }

// Concurrency returns the number of threads the device keeps resident at
// once (multiprocessors times resident threads per multiprocessor), as
// Kokkos::Cuda::concurrency() does.
func (dev *Device) Concurrency() int { return dev.sms * dev.threads }

// MemInfo returns the device's free and total memory in bytes.
func (dev *Device) MemInfo() (free, total int64, err error) {
	var f, t uint64
	err = dev.call("cuMemGetInfo_v2", "", dev.drv.cuMemGetInfo, uintptr(unsafe.Pointer(&f)), uintptr(unsafe.Pointer(&t)))
	return int64(f), int64(t), err
}

// Synchronize waits until all work queued on the device is done
// (cuCtxSynchronize).
func (dev *Device) Synchronize() error {
	return dev.call("cuCtxSynchronize", "", dev.drv.cuCtxSynchronize)
}

// call runs one driver function with the device's primary context current
// on the calling thread, and turns a failure into an *Error naming call and
// label. The goroutine is locked to its OS thread for the duration, so the
// context cannot be lost to a thread switch between the two calls.
//
//go:uintptrescapes
func (dev *Device) call(call, label string, fn uintptr, args ...uintptr) error {
	runtime.LockOSThread()
	r, _, _ := purego.SyscallN(dev.drv.cuCtxSetCurrent, dev.ctx)
	if r == 0 {
		r, _, _ = purego.SyscallN(fn, args...)
	} else {
		call = "cuCtxSetCurrent"
	}
	runtime.UnlockOSThread()
	if r != 0 {
		return dev.drv.err(call, r, label, "")
	}
	return nil
}

// ctxCall is a context for a sequence of driver calls made on one locked
// thread, after a single cuCtxSetCurrent.
type ctxCall struct{ dev *Device }

// bind locks the calling goroutine to its thread and makes the device's
// context current; the returned function undoes the lock.
func (dev *Device) bind() (ctxCall, func(), error) {
	runtime.LockOSThread()
	if r, _, _ := purego.SyscallN(dev.drv.cuCtxSetCurrent, dev.ctx); r != 0 {
		runtime.UnlockOSThread()
		return ctxCall{}, nil, dev.drv.err("cuCtxSetCurrent", r, "", "")
	}
	return ctxCall{dev}, runtime.UnlockOSThread, nil
}

// do calls fn on the bound thread (the context is already current).
//
//go:uintptrescapes
func (c ctxCall) do(call, label string, fn uintptr, args ...uintptr) error {
	if r, _, _ := purego.SyscallN(fn, args...); r != 0 {
		return c.dev.drv.err(call, r, label, "")
	}
	return nil
}

// Synchronize waits until all work queued on every device the program has
// used is done. It returns nil when no driver is present.
func Synchronize() error {
	devMu.Lock()
	list := make([]*Device, 0, len(devices))
	for _, d := range devices {
		list = append(list, d)
	}
	devMu.Unlock()
	for _, d := range list {
		if err := d.Synchronize(); err != nil {
			return err
		}
	}
	return nil
}
