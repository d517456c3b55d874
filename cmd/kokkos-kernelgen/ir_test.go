package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// describeAll loads the package p and returns the description of each
// kernel, by name, with the package's helpers, as text.
func describeAll(t *testing.T, p *pkgInfo, strict bool) ([]string, map[string]string) {
	t.Helper()
	// The checker marks the views written; the cases of the translation
	// also hold constructs it refuses, which the description has.
	if err := p.checkBodies(); err != nil && strict {
		t.Fatal(err)
	}
	helpers, err := p.buildHelpers()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	out := map[string]string{}
	for _, k := range p.kernels {
		if k.helper {
			continue
		}
		ir, err := p.buildKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		ir.Helpers = helpers
		if err := kernelir.Validate(ir); err != nil {
			t.Fatalf("%s: %v\n%s", k.name, err, kernelir.Print(ir))
		}
		text := kernelir.Print(ir)
		back, err := kernelir.Parse(text)
		if err != nil {
			t.Fatalf("%s: Parse of its own text: %v\n%s", k.name, err, text)
		}
		if kernelir.Print(back) != text {
			t.Fatalf("%s: the text does not read back", k.name)
		}
		names = append(names, k.name)
		out[k.name] = text
	}
	return names, out
}

// irCasesFile holds the descriptions of the kernels of casesFile, which
// package cuda's tests translate (go test -update rewrites it).
const irCasesFile = "testdata/cuda_cases.ir.txt"

// TestIRCases checks that irCasesFile holds the description of every
// kernel of casesFile, each valid and reading back to itself.
func TestIRCases(t *testing.T) {
	src, err := os.ReadFile(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err := loadSource(".", map[string]string{"k.go": cudaHeader + string(src)})
	if err != nil {
		t.Fatal(err)
	}
	names, irs := describeAll(t, p, false)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "=== %s\n%s", n, irs[n])
	}
	if *update {
		if err := os.WriteFile(irCasesFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(irCasesFile)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("%s is not the description of %s; run go test -update", irCasesFile, casesFile)
	}
}

// TestIRAgainstCUDA writes, for every kernel of casesFile and of the
// module's kernel packages, its description and the old translator's
// CUDA C, to the file named by $GOKKOS_IR_COMPARE.
func TestIRAgainstCUDA(t *testing.T) {
	out := os.Getenv("GOKKOS_IR_COMPARE")
	if out == "" {
		t.Skip("GOKKOS_IR_COMPARE not set")
	}
	src, err := os.ReadFile(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []*pkgInfo
	p, err := loadSource(".", map[string]string{"k.go": cudaHeader + string(src)})
	if err != nil {
		t.Fatal(err)
	}
	pkgs = append(pkgs, p)
	for _, d := range []string{"../../kernel/kerneltest", "../../examples/heat", "../../examples/viewouter", "../kokkos-bench"} {
		p, err := loadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	var b strings.Builder
	for n, p := range pkgs {
		names, irs := describeAll(t, p, n > 0)
		byName := map[string]*kernelFunc{}
		for _, k := range p.kernels {
			byName[k.name] = k
		}
		for _, n := range names {
			c, err := p.emitCUDA(byName[n])
			fmt.Fprintf(&b, "@@@ %s %s\n%s", filepath.Base(p.dir), n, irs[n])
			if err != nil {
				fmt.Fprintf(&b, "@@ error\n%v\n", err)
			} else {
				fmt.Fprintf(&b, "@@ names %q conv %q\n@@ helpers\n%s@@ body\n%s", c.Names, c.Conv, c.Helpers, c.Body)
			}
			b.WriteString("@@ end\n")
		}
	}
	if err := os.WriteFile(out, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
