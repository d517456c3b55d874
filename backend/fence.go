package backend

import "github.com/gokkos/kokkos/internal/devfence"

// RegisterFence registers f, a backend's wait for all of its outstanding
// device work (the CUDA backend registers cuda.Synchronize when it loads).
// kokkos.Fence runs every registered fence, and the copies without an
// execution space (kokkos.DeepCopy, Fill, DeepCopyToScalar,
// DeepCopyConvert) run them before and after a copy that touches memory
// outside the Go heap, as Kokkos's deep_copy without an execution space
// fences.
//
// The returned function removes f again, like the stop function of
// context.AfterFunc; calling it more than once does nothing.
func RegisterFence(f func() error) (remove func()) {
	return devfence.Register(f)
}
