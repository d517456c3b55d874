package gonum

import (
	"errors"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/interop/internal/interoptest"
)

// TestCUDA: a device view is refused with the advice to mirror it, and its
// mirror converts.
func TestCUDA(t *testing.T) {
	d, h := interoptest.DeviceView(t)
	for name, err := range map[string]error{
		"Dense":     second(Dense(d)),
		"Transpose": second(Transpose(d)),
		"CopyDense": second(CopyDense(d)),
	} {
		if !errors.Is(err, kokkos.ErrNotHostAccessible) {
			t.Errorf("%s of a device view: %v", name, err)
		}
	}
	m := interoptest.Mirror(t, d)
	md, err := Dense(m)
	if err != nil {
		t.Fatal(err)
	}
	sameElements(t, md, h)
}
