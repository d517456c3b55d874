package kokkos

import "sync"

// deviceFences are the fences that backends register with AddDeviceFence.
var deviceFences struct {
	mu sync.Mutex
	fs []func() error
}

// AddDeviceFence registers f, a backend's wait for all of its outstanding
// device work (the CUDA backend registers cuda.Synchronize when it loads).
// The package-level Fence runs every registered fence, and DeepCopy and
// Fill run them before and after a copy that touches memory outside the Go
// heap, as Kokkos's deep_copy without an execution space fences.
func AddDeviceFence(f func() error) {
	deviceFences.mu.Lock()
	deviceFences.fs = append(deviceFences.fs, f)
	deviceFences.mu.Unlock()
}

// fenceDevices runs the registered device fences and returns the first
// error.
func fenceDevices() error {
	deviceFences.mu.Lock()
	fs := deviceFences.fs
	deviceFences.mu.Unlock()
	for _, f := range fs {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// outsideGoHeap reports whether d's memory belongs to a BlockSpace.
func outsideGoHeap[T any](d *desc[T]) bool {
	_, ok := d.rec.Space().(BlockSpace)
	return d.rec != nil && ok
}

// fenced runs op between two device fences when either view lives outside
// the Go heap.
func fenced[T any](d, s *desc[T], op func() error) error {
	if !outsideGoHeap(d) && (s == nil || !outsideGoHeap(s)) {
		return op()
	}
	if err := fenceDevices(); err != nil {
		return err
	}
	if err := op(); err != nil {
		return err
	}
	return fenceDevices()
}
