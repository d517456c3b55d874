package kokkos

import (
	"fmt"
	"slices"
)

// resizeView implements the generated Resize and Realloc functions for any
// view kind: it replaces *v with a view of extents ext in new storage of
// the same label, layout, space and traits, copying the overlap of the old
// and new extents when keep is true. On error *v is unchanged.
func resizeView[V viewKind[V, T], T any](v *V, ext []int, keep bool, opts []Option) error {
	op := "Realloc"
	if keep {
		op = "Resize"
	}
	old := (*v).viewDesc()
	if old.rec != nil {
		switch {
		case old.flags&flagReadOnly != 0:
			return errorf(ErrReadOnly, "kokkos: %s of read-only view %q with extents %s", op, old.label(), fmtInts(old.extents()))
		case !old.rec.managed:
			return errorf(ErrUnmanaged, "kokkos: %s of view %q with extents %s: the view is unmanaged (it wraps caller memory)", op, old.label(), fmtInts(old.extents()))
		case old.rec.Released():
			return errorf(ErrReleased, "kokkos: %s of view %q with extents %s: its allocation was released", op, old.label(), fmtInts(old.extents()))
		}
	}
	cfg := makeConfig(opts)
	if cfg.err == nil && old.rec != nil {
		cfg.err = optionsFor(&cfg, forResize)
	}
	if cfg.err != nil {
		return fmt.Errorf("kokkos: %s of view %q with extents %s: %w", op, old.label(), fmtInts(old.extents()), cfg.err)
	}
	if old.rec != nil && slices.Equal(old.extents(), ext) {
		if keep || cfg.noInit {
			return nil
		}
		var zero T
		return fillDesc(&old, zero)
	}
	cfg.pad = false
	cfg.strides = nil
	if old.rec != nil {
		cfg.space = old.rec.Space()
		cfg.layout = old.layout
		if old.flags&flagAtomic != 0 {
			cfg.traits |= Atomic
		}
		if old.layout == LayoutStride {
			// Compact strides in the old stride order.
			ps := packedStrides(ext, old.strides())
			cfg.strides = ps[:old.rank]
		}
	}
	n := desc[T]{rank: old.rank, traits: cfg.traits}
	if old.rec != nil {
		n.traits = old.traits &^ Unmanaged
	}
	copy(n.ext[:], ext)
	var err error
	n.data, n.rec, n.layout, n.flags, err = build[T](old.label(), ext, cfg, n.str[:old.rank])
	if err != nil {
		return fmt.Errorf("kokkos: %s: %w", op, err)
	}
	if keep && old.rec != nil {
		a, b := n, old
		empty := false
		for r := range old.rank {
			e := min(old.ext[r], ext[r])
			a.ext[r], b.ext[r] = e, e
			empty = empty || e == 0
		}
		if !empty {
			if err := fenced(op, &a, &b, func() error { return copyDesc(&a, &b) }); err != nil {
				n.rec.Release() // *v is unchanged: the new storage goes
				return fmt.Errorf("kokkos: %s: %w", op, err)
			}
		}
	}
	*v = (*v).fromDesc(n)
	return nil
}
