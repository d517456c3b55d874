package cuda

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend/kernelir"
)

var update = flag.Bool("update", false, "rewrite the golden file of the translation of kernel descriptions")

// irCases are the descriptions of the kernels of cmd/kokkos-kernelgen's
// testdata/cuda_cases.go.txt, which cover every construct, written by
// that command's tests.
var irCases = filepath.Join("..", "cmd", "kokkos-kernelgen", "testdata", "cuda_cases.ir.txt")

// readIRCases parses every description of irCases, by name in order.
func readIRCases(t testing.TB) ([]string, map[string]*kernelir.Kernel) {
	t.Helper()
	data, err := os.ReadFile(irCases)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ks := map[string]*kernelir.Kernel{}
	for _, rec := range strings.Split(string(data), "=== ")[1:] {
		name, text, _ := strings.Cut(rec, "\n")
		k, err := kernelir.Parse(text)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		names = append(names, name)
		ks[name] = k
	}
	return names, ks
}

// TestKernelIRGolden translates every case and compares the names,
// conversions, helpers and body with testdata/kernelir_golden.txt, a
// detector of changes (go test -update rewrites it). Its first version
// was checked equal, kernel for kernel, to what the translator of Go
// syntax that this one replaced gave.
func TestKernelIRGolden(t *testing.T) {
	names, ks := readIRCases(t)
	var b strings.Builder
	for _, n := range names {
		body, helpers, bn, conv, err := emitKernel(ks[n])
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		fmt.Fprintf(&b, "=== %s names %q conv %q\n", n, bn, conv)
		if h := withoutSupport(helpers); h != "" {
			fmt.Fprintf(&b, "--- helpers\n%s", h)
		}
		fmt.Fprintf(&b, "--- body\n%s", body)
	}
	golden := filepath.Join("testdata", "kernelir_golden.txt")
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

// irSig is the signature package kernel's launch gives the kernel k,
// translated to names and conv, for a compile.
func irSig(k *kernelir.Kernel, helpers string, names, conv []string) *kernelSig {
	sig := &kernelSig{rank: len(k.Index), helpers: helpers}
	switch k.Pattern {
	case kernelir.PatternReduce:
		sig.pattern = patReduce
	case kernelir.PatternScan:
		sig.pattern = patScan
	}
	for d := range sig.rank {
		sig.order[d] = d
	}
	elem := map[kernelir.Type]elemType{kernelir.Float32: elemFloat32, kernelir.Float64: elemFloat64, kernelir.Int32: elemInt32,
		kernelir.Int64: elemInt64, kernelir.Int: elemInt64, kernelir.Uint32: elemUint32, kernelir.Uint64: elemUint64}
	if k.Acc != kernelir.Invalid {
		ct := map[kernelir.Type]string{kernelir.Bool: "int", kernelir.Int: "long long", kernelir.Int64: "long long", kernelir.Uint64: "unsigned long long",
			kernelir.Int32: "int", kernelir.Uint32: "unsigned int", kernelir.Float32: "float", kernelir.Float64: "double"}[k.Acc]
		sig.value = valueSig{ctype: ct, size: 8, init: "value = 0;", join: "dst += src;"}
	}
	for j, p := range k.Params {
		if p.Type.IsStruct() {
			sig.scalars = append(sig.scalars, irStructSigs(names[j], p.Type)...)
			continue
		}
		e := elem[p.Type]
		switch conv[j] {
		case "int32":
			e = elemInt32
		case "uint32":
			e = elemUint32
		}
		if p.IsView() {
			sig.views = append(sig.views, viewSig{name: names[j], elem: e, rank: p.Rank, unit: 0, readOnly: !p.Write})
		} else {
			sig.scalars = append(sig.scalars, scalarSig{name: names[j], elem: e})
		}
	}
	return sig
}

// TestKernelIRCompiles compiles the translation of every case with NVRTC.
func TestKernelIRCompiles(t *testing.T) {
	requireNVRTC(t)
	names, ks := readIRCases(t)
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			k := ks[n]
			body, helpers, bn, conv, err := emitKernel(k)
			if err != nil {
				t.Fatal(err)
			}
			if err := compileOnly(t, irSig(k, helpers, bn, conv), body); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestKernelIRSmall compares the whole translation of small kernels.
func TestKernelIRSmall(t *testing.T) {
	for _, c := range []struct {
		ir, body    string
		names, conv []string
	}{
		{"(kernel Triad for (index i) (view a float64 1 w) (view b float64 1 r) (view c float64 1 r) (scalar s float64) (body (assign ((at a i)) ((add float64 (at b i) (mul float64 s (at c i)))))))",
			"a(i) = b(i) + s * c(i);\n", []string{"a", "b", "c", "s"}, []string{"", "", "", ""}},
		{"(kernel Flag for (index k) (view a uint32 1 w) (scalar on bool) (scalar by uint8) (body (if on (then (assign ((at a k)) ((add uint32 (at a k) (conv uint32 by))))))))",
			"const bool on = gkb_on != 0;\nconst unsigned char by = (unsigned char)gkb_by;\nif (on) {\n\ta(i) = a(i) + (unsigned int)by;\n}\n",
			[]string{"a", "gkb_on", "gkb_by"}, []string{"", "int32", "uint32"}},
		{"(kernel Sum reduce (index i) (view a int32 1 r) (acc int32) (body (opassign add (acc) (at a i))))",
			"acc = (int)((unsigned int)acc + (unsigned int)a(i));\n", []string{"a"}, []string{""}},
	} {
		k, err := kernelir.Parse(kernelir.Header + c.ir)
		if err != nil {
			t.Fatal(err)
		}
		body, helpers, names, conv, err := emitKernel(k)
		if err != nil || body != c.body || helpers != "" || fmt.Sprint(names) != fmt.Sprint(c.names) || fmt.Sprint(conv) != fmt.Sprint(c.conv) {
			t.Errorf("%s: got %q %q %q %q %v", k.Name, body, helpers, names, conv, err)
		}
	}
}

// TestKernelIRSupportCode checks that the support code comes with the
// operations that need it, each piece once, before the helpers.
func TestKernelIRSupportCode(t *testing.T) {
	k, err := kernelir.Parse(kernelir.Header + `(func half ((x int64)) (int64) (body (return (div int64 x (int64 2)))))
(kernel K for (index i) (view a int64 1 w) (scalar n int64) (body (assign ((at a i)) ((add int64 (call half (div int64 (at a i) n)) (call half n))))))`)
	if err != nil {
		t.Fatal(err)
	}
	_, h, _, _, err := emitKernel(k)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(h, "gkx_div(gk_i64 a, gk_i64 b)") != 1 || strings.Contains(h, "gkx_shl") || strings.Index(h, "gkx_div") > strings.Index(h, "gk_h_half") {
		t.Errorf("K's helpers:\n%s", h)
	}
	if !strings.HasSuffix(h, "__device__ static gk_i64 gk_h_half(gk_i64 x) {\n\treturn x / 2ll;\n}\n") {
		t.Errorf("K's helpers end:\n%s", h)
	}
	k, err = kernelir.Parse(kernelir.Header + `(kernel M for (index i) (view a float64 1 w) (body (assign ((at a i)) ((math Max (at a i) (float64 0))))))`)
	if err != nil {
		t.Fatal(err)
	}
	_, h, _, _, _ = emitKernel(k)
	for _, f := range []string{"gkx_math_max", "gkx_inf", "gkx_signbit"} {
		if !strings.Contains(h, f+"(") {
			t.Errorf("M's helpers lack %s:\n%s", f, h)
		}
	}
}

// TestKernelIRNoCUDA checks the kernels that have no CUDA form.
func TestKernelIRNoCUDA(t *testing.T) {
	for _, c := range []struct{ ir, want string }{
		{"(kernel K for (index i) (view a int8 1 w) (body (assign ((at a i)) ((int8 1)))))", "view a has elements of type int8"},
		{"(kernel K for (index i) (view a uint16 1 w) (body (assign ((at a i)) ((uint16 1)))))", "view a has elements of type uint16"},
		{"(kernel K reduce (index i) (view a int64 1 r) (acc int16) (body (opassign add (acc) (int16 1))))", "accumulator has type *int16"},
		{"(kernel K for (index i) (view a int64 1 w) (body (do (atomic And a (i) (int64 1)))))", "kokkos.AtomicAnd has no CUDA translation"},
		{"(func f ((x int)) (int int) (body (return x x)))\n(kernel K for (index i) (view a int64 1 w) (body (assign ((new x int) _) ((call f i))) (assign ((at a i)) ((conv int64 x)))))", "several results"},
	} {
		k, err := kernelir.Parse(kernelir.Header + c.ir)
		if err != nil {
			t.Fatal(err)
		}
		_, _, _, _, err = emitKernel(k)
		if !errors.Is(err, errNoCUDA) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want errNoCUDA with %q", c.ir, err, c.want)
		}
	}
}

// TestIRIdent checks the mapping of Go names to C identifiers.
func TestIRIdent(t *testing.T) {
	for in, want := range map[string]string{
		"x": "x", "a_b": "a_b", "Zed": "Zed", "int": "gkm_int", "i": "gkm_i", "acc": "gkm_acc", "final": "gkm_final",
		"i3": "gkm_i3", "sin": "gkm_sin", "atomic_add": "gkm_atomicZ5fZadd", "gkx": "gkm_gkx", "a__b": "gkm_aZ5fZZ5fZb",
		"_x": "gkm_Z5fZx", "é": "gkm_Ze9Z", "Zé": "gkm_ZZZe9Z", "value": "gkm_value", "Kokkos": "gkm_Kokkos",
	} {
		if got := irIdent(in); got != want {
			t.Errorf("irIdent(%q) = %q, want %q", in, got, want)
		}
	}
}
