package cuda_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
)

// ported from core/unit_test/TestWithoutInitializing.hpp
// (view_alloc_exec_space) and TestCreateMirror.cpp (create_mirror with
// view_alloc(exec, space)): a view initialized on a stream, without a
// fence, holds zeros once the stream is fenced, and work queued on the
// stream after it sees them.
func TestWithExecStream(t *testing.T) {
	dev := cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	s, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	const n0, n1 = 1000, 37
	rng := rand.New(rand.NewPCG(3, 4))
	// Dirty device memory first, so that a fill that did not run shows.
	for range 3 {
		g, err := kokkos.NewView2[float64]("garbage", n0, n1, kokkos.InSpace(cuda.Space), kokkos.WithoutInitializing)
		if err != nil {
			t.Fatal(err)
		}
		if err := kokkos.Fill(g, rng.Float64()+1); err != nil {
			t.Fatal(err)
		}
		if err := g.Release(); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		v, err := kokkos.NewView2[float64]("v", n0, n1, kokkos.InSpace(cuda.Space), l, kokkos.AllowPadding, kokkos.WithExec(s))
		if err != nil {
			t.Fatal(err)
		}
		// Queued after the fill: a corner set to 5.
		if err := kokkos.FillOn(s, v.Subview2(kokkos.Pair(0, 3), kokkos.Pair(0, 3)), 5); err != nil {
			t.Fatal(err)
		}
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		h, err := kokkos.CreateMirrorViewAndCopy(v)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n0 {
			for j := range n1 {
				want := 0.0
				if i < 3 && j < 3 {
					want = 5
				}
				if got := h.At(i, j); got != want {
					t.Fatalf("%v: v(%d, %d) = %v, want %v", l, i, j, got, want)
				}
			}
		}
		// Resize on the stream keeps the elements and zero-fills the rest;
		// the old view is left to its holder, released after the copy.
		old := v
		if err := kokkos.Resize(&v, [2]int{n0 + 5, n1 + 2}, kokkos.WithExec(s)); err != nil {
			t.Fatal(err)
		}
		if err := s.Fence(); err != nil {
			t.Fatal(err)
		}
		if err := old.Release(); err != nil {
			t.Fatal(err)
		}
		h2, _ := kokkos.CreateMirrorViewAndCopy(v)
		if h2.At(2, 2) != 5 || h2.At(n0+4, n1+1) != 0 || h2.At(3, 3) != 0 {
			t.Fatalf("%v: after Resize: %v %v %v", l, h2.At(2, 2), h2.At(n0+4, n1+1), h2.At(3, 3))
		}
		if err := v.Release(); err != nil {
			t.Fatal(err)
		}
	}
}

// The views' execution spaces, as Kokkos's View::execution_space, and the
// accessibility of spaces from a stream.
func TestViewExecutionSpaceCuda(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	def, err := cuda.DefaultStream(0)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := cuda.DefaultStream(0); again != def {
		t.Fatal("DefaultStream(0) returned two streams")
	}
	for _, c := range []struct {
		space kokkos.MemorySpace
		want  kokkos.ExecutionSpace
	}{
		{cuda.Space, def},
		{cuda.UVMSpace, def},
		{cuda.HostPinnedSpace, kokkos.DefaultExecutionSpace()},
	} {
		v, err := kokkos.NewView1[float32]("v", 10, kokkos.InSpace(c.space), kokkos.WithExec(def))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.ExecutionSpace(); got != c.want {
			t.Errorf("%s: ExecutionSpace() = %v, want %v", c.space.Name(), got, c.want)
		}
		if err := def.Fence(); err != nil {
			t.Fatal(err)
		}
		v.Release()
	}
	_, err = kokkos.NewView1[float32]("h", 10, kokkos.WithExec(def))
	if !errors.Is(err, kokkos.ErrOption) || !strings.Contains(err.Error(), "cannot access memory space HostSpace") {
		t.Errorf("a stream and HostSpace: %v", err)
	}
	_, err = kokkos.NewView1[float32]("d", 10, kokkos.InSpace(cuda.Space), kokkos.WithExec(kokkos.Serial{}))
	if !errors.Is(err, kokkos.ErrOption) || !strings.Contains(err.Error(), "work on Serial, whose memory space is HostSpace, cannot access memory space CudaSpace") {
		t.Errorf("Serial and CudaSpace: %v", err)
	}
}
