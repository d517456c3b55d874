//go:build !linux

package affinity

import (
	"fmt"
	"runtime"
)

// Supported reports whether threads can be bound on this system.
const Supported = false

var errOS = fmt.Errorf("%w: binding threads needs Linux's sched_setaffinity, and this is %s", ErrUnsupported, runtime.GOOS)

// Allowed returns an error wrapping ErrUnsupported.
func Allowed() (CPUSet, error) { return nil, errOS }

// Bind returns an error wrapping ErrUnsupported.
func Bind(CPUSet) error { return errOS }

// ReadMachine returns an error wrapping ErrUnsupported.
func ReadMachine() (Machine, error) { return Machine{}, errOS }

// ThreadCPU returns an error wrapping ErrUnsupported.
func ThreadCPU() (int, error) { return 0, errOS }

// ThreadID returns 0.
func ThreadID() int { return 0 }
