package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of the CUDA translation")

// cudaHeader opens every test package.
const cudaHeader = `package k

import (
	"math"

	"github.com/gokkos/kokkos"
)

var _ = math.Pi
var _ kokkos.View1[float64]
`

// emitAll loads src (functions after cudaHeader) and translates every
// kernel that is not a helper, by name.
func emitAll(t *testing.T, src string) map[string]cudaCode {
	t.Helper()
	p, err := loadSource(".", map[string]string{"k.go": cudaHeader + src})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]cudaCode{}
	for _, k := range p.kernels {
		if k.helper {
			continue
		}
		c, err := p.emitCUDA(k)
		if err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		out[k.name] = c
	}
	return out
}

// emitErr loads src and returns the error of translating kernel name.
func emitErr(t *testing.T, src, name string) error {
	t.Helper()
	p, err := loadSource(".", map[string]string{"k.go": cudaHeader + src})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range p.kernels {
		if k.name == name {
			_, err := p.emitCUDA(k)
			return err
		}
	}
	t.Fatalf("no kernel %s", name)
	return nil
}

// withoutSupport drops the support code (gkx_ functions) from helpers.
func withoutSupport(h string) string {
	var keep []string
	for _, l := range strings.SplitAfter(h, "\n") {
		if strings.HasPrefix(l, "//") || strings.Contains(l, " gkx_") || strings.HasPrefix(l, "template <class T> __device__ __forceinline__ T gkx_") {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "")
}

// casesFile holds kernels using every construct the translation handles.
const casesFile = "testdata/cuda_cases.go.txt"

// TestCUDAGolden translates every kernel of casesFile and compares the
// names, conversions, helpers (without the support code) and body with
// testdata/cuda_golden.txt (go test -update rewrites it).
func TestCUDAGolden(t *testing.T) {
	src, err := os.ReadFile(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	cs := emitAll(t, string(src))
	var names []string
	for n := range cs {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		c := cs[n]
		fmt.Fprintf(&b, "=== %s names %q conv %q\n", n, c.Names, c.Conv)
		if h := withoutSupport(c.Helpers); h != "" {
			fmt.Fprintf(&b, "--- helpers\n%s", h)
		}
		fmt.Fprintf(&b, "--- body\n%s", c.Body)
	}
	golden := "testdata/cuda_golden.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for n := range min(len(gl), len(wl)) {
			if gl[n] != wl[n] {
				t.Fatalf("%s line %d:\n got %s\nwant %s", golden, n+1, gl[n], wl[n])
			}
		}
		t.Fatalf("%s: %d lines, want %d", golden, len(gl), len(wl))
	}
}

// compileCase is one translated kernel as package cuda's test compiles
// it (cuda/testdata/kernelgen.json).
type compileCase struct {
	Name    string
	Pattern string // for, reduce, scan
	Rank    int
	Views   []compileBinding
	Scalars []compileBinding
	Acc     string // the accumulator's C type
	Helpers string
	Body    string
}

type compileBinding struct {
	Name string
	Elem string // the Go name of the bound type: float64, int32, ...
	Rank int    `json:",omitempty"`
}

// TestCUDACompileCases checks that ../../cuda/testdata/kernelgen.json holds
// the translation of every kernel of casesFile (go test -update rewrites
// it); package cuda's TestKernelgenCompiles compiles each with NVRTC.
func TestCUDACompileCases(t *testing.T) {
	src, err := os.ReadFile(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	p, err := loadSource(".", map[string]string{"k.go": cudaHeader + string(src)})
	if err != nil {
		t.Fatal(err)
	}
	var cases []compileCase
	for _, k := range p.kernels {
		if k.helper {
			continue
		}
		c, err := p.emitCUDA(k)
		if err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		cc := compileCase{Name: k.name, Pattern: [...]string{"for", "reduce", "scan"}[k.pattern], Rank: len(k.index), Helpers: c.Helpers, Body: c.Body}
		for n, pr := range k.params {
			elem := pr.elem.Name()
			switch {
			case c.Conv[n] != "":
				elem = c.Conv[n]
			case elem == "int":
				elem = "int64"
			}
			if pr.isView() {
				cc.Views = append(cc.Views, compileBinding{c.Names[n], elem, pr.rank})
			} else {
				cc.Scalars = append(cc.Scalars, compileBinding{Name: c.Names[n], Elem: elem})
			}
		}
		if k.acc != nil {
			cc.Acc = map[string]string{"bool": "int", "int": "long long", "int64": "long long", "uint64": "unsigned long long",
				"int32": "int", "uint32": "unsigned int", "float32": "float", "float64": "double"}[k.accElem.Name()]
		}
		cases = append(cases, cc)
	}
	got, err := json.MarshalIndent(cases, "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	file := filepath.Join("..", "..", "cuda", "testdata", "kernelgen.json")
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("%s is not the translation of %s; run go test -update", file, casesFile)
	}
}

// TestCUDASmall compares the whole translation of small kernels.
func TestCUDASmall(t *testing.T) {
	cs := emitAll(t, `
//kokkos:kernel
func Triad(i int, a, b, c kokkos.View1[float64], s float64) { a.Set(i, b.At(i)+s*c.At(i)) }

//kokkos:kernel
func Flag(k int, a kokkos.View1[uint32], on bool, by uint8) {
	if on {
		a.Set(k, a.At(k)+uint32(by))
	}
}

//kokkos:kernel
func Sum(i int, a kokkos.View1[int32], acc *int32) { *acc += a.At(i) }
`)
	for name, want := range map[string]cudaCode{
		"Triad": {Body: "a(i) = b(i) + s * c(i);\n", Names: []string{"a", "b", "c", "s"}, Conv: []string{"", "", "", ""}},
		"Flag": {Body: "const bool on = gkb_on != 0;\nconst unsigned char by = (unsigned char)gkb_by;\nif (on) {\n\ta(i) = a(i) + (unsigned int)by;\n}\n",
			Names: []string{"a", "gkb_on", "gkb_by"}, Conv: []string{"", "int32", "uint32"}},
		"Sum": {Body: "acc = (int)((unsigned int)acc + (unsigned int)a(i));\n", Names: []string{"a"}, Conv: []string{""}},
	} {
		got := cs[name]
		if got.Body != want.Body || got.Helpers != "" || fmt.Sprint(got.Names) != fmt.Sprint(want.Names) || fmt.Sprint(got.Conv) != fmt.Sprint(want.Conv) {
			t.Errorf("%s: got\n%+v\nwant\n%+v", name, got, want)
		}
	}
}

// TestCUDASupportCode checks that the support code comes with the
// operations that need it, each piece once, before the helpers.
func TestCUDASupportCode(t *testing.T) {
	cs := emitAll(t, `
//kokkos:kernel
func half(x int64) int64 { return x / 2 }

//kokkos:kernel
func K(i int, a kokkos.View1[int64], n int64) { a.Set(i, half(a.At(i)/n)+half(n)) }

//kokkos:kernel
func M(i int, a kokkos.View1[float64]) { a.Set(i, math.Max(a.At(i), 0)) }
`)
	h := cs["K"].Helpers
	if strings.Count(h, "gkx_div(gk_i64 a, gk_i64 b)") != 1 || strings.Contains(h, "gkx_shl") || strings.Index(h, "gkx_div") > strings.Index(h, "gk_h_half") {
		t.Errorf("K's helpers:\n%s", h)
	}
	if !strings.HasSuffix(h, "__device__ static gk_i64 gk_h_half(gk_i64 x) {\n\treturn x / 2ll;\n}\n") {
		t.Errorf("K's helpers end:\n%s", h)
	}
	h = cs["M"].Helpers
	for _, f := range []string{"gkx_math_max", "gkx_inf", "gkx_signbit"} {
		if !strings.Contains(h, f+"(") {
			t.Errorf("M's helpers lack %s:\n%s", f, h)
		}
	}
}

// TestCUDAErrors checks the kernels the translation refuses.
func TestCUDAErrors(t *testing.T) {
	for _, c := range []struct {
		src, name, want string
		noCUDA          bool
	}{
		{"//kokkos:kernel\nfunc K(i int, a kokkos.View1[int8]) { a.Set(i, 1) }", "K", "view a has elements of type int8", true},
		{"//kokkos:kernel\nfunc K(i int, a kokkos.View1[uint16]) { a.Set(i, 1) }", "K", "view a has elements of type uint16", true},
		{"//kokkos:kernel\nfunc K(i int, a kokkos.View1[int64], acc *int16) { *acc += 1 }", "K", "accumulator has type *int16", true},
		{"//kokkos:kernel\nfunc K(i int, a kokkos.View1[int64]) { kokkos.AtomicAnd(a.Ptr(i), 1) }", "K", "kokkos.AtomicAnd has no CUDA translation", true},
		{"//kokkos:kernel\nfunc f(x int) int { return g(x) }\n\n//kokkos:kernel\nfunc g(x int) int { return f(x) }\n\n//kokkos:kernel\nfunc K(i int, a kokkos.View1[int64]) { a.Set(i, int64(f(i))) }", "K", "calls itself", false},
		{"//kokkos:kernel\nfunc f(x int) (int, int) { return x, x }\n\n//kokkos:kernel\nfunc K(i int, a kokkos.View1[int64]) { x, _ := f(i); a.Set(i, int64(x)) }", "K", "several results", true},
	} {
		err := emitErr(t, c.src, c.name)
		if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, errNoCUDA) != c.noCUDA {
			t.Errorf("%s: error %v; want one with %q, errNoCUDA %v", c.src, err, c.want, c.noCUDA)
		}
	}
}

// TestCIdent checks the mapping of Go names to C identifiers.
func TestCIdent(t *testing.T) {
	for in, want := range map[string]string{
		"x": "x", "a_b": "a_b", "Zed": "Zed", "int": "gkm_int", "i": "gkm_i", "acc": "gkm_acc", "final": "gkm_final",
		"i3": "gkm_i3", "sin": "gkm_sin", "atomic_add": "gkm_atomicZ5fZadd", "gkx": "gkm_gkx", "a__b": "gkm_aZ5fZZ5fZb",
		"_x": "gkm_Z5fZx", "é": "gkm_Ze9Z", "Zé": "gkm_ZZZe9Z", "value": "gkm_value", "Kokkos": "gkm_Kokkos",
	} {
		if got := cIdent(in); got != want {
			t.Errorf("cIdent(%q) = %q, want %q", in, got, want)
		}
	}
}
