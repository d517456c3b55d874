// Package errs holds the errors that package kokkos and its internal
// packages both make: the sentinel of a refused wait, which package kokkos
// exports as kokkos.ErrWouldDeadlock, and the error of a panic in parallel
// work when no package names its own. It imports nothing of the module, so that every package of
// the module can import it.
package errs

import (
	"errors"
	"fmt"
)

// ErrWouldDeadlock is kokkos.ErrWouldDeadlock: a call that waits for an
// execution-space instance was made from work running on that same
// instance, where waiting could never end.
var ErrWouldDeadlock = errors.New("kokkos: call would deadlock")

// A PanicError reports a panic inside work that package internal/sched
// ran for a dispatch that names no constructor of its own (Dispatch.NewPanic);
// package kokkos names one, which makes a *kokkos.PanicError with the same
// fields and text.
type PanicError struct {
	Label string // the kernel's label
	Value any    // the value passed to panic
	// Where is "file.go:line" (the file's base name, as the testing
	// package prints it) of the panic in the caller's code: the first
	// frame of the panicking goroutine's stack outside package kokkos, its
	// internal packages and the runtime (package kokkos's own _test.go
	// files count as the caller's). A panic inside package kokkos called
	// from a body, such as an out-of-bounds At, names the body's line.
	// Empty when no such frame exists; Stack has the full paths.
	Where string
	Stack []byte // the panicking goroutine's stack
}

// Error returns PanicMessage of e's fields.
func (e *PanicError) Error() string { return PanicMessage(e.Label, e.Where, e.Value) }

// PanicMessage is the text of a panic error: "kokkos: panic in kernel
// LABEL at WHERE: VALUE" (without " at WHERE" when where is empty).
func PanicMessage(label, where string, value any) string {
	if where == "" {
		return fmt.Sprintf("kokkos: panic in kernel %q: %v", label, value)
	}
	return fmt.Sprintf("kokkos: panic in kernel %q at %s: %v", label, where, value)
}

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}
