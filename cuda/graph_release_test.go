package cuda_test

import (
	"errors"
	"runtime"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
)

// TestGraphReleaseThenCollect releases graphs and lets the collector run
// their cleanups: the handles are destroyed once, by Release, and the
// driver keeps working (a second destroy of a graph crashes in the
// driver).
func TestGraphReleaseThenCollect(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	const n = 256
	a, err := kokkos.NewView1[int64]("a", n, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	for range 8 {
		g, err := cuda.Capture(s, func() error {
			return cuda.ParallelFor("inc", kokkos.Range(0, n).On(s), "a(i) += 1;", cuda.Bind("a", a))
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Launch(); err != nil {
			t.Fatal(err)
		}
		if err := g.Release(); err != nil {
			t.Fatal(err)
		}
		if err := g.Release(); !errors.Is(err, cuda.ErrReleased) {
			t.Errorf("second Release: %v, want ErrReleased", err)
		}
	}
	for range 3 {
		runtime.GC()
	}
	if err := s.Fence(); err != nil {
		t.Fatal(err)
	}
	h, err := kokkos.CreateMirrorViewAndCopy(a, kokkos.InSpace(kokkos.HostSpace))
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if got := h.At(i); got != 8 {
			t.Fatalf("a(%d) = %d after 8 replays of a(i) += 1 on zeros, want 8", i, got)
		}
	}
}
