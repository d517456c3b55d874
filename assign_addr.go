package kokkos

import "fmt"

// assignAddress re-points d at the memory at the address that opts give
// (AssignData(nil, AtAddress(p))), in d's own space, as Kokkos's
// assign_data(ptr) repoints a view of any memory space
// (core/src/View/Kokkos_ViewLegacy.hpp:1041-1044 in Kokkos 4.6.1: the
// tracker is cleared, so the view is unmanaged, and the mapping takes the
// pointer). As WrapViewN(nil, ..., InSpace(s), AtAddress(p)), the space must
// be one the host cannot access, and the caller keeps the memory, at least
// d's span, alive while the view and work queued on it are in use.
func assignAddress[T any](d *desc[T], data []T, opts []Option) error {
	fail := func(err error) error {
		return fmt.Errorf("kokkos: AssignData of view %q with extents %s: %w", d.label(), fmtInts(d.extents()), err)
	}
	cfg := makeConfig(opts)
	switch {
	case cfg.err != nil:
		return fail(cfg.err)
	case cfg.given != 0 || cfg.strides != nil || cfg.noInit || cfg.pad || cfg.traits != 0 || cfg.wrapLabel != "" || cfg.exec != nil:
		return fail(errorf(ErrOption, "AssignData takes AtAddress only: the view keeps its layout, space, label and traits"))
	case cfg.addr == 0:
		return fail(errorf(ErrOption, "AtAddress(0): give the address of the memory"))
	case data != nil:
		return fail(errorf(ErrShape, "give either a slice or AtAddress: pass nil for the slice"))
	case d.rec == nil:
		return fail(errorf(ErrOption, "the zero view has no memory space: make the view first"))
	}
	space := d.rec.Space()
	switch {
	case d.flags&flagNoHost == 0 || space.HostAccessible():
		return fail(errorf(ErrNoCopySpace, "the view lives in %s, which the host can access: assign its memory as a slice (unsafe.Slice)", space.Name()))
	case d.flags&flagAtomic != 0 && cfg.addr%uintptr(sizeOf[T]()) != 0:
		return fail(errorf(ErrElementType, "the Atomic trait needs elements aligned to their size"))
	}
	span := d.span()
	rec := unmanagedAllocation(d.label(), space, span*sizeOf[T]())
	rec.addr = cfg.addr
	d.rec = rec
	d.flags = d.flags&(flagReadOnly|flagNoHost|flagAtomic) | viewFlags(elemKindOf[T]())<<flagKindShift
	d.off = 0
	d.traits |= Unmanaged
	d.data = nil
	return nil
}
