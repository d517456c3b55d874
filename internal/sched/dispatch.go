// Package sched runs the kokkos package's parallel work: a goroutine pool
// that runs one region of units at a time (Pool), the queues of
// asynchronous instances (Queue) with their fences and the detection of
// waits that could never end, and the dispatch that every pattern hands to
// them (Dispatch, Execute).
//
// It knows nothing of views or policies. Errors that reach the kokkos
// package's users (panics in work, refused waits) are the kokkos package's
// own, which live in package internal/errs: a *errs.PanicError, and errors
// wrapping errs.ErrWouldDeadlock.
package sched

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"

	"github.com/gokkos/kokkos/internal/errs"
	"github.com/gokkos/kokkos/internal/prof"
)

// Kind is the pattern a dispatch comes from.
type Kind uint8

const (
	KindFor Kind = iota
	KindReduce
	KindScan
	KindTask // a function given to Submit
)

func (k Kind) String() string {
	return [...]string{"parallel_for", "parallel_reduce", "parallel_scan", "task"}[k]
}

// A Dispatch is one unit of work given to an execution space: a region of
// units [Begin, End) run in chunks by Body (or index by index by Index), or
// a task (Task, or Work, whose error is the dispatch's error).
type Dispatch struct {
	Label      string
	Kind       Kind
	Begin, End int
	Chunk      int
	Body       func(lo, hi int)
	Index      func(i int)
	Task       func()
	Work       func() error
	// NewPanic builds the error of a panic in the dispatch's work from its
	// label, the panic value, the caller's site and the stack: package
	// kokkos makes its *kokkos.PanicError with it. Nil gives an
	// *errs.PanicError.
	NewPanic func(label string, value any, where string, stack []byte) error
	profiled bool // its kernel events are reported (see executeProfiled)
}

// Execute runs d on p (nil: the calling goroutine alone) and returns its
// first panic, as a *errs.PanicError, or the error of a Work task. owner is
// the queue whose work d is, nil for a synchronous instance.
func Execute(d *Dispatch, p *Pool, owner *Queue) error {
	if prof.On() && d.Kind != KindTask && !d.profiled {
		return executeProfiled(d, p, owner)
	}
	var pv *Panic
	var err error
	switch {
	case d.Kind == KindTask:
		pv = runSerial(0, 1, 1, func(int, int) {
			if d.Work != nil {
				err = d.Work()
			} else {
				d.Task()
			}
		}, nil)
	case p == nil:
		pv = runSerial(d.Begin, d.End, d.Chunk, d.Body, d.Index)
	default:
		pv = p.run(d.Begin, d.End, d.Chunk, d.Body, d.Index, owner)
	}
	if pv == nil {
		return err
	}
	return panicError(d, pv)
}

// GoexitValue is the panic value recorded for a body or task that called
// runtime.Goexit.
const GoexitValue = "runtime.Goexit called in a kernel body"

// panicError is the error of p, a panic in the work of d.
func panicError(d *Dispatch, p *Panic) error {
	if d.NewPanic != nil {
		return d.NewPanic(d.Label, p.Value, p.Where, p.Stack)
	}
	return &errs.PanicError{Label: d.Label, Value: p.Value, Where: p.Where, Stack: p.Stack}
}

// ownPrefix begins the names of this package's functions.
var ownPrefix = reflect.TypeFor[Pool]().PkgPath() + "."

// libPrefixes begin the names of the functions whose frames are not the
// caller's: those of the kokkos package, which this one is internal to,
// of this package, of the copy kernels (internal/plan) and of package
// kernel, whose view accessors a Go kernel's generated host code calls
// (that code names the kernel's own lines, by line directives).
var libPrefixes = func() []string {
	root := strings.TrimSuffix(ownPrefix, "/internal/sched.")
	return []string{root + ".", ownPrefix, root + "/internal/plan.", root + "/kernel."}
}()

func isLib(fn string) bool {
	for _, p := range libPrefixes {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

// PanicSite returns "file.go:line" (the file's base name) of the first
// frame of the calling goroutine's stack outside the runtime and the
// packages of libPrefixes; their _test.go files count as the caller's. Called from a deferred function during a panic, that is where
// the caller's code panicked, or called the package code that did. It
// returns "" when there is no such frame.
func PanicSite() string {
	var pcs [64]uintptr
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs[:])])
	for {
		f, more := frames.Next()
		internal := strings.HasPrefix(f.Function, "runtime.") ||
			isLib(f.Function) && !strings.HasSuffix(f.File, "_test.go")
		if !internal && f.File != "" {
			return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return ""
		}
	}
}
