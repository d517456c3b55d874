// Package cudabaseline gives the benchmark command the CUDA driver's own
// copies, which package cuda measures its copies against, without putting
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
)
