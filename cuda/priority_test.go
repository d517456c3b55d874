package cuda

import (
	"strings"
	"testing"

	kokkos "github.com/gokkos/kokkos"
)

// TestStreamPriority: a HighPriority stream has the device's greatest
// priority, a plain one the default (the least), and work on the high one
// runs and orders as on any stream.
func TestStreamPriority(t *testing.T) {
	dev := gpu(t)
	least, greatest, err := dev.priorityRange()
	if err != nil {
		t.Fatal(err)
	}
	hi, err := dev.NewStream(HighPriority)
	if err != nil {
		t.Fatal(err)
	}
	defer hi.Release()
	lo, err := dev.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer lo.Release()
	if p, err := hi.priority(); err != nil || p != greatest {
		t.Errorf("HighPriority stream: priority %d (%v), want the greatest, %d (range %d..%d)", p, err, greatest, least, greatest)
	}
	if p, err := lo.priority(); err != nil || p != least {
		t.Errorf("plain stream: priority %d (%v), want the default, %d", p, err, least)
	}
	const n = 1 << 16
	x, want := randomDeviceView(t, "x", n, 7, 0)
	defer x.Release()
	if err := ParallelFor("slow", kokkos.Range(0, n).On(hi), slowScale, Bind("x", x), FMAD(false)); err != nil {
		t.Fatal(err)
	}
	if err := hi.Fence(); err != nil {
		t.Fatal(err)
	}
	checkScaled(t, x, want)
}

// TestStreamOptionUnknown: an option NewStream does not know is an
// error naming it, before anything is created.
func TestStreamOptionUnknown(t *testing.T) {
	dev := gpu(t)
	if _, err := dev.NewStream(StreamOption(42)); err == nil || !strings.Contains(err.Error(), "unknown option 42") {
		t.Errorf("NewStream(StreamOption(42)): %v, want an unknown-option error", err)
	}
}
