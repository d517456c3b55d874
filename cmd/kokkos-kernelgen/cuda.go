package main

import "errors"

// errNoCUDA is matched by emitCUDA's error for a kernel that has no CUDA
// translation; the generator then writes the host kernel only.
var errNoCUDA = errors.New("no CUDA translation")

// cudaCode is a kernel's CUDA C translation, for package cuda's patterns.
type cudaCode struct {
	Body, Helpers string
	Names         []string
}

// conv returns how param j is passed to the CUDA body (kernel.Param.CUDAConv).
func (c cudaCode) conv(j int) string { return "" }

// emitCUDA translates kernel k (not a helper) into CUDA C.
func (p *pkgInfo) emitCUDA(k *kernelFunc) (cudaCode, error) {
	return cudaCode{}, errNoCUDA
}
