package kokkos

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
)

// A LeakReport describes memory that will never be freed: memory outside
// the Go heap (or given a free function) whose Allocation became
// unreachable before its final Release. The memory stays allocated, so that
// slices and pointers still taken from it remain valid; the report is the
// only trace of the leak.
type LeakReport struct {
	// Label is the allocation's label.
	Label string
	// Space is the memory space the memory lies in.
	Space MemorySpace
	// Bytes is the allocation's size.
	Bytes int
	// Stack is the allocating goroutine's stack, innermost call first:
	// one "function" line and one "\tfile:line" line per call.
	Stack string
}

// String returns the report as the default handler writes it: one line
// naming the allocation, then the stack, indented.
func (r LeakReport) String() string {
	name := "<nil>"
	if r.Space != nil {
		name = r.Space.Name()
	}
	msg := fmt.Sprintf("kokkos: leak: allocation %q of %d bytes in %s became unreachable before its final Release; its memory is never freed",
		r.Label, r.Bytes, name)
	if r.Stack == "" {
		return msg
	}
	return msg + "\nallocated at:\n\t" + strings.ReplaceAll(strings.TrimSuffix(r.Stack, "\n"), "\n", "\n\t")
}

// maxLeakFrames bounds the stack kept for a LeakReport.
const maxLeakFrames = 32

var leakHandler atomic.Pointer[func(LeakReport)]

// SetLeakHandler makes h receive every LeakReport from now on, once per
// leaked allocation, and returns the handler it replaces (nil for the
// default). h == nil restores the default, which writes the report's String
// to standard error. h runs on the runtime's cleanup goroutine, some time
// after a garbage collection finds the Allocation unreachable (or never, if
// the program exits first): it must not block, and should hand the report
// elsewhere (a channel, a log) rather than do work. Tests that must fail on
// a leak wrap their spaces in backendtest.CheckedSpace, which does not wait
// for the collector.
func SetLeakHandler(h func(LeakReport)) (previous func(LeakReport)) {
	var p *func(LeakReport)
	if h != nil {
		p = &h
	}
	if old := leakHandler.Swap(p); old != nil {
		return *old
	}
	return nil
}

// reportLeak is the cleanup of an Allocation with a free function: it runs
// once the Allocation is unreachable, and reports the memory if the final
// Release did not free it. It never frees: slices over the memory may
// outlive every view.
func reportLeak(s *allocState) {
	if s.freed.Load() {
		return
	}
	r := LeakReport{Label: s.label, Space: s.space, Bytes: s.bytes, Stack: formatStack(s.stack)}
	if h := leakHandler.Load(); h != nil {
		(*h)(r)
		return
	}
	fmt.Fprintln(os.Stderr, r.String())
}

func formatStack(pcs []uintptr) string {
	if len(pcs) == 0 {
		return ""
	}
	var b strings.Builder
	frames := runtime.CallersFrames(pcs)
	for {
		f, more := frames.Next()
		fmt.Fprintf(&b, "%s\n\t%s:%d\n", f.Function, f.File, f.Line)
		if !more {
			return b.String()
		}
	}
}
