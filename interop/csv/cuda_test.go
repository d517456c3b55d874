package csv

import (
	"bytes"
	"errors"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/interop/internal/interoptest"
)

// TestCUDA: a device view is refused with the advice to mirror it, and its
// mirror writes.
func TestCUDA(t *testing.T) {
	d, h := interoptest.DeviceView(t)
	var buf bytes.Buffer
	if err := Write(&buf, d, Options{}); !errors.Is(err, kokkos.ErrNotHostAccessible) {
		t.Fatalf("Write of a device view: %v", err)
	}
	if err := Write(&buf, interoptest.Mirror(t, d), Options{}); err != nil {
		t.Fatal(err)
	}
	r, _, err := Read[float64](&buf, "r", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 4 {
			if r.At(i, j) != h.At(i, j) {
				t.Fatalf("(%d, %d): %v, want %v", i, j, r.At(i, j), h.At(i, j))
			}
		}
	}
}
