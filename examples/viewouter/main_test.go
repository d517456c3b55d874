package main

import (
	"testing"

	"github.com/gokkos/kokkos/cuda"
)

func TestRun(t *testing.T) {
	for _, n := range [][2]int{{1, 1}, {30, 20}, {0, 5}, {1000, 800}} {
		if err := run(n[0], n[1]); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRunCUDA runs the example on the GPU; it skips without a device.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip(err)
	}
	for _, n := range [][2]int{{1, 1}, {30, 20}, {0, 5}, {1000, 800}} {
		if err := runCUDA(n[0], n[1]); err != nil {
			t.Fatal(err)
		}
	}
}
