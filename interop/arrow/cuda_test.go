package arrow

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/dal"
)

// TestCUDASpaces: on a GPU, device memory is refused with the advice to
// mirror it, and pinned host memory, which the host can access, is
// shared without a copy.
func TestCUDASpaces(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	dev, err := kokkos.NewView1[float64]("dev", 16, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Release()
	if _, err := FromView1(dev); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("device view: %v", err)
	}
	m, err := kokkos.NewView2[float32]("dev2", 4, 4, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Release()
	if _, err := TensorFromView2(m); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("device rank-2 view: %v", err)
	}
	if _, err := FixedSizeListFromView2(m); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("device rank-2 view as a list: %v", err)
	}
	a, err := dal.Zeros[int32](8, dal.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if _, err := FromArray(a); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("device array: %v", err)
	}

	// The mirror the error asks for is shared.
	host, err := kokkos.CreateMirrorViewAndCopy(dev)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Release()
	if _, err := FromView1(host); err != nil {
		t.Fatalf("host mirror: %v", err)
	}
	pinned, err := kokkos.NewView1[float64]("pinned", 16, kokkos.InSpace(cuda.HostPinnedSpace))
	if err != nil {
		t.Fatal(err)
	}
	pinned.Set(3, 2.5)
	arr, err := FromView1(pinned)
	if err != nil {
		t.Fatalf("pinned view: %v", err)
	}
	if err := pinned.Release(); err != nil {
		t.Fatal(err)
	}
	if arr.(*array.Float64).Value(3) != 2.5 {
		t.Fatal("pinned memory read back wrong")
	}
	arr.Release() // the last holder frees the pinned block
}
