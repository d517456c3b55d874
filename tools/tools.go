// Package tools is gokkos's port of Kokkos Tools: the profiling hooks that
// the kokkos package and its backends call at every kernel, fence,
// allocation, deallocation and deep copy, and in user regions, and the
// tools that receive them.
//
// A tool is a Go value implementing [Tool], registered with [Register]
// (embed [Nop] and implement only the events you need), or a Kokkos Tools
// shared library named by the KOKKOS_TOOLS_LIBS environment variable,
// loaded when this package is initialised, as Kokkos loads it at
// Kokkos::initialize: import the package (import _
// "github.com/gokkos/kokkos/tools" is enough) and call [Finalize] before
// the program ends, so that the tools print their results. A program that
// sets the variable without importing the package prints a warning on
// standard error at its first profiled event. See [LoadLibrary] for how a
// library receives the events of many goroutines.
//
// Two tools come with the package: [KernelTimer], per kernel label the
// calls, total and mean time and share of the kernels' time, and
// [MemoryHighWater], per memory space the bytes allocated at most. Each
// prints its table at Finalize and returns it as a slice of structs.
// [LabelKernels] makes each kernel carry its label as a pprof label
// (kokkos.kernel) and a runtime/trace region while it runs.
//
// With no tool registered and labels off, each hook costs the kokkos
// package one atomic load and a branch.
package tools

import (
	"github.com/gokkos/kokkos/internal/prof"
)

// A Tool receives the profiling events. The methods are Kokkos Tools'
// C entry points (kokkosp_begin_parallel_for and the rest) with Go
// types. They are called on the goroutine where the event happens, from
// several goroutines at once, so they must be safe for concurrent use;
// they must not start kernels, copies or allocations of package kokkos.
//
// Kernel and fence ids are the core's: unique in the process, never 0,
// and the same at the begin and the end of one kernel. The device id is
// Kokkos's encoding (see [DeviceType]). Space names are Kokkos's: "Host",
// "Cuda", "CudaUVM", "CudaHostPinned". Pointers are addresses, only to
// tell allocations apart: 0 for an empty view.
type Tool interface {
	// BeginParallelFor and EndParallelFor bracket a ParallelFor of any
	// form (closure, chunks, tiles, MDRange, teams, a Go kernel, a CUDA
	// launch) labelled name.
	BeginParallelFor(name string, devID uint32, kernelID uint64)
	EndParallelFor(kernelID uint64)
	// BeginParallelReduce and EndParallelReduce bracket a reduction.
	BeginParallelReduce(name string, devID uint32, kernelID uint64)
	EndParallelReduce(kernelID uint64)
	// BeginParallelScan and EndParallelScan bracket a scan.
	BeginParallelScan(name string, devID uint32, kernelID uint64)
	EndParallelScan(kernelID uint64)
	// BeginFence and EndFence bracket kokkos.Fence (devID 0) and an
	// asynchronous instance's Fence.
	BeginFence(name string, devID uint32, fenceID uint64)
	EndFence(fenceID uint64)
	// AllocateData reports a view's allocation of size bytes at ptr.
	AllocateData(space, label string, ptr uintptr, size uint64)
	// DeallocateData reports that an allocation is gone: at its last
	// Release, or, for Go memory never released, when the garbage
	// collector reclaims it. Only allocations reported since the last
	// Finalize have theirs reported.
	DeallocateData(space, label string, ptr uintptr, size uint64)
	// BeginDeepCopy and EndDeepCopy bracket DeepCopy, DeepCopyOn, Fill
	// and FillOn (a fill's source is "Scalar" in "Host"). size is the
	// destination's span in bytes.
	BeginDeepCopy(dstSpace, dstLabel string, dst uintptr, srcSpace, srcLabel string, src uintptr, size uint64)
	EndDeepCopy()
	// PushRegion and PopRegion are the user's regions (PushRegion,
	// PopRegion of this package).
	PushRegion(name string)
	PopRegion()
	// Finalize is called once, by the package's Finalize; a tool prints
	// its results here.
	Finalize()
}

var _ prof.Tool = Tool(nil)

// Nop is a Tool that does nothing. Embed it in a tool to implement only
// the events it needs.
type Nop struct{}

func (Nop) BeginParallelFor(string, uint32, uint64)    {}
func (Nop) EndParallelFor(uint64)                      {}
func (Nop) BeginParallelReduce(string, uint32, uint64) {}
func (Nop) EndParallelReduce(uint64)                   {}
func (Nop) BeginParallelScan(string, uint32, uint64)   {}
func (Nop) EndParallelScan(uint64)                     {}
func (Nop) BeginFence(string, uint32, uint64)          {}
func (Nop) EndFence(uint64)                            {}
func (Nop) AllocateData(string, string, uintptr, uint64) {
}
func (Nop) DeallocateData(string, string, uintptr, uint64) {
}
func (Nop) BeginDeepCopy(string, string, uintptr, string, string, uintptr, uint64) {
}
func (Nop) EndDeepCopy()      {}
func (Nop) PushRegion(string) {}
func (Nop) PopRegion()        {}
func (Nop) Finalize()         {}

// Register adds t to the tools that receive the events, after those
// registered before. Events already under way (a kernel that has begun)
// may reach t with their end only.
func Register(t Tool) { prof.Add(t) }

// Finalize unregisters every tool, Go tools and libraries, and calls
// their Finalize (kokkosp_finalize_library) in the order they were
// registered: the tables of KernelTimer and MemoryHighWater are printed
// then. It is Kokkos::finalize's part for the tools; call it once, at
// the end of the program. Tools registered afterwards start afresh.
func Finalize() { prof.Finalize() }

// PushRegion opens a user region named name, as
// Kokkos::Profiling::pushRegion: the tools see it until the matching
// PopRegion. Regions nest per program, not per goroutine, as in Kokkos.
func PushRegion(name string) {
	if prof.On() {
		prof.PushRegion(name)
	}
}

// PopRegion closes the innermost user region.
func PopRegion() {
	if prof.On() {
		prof.PopRegion()
	}
}

// LabelKernels turns on (or off) the labelling of kernels for Go's own
// profilers: while a kernel runs, each goroutine running it carries the
// pprof label kokkos.kernel=LABEL (go tool pprof -tagfocus
// 'kokkos.kernel=LABEL'), and, while runtime/trace is on, runs it inside a
// trace region named LABEL. It costs a closure and two label switches per
// chunk of work. A goroutine that runs a kernel has no pprof labels
// afterwards, so turn it on only where the program sets no labels of its
// own around kernels.
func LabelKernels(on bool) { prof.SetLabels(on) }

// DeviceType returns the name of the execution space a device id of
// Kokkos's encoding names: "Serial", "Threads", "Cuda", or "Unknown";
// with the device number and the instance number.
func DeviceType(devID uint32) (space string, device, instance int) {
	switch devID >> 24 {
	case prof.DevSerial >> 24:
		space = "Serial"
	case prof.DevThreads >> 24:
		space = "Threads"
	case prof.DevCuda >> 24:
		space = "Cuda"
	default:
		space = "Unknown"
	}
	return space, int(devID>>17) & 0x7f, int(devID & 0x1ffff)
}
