package kokkos

import "fmt"

// viewKind is satisfied by the view kinds that the generic mirror and
// resize functions return: V is the kind itself (View2[T], ...), which can
// rebuild a view of its kind from a desc.
type viewKind[V any, T any] interface {
	View[T]
	fromDesc(d desc[T]) V
}

// CreateMirror allocates a new view with the extents of v, labelled v's
// label + "_mirror", in HostSpace (or the space given with InSpace), and
// returns it with the same type as v, as Kokkos's create_mirror. The
// elements are not copied (use DeepCopy, or CreateMirrorViewAndCopy); they
// are zero unless WithoutInitializing (which matters only outside the Go
// heap). The mirror has v's layout and strides, as Kokkos's mirror made
// from src.layout(): a padded view's mirror is padded the same way, and a
// LayoutStride view's (a non-contiguous subview's too) has its strides, so
// it holds v's Span elements, and DeepCopy between the two copies like
// strides to like. Memory traits are not kept. The zero view mirrors to the
// zero view.
//
// The options a mirror takes are WithoutInitializing, InSpace and WithExec
// (the mirror's zero fill is queued on that instance; see WithExec). The
// others (WithLabel, AtAddress, AllowPadding, a layout, WithStrides,
// WithTraits) are refused with an error wrapping ErrOption, as Kokkos
// refuses a label, a pointer or padding among create_mirror's properties:
// the label, memory, layout and traits of a mirror follow from v.
//
// Pass views as values (CreateMirror(v), not CreateMirror(&v)), so that V
// is the view kind.
func CreateMirror[V viewKind[V, T], T any](v V, opts ...Option) (V, error) {
	d := v.viewDesc()
	cfg, err := mirrorConfig("CreateMirror", &d, opts, false)
	if err != nil {
		var zero V
		return zero, err
	}
	return createMirror(v, d.label()+"_mirror", cfg)
}

// createMirror is CreateMirror after the checks, with the label given.
func createMirror[V viewKind[V, T], T any](v V, label string, cfg config) (V, error) {
	d := v.viewDesc()
	var zero V
	if d.rec == nil {
		return zero, nil
	}
	// The mirror has the source's mapping, padding and strides included:
	// Kokkos makes it from src.layout(), which carries them
	// (core/src/Kokkos_CopyViews.hpp:2916-2931 in Kokkos 4.6.1,
	// "return dst_type(prop_copy, src.layout())").
	cfg.layout, cfg.strides, cfg.pad, cfg.traits, cfg.wrapLabel = d.layout, mirrorStrides(&d), false, 0, ""
	m := desc[T]{rank: d.rank, ext: d.ext}
	var err error
	m.data, m.rec, m.layout, m.flags, err = build[T](label, d.extents(), cfg, m.str[:d.rank])
	if err != nil {
		return zero, err
	}
	return v.fromDesc(m), nil
}

// mirrorStrides returns the strides a mirror of d is allocated with: d's
// own, which build accepts for every view the package makes (LayoutLeft
// and LayoutRight views keep a padding of their layout through subviews,
// and LayoutStride strides were checked when d was made); nil, the compact
// strides of d's layout, for a rank-0 view and, defensively, for a
// LayoutLeft or LayoutRight view whose strides are not of its layout.
func mirrorStrides[T any](d *desc[T]) []int {
	if d.rank == 0 || d.layout != LayoutStride && !isLayoutMapping(d.layout, d.extents(), d.strides()) {
		return nil
	}
	return append([]int(nil), d.strides()...)
}

// mirrorConfig applies the options of op, a mirror of d, and refuses those
// that a mirror does not take, and a view whose allocation was released; named allows WithLabel (the name of
// CreateMirrorViewAndCopy's new view).
func mirrorConfig[T any](op string, d *desc[T], opts []Option, named bool) (config, error) {
	cfg := makeConfig(opts)
	if cfg.err != nil {
		return cfg, fmt.Errorf("kokkos: %s of view %q with extents %s: %w", op, d.label(), fmtInts(d.extents()), cfg.err)
	}
	if d.rec.Released() {
		return cfg, errorf(ErrReleased, "kokkos: %s of view %q with extents %s: its allocation was released", op, d.label(), fmtInts(d.extents()))
	}
	var bad, why string
	switch {
	case cfg.wrapLabel != "" && !named:
		bad, why = fmt.Sprintf("WithLabel(%q)", cfg.wrapLabel), `a mirror is labelled with its source's label + "_mirror"; CreateMirrorViewAndCopy takes a label`
	case cfg.addr != 0:
		bad, why = "AtAddress", "a mirror allocates its own memory"
	case cfg.pad:
		bad, why = "AllowPadding", "a mirror has its source's strides, padding included"
	case cfg.given&givenLayout != 0:
		bad, why = "a layout or WithStrides", "a mirror has its source's layout"
	case cfg.traits != 0:
		bad, why = fmt.Sprintf("WithTraits(%s)", cfg.traits), "a mirror has no memory traits"
	default:
		return cfg, nil
	}
	return cfg, errorf(ErrOption, "kokkos: %s of view %q with extents %s: option %s is not allowed: %s", op, d.label(), fmtInts(d.extents()), bad, why)
}

// CreateMirrorView returns v itself when it already lives where a mirror
// would (host-accessible memory, or the space given with InSpace), and
// CreateMirror(v, opts...) otherwise, as Kokkos's create_mirror_view. A
// read-only view (ReadOnly) gets a new, writable mirror unless InSpace names
// the space it lives in: Kokkos's create_mirror_view of a View<const T>
// returns src only when its HostMirror, whose data type is never const, is
// of src's type (core/src/Kokkos_CopyViews.hpp:3056-3066 and
// core/src/View/Kokkos_ViewLegacy.hpp:268-275 in Kokkos 4.6.1), while with
// a space it returns src whenever the space is src's (MirrorViewType,
// Kokkos_CopyViews.hpp:2872-2890). The result has the same type as v; see
// CreateMirror, also for the options.
func CreateMirrorView[V viewKind[V, T], T any](v V, opts ...Option) (V, error) {
	d := v.viewDesc()
	cfg, err := mirrorConfig("CreateMirrorView", &d, opts, false)
	if err != nil {
		var zero V
		return zero, err
	}
	if mirrorIsView(d, cfg.space) && (d.flags&flagReadOnly == 0 || cfg.given&givenSpace != 0) {
		return v, nil
	}
	return createMirror(v, d.label()+"_mirror", cfg)
}

// CreateMirrorViewAndCopy returns v itself when it already lives where a
// mirror would (see CreateMirrorView; a read-only v too, since Kokkos's
// create_mirror_view_and_copy always names the space and returns src when
// it is src's, core/src/Kokkos_CopyViews.hpp:3163-3170), and otherwise a
// new, writable view holding a copy of v's elements, as Kokkos's
// create_mirror_view_and_copy. InSpace
// chooses the mirror's space (HostSpace by default). The new view is
// labelled as v, or with the label given by WithLabel (Kokkos's name
// argument), and allocated without initialization, since the copy
// overwrites it; its layout follows CreateMirror's rules, and the other
// options are refused as there.
//
// As DeepCopy, it waits for all outstanding work first, also when it
// returns v, and the copy is complete when it returns. With WithExec(exec)
// among the options it is CreateMirrorViewAndCopyOn(exec, v), as Kokkos's
// create_mirror_view_and_copy(view_alloc(space, exec), v).
func CreateMirrorViewAndCopy[V viewKind[V, T], T any](v V, opts ...Option) (V, error) {
	return mirrorAndCopy[V, T]("CreateMirrorViewAndCopy", nil, v, opts)
}

// CreateMirrorViewAndCopyOn is CreateMirrorViewAndCopy with the copy
// ordered on the execution-space instance exec, as Kokkos's
// create_mirror_view_and_copy(view_alloc(space, exec), v): it waits for
// nothing, and the new view holds v's elements once exec.Fence() (or the
// package Fence) has returned. When v itself is returned there is nothing
// to copy. See DeepCopyOn for what exec may be; a nil exec makes it
// CreateMirrorViewAndCopy.
func CreateMirrorViewAndCopyOn[V viewKind[V, T], T any](exec ExecutionSpace, v V, opts ...Option) (V, error) {
	return mirrorAndCopy[V, T]("CreateMirrorViewAndCopyOn", exec, v, opts)
}

func mirrorAndCopy[V viewKind[V, T], T any](op string, exec ExecutionSpace, v V, opts []Option) (V, error) {
	var zero V
	d := v.viewDesc()
	cfg, err := mirrorConfig(op, &d, opts, true)
	if err != nil {
		return zero, err
	}
	if exec, err = mirrorExec(op, &d, exec, cfg.exec); err != nil {
		return zero, err
	}
	if mirrorIsView(d, cfg.space) {
		if exec == nil {
			if err := fenced("CreateMirrorViewAndCopy", &d, nil, func() error { return nil }); err != nil {
				return zero, err
			}
		}
		return v, nil
	}
	label := cfg.wrapLabel
	if label == "" {
		label = d.label()
	}
	cfg.noInit = true
	m, err := createMirror(v, label, cfg)
	if err != nil {
		return zero, err
	}
	var dst, src View[T] = m, v
	if fm, fs, ok := spanPair(m.viewDesc(), d); ok {
		dst, src = fm, fs
	}
	if err := DeepCopyOn[T](exec, dst, src); err != nil {
		if md := m.viewDesc(); md.rec != nil && md.rec.managed {
			_ = md.rec.Release()
		}
		return zero, err
	}
	return m, nil
}

// mirrorIsView reports whether a mirror of d in space is d itself: for
// HostSpace, whenever the host can access d; otherwise when d lives in
// space.
func mirrorIsView[T any](d desc[T], space MemorySpace) bool {
	if d.rec == nil {
		return true
	}
	if space == HostSpace {
		return d.flags&flagNoHost == 0
	}
	return d.rec.Space() == space
}

// spanPair returns rank-1 views over the whole spans of m, a new mirror
// with s's strides, and of s, when copying the spans is one contiguous
// copy where the elements alone are rows: s is a padded LayoutLeft or
// LayoutRight view over all of an allocation of its own (not caller
// memory, whose gaps may be the caller's other data), so that its gaps are
// padding that no view addresses, and they are at most half the span.
func spanPair[T any](m, s desc[T]) (View1[T], View1[T], bool) {
	span, size := s.span(), s.size()
	if s.rank < 2 || s.layout == LayoutStride || span == size || span > 2*size || s.off != 0 || !s.rec.managed ||
		s.rec.Bytes() != span*sizeOf[T]() || m.str != s.str || m.layout != s.layout {
		return View1[T]{}, View1[T]{}, false
	}
	var v View1[T]
	return v.fromDesc(flatSpan(m, span)), v.fromDesc(flatSpan(s, span)), true
}

// flatSpan returns d's span as a rank-1 desc of extent span.
func flatSpan[T any](d desc[T], span int) desc[T] {
	f := d
	f.rank, f.ext, f.str, f.layout = 1, [MaxRank]int{span}, [MaxRank]int{1}, LayoutRight
	return f
}
