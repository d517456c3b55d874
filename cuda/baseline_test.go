package cuda

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/gokkos/kokkos/backend"
)

// The driver's own copies and a bare kernel launch, without the package's
// block lookup and staging: the baselines of the package's benchmarks.
// The benchmark command measures its baselines through a loader of its
// own.

// RangeBodyBaseline is rangeBody, for the benchmarks of package cuda_test.
var RangeBodyBaseline = rangeBody

// rangeBody compiles body for kokkos.Range(0, n) with no bindings, as
// ParallelFor does, and returns a bare launch of that kernel with the
// arguments and geometry ParallelFor gives it.
func rangeBody(body string, n int) (func() error, error) {
	lb := getLaunch()
	defer lb.put()
	sh := backend.Shape{Rank: 1}
	sh.Upper[0] = n
	lp, err := plan(lb, "baseline", patFor, &sh, nil, nil)
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
// It is the baseline that the package's benchmarks measure its copies
// against.
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
