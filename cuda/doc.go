// Package cuda is the CUDA backend of gokkos: device, host-pinned and unified
// memory spaces, streams, and the copy and fill primitives that the core's
// deep-copy planner calls.
//
// The package needs no cgo and no CUDA headers: it loads the CUDA driver
// (libcuda.so.1) at run time through purego, the first time a function needs
// it. Where no driver is present, every function returns an error that says
// so and lists the places it looked (see ErrNoDriver). Set
// GOKKOS_CUDA_DRIVER to a library path to load that file and nothing else.
//
// Every driver call runs on an OS thread where the device's primary context
// is current: the calling goroutine is locked to its thread and the context
// made current around each call, so the package is safe for concurrent use
// from any goroutine.
//
// Memory outside the Go heap is owned explicitly. A Block from one of the
// spaces (Space, HostPinnedSpace, UVMSpace) is freed by its Free function,
// exactly once, and by nothing else (the rule of backend.BlockSpace): a block
// whose holders all forgot it is leaked, never freed, and TakeLeaked,
// LiveAllocations and package cudatest report what is leaked or still held.
package cuda
