// Package prof is the table of profiling hooks: the events that package
// kokkos, internal/sched and package cuda report (kernels, fences,
// allocations, deep copies, regions) and the tools that receive them.
// Package tools registers tools here; the reporting packages cannot
// import it, since it imports them.
//
// With no tool registered, a reporting site costs one atomic load and a
// branch that is never taken: every site is written as
//
//	if prof.On() { ... }
//
// and On inlines to a load of one word.
package prof

import (
	"context"
	"fmt"
	"os"
	"runtime/pprof"
	"runtime/trace"
	"sync"
	"sync/atomic"
)

// A Tool receives the events. The methods mirror Kokkos Tools' C entry
// points (kokkosp_begin_parallel_for and the rest); package tools documents
// them. They are called on the goroutine where the event happens, from
// several goroutines at once, and must not start kernels themselves.
type Tool interface {
	BeginParallelFor(name string, devID uint32, kernelID uint64)
	EndParallelFor(kernelID uint64)
	BeginParallelReduce(name string, devID uint32, kernelID uint64)
	EndParallelReduce(kernelID uint64)
	BeginParallelScan(name string, devID uint32, kernelID uint64)
	EndParallelScan(kernelID uint64)
	BeginFence(name string, devID uint32, fenceID uint64)
	EndFence(fenceID uint64)
	AllocateData(space, label string, ptr uintptr, size uint64)
	DeallocateData(space, label string, ptr uintptr, size uint64)
	BeginDeepCopy(dstSpace, dstLabel string, dst uintptr, srcSpace, srcLabel string, src uintptr, size uint64)
	EndDeepCopy()
	PushRegion(name string)
	PopRegion()
	Finalize()
}

var (
	on     atomic.Bool
	labels atomic.Bool
	mu     sync.Mutex
	list   atomic.Pointer[[]Tool]
	nextID atomic.Uint64
	epoch  atomic.Uint64
)

// A program that sets KOKKOS_TOOLS_LIBS expects its Kokkos Tools libraries
// loaded, but only package tools loads them, and the core cannot import
// it. So that a program that does not import it is told, rather than
// silently profiled by nothing, the variable turns the hooks on at
// initialisation: the first event reported then checks that a loader
// registered itself (package tools does so in its initialisation, which
// runs before main), prints a warning on standard error if none did, and
// turns the hooks off again unless a tool is registered. Only the events
// before that first one cost more than a load and a branch.
var (
	loader    atomic.Bool // a loader of KOKKOS_TOOLS_LIBS is linked in
	unchecked atomic.Bool // KOKKOS_TOOLS_LIBS is set and not yet checked
)

// libsVar is the environment variable that names the Kokkos Tools
// libraries to load.
const libsVar = "KOKKOS_TOOLS_LIBS"

func init() {
	if os.Getenv(libsVar) != "" {
		unchecked.Store(true)
		on.Store(true)
	}
}

// SetLoader records that the program loads the libraries of
// KOKKOS_TOOLS_LIBS: package tools calls it in its initialisation.
func SetLoader() { loader.Store(true) }

// checkLoader prints, once, a warning on standard error when
// KOKKOS_TOOLS_LIBS is set and no loader registered itself.
func checkLoader() {
	mu.Lock()
	first := unchecked.Swap(false)
	if first {
		on.Store(labels.Load() || list.Load() != nil)
	}
	mu.Unlock()
	if first && !loader.Load() {
		fmt.Fprintf(os.Stderr, "kokkos: %s=%s is ignored: this program does not load Kokkos Tools libraries; import _ \"github.com/gokkos/kokkos/tools\" to load them, and call tools.Finalize() at its end\n", libsVar, os.Getenv(libsVar))
	}
}

// Epoch returns the number of Finalize calls so far: an allocation
// reported in one epoch has its deallocation reported only in the same
// one, so that tools registered after a Finalize see no deallocation of
// memory allocated before.
func Epoch() uint64 { return epoch.Load() }

// On reports whether any tool is registered or labels are enabled.
func On() bool { return on.Load() }

// Add registers t after the tools already registered.
func Add(t Tool) {
	mu.Lock()
	defer mu.Unlock()
	var l []Tool
	if p := list.Load(); p != nil {
		l = append(l, *p...)
	}
	l = append(l, t)
	list.Store(&l)
	on.Store(true)
}

// SetLabels turns the pprof labels and runtime/trace regions of kernels on
// or off.
func SetLabels(b bool) {
	mu.Lock()
	defer mu.Unlock()
	labels.Store(b)
	on.Store(b || list.Load() != nil)
}

// Labels reports whether kernels carry pprof labels and trace regions.
func Labels() bool { return labels.Load() }

// Finalize unregisters every tool and calls their Finalize methods, in the
// order they were registered. Labels stay as they were.
func Finalize() {
	mu.Lock()
	p := list.Swap(nil)
	epoch.Add(1)
	on.Store(labels.Load())
	mu.Unlock()
	if p == nil {
		return
	}
	for _, t := range *p {
		t.Finalize()
	}
}

func tools() []Tool {
	if p := list.Load(); p != nil {
		return *p
	}
	if unchecked.Load() {
		checkLoader()
	}
	return nil
}

// NewID returns a fresh kernel or fence id, never 0.
func NewID() uint64 { return nextID.Add(1) }

// The kinds of kernel.
const (
	For uint8 = iota
	Reduce
	Scan
)

// BeginKernel reports the start of a kernel of kind k and returns its id,
// to pass to EndKernel.
func BeginKernel(k uint8, name string, devID uint32) uint64 {
	id := NewID()
	for _, t := range tools() {
		switch k {
		case For:
			t.BeginParallelFor(name, devID, id)
		case Reduce:
			t.BeginParallelReduce(name, devID, id)
		default:
			t.BeginParallelScan(name, devID, id)
		}
	}
	return id
}

// EndKernel reports the end of the kernel id of kind k.
func EndKernel(k uint8, id uint64) {
	for _, t := range tools() {
		switch k {
		case For:
			t.EndParallelFor(id)
		case Reduce:
			t.EndParallelReduce(id)
		default:
			t.EndParallelScan(id)
		}
	}
}

// BeginFence reports the start of a fence and returns its id.
func BeginFence(name string, devID uint32) uint64 {
	id := NewID()
	for _, t := range tools() {
		t.BeginFence(name, devID, id)
	}
	return id
}

// EndFence reports the end of the fence id.
func EndFence(id uint64) {
	for _, t := range tools() {
		t.EndFence(id)
	}
}

// Allocate reports an allocation.
func Allocate(space, label string, ptr uintptr, size uint64) {
	for _, t := range tools() {
		t.AllocateData(space, label, ptr, size)
	}
}

// Deallocate reports a deallocation.
func Deallocate(space, label string, ptr uintptr, size uint64) {
	for _, t := range tools() {
		t.DeallocateData(space, label, ptr, size)
	}
}

// BeginDeepCopy reports the start of a deep copy.
func BeginDeepCopy(dstSpace, dstLabel string, dst uintptr, srcSpace, srcLabel string, src uintptr, size uint64) {
	for _, t := range tools() {
		t.BeginDeepCopy(dstSpace, dstLabel, dst, srcSpace, srcLabel, src, size)
	}
}

// EndDeepCopy reports the end of the innermost deep copy.
func EndDeepCopy() {
	for _, t := range tools() {
		t.EndDeepCopy()
	}
}

// PushRegion reports the start of a user region.
func PushRegion(name string) {
	for _, t := range tools() {
		t.PushRegion(name)
	}
}

// PopRegion reports the end of the innermost user region.
func PopRegion() {
	for _, t := range tools() {
		t.PopRegion()
	}
}

// Device ids, as Kokkos encodes them: the device type in the top 8 bits,
// the device number in the next 7 and the instance in the low 17.
const (
	DevSerial  = 0 << 24
	DevCuda    = 2 << 24
	DevThreads = 6 << 24
)

// DeviceID returns the id of instance inst of device dev of type typ (one
// of the Dev constants).
func DeviceID(typ uint32, dev, inst int) uint32 {
	return typ | uint32(dev&0x7f)<<17 | uint32(inst)&0x1ffff
}

// labelKey is the pprof label that names the kernel running.
const labelKey = "kokkos.kernel"

// KernelContext returns a context whose pprof labels name kernel label.
func KernelContext(label string) context.Context {
	return pprof.WithLabels(context.Background(), pprof.Labels(labelKey, label))
}

// Labelled returns body run with ctx's pprof labels on its goroutine, and
// inside a trace region named label while tracing is on. The goroutine's
// labels are cleared afterwards.
func Labelled(ctx context.Context, label string, body func(lo, hi int)) func(lo, hi int) {
	return func(lo, hi int) {
		pprof.SetGoroutineLabels(ctx)
		defer pprof.SetGoroutineLabels(context.Background())
		if trace.IsEnabled() {
			defer trace.StartRegion(ctx, label).End()
		}
		body(lo, hi)
	}
}
