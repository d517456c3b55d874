package containers

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// dualKind is satisfied by *DualView0[T] ... *DualView8[T].
type dualKind[V kokkos.View[T], T any] interface {
	core() *dualCore[V, T]
}

// DeepCopyDualView copies src into dst, two DualViews of one rank and
// equal extents, as Kokkos's deep_copy(DualView, DualView): when src's
// host side holds changes not synced to its device (src.NeedSyncDevice()),
// src's host view is copied into dst's host view and dst's host side is
// marked modified; otherwise the device views are copied and dst's device
// side is marked modified. Marking follows ModifyHost and ModifyDevice,
// which panic when dst's other side holds unsynced changes.
func DeepCopyDualView[P dualKind[V, T], V kokkos.View[T], T any](dst, src P) error {
	return deepCopyDual[P, V, T](nil, dst, src)
}

// DeepCopyDualViewOn is DeepCopyDualView with the copy ordered on exec
// (Kokkos's deep_copy(exec, DualView, DualView)).
func DeepCopyDualViewOn[P dualKind[V, T], V kokkos.View[T], T any](exec kokkos.ExecutionSpace, dst, src P) error {
	return deepCopyDual[P, V, T](exec, dst, src)
}

func deepCopyDual[P dualKind[V, T], V kokkos.View[T], T any](exec kokkos.ExecutionSpace, dst, src P) error {
	d, s := dst.core(), src.core()
	copyView := func(to, from V) error {
		if exec == nil {
			return kokkos.DeepCopy[T](to, from)
		}
		return kokkos.DeepCopyOn[T](exec, to, from)
	}
	if s.needSyncDevice() {
		if err := copyView(d.host, s.host); err != nil {
			return fmt.Errorf("containers: DeepCopyDualView from %s to %s: host views: %w", s.describe(), d.describe(), err)
		}
		d.modifyHost()
		return nil
	}
	if err := copyView(d.dev, s.dev); err != nil {
		return fmt.Errorf("containers: DeepCopyDualView from %s to %s: device views: %w", s.describe(), d.describe(), err)
	}
	d.modifyDevice()
	return nil
}
