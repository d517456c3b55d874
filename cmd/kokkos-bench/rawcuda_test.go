package main

import (
	"os"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/cuda"
)

// TestRawKernelsCompile compiles the hand-written baseline kernels with
// NVRTC through the benchmark's own loader, without a device: a cubin for
// sm_90, and PTX for a device newer than this NVRTC knows.
func TestRawKernelsCompile(t *testing.T) {
	if _, _, err := cuda.NVRTC(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("NVRTC is required in CI: %v", err)
		}
		t.Skipf("CUDA unavailable: no NVRTC: %v", err)
	}
	nv, err := openRawNVRTC()
	if err != nil {
		t.Fatal(err)
	}
	for _, src := range []struct {
		name, src string
		entries   []string
	}{{"stream", streamSource, streamNames}, {"outer", outerSource, outerNames}, {"empty", emptySource, emptyNames}} {
		img, err := nv.compile(src.src, 90)
		if err != nil {
			t.Fatalf("%s: %v", src.name, err)
		}
		if len(img) < 64 || string(img[1:4]) != "ELF" {
			t.Errorf("%s: sm_90 image is not a cubin (%d bytes)", src.name, len(img))
		}
		ptx, err := nv.compile(src.src, 1000)
		if err != nil {
			t.Fatalf("%s for a future device: %v", src.name, err)
		}
		for _, e := range src.entries {
			if !strings.Contains(string(ptx), ".entry "+e) {
				t.Errorf("%s: the PTX for a future device lacks entry %s", src.name, e)
			}
		}
	}
	if _, err := nv.compile("extern \"C\" __global__ void k() { undeclared(); }", 90); err == nil || !strings.Contains(err.Error(), "undeclared") {
		t.Errorf("a source that does not compile: %v, want the compiler's log", err)
	}
}
