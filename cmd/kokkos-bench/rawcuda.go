package main

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/gokkos/kokkos/cuda"
)

// The baselines of the cuda suites call the CUDA driver and NVRTC
// directly, through this loader of the benchmark's own, with nothing of
// package cuda on the way: the same driver and NVRTC files package cuda
// loaded (cuda.DriverPath, cuda.NVRTC), and device 0's primary context,
// which package cuda uses too, so that addresses of views in CUDA spaces
// are valid in both.

// rawCUDA is the driver's functions and device 0's primary context.
type rawCUDA struct {
	ctx uintptr
	sm  int // compute capability, such as 90

	cuGetErrorName, cuCtxSetCurrent, cuCtxSynchronize     uintptr
	cuMemcpy, cuMemcpyHtoD, cuMemcpyDtoH                  uintptr
	cuModuleLoadData, cuModuleGetFunction, cuLaunchKernel uintptr

	nv *rawNVRTC
}

// rawNVRTC is NVRTC's functions.
type rawNVRTC struct {
	create, destroy, compileProg, logSize, getLog uintptr
	cubinSize, getCubin, ptxSize, getPTX, errStr  uintptr
}

var (
	rawOnce sync.Once
	rawDrv  *rawCUDA
	rawErr  error
)

// openRawCUDA loads the driver and NVRTC once and retains device 0's
// primary context.
func openRawCUDA() (*rawCUDA, error) {
	rawOnce.Do(func() { rawDrv, rawErr = loadRawCUDA() })
	return rawDrv, rawErr
}

type symbol struct {
	name string
	p    *uintptr
}

func bindSymbols(lib string, h uintptr, syms []symbol) error {
	for _, s := range syms {
		a, err := purego.Dlsym(h, s.name)
		if err != nil || a == 0 {
			return fmt.Errorf("baseline: %s lacks %s", lib, s.name)
		}
		*s.p = a
	}
	return nil
}

func loadRawCUDA() (*rawCUDA, error) {
	r := &rawCUDA{}
	path, err := cuda.DriverPath()
	if err != nil {
		return nil, err
	}
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("baseline: %s: %w", path, err)
	}
	var cuInit, cuDeviceGet, cuDeviceGetAttribute, cuDevicePrimaryCtxRetain uintptr
	if err := bindSymbols(path, h, []symbol{
		{"cuInit", &cuInit}, {"cuDeviceGet", &cuDeviceGet}, {"cuDeviceGetAttribute", &cuDeviceGetAttribute},
		{"cuDevicePrimaryCtxRetain", &cuDevicePrimaryCtxRetain}, {"cuGetErrorName", &r.cuGetErrorName},
		{"cuCtxSetCurrent", &r.cuCtxSetCurrent}, {"cuCtxSynchronize", &r.cuCtxSynchronize},
		{"cuMemcpy", &r.cuMemcpy}, {"cuMemcpyHtoD_v2", &r.cuMemcpyHtoD}, {"cuMemcpyDtoH_v2", &r.cuMemcpyDtoH},
		{"cuModuleLoadData", &r.cuModuleLoadData}, {"cuModuleGetFunction", &r.cuModuleGetFunction},
		{"cuLaunchKernel", &r.cuLaunchKernel},
	}); err != nil {
		return nil, err
	}
	if err := r.check("cuInit", cuInit, 0); err != nil {
		return nil, err
	}
	var dev int32
	if err := r.check("cuDeviceGet", cuDeviceGet, uintptr(unsafe.Pointer(&dev)), 0); err != nil {
		return nil, err
	}
	var major, minor int32
	const attrMajor, attrMinor = 75, 76 // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, _MINOR
	if err := r.check("cuDeviceGetAttribute", cuDeviceGetAttribute, uintptr(unsafe.Pointer(&major)), attrMajor, uintptr(dev)); err != nil {
		return nil, err
	}
	if err := r.check("cuDeviceGetAttribute", cuDeviceGetAttribute, uintptr(unsafe.Pointer(&minor)), attrMinor, uintptr(dev)); err != nil {
		return nil, err
	}
	r.sm = int(10*major + minor)
	if err := r.check("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(&r.ctx)), uintptr(dev)); err != nil {
		return nil, err
	}
	if r.nv, err = openRawNVRTC(); err != nil {
		return nil, err
	}
	return r, nil
}

// openRawNVRTC looks up the NVRTC functions in the library package cuda
// loaded; it needs no device.
func openRawNVRTC() (*rawNVRTC, error) {
	path, h, err := cuda.NVRTC()
	if err != nil {
		return nil, err
	}
	nv := &rawNVRTC{}
	return nv, bindSymbols(path, h, []symbol{
		{"nvrtcCreateProgram", &nv.create}, {"nvrtcDestroyProgram", &nv.destroy},
		{"nvrtcCompileProgram", &nv.compileProg}, {"nvrtcGetProgramLogSize", &nv.logSize},
		{"nvrtcGetProgramLog", &nv.getLog}, {"nvrtcGetCUBINSize", &nv.cubinSize},
		{"nvrtcGetCUBIN", &nv.getCubin}, {"nvrtcGetPTXSize", &nv.ptxSize},
		{"nvrtcGetPTX", &nv.getPTX}, {"nvrtcGetErrorString", &nv.errStr},
	})
}

// errCUDA is matched (errors.Is) by the errors of failed driver calls.
var errCUDA = errors.New("baseline: CUDA driver call failed")

// check calls fn on the calling thread and turns a failure into an error.
//
//go:uintptrescapes
func (r *rawCUDA) check(call string, fn uintptr, args ...uintptr) error {
	c, _, _ := purego.SyscallN(fn, args...)
	return r.fail(call, c)
}

// fail returns nil for CUDA_SUCCESS, else an error naming the call and the
// driver's name of the code.
func (r *rawCUDA) fail(call string, c uintptr) error {
	if c == 0 {
		return nil
	}
	name := "CUDA_ERROR_" + strconv.Itoa(int(c))
	if r.cuGetErrorName != 0 {
		var p *byte
		if e, _, _ := purego.SyscallN(r.cuGetErrorName, c, uintptr(unsafe.Pointer(&p))); e == 0 && p != nil {
			name = goString(p)
		}
	}
	return fmt.Errorf("%w: %s: %s (%d)", errCUDA, call, name, c)
}

// do makes the context current on the locked calling thread and calls fn
// there, as every driver call of the baselines does.
//
//go:uintptrescapes
func (r *rawCUDA) do(call string, fn uintptr, args ...uintptr) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := r.check("cuCtxSetCurrent", r.cuCtxSetCurrent, r.ctx); err != nil {
		return err
	}
	return r.check(call, fn, args...)
}

// copy is the driver's synchronous copy of n bytes between addresses the
// driver can use (device, pinned or unified memory): cuMemcpy, then
// cuCtxSynchronize.
func (r *rawCUDA) copy(dst, src uintptr, n int) error {
	if err := r.do("cuMemcpy", r.cuMemcpy, dst, src, uintptr(n)); err != nil {
		return err
	}
	return r.sync()
}

// copyFromHost is the driver's synchronous copy of pageable Go memory to
// dst (cuMemcpyHtoD, unstaged).
func (r *rawCUDA) copyFromHost(dst uintptr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	err := r.do("cuMemcpyHtoD", r.cuMemcpyHtoD, dst, uintptr(unsafe.Pointer(&src[0])), uintptr(len(src)))
	runtime.KeepAlive(src)
	return err
}

// copyToHost is the driver's synchronous copy from src to pageable Go
// memory (cuMemcpyDtoH, unstaged).
func (r *rawCUDA) copyToHost(dst []byte, src uintptr) error {
	if len(dst) == 0 {
		return nil
	}
	err := r.do("cuMemcpyDtoH", r.cuMemcpyDtoH, uintptr(unsafe.Pointer(&dst[0])), src, uintptr(len(dst)))
	runtime.KeepAlive(dst)
	return err
}

// sync waits for the device (cuCtxSynchronize).
func (r *rawCUDA) sync() error { return r.do("cuCtxSynchronize", r.cuCtxSynchronize) }

// rawKernels are the entry points of a hand-written source loaded in a
// module of its own.
type rawKernels struct {
	r     *rawCUDA
	names []string
	fns   []uintptr
}

// kernels compiles src with NVRTC for device 0, loads it and looks up
// its extern "C" entry points names.
func (r *rawCUDA) kernels(src string, names []string) (*rawKernels, error) {
	img, err := r.nv.compile(src, r.sm)
	if err != nil {
		return nil, err
	}
	var mod uintptr
	err = r.do("cuModuleLoadData", r.cuModuleLoadData, uintptr(unsafe.Pointer(&mod)), uintptr(unsafe.Pointer(&img[0])))
	runtime.KeepAlive(img)
	if err != nil {
		return nil, err
	}
	k := &rawKernels{r: r, names: names, fns: make([]uintptr, len(names))}
	for i, name := range names {
		c := cString(name)
		err := r.do("cuModuleGetFunction "+name, r.cuModuleGetFunction, uintptr(unsafe.Pointer(&k.fns[i])), mod, uintptr(unsafe.Pointer(&c[0])))
		runtime.KeepAlive(c)
		if err != nil {
			return nil, err
		}
	}
	return k, nil
}

// launch queues entry point names[i] on the legacy default stream (stream
// 0) with a bare cuLaunchKernel, after making the context current on the
// locked calling thread. params are the addresses of the arguments'
// storage, in order, in memory that does not move (heap memory, see
// heapArgs) and that the caller keeps alive until launch returns.
func (k *rawKernels) launch(i int, grid, block [3]int, params ...uintptr) error {
	return k.launchOn(0, i, grid, block, params...)
}

// launchOn is launch on the stream whose CUstream handle is stream (a
// *cuda.Stream's Handle; 0 for the legacy default stream).
func (k *rawKernels) launchOn(stream uintptr, i int, grid, block [3]int, params ...uintptr) error {
	var pp uintptr
	if len(params) > 0 {
		pp = uintptr(unsafe.Pointer(&params[0]))
	}
	r := k.r
	runtime.LockOSThread()
	c, _, _ := purego.SyscallN(r.cuCtxSetCurrent, r.ctx)
	if c == 0 {
		c, _, _ = purego.SyscallN(r.cuLaunchKernel, k.fns[i],
			uintptr(grid[0]), uintptr(grid[1]), uintptr(grid[2]),
			uintptr(block[0]), uintptr(block[1]), uintptr(block[2]),
			0, stream, pp, 0)
	}
	runtime.UnlockOSThread()
	runtime.KeepAlive(params)
	return r.fail("cuLaunchKernel "+k.names[i], c)
}

// compile compiles src with NVRTC for compute capability sm: a cubin, or,
// where this NVRTC cannot build sm's machine code, PTX of the newest
// virtual architecture below it, which the driver compiles at load.
func (nv *rawNVRTC) compile(src string, sm int) ([]byte, error) {
	img, err := nv.compileFor(src, "--gpu-architecture=sm_"+strconv.Itoa(sm), false)
	if err == nil {
		return img, nil
	}
	for _, arch := range []int{90, 89, 86, 80, 75, 70} {
		if arch <= sm {
			if img, e := nv.compileFor(src, "--gpu-architecture=compute_"+strconv.Itoa(arch), true); e == nil {
				return img, nil
			}
		}
	}
	return nil, err
}

func (nv *rawNVRTC) compileFor(src, arch string, ptx bool) ([]byte, error) {
	csrc, cname := cString(src), cString("baseline.cu")
	var prog uintptr
	c, _, _ := purego.SyscallN(nv.create, uintptr(unsafe.Pointer(&prog)), uintptr(unsafe.Pointer(&csrc[0])),
		uintptr(unsafe.Pointer(&cname[0])), 0, 0, 0)
	runtime.KeepAlive(csrc)
	runtime.KeepAlive(cname)
	if c != 0 {
		return nil, fmt.Errorf("baseline: nvrtcCreateProgram: %s", nv.errorString(c))
	}
	defer purego.SyscallN(nv.destroy, uintptr(unsafe.Pointer(&prog)))
	opts := []string{arch, "--std=c++17", "-default-device"}
	cs := make([][]byte, len(opts))
	ptrs := make([]uintptr, len(opts))
	for i, o := range opts {
		cs[i] = cString(o)
		ptrs[i] = uintptr(unsafe.Pointer(&cs[i][0]))
	}
	c, _, _ = purego.SyscallN(nv.compileProg, prog, uintptr(len(opts)), uintptr(unsafe.Pointer(&ptrs[0])))
	runtime.KeepAlive(cs)
	runtime.KeepAlive(ptrs)
	if c != 0 {
		return nil, fmt.Errorf("baseline: nvrtcCompileProgram (%s): %s\n%s", arch, nv.errorString(c), nv.programLog(prog))
	}
	sizeFn, getFn := nv.cubinSize, nv.getCubin
	if ptx {
		sizeFn, getFn = nv.ptxSize, nv.getPTX
	}
	var n uintptr
	if c, _, _ := purego.SyscallN(sizeFn, prog, uintptr(unsafe.Pointer(&n))); c != 0 || n == 0 {
		return nil, fmt.Errorf("baseline: NVRTC produced no image (%s): %s", arch, nv.errorString(c))
	}
	img := make([]byte, n+1) // PTX is loaded as a NUL-terminated string
	if c, _, _ := purego.SyscallN(getFn, prog, uintptr(unsafe.Pointer(&img[0]))); c != 0 {
		return nil, fmt.Errorf("baseline: NVRTC image (%s): %s", arch, nv.errorString(c))
	}
	return img, nil
}

func (nv *rawNVRTC) errorString(c uintptr) string {
	p, _, _ := purego.SyscallN(nv.errStr, c)
	if p == 0 {
		return "NVRTC error " + strconv.Itoa(int(c))
	}
	return goString(*(**byte)(unsafe.Pointer(&p)))
}

func (nv *rawNVRTC) programLog(prog uintptr) string {
	var n uintptr
	if c, _, _ := purego.SyscallN(nv.logSize, prog, uintptr(unsafe.Pointer(&n))); c != 0 || n <= 1 {
		return ""
	}
	b := make([]byte, n)
	purego.SyscallN(nv.getLog, prog, uintptr(unsafe.Pointer(&b[0])))
	return strings.TrimRight(string(b), "\x00\n")
}

// cString returns s as a NUL-terminated byte slice.
func cString(s string) []byte {
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b
}

// goString copies the NUL-terminated C string at p.
func goString(p *byte) string {
	if p == nil {
		return ""
	}
	var n int
	for *(*byte)(unsafe.Add(unsafe.Pointer(p), n)) != 0 {
		n++
	}
	return string(unsafe.Slice(p, n))
}
