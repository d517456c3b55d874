// Command kokkos-kernelgen compiles the functions of a package marked
// //kokkos:kernel into host kernels and descriptions (package
// backend/kernelir, which device backends compile), written to
// <package>_kernels_gen.go and registered with package
// github.com/gokkos/kokkos/kernel. Run it from go generate:
//
//	//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen
//
// It works on the package in the current directory (or the one named by
// -dir) and exits non-zero, naming each position, when a kernel uses Go
// outside the subset that docs/guide/kernels.md describes. With -check it
// writes nothing and exits non-zero when the generated file is not what
// it would write: go generate was not run after a kernel changed.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
)

func main() {
	dir := flag.String("dir", ".", "the package's directory")
	check := flag.Bool("check", false, "write nothing; fail when the generated file is out of date")
	flag.Parse()
	do := run
	if *check {
		do = checkGenerated
	}
	if err := do(*dir); err != nil {
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

// errOutOfDate is matched by the error of checkGenerated.
var errOutOfDate = errors.New("generated kernels out of date")

// checkGenerated returns an error wrapping errOutOfDate when the generated
// file of the package in dir differs from the one run would write.
func checkGenerated(dir string) error {
	p, err := loadDir(dir)
	if err != nil {
		return err
	}
	if err := p.checkBodies(); err != nil {
		return err
	}
	want, err := p.generate()
	if err != nil {
		return err
	}
	have, err := os.ReadFile(p.genFile())
	switch {
	case err != nil && os.IsNotExist(err) && want == nil:
		return nil
	case err != nil && os.IsNotExist(err):
		return fmt.Errorf("%w: %s is missing: run go generate in %s", errOutOfDate, p.genFile(), dir)
	case err != nil:
		return err
	case want == nil:
		return fmt.Errorf("%w: %s is left from kernels that are gone: run go generate in %s", errOutOfDate, p.genFile(), dir)
	case !bytes.Equal(have, want):
		return fmt.Errorf("%w: %s differs from the source's kernels: run go generate in %s", errOutOfDate, p.genFile(), dir)
	}
	return nil
}
