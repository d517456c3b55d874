// Command kokkos-kernelgen compiles the functions of a package marked
// //kokkos:kernel into host kernels and CUDA C, written to
// <package>_kernels_gen.go and registered with package
// github.com/gokkos/kokkos/kernel. Run it from go generate:
//
//	//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen
//
// It works on the package in the current directory (or the one named by
// -dir) and exits non-zero, naming each position, when a kernel uses Go
// outside the subset that docs/guide/kernels.md describes.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	dir := flag.String("dir", ".", "the package's directory")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "kokkos-kernelgen:", err)
		os.Exit(1)
	}
}

// run generates the kernels of the package in dir.
func run(dir string) error {
	p, err := loadDir(dir)
	if err != nil {
		return err
	}
	if err := p.checkBodies(); err != nil {
		return err
	}
	return p.write()
}
