package main

// cudaCode is a kernel's CUDA C translation, for package cuda's patterns.
type cudaCode struct {
	// Body is the body of the loop, over the index names of package cuda
	// (i for a RangePolicy, i0..i5 for an MDRangePolicy), acc and final,
	// and the bindings named in Names.
	Body string
	// Helpers holds the __device__ functions of the helpers the kernel
	// calls, directly or not, each defined before its callers.
	Helpers string
	// Names is the C name each of k.params is bound to.
	Names []string
}

// emitCUDA translates kernel k (not a helper) into CUDA C.
func (p *pkgInfo) emitCUDA(k *kernelFunc) (cudaCode, error) {
	return cudaCode{}, nil
}
