package kokkos

import (
	"fmt"
	"slices"
)

// DynRankView is a view whose rank, 0 to 8, is chosen at run time by the
// number of extents it is made with, as Kokkos's DynRankView. It shares the
// layout mapping, the subview mapping and the allocation record of the
// rank-typed views (View0 to View8) and converts to and from them without
// copying.
//
// Element access has a fixed-arity form per rank (At2(i, j), Set3(i, j, k,
// x), Ptr1(i), Ref2(i, j), ...), which inlines to the same index arithmetic
// as a View2 or View3 plus one check of the rank, a variadic form At(idx...)
// and Kokkos's Access form, which also takes indices past the rank when they
// are 0. A view with the Atomic trait is accessed only through Ref (see
// View1).
//
// Copying a DynRankView copies the reference, not the elements. The zero
// value is an unallocated view of rank 0. Methods take pointer receivers so
// that access inlines; call them on a variable.
type DynRankView[T any] struct {
	data []T
	rank int
	// hostRank is rank+1 where the host can access the elements with
	// plain loads (data is not nil and the view has no Atomic trait) and 0
	// elsewhere, the zero view included, so that one compare checks both
	// the rank and the access in At0 ... At8.
	hostRank int
	ext      [MaxRank]int // 1 past the rank
	str      [MaxRank]int // 0 past the rank
	rec      *Allocation
	off      int
	layout   Layout
	flags    viewFlags
	traits   Trait
}

// NewDynRankView allocates a view labelled label whose rank is
// len(extents), at most 8. By default it is LayoutRight in HostSpace,
// zero-filled; options choose the layout, padding, memory space and traits,
// as for NewView2. It returns an error when there are more than 8 extents,
// when an extent is invalid and when the space cannot allocate.
func NewDynRankView[T any](label string, extents []int, opts ...Option) (DynRankView[T], error) {
	var d DynRankView[T]
	if err := d.setExtents(label, extents); err != nil {
		return DynRankView[T]{}, err
	}
	cfg := makeConfig(opts)
	data, rec, layout, flags, err := build[T](label, extents, cfg, d.str[:d.rank])
	if err != nil {
		return DynRankView[T]{}, err
	}
	d.data, d.rec, d.layout, d.flags, d.traits = data, rec, layout, flags, cfg.traits
	d.setHostRank()
	return d, nil
}

// NewDynRankViewFrom allocates a view with the rank, layout, extents and
// (for LayoutStride) strides of spec, such as another view's LayoutSpec.
func NewDynRankViewFrom[T any](label string, spec LayoutSpec, opts ...Option) (DynRankView[T], error) {
	opts = append([]Option{specOption(spec)}, opts...)
	return NewDynRankView[T](label, spec.Extents, opts...)
}

// WrapDynRankView returns an unmanaged view of rank len(extents) over the
// caller's slice data. The view never frees data and does not count
// holders. data must hold at least the view's span; the view uses only that
// prefix. WithLabel names the view; WithStrides makes it LayoutStride.
func WrapDynRankView[T any](data []T, extents []int, opts ...Option) (DynRankView[T], error) {
	var d DynRankView[T]
	cfg := makeConfig(opts)
	cfg.traits |= Unmanaged
	if err := d.setExtents(cfg.label(), extents); err != nil {
		return DynRankView[T]{}, err
	}
	w, rec, layout, flags, err := wrap(data, extents, cfg, d.str[:d.rank])
	if err != nil {
		return DynRankView[T]{}, err
	}
	d.data, d.rec, d.layout, d.flags, d.traits = w, rec, layout, flags, cfg.traits
	d.setHostRank()
	return d, nil
}

// setExtents sets the rank and the extents, 1 past the rank.
func (d *DynRankView[T]) setExtents(label string, extents []int) error {
	if len(extents) > MaxRank {
		return errorf(ErrShape, "kokkos: DynRankView %q with extents %s: rank %d exceeds %d", label, fmtInts(extents), len(extents), MaxRank)
	}
	d.rank = len(extents)
	for r := range d.ext {
		d.ext[r] = 1
	}
	copy(d.ext[:], extents)
	return nil
}

// DynRankFrom returns a DynRankView of the elements of v, any view kind of
// rank 0 to 8, sharing its memory, allocation, label, layout, traits and
// read-only-ness. An OffsetView gives its underlying view, indexed from 0.
func DynRankFrom[T any](v View[T]) DynRankView[T] {
	vd := v.viewDesc()
	return dynRankOf(vd, vd.traits)
}

func dynRankOf[T any](vd desc[T], traits Trait) DynRankView[T] {
	d := DynRankView[T]{data: vd.data, rank: vd.rank, rec: vd.rec, off: vd.off,
		layout: vd.layout, flags: vd.flags, traits: traits}
	for r := range d.ext {
		d.ext[r] = 1
	}
	copy(d.ext[:], vd.ext[:vd.rank])
	copy(d.str[:], vd.str[:vd.rank])
	d.setHostRank()
	return d
}

// setHostRank sets hostRank from data, flags and rank.
func (d *DynRankView[T]) setHostRank() {
	d.hostRank = 0
	if d.data != nil && d.flags&flagAtomic == 0 {
		d.hostRank = d.rank + 1
	}
}

func (d DynRankView[T]) viewDesc() desc[T] {
	vd := desc[T]{data: d.data, rank: d.rank, rec: d.rec, off: d.off, layout: d.layout, flags: d.flags, traits: d.traits}
	copy(vd.ext[:], d.ext[:d.rank])
	copy(vd.str[:], d.str[:d.rank])
	return vd
}

func (d *DynRankView[T]) rankError(op string, want int) error {
	return errorf(ErrShape, "kokkos: %s of DynRankView %q: the view has rank %d, %s needs rank %d", op, d.rec.Label(), d.rank, op, want)
}

// At returns the element at the given indices; there must be exactly Rank
// of them. It panics like At2, and when the number of indices is not the
// rank. The fixed-arity forms (At2, At3, ...) are faster.
func (d *DynRankView[T]) At(idx ...int) T {
	return d.data[d.offset(opAt, idx)]
}

// Set stores x at the given indices; there must be exactly Rank of them.
// It panics like Set2, and when the number of indices is not the rank.
func (d *DynRankView[T]) Set(x T, idx ...int) {
	d.data[d.offset(opSet, idx)] = x
}

// Ptr returns a pointer to the element at the given indices; there must be
// exactly Rank of them. It panics like Ptr2, and when the number of indices
// is not the rank.
func (d *DynRankView[T]) Ptr(idx ...int) *T {
	return &d.data[d.offset(opPtr, idx)]
}

// Ref returns a reference to the element at the given indices, through
// which it is loaded, stored and updated atomically (see Ref); there must be
// exactly Rank of them. It panics like Ref2, and when the number of indices
// is not the rank.
func (d *DynRankView[T]) Ref(idx ...int) Ref[T] {
	return Ref[T]{&d.data[d.offset(opRef, idx)], d.rec, d.flags}
}

// Access returns the element at the given indices, as Kokkos's access: it
// takes between Rank and 8 indices, and those past the rank must be 0. It
// panics like At2.
func (d *DynRankView[T]) Access(idx ...int) T {
	if d.data == nil || d.flags&flagAtomic != 0 {
		noDataPanic("Access", d.rec, d.flags, d.data != nil)
	}
	return d.data[accessOffset(d.rec, d.ext[:d.rank], d.str[:d.rank], idx)]
}

// offset checks a variadic access by op and returns the element's offset.
func (d *DynRankView[T]) offset(op accessOp, idx []int) int {
	if len(idx) != d.rank {
		panic(fmt.Sprintf("kokkos: %v of rank-%d DynRankView %q with %d indices %s: give exactly %d", op, d.rank, d.rec.Label(), len(idx), fmtInts(idx), d.rank))
	}
	bad := d.data == nil
	switch op {
	case opAt:
		bad = bad || d.flags&flagAtomic != 0
	case opSet, opPtr:
		bad = bad || d.flags&(flagReadOnly|flagNoHost|flagAtomic) != 0
	}
	o := 0
	for r, i := range idx {
		if uint(i) >= uint(d.ext[r]) {
			bad = true
		}
		o += i * d.str[r]
	}
	if bad {
		e := dynAccessError[T]{d: *d, op: op, n: d.rank}
		copy(e.idx[:], idx)
		panic(e)
	}
	return o
}

// dynAccessError is the panic value of a failed access by op to view d with
// n indices.
type dynAccessError[T any] struct {
	d   DynRankView[T]
	op  accessOp
	n   int
	idx [MaxRank]int
}

func (e dynAccessError[T]) Error() string {
	d := &e.d
	if e.n != d.rank {
		op := e.op.String()
		if e.op.writes() {
			op = "Set or Ptr"
		}
		return fmt.Sprintf("kokkos: %s%d of rank-%d DynRankView %q at %s: use the form with %d indices",
			op, e.n, d.rank, d.rec.Label(), fmtInts(e.idx[:e.n]), d.rank)
	}
	return accessMessage(d.rec, e.op, d.flags, e.idx[:e.n], d.ext[:d.rank])
}

// Rank returns the number of dimensions, 0 to 8.
func (d *DynRankView[T]) Rank() int { return d.rank }

// Extent returns the extent of dimension r: the number of valid indices.
// For r in [Rank, 8) it returns 1, as Kokkos does. It panics unless
// 0 <= r < 8.
func (d *DynRankView[T]) Extent(r int) int {
	if uint(r) < MaxRank {
		return d.ext[r]
	}
	panic(dimError{"Extent", d.rank, r})
}

// Extents returns the Rank extents.
func (d *DynRankView[T]) Extents() []int { return append([]int(nil), d.ext[:d.rank]...) }

// Stride returns the distance, in elements, between consecutive indices of
// dimension r. It panics unless 0 <= r < Rank.
func (d *DynRankView[T]) Stride(r int) int {
	if uint(r) < uint(d.rank) {
		return d.str[r]
	}
	panic(dimError{"Stride", d.rank, r})
}

// Strides returns the Rank strides followed by, as Kokkos's stride(int*),
// the largest stride times its dimension's extent (the span for rank 0).
func (d *DynRankView[T]) Strides() []int {
	s := make([]int, d.rank+1)
	copy(s, d.str[:d.rank])
	if d.rank == 0 {
		s[0] = d.Span()
	} else {
		s[d.rank] = strideTotal(d.ext[:d.rank], d.str[:d.rank])
	}
	return s
}

// Span returns the number of elements from the first to one past the last
// element the view addresses; it exceeds Size when the view is padded or
// strided.
func (d *DynRankView[T]) Span() int {
	if d.rec == nil {
		return 0
	}
	s, _ := spanOf(d.ext[:d.rank], d.str[:d.rank])
	return s
}

// Size returns the number of elements: the product of the extents (1 for an
// allocated rank-0 view, 0 for the zero value).
func (d *DynRankView[T]) Size() int {
	if d.rec == nil {
		return 0
	}
	n := 1
	for _, e := range d.ext[:d.rank] {
		n *= e
	}
	return n
}

// Data returns the elements of the span as a slice sharing the view's
// memory. It panics for a read-only view, for a view with the Atomic trait
// and where the host cannot access the view's memory.
func (d *DynRankView[T]) Data() []T {
	if d.flags&(flagReadOnly|flagNoHost|flagAtomic) != 0 {
		viewPanic("Data", d.rec, d.flags)
	}
	return d.data
}

// LayoutSpec returns the view's layout object, from which
// NewDynRankViewFrom, or NewViewNFrom for its rank, makes views of the same
// shape.
func (d *DynRankView[T]) LayoutSpec() LayoutSpec {
	return LayoutSpec{Layout: d.layout, Extents: d.Extents(), Strides: append([]int(nil), d.str[:d.rank]...)}
}

// ReadOnly returns a view of the same elements whose writes panic, as
// Kokkos's DynRankView<const T>. No call, conversions included, turns it
// back into a writable view.
func (d *DynRankView[T]) ReadOnly() DynRankView[T] {
	w := *d
	w.flags |= flagReadOnly
	return w
}

// AsLayout returns the same elements as a view of layout l, under Kokkos's
// assignment rules: any view becomes LayoutStride; a LayoutStride view
// becomes LayoutLeft or LayoutRight only when its strides are that layout's;
// LayoutLeft and LayoutRight convert into each other only at rank 0 or 1.
// The error names the rule that failed.
func (d *DynRankView[T]) AsLayout(l Layout) (DynRankView[T], error) {
	if err := convertLayout(d.rec, d.layout, l, d.ext[:d.rank], d.str[:d.rank]); err != nil {
		return DynRankView[T]{}, err
	}
	w := *d
	w.layout = l
	return w, nil
}

// Equal reports whether d and w refer to the same elements in the same
// way: same memory, rank, layout, extents and strides.
func (d *DynRankView[T]) Equal(w DynRankView[T]) bool {
	return d.rec == w.rec && d.off == w.off && d.rank == w.rank && d.layout == w.layout &&
		d.ext == w.ext && d.str == w.str
}

// Subview returns the view of the elements that the arguments select,
// sharing d's memory, allocation and label, as Kokkos's subdynrankview.
// There is one argument per dimension: an int index (the dimension is
// dropped), All or Pair(begin, end) (the dimension is kept, re-based to 0).
// The result's rank is the number of ranges and its layout is LayoutStride.
// It panics on a wrong number of arguments and on out-of-bounds arguments.
func (d *DynRankView[T]) Subview(args ...any) DynRankView[T] {
	if len(args) != d.rank {
		panic(fmt.Sprintf("kokkos: Subview of rank-%d DynRankView %q with %d arguments: give one per dimension", d.rank, d.rec.Label(), len(args)))
	}
	m := 0
	for _, a := range args {
		switch a.(type) {
		case AllType, PairRange:
			m++
		}
	}
	w := DynRankView[T]{rank: m, rec: d.rec, flags: d.flags, traits: d.traits, layout: LayoutStride}
	off, span, _ := subMap("Subview", d.rec, d.layout, d.ext[:d.rank], d.str[:d.rank], args, w.ext[:m], w.str[:m])
	for r := m; r < MaxRank; r++ {
		w.ext[r] = 1
	}
	w.data = subData(d.data, off, span)
	w.off = d.off + off
	w.setHostRank()
	return w
}

// Realloc replaces d with a new view of the given extents, whose rank is
// len(extents), with d's label, layout (LayoutRight if d is LayoutStride),
// memory space and traits. The elements are not preserved; the new view is
// zero-filled unless WithoutInitializing is given. Other copies of d keep
// the old elements. On error d is unchanged.
func (d *DynRankView[T]) Realloc(extents []int, opts ...Option) error {
	l := d.layout
	if l == LayoutStride {
		l = LayoutRight
	}
	base := []Option{l, InSpace(d.rec.Space()), WithTraits(d.traits &^ Unmanaged)}
	w, err := NewDynRankView[T](d.rec.Label(), extents, append(base, opts...)...)
	if err != nil {
		return err
	}
	*d = w
	return nil
}

// Resize replaces d with a view of the given extents, whose rank is
// len(extents) and may differ from d's: a rank-3 view resized to (5, 10)
// becomes rank 2. The elements in the overlap of the old and new index
// ranges are kept, indices past the smaller rank being 0; the rest of the
// new view is zero (unless WithoutInitializing). Unchanged extents keep the
// view as it is. Other copies of d keep the old elements.
func (d *DynRankView[T]) Resize(extents []int, opts ...Option) error {
	old := d.viewDesc()
	if old.rec != nil && old.flags&flagReadOnly != 0 {
		return errorf(ErrReadOnly, "kokkos: Resize of read-only DynRankView %q with extents %s", old.label(), fmtInts(old.extents()))
	}
	if old.rec != nil && slices.Equal(old.extents(), extents) {
		return nil
	}
	if err := d.Realloc(extents, opts...); err != nil {
		return fmt.Errorf("kokkos: Resize: %w", err)
	}
	if old.rec == nil {
		return nil
	}
	n := d.viewDesc()
	k := min(old.rank, n.rank)
	for r := k; r < MaxRank; r++ {
		if (r < old.rank && old.ext[r] == 0) || (r < n.rank && n.ext[r] == 0) {
			return nil // nothing overlaps
		}
	}
	a, b := n, old
	a.rank, b.rank = k, k
	for r := range k {
		e := min(old.ext[r], n.ext[r])
		if e == 0 {
			return nil
		}
		a.ext[r], b.ext[r] = e, e
	}
	if err := fenced("Resize", &a, &b, func() error { return copyDesc(&a, &b) }); err != nil {
		return fmt.Errorf("kokkos: Resize: %w", err)
	}
	return nil
}

// fromDesc returns the DynRankView that vd describes; the mirror functions
// use it.
//
//lint:ignore U1000 used through the viewKind constraint of the mirrors
func (d DynRankView[T]) fromDesc(vd desc[T]) DynRankView[T] { return dynRankOf(vd, vd.traits) }
