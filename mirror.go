package kokkos

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
// heap). The mirror has v's layout, compact: a padded view or a
// non-contiguous subview gets the compact strides of its layout, and a
// LayoutStride view keeps its strides when it is contiguous and becomes
// LayoutRight otherwise. Memory traits are not kept. The zero view mirrors
// to the zero view.
//
// Pass views as values (CreateMirror(v), not CreateMirror(&v)), so that V
// is the view kind.
func CreateMirror[V viewKind[V, T], T any](v V, opts ...Option) (V, error) {
	d := v.viewDesc()
	var zero V
	if d.rec == nil {
		return zero, nil
	}
	cfg := makeConfig(opts)
	cfg.layout, cfg.strides, cfg.pad, cfg.traits = d.layout, nil, false, 0
	if d.layout == LayoutStride {
		if d.span() == d.size() {
			cfg.strides = append([]int(nil), d.strides()...)
		} else {
			cfg.layout = LayoutRight
		}
	}
	m := desc[T]{rank: d.rank, ext: d.ext}
	var err error
	m.data, m.rec, m.layout, m.flags, err = build[T](d.label()+"_mirror", d.extents(), cfg, m.str[:d.rank])
	if err != nil {
		return zero, err
	}
	return v.fromDesc(m), nil
}

// CreateMirrorView returns v itself when it already lives where a mirror
// would (host-accessible memory, or the space given with InSpace), and
// CreateMirror(v, opts...) otherwise, as Kokkos's create_mirror_view. The
// result has the same type as v; see CreateMirror.
func CreateMirrorView[V viewKind[V, T], T any](v V, opts ...Option) (V, error) {
	if mirrorIsView(v.viewDesc(), makeConfig(opts).space) {
		return v, nil
	}
	return CreateMirror(v, opts...)
}

// CreateMirrorViewAndCopy returns v itself when it already lives where a
// mirror would (see CreateMirrorView), and otherwise a new mirror holding a
// copy of v's elements, as Kokkos's create_mirror_view_and_copy. InSpace
// chooses the mirror's space (HostSpace by default). The new mirror is
// allocated without initialization, since the copy overwrites it.
func CreateMirrorViewAndCopy[V viewKind[V, T], T any](v V, opts ...Option) (V, error) {
	if mirrorIsView(v.viewDesc(), makeConfig(opts).space) {
		return v, nil
	}
	m, err := CreateMirror(v, append(opts, WithoutInitializing)...)
	if err != nil {
		return m, err
	}
	if err := DeepCopy[T](m, v); err != nil {
		var zero V
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
