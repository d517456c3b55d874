package cuda

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/cudabaseline"
)

// The driver's own copies and bare kernel launches, without the package's block lookup and staging:
// the baselines of the benchmarks, out of the public API. The benchmark
// command reaches them through package internal/cudabaseline, the package's
// own benchmarks directly.
func init() {
	cudabaseline.Copy = driverCopy
	cudabaseline.CopyFromHost = driverCopyFromHost
	cudabaseline.CopyToHost = driverCopyToHost
	cudabaseline.Kernels = rawKernels
	cudabaseline.RangeBody = rangeBody
}

// rangeBody compiles body for kokkos.Range(0, n) with no bindings, as
// ParallelFor does, and returns a bare launch of that kernel with the
// arguments and geometry ParallelFor gives it.
func rangeBody(body string, n int) (func() error, error) {
	lb := getLaunch()
	defer lb.put()
	lp, err := plan(lb, "baseline", patFor, kokkos.Range(0, n), nil)
	if err != nil {
		return nil, err
	}
	lb.key = appendKey(lb.key[:0], &lp.sig, body, false)
	prog, err := lp.dev.program(lb.key, &lp.sig, body, "baseline", false)
	if err != nil {
		return nil, err
	}
	if lp.sig.wide {
		return nil, fmt.Errorf("cuda: baseline of %d indices needs 64-bit indices", n)
	}
	dev, d := lp.dev, lp.dev.drv
	args := &struct {
		begin, end int32
		ptrs       [2]uintptr
	}{0, int32(n), [2]uintptr{}}
	args.ptrs = [2]uintptr{uintptr(unsafe.Pointer(&args.begin)), uintptr(unsafe.Pointer(&args.end))}
	fn, grid := prog.fns[0], uintptr(min(ceilDiv(n, 256), 1<<20))
	return func() error {
		runtime.LockOSThread()
		r, _, _ := purego.SyscallN(d.cuCtxSetCurrent, dev.ctx)
		if r == 0 {
			r, _, _ = purego.SyscallN(d.cuLaunchKernel, fn, grid, 1, 1, 256, 1, 1, 0, 0, uintptr(unsafe.Pointer(&args.ptrs[0])), 0)
		}
		runtime.UnlockOSThread()
		runtime.KeepAlive(args)
		if r != 0 {
			return d.err("cuLaunchKernel", r, "baseline", "")
		}
		return nil
	}, nil
}

// driverCopy is the driver's own synchronous copy (cuMemcpy, then
// cuCtxSynchronize) of n bytes between addresses the driver can use
// (device, pinned or unified memory), with no block lookup and no staging.
// It is the baseline that benchmarks measure the package's copies against;
// package internal/cudabaseline hands it to the benchmark command.
func driverCopy(dst, src uintptr, n int) error {
	dev, err := GetDevice(0)
	if err != nil {
		return err
	}
	c, unlock, err := dev.bind()
	if err != nil {
		return err
	}
	defer unlock()
	if err := c.do("cuMemcpy", "", dev.drv.cuMemcpy, dst, src, uintptr(n)); err != nil {
		return err
	}
	return c.do("cuCtxSynchronize", "", dev.drv.cuCtxSynchronize)
}

// driverCopyFromHost is the driver's own synchronous copy of pageable Go
// memory to dst (cuMemcpyHtoD, unstaged), the baseline of CopyFromHost.
func driverCopyFromHost(dst uintptr, src []byte) error {
	if len(src) == 0 {
		return nil
	}
	dev, err := GetDevice(0)
	if err != nil {
		return err
	}
	return dev.call("cuMemcpyHtoD_v2", "", dev.drv.cuMemcpyHtoD, dst, uintptr(unsafe.Pointer(&src[0])), uintptr(len(src)))
}

// driverCopyToHost is the driver's own synchronous copy from src to
// pageable Go memory (cuMemcpyDtoH, unstaged), the baseline of CopyToHost.
func driverCopyToHost(dst []byte, src uintptr) error {
	if len(dst) == 0 {
		return nil
	}
	dev, err := GetDevice(0)
	if err != nil {
		return err
	}
	return dev.call("cuMemcpyDtoH_v2", "", dev.drv.cuMemcpyDtoH, uintptr(unsafe.Pointer(&dst[0])), src, uintptr(len(dst)))
}

// rawKernels is cudabaseline.Kernels: src is compiled through the disk
// cache like the package's kernels, then loaded into its own module, and
// the returned launch calls cuLaunchKernel with the caller's parameters
// and nothing more.
func rawKernels(src string, names []string) (launch func(k int, grid, block [3]int, params ...uintptr) error, sync func() error, err error) {
	dev, err := GetDevice(0)
	if err != nil {
		return nil, nil, err
	}
	const label = "baseline"
	img, err := compileSource(src, label, dev.computeCapability(), false, dev.drv.version)
	if err != nil {
		return nil, nil, err
	}
	c, unlock, err := dev.bind()
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	d := dev.drv
	var mod uintptr
	if err := c.do("cuModuleLoadData", label, d.cuModuleLoadData, uintptr(unsafe.Pointer(&mod)), uintptr(unsafe.Pointer(&img.image[0]))); err != nil {
		return nil, nil, err
	}
	runtime.KeepAlive(img.image)
	fns := make([]uintptr, len(names))
	for k, name := range names {
		cname := cstr(name)
		if err := c.do("cuModuleGetFunction", label, d.cuModuleGetFunction, uintptr(unsafe.Pointer(&fns[k])), mod, uintptr(unsafe.Pointer(&cname[0]))); err != nil {
			return nil, nil, err
		}
	}
	launch = func(k int, grid, block [3]int, params ...uintptr) error {
		var pp uintptr
		if len(params) > 0 {
			pp = uintptr(unsafe.Pointer(&params[0]))
		}
		runtime.LockOSThread()
		r, _, _ := purego.SyscallN(d.cuCtxSetCurrent, dev.ctx)
		if r == 0 {
			r, _, _ = purego.SyscallN(d.cuLaunchKernel, fns[k],
				uintptr(grid[0]), uintptr(grid[1]), uintptr(grid[2]),
				uintptr(block[0]), uintptr(block[1]), uintptr(block[2]),
				0, 0, pp, 0)
		}
		runtime.UnlockOSThread()
		runtime.KeepAlive(params)
		if r != 0 {
			return d.err("cuLaunchKernel", r, label, names[k])
		}
		return nil
	}
	sync = func() error { return dev.call("cuCtxSynchronize", label, d.cuCtxSynchronize) }
	return launch, sync, nil
}
