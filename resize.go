package kokkos

import (
	"fmt"
	"slices"
)

// resizable is satisfied by View1[T] ... View8[T]: the kinds Resize and
// Realloc take, and whose extents are the arrays E.
type resizable[V, T any, E extentArray] interface {
	viewKind[V, T]
	extentArray() E
}

// extentArray is the type of the extents of View1 ... View8.
type extentArray interface {
	[1]int | [2]int | [3]int | [4]int | [5]int | [6]int | [7]int | [8]int
}

// Resize gives *v the extents ext, as Kokkos's resize: it allocates new
// storage with v's label, layout, space and traits, copies the elements
// whose indices are valid in both the old and the new extents, and
// zero-fills the rest (unless WithoutInitializing). v is a View1 ... View8,
// and ext an array of its rank, so that the number of extents is checked at
// compile time: Resize(&v, [2]int{n0, n1}) for a View2. When the extents
// are unchanged it does nothing. It refuses, with an error wrapping
// ErrReadOnly, ErrUnmanaged or ErrReleased, a read-only view, one over
// caller memory and a released one, and with ErrOption the options it
// cannot apply; *v is left unchanged on error. With WithExec(exec) the
// zero fill and the copy are queued on exec, and Resize returns without
// waiting for them (see WithExec). The old storage is not
// released: other views may still refer to it. (DynRankView has its own
// Resize method.)
func Resize[V resizable[V, T, E], T any, E extentArray](v *V, ext E, opts ...Option) error {
	var e [MaxRank]int
	for r := range len(ext) {
		e[r] = ext[r]
	}
	return resizeView(v, e[:len(ext)], true, opts)
}

// Realloc gives *v new storage of extents ext, as Kokkos's realloc: v keeps
// its label, layout, space and traits, but none of its elements; the new
// ones are zero (unless WithoutInitializing). ext is an array of v's rank,
// as for Resize. When the extents are unchanged it keeps the storage and
// zero-fills it (unless WithoutInitializing). It refuses what Resize
// refuses; *v is left unchanged on error. With WithExec(exec) the zero
// fill is queued on exec, as Resize's.
func Realloc[V resizable[V, T, E], T any, E extentArray](v *V, ext E, opts ...Option) error {
	var e [MaxRank]int
	for r := range len(ext) {
		e[r] = ext[r]
	}
	return resizeView(v, e[:len(ext)], false, opts)
}

// resizeView implements Resize and Realloc for any view kind: it replaces *v with a view of extents ext in new storage of
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
	if cfg.err == nil && old.rec != nil {
		cfg.err = execError(cfg.exec, old.rec.Space())
	}
	if cfg.err != nil {
		return fmt.Errorf("kokkos: %s of view %q with extents %s: %w", op, old.label(), fmtInts(old.extents()), cfg.err)
	}
	if old.rec != nil && slices.Equal(old.extents(), ext) {
		if keep || cfg.noInit {
			return nil
		}
		var zero T
		if cfg.exec != nil {
			return fillDescOn(cfg.exec, "kokkos.Realloc", &old, zero)
		}
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
			if err := copyKept(op, cfg.exec, &a, &b); err != nil {
				n.rec.Release() // *v is unchanged: the new storage goes
				return fmt.Errorf("kokkos: %s: %w", op, err)
			}
		}
	}
	*v = (*v).fromDesc(n)
	return nil
}
