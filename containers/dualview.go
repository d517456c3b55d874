package containers

import (
	"fmt"
	"slices"
	"sync"

	"github.com/gokkos/kokkos"
)

//go:generate go run ./internal/dualgen

// dualFlags are the modification counters of a DualView, shared by its
// copies as Kokkos's modified_flags view is: host is Kokkos's
// modified_flags(0), dev its modified_flags(1).
type dualFlags struct {
	// mu serializes the DualView's marks and syncs, so that copies of it
	// used from several goroutines neither race on the counters nor sync
	// twice.
	mu        sync.Mutex
	host, dev uint32
}

// lock locks the counters of c, which has some, and returns the unlock.
func (c *dualCore[V, T]) lock() func() {
	c.flags.mu.Lock()
	return c.flags.mu.Unlock
}

// dualCore is the part of DualView1 ... DualView8 that does not depend on
// the rank: the two views, the counters and the sync rules of Kokkos 4.6.1's
// Kokkos::DualView.
type dualCore[V kokkos.View[T], T any] struct {
	flags *dualFlags
	dev   V
	host  V
	// space is the device view's memory space.
	space kokkos.MemorySpace
	// label is the device view's.
	label string
	// separate: the host view is another view than the device view, as
	// create_mirror_view makes it when the device space is not
	// host-accessible.
	separate bool
	// oneSpace: both views are in one memory space (Kokkos's condition
	// for fencing after sync<Space>).
	oneSpace bool
}

// single reports whether the device is the host (the device space is
// HostSpace): Kokkos's impl_dualview_is_single_device, under which
// modify_host, modify_device and modify do nothing.
func (c *dualCore[V, T]) single() bool { return c.space == kokkos.HostSpace }

func (c *dualCore[V, T]) describe() string {
	if c.flags == nil {
		return "zero DualView"
	}
	s := kokkos.ShapeOf[T](c.dev)
	return fmt.Sprintf("DualView %q with extents %v in %s", c.label, s.Extents, spaceName(c.space))
}

func spaceName(s kokkos.MemorySpace) string {
	if s == nil {
		return "<nil>"
	}
	return s.Name()
}

// init sets up a new DualView over the device view d and its host mirror
// h in space; separate says whether h is another view than d.
func (c *dualCore[V, T]) init(d, h V, space kokkos.MemorySpace, separate bool) {
	c.flags = &dualFlags{}
	c.dev, c.host, c.space, c.separate = d, h, space, separate
	c.oneSpace = kokkos.ShapeOf[T](h).Space == space
	c.label = kokkos.ShapeOf[T](d).Label
}

// side is which of the two views an argument of Modify, Sync or NeedSync
// names: Kokkos's get_device_side.
type side int

const (
	sideBoth side = -1 // the device is the host: nothing to do
	sideHost side = 0
	sideDev  side = 1
)

func (c *dualCore[V, T]) sideOf(op string, s kokkos.MemorySpace) side {
	switch {
	case s == c.space && c.single():
		return sideBoth
	case s == c.space:
		return sideDev
	case s == kokkos.HostSpace:
		return sideHost
	}
	panic(fmt.Sprintf("containers: %s(%s) on %s: the memory space is neither the device's (%s) nor HostSpace", op, spaceName(s), c.describe(), spaceName(c.space)))
}

func (c *dualCore[V, T]) modifyHost() {
	if c.flags == nil || c.single() {
		return
	}
	defer c.lock()()
	f := c.flags
	if f.dev > f.host {
		panic(fmt.Sprintf("containers: ModifyHost on %s: the device side holds modifications not yet synced to the host, which the next SyncDevice would overwrite; call SyncHost first, or ClearSyncState to discard them", c.describe()))
	}
	f.host = max(f.host, f.dev) + 1
}

func (c *dualCore[V, T]) modifyDevice() {
	if c.flags == nil || c.single() {
		return
	}
	defer c.lock()()
	f := c.flags
	if f.host > f.dev {
		panic(fmt.Sprintf("containers: ModifyDevice on %s: the host side holds modifications not yet synced to the device, which the next SyncHost would overwrite; call SyncDevice first, or ClearSyncState to discard them", c.describe()))
	}
	f.dev = max(f.host, f.dev) + 1
}

func (c *dualCore[V, T]) modify(s kokkos.MemorySpace) {
	if c.flags == nil {
		return
	}
	switch c.sideOf("Modify", s) {
	case sideHost:
		c.modifyHost()
	case sideDev:
		c.modifyDevice()
	}
}

func (c *dualCore[V, T]) clearSyncState() {
	if c.flags != nil {
		defer c.lock()()
		c.flags.host, c.flags.dev = 0, 0
	}
}

func (c *dualCore[V, T]) needSyncHost() bool {
	if c.flags == nil {
		return false
	}
	defer c.lock()()
	return c.flags.host < c.flags.dev
}

func (c *dualCore[V, T]) needSyncDevice() bool {
	if c.flags == nil {
		return false
	}
	defer c.lock()()
	return c.flags.dev < c.flags.host
}

func (c *dualCore[V, T]) needSync(s kokkos.MemorySpace) bool {
	if c.flags == nil {
		return false
	}
	defer c.lock()()
	f := c.flags
	switch c.sideOf("NeedSync", s) {
	case sideDev:
		return f.host > 0 && f.host >= f.dev
	case sideHost:
		return f.dev > 0 && f.dev >= f.host
	}
	return false
}

// copyTo copies the other side into the side named, on exec when it is
// not nil, and clears the counters.
func (c *dualCore[V, T]) copyTo(exec kokkos.ExecutionSpace, to side, op string) error {
	dst, src, what := c.host, c.dev, "device to host"
	if to == sideDev {
		dst, src, what = c.dev, c.host, "host to device"
	}
	var err error
	if exec == nil {
		err = kokkos.DeepCopy[T](dst, src)
	} else {
		err = kokkos.DeepCopyOn[T](exec, dst, src)
	}
	if err != nil {
		return fmt.Errorf("containers: %s of %s: copy %s: %w", op, c.describe(), what, err)
	}
	c.flags.host, c.flags.dev = 0, 0
	return nil
}

func (c *dualCore[V, T]) syncHost(exec kokkos.ExecutionSpace, op string) error {
	if c.flags == nil {
		return nil
	}
	defer c.lock()()
	if c.flags.dev <= c.flags.host {
		return nil
	}
	return c.copyTo(exec, sideHost, op)
}

func (c *dualCore[V, T]) syncDevice(exec kokkos.ExecutionSpace, op string) error {
	if c.flags == nil {
		return nil
	}
	defer c.lock()()
	if c.flags.host <= c.flags.dev {
		return nil
	}
	return c.copyTo(exec, sideDev, op)
}

// sync is Kokkos's sync<Space>(): the side s names gets the other side's
// elements when the other side was modified at least as recently; when
// both views live in one memory space, it waits for all work afterwards,
// as Kokkos fences both execution spaces there.
func (c *dualCore[V, T]) sync(exec kokkos.ExecutionSpace, s kokkos.MemorySpace, op string) error {
	if c.flags == nil {
		return nil
	}
	sd := c.sideOf(op, s)
	unlock := c.lock()
	f := c.flags
	switch sd {
	case sideDev:
		if f.host > 0 && f.host >= f.dev {
			if err := c.copyTo(exec, sideDev, op); err != nil {
				unlock()
				return err
			}
		}
	case sideHost:
		if f.dev > 0 && f.dev >= f.host {
			if err := c.copyTo(exec, sideHost, op); err != nil {
				unlock()
				return err
			}
		}
	}
	unlock()
	if c.oneSpace {
		if err := kokkos.Fence(); err != nil {
			return fmt.Errorf("containers: %s of %s: %w", op, c.describe(), err)
		}
	}
	return nil
}

// resize is Kokkos's DualView::resize after the check of the extents:
// mismatch says whether the extents change. The side modified last (the
// device when neither or both are) is resized, keeping its elements, and
// the other side becomes a new mirror of it; the resized side is marked
// modified.
func (c *dualCore[V, T]) resize(mismatch bool, resizeDev, resizeHost func() error) error {
	if c.flags == nil {
		c.flags = &dualFlags{}
	}
	if !mismatch {
		return nil
	}
	defer c.lock()()
	if c.flags.dev >= c.flags.host {
		if err := resizeDev(); err != nil {
			return err
		}
		c.flags.dev++
	} else {
		if err := resizeHost(); err != nil {
			return err
		}
		c.flags.host++
	}
	return nil
}

// release releases the device view and, when it is another view, the
// host view.
func (c *dualCore[V, T]) release(relDev, relHost func() error) error {
	if c.flags == nil {
		return nil
	}
	err := relDev()
	if c.separate {
		if e := relHost(); err == nil {
			err = e
		}
	}
	return err
}

// noInit reports whether opts hold WithoutInitializing.
func noInit(opts []kokkos.Option) bool {
	for _, o := range opts {
		if o == kokkos.Option(kokkos.WithoutInitializing) {
			return true
		}
	}
	return false
}

// mirrorOpts returns the options of the mirror of a view allocated with
// opts: WithoutInitializing when opts have it.
func mirrorOpts(opts []kokkos.Option) []kokkos.Option {
	if noInit(opts) {
		return []kokkos.Option{kokkos.WithoutInitializing}
	}
	return nil
}

// checkPair checks that host can be the host mirror of dev in a DualView
// made of both: host-accessible, with dev's extents, strides and span.
func checkPair[T any](dev, host kokkos.View[T]) error {
	d, h := kokkos.ShapeOf(dev), kokkos.ShapeOf(host)
	if d.Allocation == nil || h.Allocation == nil {
		return fmt.Errorf("device view %q or host view %q is not allocated: %w", d.Label, h.Label, kokkos.ErrShape)
	}
	if !h.Space.HostAccessible() {
		return fmt.Errorf("host view %q is in %s, which the host cannot access: give a host mirror (kokkos.CreateMirrorView): %w", h.Label, spaceName(h.Space), kokkos.ErrNotHostAccessible)
	}
	if !slices.Equal(d.Extents, h.Extents) || !slices.Equal(d.Strides, h.Strides) || d.Span != h.Span {
		return fmt.Errorf("device view %q (extents %v, strides %v, span %d) and host view %q (extents %v, strides %v, span %d) differ: give views of one shape and layout: %w",
			d.Label, d.Extents, d.Strides, d.Span, h.Label, h.Extents, h.Strides, h.Span, kokkos.ErrShape)
	}
	return nil
}

// checkReallocOpts refuses every option but WithoutInitializing, as
// kokkos.Realloc does.
func checkReallocOpts(opts []kokkos.Option) error {
	for _, o := range opts {
		if o != kokkos.Option(kokkos.WithoutInitializing) {
			return fmt.Errorf("an option other than WithoutInitializing (%T) is not allowed: Realloc keeps the views' label, layout and memory space, and takes only WithoutInitializing: %w", o, kokkos.ErrOption)
		}
	}
	return nil
}
