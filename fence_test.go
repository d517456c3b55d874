package kokkos

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/gokkos/kokkos/backend"
)

func TestDeviceFences(t *testing.T) {
	var n atomic.Int32
	defer backend.RegisterFence(func() error { n.Add(1); return nil })()
	host := Must(NewView1[float64]("h", 8))
	if err := Fill(host, 1); err != nil || n.Load() != 0 {
		t.Fatalf("a host fill must not fence devices: %v, %d fences", err, n.Load())
	}
	dev := Must(NewView1[float64]("d", 8, InSpace(checked(t, newFakeSpace(false)))))
	defer dev.Release()
	if err := Fill(dev, 2); err != nil || n.Load() != 2 {
		t.Fatalf("a device fill fences before and after: %v, %d fences", err, n.Load())
	}
	if err := DeepCopy(host, dev); err != nil || n.Load() != 4 || host.At(7) != 2 {
		t.Fatalf("a copy from the device fences before and after: %v, %d fences", err, n.Load())
	}
	if err := Fence(); err != nil || n.Load() != 5 {
		t.Fatalf("Fence runs the device fences: %v, %d", err, n.Load())
	}
}

// TestRegisterFenceRemove: the function backend.RegisterFence returns removes the
// fence; calling it again does nothing.
func TestRegisterFenceRemove(t *testing.T) {
	var n atomic.Int32
	broken := errors.New("fence failed")
	remove := backend.RegisterFence(func() error { n.Add(1); return broken })
	if err := Fence(); !errors.Is(err, broken) || n.Load() != 1 {
		t.Fatalf("Fence() = %v after %d calls, want the device fence's error", err, n.Load())
	}
	remove()
	remove()
	if err := Fence(); err != nil || n.Load() != 1 {
		t.Fatalf("after remove: Fence() = %v, %d calls", err, n.Load())
	}
}
