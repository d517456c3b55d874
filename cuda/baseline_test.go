package cuda

import (
	"testing"

	"github.com/gokkos/kokkos/internal/cudabaseline"
)

// TestBaselineKernelsCompile compiles the hand-written baseline kernels of
// the benchmark command with NVRTC, without a device.
func TestBaselineKernelsCompile(t *testing.T) {
	requireNVRTC(t)
	t.Setenv(EnvCache, "off")
	for _, src := range []string{cudabaseline.StreamSource, cudabaseline.OuterSource} {
		if _, err := compileSource(src, t.Name(), 90, false, 0); err != nil {
			t.Fatal(err)
		}
	}
}
