// Package cudabaseline gives the benchmark command the CUDA driver's own
// operations, which package cuda measures its own against, without putting
// them in cuda's public API. Package cuda sets the functions when it is
// initialised; a program that uses them imports cuda too.
package cudabaseline

var (
	// Copy is the driver's synchronous copy (cuMemcpy, then
	// cuCtxSynchronize) of n bytes between addresses the driver can use
	// (device, pinned or unified memory), with no block lookup and no
	// staging.
	Copy func(dst, src uintptr, n int) error
	// CopyFromHost is the driver's synchronous copy of pageable Go memory
	// to dst (cuMemcpyHtoD, unstaged).
	CopyFromHost func(dst uintptr, src []byte) error
	// CopyToHost is the driver's synchronous copy from src to pageable Go
	// memory (cuMemcpyDtoH, unstaged).
	CopyToHost func(dst []byte, src uintptr) error

	// Kernels compiles src, a whole CUDA C++ source, for device 0, loads
	// it, and looks up its extern "C" entry points names. launch(k, grid,
	// block, params...) queues entry point names[k] on the legacy default
	// stream with a bare cuLaunchKernel (after making the device's context
	// current on the locked calling thread): params are the addresses of
	// the arguments' storage, in order, which the caller keeps alive and in
	// memory that does not move (heap memory, not the stack) until launch
	// returns. sync waits for the device (cuCtxSynchronize). Nothing else
	// of package cuda's launch path (signatures, bindings, caches of
	// loaded programs) is on the way.
	Kernels func(src string, names []string) (launch func(k int, grid, block [3]int, params ...uintptr) error, sync func() error, err error)

	// RangeBody compiles body as cuda.ParallelFor would for a RangePolicy
	// of n indices with no bindings, and returns a bare launch of that
	// same kernel (same grid, block and arguments) on the legacy default
	// stream: cuda.ParallelFor's launch without the package's work around
	// it.
	RangeBody func(body string, n int) (launch func() error, err error)
)
