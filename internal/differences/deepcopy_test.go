package differences

import (
	"errors"
	"math/rand/v2"
	"testing"

	k "github.com/gokkos/kokkos"
)

// deep_copy between views that share elements: Kokkos copies nothing for
// the same view (a no-op), throws for contiguous views whose spans overlap,
// and silently does nothing for two contiguous views over one span with
// different layouts (the transpose the caller asked for never happens).
// gokkos keeps the no-op, and reports every other pair that shares an
// element as ErrOverlap, so the silent case becomes an error.
func TestDeepCopySharingElements(t *testing.T) {
	buf := make([]float64, 12)
	for i := range buf {
		buf[i] = rand.Float64()
	}
	lr, _ := k.WrapView2(buf, 3, 4)
	same, _ := k.WrapView2(buf, 3, 4)
	if err := k.DeepCopy(&lr, &same); err != nil {
		t.Fatalf("the same view: %v", err)
	}
	ll, _ := k.WrapView2(buf, 3, 4, k.LayoutLeft)
	before := append([]float64(nil), buf...)
	if err := k.DeepCopy(&ll, &lr); !errors.Is(err, k.ErrOverlap) {
		t.Fatalf("LayoutLeft from LayoutRight over one buffer: %v, want ErrOverlap", err)
	}
	for i := range buf {
		if buf[i] != before[i] {
			t.Fatal("a refused copy changed the buffer")
		}
	}
	// Overlapping, shifted rows: Kokkos throws; so does gokkos.
	a, _ := k.WrapView1(buf[0:8], 8)
	b, _ := k.WrapView1(buf[2:10], 8)
	if err := k.DeepCopy(&a, &b); !errors.Is(err, k.ErrOverlap) {
		t.Fatalf("overlapping spans: %v", err)
	}
	// The copy through a temporary that the error message suggests.
	tmp, err := k.CreateMirror(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.DeepCopy(&tmp, &b); err != nil {
		t.Fatal(err)
	}
	if err := k.DeepCopy(&a, &tmp); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if buf[i] != before[i+2] {
			t.Fatalf("element %d: %v, want %v", i, buf[i], before[i+2])
		}
	}
}
