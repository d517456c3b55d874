package cuda_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
)

// TestTeamKernels runs backendtest's team kernels on a stream over device
// and unified memory, against Go references, and checks the refusals of
// what a block cannot hold.
func TestTeamKernels(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	for _, sp := range []backend.BlockSpace{cuda.Space, cuda.UVMSpace} {
		t.Run(sp.Name(), func(t *testing.T) { backendtest.TestTeamLauncher(t, s, sp) })
	}
	k := backendtest.TeamKernels()[1] // RowsVec: y, a, x, n, per
	b, err := cuda.Space.Allocate("y", 8*4, true)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Free()
	v := &backend.View{Label: "y", Space: cuda.Space, Addr: b.Addr, Rank: 1, Extents: [backend.MaxRank]int{4}, Strides: [backend.MaxRank]int{1}, Elem: backend.KindFloat64, ElemSize: 8}
	args := []backend.Arg{{View: v, Kind: backend.KindFloat64}, {View: v, Kind: backend.KindFloat64}, {View: v, Kind: backend.KindFloat64}, {Kind: backend.KindInt, Bits: 2}, {Kind: backend.KindInt, Bits: 1}}
	for _, c := range []struct {
		name string
		ts   backend.TeamShape
		says string
	}{
		{"scratch", backend.TeamShape{League: 2, Size: 4, Vector: 1, Scratch: [2][2]int{{1 << 30, 0}}}, "bytes of shared memory per block"},
		{"vector", backend.TeamShape{League: 2, Size: 4, Vector: 3}, "vector length 3"},
		{"block", backend.TeamShape{League: 2, Size: 256, Vector: 8}, "a block of 2048 threads"},
	} {
		err := s.For(&backend.Launch{Label: c.name, Kernel: k, Shape: backend.Shape{Team: c.ts}, Args: args})
		if !errors.Is(err, backend.ErrUnsupported) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want an error wrapping ErrUnsupported saying %q", c.name, err, c.says)
		}
	}
	// Auto halves the team until its per-thread scratch fits.
	err = s.For(&backend.Launch{Label: "auto", Kernel: k, Shape: backend.Shape{Team: backend.TeamShape{League: 2, Size: backend.TeamAuto, Vector: backend.TeamAuto, Scratch: [2][2]int{{0, 1 << 10}}}}, Args: args})
	if err == nil {
		err = s.Fence()
	}
	if err != nil {
		t.Errorf("Auto team with 1 KiB of scratch per thread: %v", err)
	}
}
