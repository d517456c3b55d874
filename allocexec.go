package kokkos

import (
	"fmt"
	"reflect"

	"github.com/gokkos/kokkos/backend"
)

// This file holds the execution-space instance of an allocation
// (WithExec, Kokkos's view_alloc(exec, ...)) and a view's default
// execution space (Kokkos's View::execution_space).

// WithExec makes the constructor initialize the new view on the
// execution-space instance exec, as Kokkos's view_alloc(exec, label): the
// zero fill of memory outside the Go heap is queued on exec, after the work
// already submitted to it, and the constructor returns without waiting for
// it. Work submitted to exec later (ParallelFor with .On(exec), FillOn,
// DeepCopyOn, kernels) runs after the fill; exec.Fence() waits for it, and
// so do the package-level Fence and the copies without an execution space
// (DeepCopy, Fill), as they wait for other asynchronous work. Until then
// the elements must not be read or written other than through exec, and
// the view must not be released. Go-heap memory (HostSpace) is zero when
// it is allocated, so nothing is queued for it. On Serial and on a pool's
// synchronous Threads instance the fill has run when the constructor
// returns; on an asynchronous Threads instance it runs as the instance's
// work; a device instance (a CUDA stream) queues it itself.
//
// The allocating constructors of every view kind (NewView0 ... NewView8 and
// their From variants, NewDynRankView, NewOffsetView1 ...) take it, and so
// do CreateMirror and CreateMirrorView (the new mirror is initialized on
// exec), CreateMirrorViewAndCopy (the copy is ordered on exec, as
// CreateMirrorViewAndCopyOn), and Resize and Realloc (the fill and the copy
// of the kept elements are ordered on exec; the same DynRankView methods:
// the copy reads the old view on exec, so keep that until exec's fence).
// With WithoutInitializing nothing is filled, and WithExec only checks
// exec. The Wrap constructors refuse it with an error wrapping ErrOption
// (ScratchViewN panics with one, as for its other refused options), and so
// does every constructor when exec cannot
// access the view's memory space (a host instance and device memory, a
// CUDA stream and HostSpace), naming both; two WithExec options naming
// different instances conflict, with the same error. WithExec(nil) is no
// option.
func WithExec(exec ExecutionSpace) Option {
	return optionFunc(func(c *config) {
		if exec == nil {
			return
		}
		if c.exec != nil && !sameExec(c.exec, exec) {
			if c.err == nil {
				c.err = errorf(ErrOption, "options %s and %s conflict: give one execution-space instance", execOptionName(c.exec), execOptionName(exec))
			}
			return
		}
		c.exec = exec
	})
}

// execOptionName names the option WithExec(e) in errors.
func execOptionName(e ExecutionSpace) string {
	if s, ok := e.(fmt.Stringer); ok {
		return "WithExec(" + s.String() + ")"
	}
	return "WithExec(" + e.Name() + ")"
}

// sameExec reports whether a and b are the same instance. Instances of a
// type that cannot be compared with == count as different.
func sameExec(a, b ExecutionSpace) bool {
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	if ta != tb || !ta.Comparable() {
		return false
	}
	return a == b
}

// execReaches reports whether work on exec can read and write memory of
// space s, as Kokkos's SpaceAccessibility<ExecSpace, MemorySpace>.
func execReaches(exec ExecutionSpace, s MemorySpace) bool {
	if a, ok := exec.(backend.ExecAccess); ok {
		return a.CanAccess(s)
	}
	if _, ok := exec.(HostExecutionSpace); ok {
		return s.HostAccessible()
	}
	m := exec.MemorySpace()
	if m != nil && m.HostAccessible() && s.HostAccessible() {
		return true
	}
	return m != nil && reflect.TypeOf(m).Comparable() && reflect.TypeOf(m) == reflect.TypeOf(s) && m == s
}

// execError returns the error of cfg's instance, if any, for a view in
// space s: an error wrapping ErrOption when the instance cannot access s.
func execError(exec ExecutionSpace, s MemorySpace) error {
	if exec == nil || execReaches(exec, s) {
		return nil
	}
	return errorf(ErrOption, "option %s does not apply: work on %s, whose memory space is %s, cannot access memory space %s; give an instance that can, or allocate in a space %s can access", execOptionName(exec), exec.Name(), memSpaceName(exec.MemorySpace()), memSpaceName(s), exec.Name())
}

// canFill reports whether package kokkos can fill memory of the block
// space s itself (on the host or through s's copies), so that a new view
// there can be initialized on an instance instead of allocated zeroed.
func canFill(s backend.BlockSpace) bool {
	if s.HostAccessible() {
		return true
	}
	_, ok := s.(backend.CopySpace)
	return ok
}

// initOn queues the zero fill of the span elements of a new view in rec
// (host elements data, nil where the host cannot access them) on exec.
func initOn[T any](exec ExecutionSpace, data []T, rec *Allocation, span int, flags viewFlags) error {
	if span == 0 {
		return nil
	}
	d := desc[T]{data: data, rank: 1, rec: rec, layout: LayoutRight, flags: flags &^ flagReadOnly}
	d.ext[0], d.str[0] = span, 1
	var zero T
	return fillDescOn(exec, "Kokkos::View::initialization ["+rec.Label()+"]", &d, zero)
}

// fillDescOn queues a fill of d with x on exec, as FillOn after its
// checks: one device operation where d's space takes it, work submitted
// to exec otherwise.
func fillDescOn[T any](exec ExecutionSpace, label string, d *desc[T], x T) error {
	if queued, err := fillStrided(exec, d, x); queued || err != nil {
		return err
	}
	return submitOn(exec, label, func() error { return fillDesc(d, x) })
}

// execSpaceOf returns the default instance of the execution space of
// memory space s (see View2.ExecutionSpace).
func execSpaceOf(s MemorySpace) ExecutionSpace {
	if se, ok := s.(backend.SpaceExec); ok {
		e, _ := se.ExecutionSpace().(ExecutionSpace)
		return e
	}
	if s == nil || s.HostAccessible() {
		return DefaultExecutionSpace()
	}
	return nil
}

// mirrorExec returns the instance that op (CreateMirrorViewAndCopy or
// CreateMirrorViewAndCopyOn) of d copies on: exec, or the instance given
// with WithExec (opt), which must then be the same.
func mirrorExec[T any](op string, d *desc[T], exec, opt ExecutionSpace) (ExecutionSpace, error) {
	switch {
	case opt == nil:
		return exec, nil
	case exec == nil || sameExec(exec, opt):
		return opt, nil
	}
	return nil, errorf(ErrOption, "kokkos: %s of view %q with extents %s: the instance %s and option %s conflict: give one execution-space instance", op, d.label(), fmtInts(d.extents()), exec.Name(), execOptionName(opt))
}

// copyKept copies the kept elements b of a view that Resize (op) replaces
// into a, the same elements of the new view: ordered on exec when it is not
// nil, as DeepCopyOn, and fenced as DeepCopy otherwise.
func copyKept[T any](op string, exec ExecutionSpace, a, b *desc[T]) error {
	if exec != nil {
		return copyOn(exec, copyDirect, a, b)
	}
	return fenced(op, a, b, func() error { return copyDesc(a, b) })
}
