package cuda

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// TestKernelIRRandom translates the descriptions kokkos-kernelgen writes
// for the kernels of random/internal/kerneltest, which take random's
// pools (TwoPools two of them) (a token and a view of states each, generators as local structs
// whose draws are helper methods), and compiles them with NVRTC.
func TestKernelIRRandom(t *testing.T) {
	src, err := os.ReadFile("../random/internal/kerneltest/kerneltest_kernels_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	helpers := regexp.MustCompile("(?s)const gkIR = `([^`]*)`").FindSubmatch(src)
	kernels := regexp.MustCompile("(?s)IR: gkIR \\+ `([^`]*)`").FindAllSubmatch(src, -1)
	if helpers == nil || len(kernels) != 6 {
		t.Fatalf("found the helpers: %v, %d kernels, want 6", helpers != nil, len(kernels))
	}
	var ks []*kernelir.Kernel
	for _, m := range kernels {
		k, err := kernelir.Parse(string(helpers[1]) + string(m[1]))
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, k)
		body, hs, names, conv, err := emitKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if len(names) < 2 || conv[0] != tokenConv || !strings.Contains(names[0], "gkrtok") || !strings.Contains(names[1], "gkrstates") {
			t.Errorf("%s: names %q, conv %q", k.Name, names, conv)
		}
		if k.Name == "TwoPools" {
			// Two pools: four pieces, two generators held at once.
			if len(names) != 5 || conv[2] != tokenConv || !strings.Contains(names[3], "gkrstates") {
				t.Errorf("%s: names %q, conv %q", k.Name, names, conv)
			}
			for _, want := range []string{"gks_kokkosRandomXorShift64 g = ", "gks_kokkosRandomXorShift1024 h = ", "_Urand64(&h)", "_n, h.I);", "_n, g.I);"} {
				if !strings.Contains(body, want) {
					t.Errorf("%s: the body lacks %q:\n%s", k.Name, want, body)
				}
			}
			continue
		}
		gen := "kokkosRandomXorShift64"
		if k.Name == "Draws1024" || k.Name == "Grid" {
			gen = "kokkosRandomXorShift1024"
		}
		for _, want := range []string{
			" g = gk_h_kokkosRandomLoad" + strings.TrimPrefix(gen, "kokkosRandomXorShift") + "(",
			"gkx_token_acquire((unsigned int*)",
			"gk_h_gkm_" + gen + "_Drand(&g)",
			"gk_h_kokkosRandomStore" + strings.TrimPrefix(gen, "kokkosRandomXorShift") + "(",
			"_n, g.I);",
		} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: the body lacks %q:\n%s", k.Name, want, body)
			}
		}
		if !strings.Contains(hs, "gks_"+gen) || !strings.Contains(hs, "gkx_token_release(") {
			t.Errorf("%s: the helpers lack struct %s:\n%s", k.Name, gen, hs)
		}
	}
	requireNVRTC(t)
	for _, k := range ks {
		body, hs, names, conv, _ := emitKernel(k)
		if err := compileOnly(t, tokenSig(k, hs, names, conv), body); err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
	}
}

// TestKernelIRRandomFill translates package random's own fill kernels
// (Fill of a view in a device pool's memory) and compiles some of them,
// of both generators, several element types and every rank, with NVRTC.
func TestKernelIRRandomFill(t *testing.T) {
	src, err := os.ReadFile("../random/random_kernels_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	helpers := regexp.MustCompile("(?s)const gkIR = `([^`]*)`").FindSubmatch(src)
	kernels := regexp.MustCompile("(?s)IR: gkIR \\+ `([^`]*)`").FindAllSubmatch(src, -1)
	if helpers == nil || len(kernels) != 36 {
		t.Fatalf("found the helpers: %v, %d kernels, want 36", helpers != nil, len(kernels))
	}
	compile := map[string]bool{"fillK64F64R1": true, "fillK64I32R2": true, "fillK1024U64R3": true, "fillK1024F32R2": true}
	var ks []*kernelir.Kernel
	for _, m := range kernels {
		k, err := kernelir.Parse(string(helpers[1]) + string(m[1]))
		if err != nil {
			t.Fatal(err)
		}
		body, _, _, _, err := emitKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		if !strings.Contains(body, "gkx_token_acquire(") || !strings.Contains(body, "Range(&g, begin, end)") {
			t.Errorf("%s: the body lacks the draw:\n%s", k.Name, body)
		}
		if compile[k.Name] {
			ks = append(ks, k)
		}
	}
	if len(ks) != len(compile) {
		t.Fatalf("found %d of the kernels to compile, want %d", len(ks), len(compile))
	}
	requireNVRTC(t)
	for _, k := range ks {
		body, hs, names, conv, _ := emitKernel(k)
		if err := compileOnly(t, tokenSig(k, hs, names, conv), body); err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
	}
}
