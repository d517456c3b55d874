//go:build !(goexperiment.simd && amd64)

package kernel

import "testing"

// histogramVector has no vector form without GOEXPERIMENT=simd.
func histogramVector(*testing.B, []int32) {}
