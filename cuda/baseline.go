package cuda

import (
	"unsafe"

	"github.com/gokkos/kokkos/internal/cudabaseline"
)

// The driver's own copies, without the package's block lookup and staging:
// the baselines of the benchmarks, out of the public API. The benchmark
// command reaches them through package internal/cudabaseline, the package's
// own benchmarks directly.
func init() {
	cudabaseline.Copy = driverCopy
	cudabaseline.CopyFromHost = driverCopyFromHost
	cudabaseline.CopyToHost = driverCopyToHost
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
