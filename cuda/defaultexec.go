package cuda

import (
	"sync"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// defaultStreams holds each device's default instance, by ordinal: the
// *Stream that views in its device and unified memory report as their
// execution space.
var defaultStreams sync.Map

// DefaultStream returns the default instance of the Cuda execution space of
// device dev, as Kokkos's Cuda(): one Stream per device, made on first use
// and kept for the life of the process (do not Release it). It is the
// ExecutionSpace of views in the device's memory and in its unified
// memory.
func DefaultStream(dev int) (*Stream, error) {
	if s, ok := defaultStreams.Load(dev); ok {
		return s.(*Stream), nil
	}
	d, err := GetDevice(dev)
	if err != nil {
		return nil, err
	}
	s, err := d.NewStream()
	if err != nil {
		return nil, err
	}
	got, loaded := defaultStreams.LoadOrStore(dev, s)
	if loaded {
		_ = s.Release()
	}
	return got.(*Stream), nil
}

// defaultExec is DefaultStream as a backend.Exec, nil where it fails.
func defaultExec(dev int) backend.Exec {
	s, err := DefaultStream(dev)
	if err != nil {
		return nil
	}
	return s
}

// ExecutionSpace returns the device's default stream (DefaultStream), as
// Kokkos's CudaSpace::execution_space, or nil when it cannot be made.
func (s DeviceSpace) ExecutionSpace() backend.Exec { return defaultExec(s.Device) }

// ExecutionSpace returns the device's default stream (DefaultStream), as
// Kokkos's CudaUVMSpace::execution_space, or nil when it cannot be made.
func (s ManagedSpace) ExecutionSpace() backend.Exec { return defaultExec(s.Device) }

// CanAccess reports whether kernels on the stream can read and write
// memory of space m, as Kokkos's SpaceAccessibility<Cuda, M>: the device,
// unified and pinned host memory of the stream's device.
func (s *Stream) CanAccess(m kokkos.MemorySpace) bool {
	o, ok := deviceOf(m)
	return ok && o == s.dev.ordinal
}

var (
	_ backend.SpaceExec  = DeviceSpace{}
	_ backend.SpaceExec  = ManagedSpace{}
	_ backend.ExecAccess = (*Stream)(nil)
)
