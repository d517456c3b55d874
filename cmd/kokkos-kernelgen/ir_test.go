package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend/kernelir"
)

var update = flag.Bool("update", false, "rewrite the descriptions of the translation's cases")

// cudaHeader opens every test package.
const cudaHeader = `package k

import (
	"math"

	"github.com/gokkos/kokkos"
)

var _ = math.Pi
var _ kokkos.View1[float64]
`

// casesFile holds kernels using every construct a description has;
// package cuda's tests translate their descriptions (irCasesFile).
const casesFile = "testdata/cuda_cases.go.txt"

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
		if k.team != nil && errors.Is(err, errNoIR) {
			continue // a team kernel without a description runs on the host only
		}
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

// TestDescribeSmall compares the whole description of small kernels.
func TestDescribeSmall(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": cudaHeader + `
//kokkos:kernel
func Triad(i int, a, b, c kokkos.View1[float64], s float64) { a.Set(i, b.At(i)+s*c.At(i)) }

//kokkos:kernel
func Flag(k int, a kokkos.View1[uint32], on bool, by uint8) {
	if on {
		a.Set(k, a.At(k)+uint32(by))
	}
}

//kokkos:kernel
func Sum(i int, a kokkos.View1[int32], acc *int32) { *acc += a.At(i) >> 1 }
`})
	if err != nil {
		t.Fatal(err)
	}
	_, irs := describeAll(t, p, true)
	for name, want := range map[string]string{
		"Triad": "(kernel Triad for (index i) (view a float64 1 w) (view b float64 1 r) (view c float64 1 r) (scalar s float64) (body (assign ((at a i)) ((add float64 (at b i) (mul float64 s (at c i)))))))",
		"Flag":  "(kernel Flag for (index k) (view a uint32 1 w) (scalar on bool) (scalar by uint8) (body (if on (then (assign ((at a k)) ((add uint32 (at a k) (conv uint32 by))))))))",
		"Sum":   "(kernel Sum reduce (index i) (view a int32 1 r) (acc int32) (body (opassign add (acc) (shr int32 (at a i) (uint64 1)))))",
	} {
		if got := strings.TrimPrefix(squash(irs[name]), "kernelir 1 "); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

// squash drops the layout of a description.
func squash(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(strings.ReplaceAll(s, "( ", "("), " )", ")")
}

// TestDescribeErrors checks what a kernel without a description gives:
// NoDevice in its Spec, naming the construct and its position.
func TestDescribeErrors(t *testing.T) {
	p, err := loadSource(".", map[string]string{"k.go": cudaHeader + `
//kokkos:kernel
func two(x int) (int, int) { return x, x }

//kokkos:kernel
func K(i int, a kokkos.View1[int64]) {
	var x, y = two(i)
	a.Set(i, int64(x+y))
}
`})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.checkBodies(); err != nil {
		t.Fatal(err)
	}
	for _, k := range p.kernels {
		if k.name != "K" {
			continue
		}
		_, err := p.buildKernel(k)
		if !errors.Is(err, errNoIR) || !strings.Contains(err.Error(), "k.go:17:") || !strings.Contains(err.Error(), "several results") {
			t.Errorf("K: %v, want errNoIR at k.go:17 about several results", err)
		}
	}
}

// TestDescribePackages describes every kernel of the module's kernel
// packages: each description valid, reading back to itself.
func TestDescribePackages(t *testing.T) {
	if testing.Short() {
		t.Skip("loads four packages")
	}
	for _, d := range []string{"../../kernel/kerneltest", "../../examples/heat", "../../examples/viewouter", "../kokkos-bench"} {
		p, err := loadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		names, _ := describeAll(t, p, true)
		if len(names) == 0 {
			t.Errorf("%s: no kernels", d)
		}
	}
}
