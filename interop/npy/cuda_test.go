package npy

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/interop/internal/interoptest"
)

// TestCUDA: a device view is refused with the advice to mirror it; its
// mirror writes, and a file read back copies to the device.
func TestCUDA(t *testing.T) {
	d, h := interoptest.DeviceView(t)
	var buf bytes.Buffer
	if err := Write(&buf, d); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("Write of a device view: %v", err)
	}
	if err := Write(&buf, interoptest.Mirror(t, d)); err != nil {
		t.Fatal(err)
	}
	var r kokkos.View2[float64]
	if err := ReadView(&buf, &r, "r"); err != nil {
		t.Fatal(err)
	}
	d2 := kokkos.Must(kokkos.NewView2[float64]("dev2", 3, 4, kokkos.InSpace(cuda.Space)))
	defer d2.Release()
	if err := kokkos.DeepCopy(d2, r); err != nil {
		t.Fatal(err)
	}
	if got := interoptest.Mirror(t, d2); !sameBits(logical[float64](got), logical[float64](h)) {
		t.Fatal("elements differ after the device round trip")
	}
}
