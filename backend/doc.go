// Package backend is the contract between package kokkos and the memory
// spaces and execution backends that plug into it, as database/sql/driver
// is for database/sql. Users of views do not need it: they name spaces
// through kokkos.MemorySpace (an alias of MemorySpace) and the values a
// backend exports (kokkos.HostSpace, cuda.DeviceSpace{}). A backend such as
// package github.com/gokkos/kokkos/cuda implements the interfaces below;
// package github.com/gokkos/kokkos/backend/backendtest checks that it
// keeps the rules.
//
// # The interfaces
//
//   - MemorySpace: a name and whether the host may touch the memory.
//   - BlockSpace: a MemorySpace whose memory lies outside the Go heap;
//     Allocate returns a Block.
//   - CopySpace: a BlockSpace that copies (CopyBytes) and fills
//     (FillBytes) its memory on request; the deep-copy planner calls it
//     whenever one side of a copy is not host-accessible. Copy2DSpace adds
//     strided 2-D copies, AsyncCopySpace copies queued on an execution
//     space instance (an Exec).
//   - WorkQueue: a device execution-space instance on which
//     kokkos.DeepCopyOn and kokkos.FillOn queue work.
//   - RegisterFence: a backend's wait for all its outstanding work, run by
//     kokkos.Fence and around the copies without an execution space.
//   - Launcher: a device execution-space instance that runs kernels.
//     Package kernel hands it each launch of a Go kernel whose policy
//     names it: the kernel (its parameters and its description, Kernel.IR,
//     in the text form of package backend/kernelir), the index space
//     (Shape), the bound arguments (Arg: each view described once as a
//     View, each scalar as typed bits, each unique token as a Token whose
//     ids the backend keeps) and, for Reduce and Scan, the
//     reducer as a typed value (Reduction). Host instances of package
//     kokkos are not Launchers: package kernel runs a kernel's generated
//     host code on them.
//   - DeviceMemory: a memory space of an accelerator, which names its
//     device platform and the host space through which its data is staged
//     (package mpi uses both).
//
// # A new device backend
//
// A backend for another device (HIP, SYCL, a SIMD host engine) needs
// nothing from package kokkos but the interfaces above, as a
// database/sql driver needs nothing from database/sql but Register. It
// must implement:
//
//   - a BlockSpace for its memory that is a CopySpace (and should be a
//     StridedCopySpace, so that copies between layouts stay on the device),
//     registering a fence with RegisterFence when it queues work;
//   - an execution-space instance, with the methods of
//     kokkos.ExecutionSpace (Name, Concurrency, Fence, MemorySpace), that is
//     a WorkQueue (for DeepCopyOn and FillOn) and a Launcher: For, Reduce
//     and Scan compile a kernel from Kernel.IR (a backend may cache its
//     code per *Kernel: package kernel passes the same pointer to every
//     launch of a kernel), check the views (Space, Owner, ReadOnly), run
//     the index space, and return reductions as bits.
//
// It may implement AsyncCopySpace, Copy2DSpace and DeviceMemory. Nothing
// in packages kernel, mpi or the interop packages changes for it: they
// reach devices through these interfaces only. backendtest.TestLauncher
// checks a Launcher against the contract (every pattern on random data,
// and the refusals); backendtest.FakeExecutor, which runs kernels from
// their descriptions over a Fake's memory, is the smallest such backend,
// and both it and *cuda.Stream pass that suite.
//
// # Rules
//
// Spaces are comparable. Package kokkos compares spaces with == (is this
// copy within one space, is a mirror needed, is an Endpoint memory of this
// backend), so the dynamic type of every MemorySpace must be comparable: a
// small struct of comparable fields (cuda.DeviceSpace{Device: 0}) or a
// pointer (backendtest's spaces). A struct with a slice, map or func field
// makes those comparisons panic at run time.
//
// Free runs exactly once. A Block's Free is called by the kokkos.Allocation
// that holds the block, by the Release that drops its count of holders to
// zero, and by nothing else: never twice, never by the garbage collector.
// A backend may treat a second call as a bug and return an error wrapping
// ErrReleased.
//
// Host-memory lifetime. Memory outside the Go heap is freed by the last
// Release only. Slices and pointers that views return for host-accessible
// blocks (Block.Host: CUDA pinned or unified memory, a mapping) are valid
// until that Release and must not be used after it, as with
// syscall.Munmap. An Allocation that becomes unreachable before its final
// Release leaks its block: the block is never freed, so such slices stay
// valid, and the leak is reported once, to the handler of
// kokkos.SetLeakHandler (by default on standard error). Tests find leaks
// without waiting for the collector by wrapping their space in
// backendtest.CheckedSpace.
//
// Copy ranges never overlap. The planner checks overlap before it calls a
// backend, so CopyBytes, CopyBytes2D and CopyBytesAsync are never given a
// source and a destination that share bytes; sizes are never zero; an
// Endpoint's Host memory is valid for the call only (see AsyncCopySpace for
// the asynchronous case).
//
// Fences. The synchronous calls (CopyBytes, CopyBytes2D, FillBytes) return
// when the bytes are in place. Work a backend queues elsewhere (on its
// streams) must be waited for by the fence it registers with
// RegisterFence; package kokkos runs it before and after every copy
// without an execution space that touches memory outside the Go heap, so
// a synchronous copy sees all earlier work of the backend and is seen by
// all later host code.
package backend
