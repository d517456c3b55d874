package kokkos

import (
	"cmp"
	"fmt"
	"slices"
)

// MaxDynRank is the largest rank of a DynRankView: 7, as in Kokkos, whose
// DynRankView is a rank-7 view underneath. A rank-8 view is a View8.
const MaxDynRank = 7

// DynRankView is a view whose rank, 0 to MaxDynRank (7), is chosen at run
// time by the number of extents it is made with, as Kokkos's DynRankView.
// It shares the layout mapping, the subview mapping and the allocation
// record of the rank-typed views (View0 to View7) and converts to and from
// them without copying.
//
// As in Kokkos, the dimensions past the rank have extent 1, so that an
// index past the rank may be given and must be 0. Element access has a
// fixed-arity form per count of indices (At2(i, j), Set3(i, j, k, x),
// Ptr1(i), Ref2(i, j), ...), which inlines to the same index arithmetic as
// a View2 or View3 plus one check of the rank, and a variadic form
// At(idx...). Both take at least Rank indices, as Kokkos's operator(); At3
// of a rank-2 view reads (i, j, 0). Kokkos's Access also takes fewer: the
// missing trailing indices are 0. A view with the Atomic trait is accessed
// only through Ref (see View1).
//
// Copying a DynRankView copies the reference, not the elements. The zero
// value is an unallocated view of rank 0. The element accessors and shape
// queries and Subview take pointer receivers so that access inlines, and so do Realloc
// and Resize, which replace the view itself: call them on a variable (d :=
// Must(NewDynRankView[float64]("d", []int{2, 3})); d.Resize([]int{4, 3})).
// ReadOnly, AsLayout, Equal, LayoutSpec, Label and the other
// allocation queries take value receivers and work on a Must result too.
type DynRankView[T any] struct {
	data []T
	rank int
	// hostRank is rank-MaxRank, which is negative, where the host can
	// access the elements with plain loads (data is not nil and the view
	// has no Atomic trait) and 0 elsewhere, the zero view included, so that
	// one compare with a constant, hostRank > n-MaxRank, refuses both a
	// rank above n and no access in At0 ... At7.
	hostRank int
	// hlim is rank-MaxRank for a view with flagForeign (elements outside
	// the Go heap that the final Release frees) that the host may access,
	// whose hostRank is then 0, and 0 otherwise: the cold path of At0 ...
	// At7 checks it and that the allocation is live, so that views of Go
	// memory pay nothing for the check.
	hlim   int
	ext    [MaxRank]int // 1 past the rank
	str    [MaxRank]int // 0 past the rank
	rec    *Allocation
	off    int
	layout Layout
	flags  viewFlags
	traits Trait
}

// NewDynRankView allocates a view labelled label whose rank is
// len(extents), at most MaxDynRank (7). By default it is LayoutRight in
// HostSpace, zero-filled; options choose the layout, padding, memory space
// and traits, as for NewView2. It returns an error wrapping ErrShape when
// there are more than 7 extents or an extent is invalid, and an error when
// the space cannot allocate.
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
	if len(extents) > MaxDynRank {
		return errorf(ErrShape, "kokkos: DynRankView %q with extents %s: rank %d exceeds %d, the largest rank of a DynRankView (as in Kokkos); use a View8 for rank 8", label, fmtInts(extents), len(extents), MaxDynRank)
	}
	d.rank = len(extents)
	for r := range d.ext {
		d.ext[r] = 1
	}
	copy(d.ext[:], extents)
	return nil
}

// DynRankFrom returns a DynRankView of the elements of v, any view kind of
// rank 0 to 7, sharing its memory, allocation, label, layout, traits and
// read-only-ness. An OffsetView gives its underlying view, indexed from 0.
// A rank-8 view has no DynRankView, as in Kokkos, where the conversion does
// not compile: DynRankFrom panics for it, naming the view and the limit.
func DynRankFrom[T any](v View[T]) DynRankView[T] {
	vd := v.viewDesc()
	if vd.rank > MaxDynRank {
		panic(fmt.Sprintf("kokkos: DynRankFrom of rank-%d view %q with extents %s: a DynRankView has rank at most %d, as in Kokkos; use the View%d itself",
			vd.rank, vd.label(), fmtInts(vd.extents()), MaxDynRank, vd.rank))
	}
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
	d.hostRank, d.hlim = 0, 0
	switch {
	case d.data == nil || d.flags&flagAtomic != 0:
	case d.flags&flagForeign != 0:
		d.hlim = d.rank - MaxRank
	default:
		d.hostRank = d.rank - MaxRank
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

// At returns the element at the given indices: at least Rank and at most
// MaxDynRank of them, those past the rank being 0, as Kokkos's operator().
// It panics like At2, and when there are fewer indices than the rank. The
// fixed-arity forms (At2, At3, ...) are faster.
func (d *DynRankView[T]) At(idx ...int) T {
	return d.data[d.offset(opAt, idx)]
}

// Set stores x at the given indices, at least Rank of them (see At). It
// panics like Set2, and when there are fewer indices than the rank.
func (d *DynRankView[T]) Set(x T, idx ...int) {
	d.data[d.offset(opSet, idx)] = x
}

// Ptr returns a pointer to the element at the given indices, at least Rank
// of them (see At). It panics like Ptr2, and when there are fewer indices
// than the rank.
func (d *DynRankView[T]) Ptr(idx ...int) *T {
	return &d.data[d.offset(opPtr, idx)]
}

// Ref returns a reference to the element at the given indices, through
// which it is loaded, stored and updated atomically (see Ref); there must be
// at least Rank of them (see At). It panics like Ref2, and when there are
// fewer indices than the rank.
func (d *DynRankView[T]) Ref(idx ...int) Ref[T] {
	return Ref[T]{&d.data[d.offset(opRef, idx)], d.rec, d.flags}
}

// Access returns the element at the given indices, as Kokkos's access: it
// takes up to MaxDynRank indices; missing trailing indices are 0, and those
// past the rank must be 0. Access(i) of a rank-2 view reads (i, 0). It
// panics like At2 when an index, given or missing, is out of bounds.
func (d *DynRankView[T]) Access(idx ...int) T {
	if d.data == nil || d.flags&flagAtomic != 0 {
		noDataPanic("Access", d.rec, d.flags, d.data != nil)
	}
	if released(d.rec, d.flags) {
		panic(releasedMessage("Access", d.rec, idx))
	}
	if len(idx) > MaxDynRank {
		panic(fmt.Sprintf("kokkos: Access of rank-%d DynRankView %q with %d indices %s: give at most %d", d.rank, d.rec.Label(), len(idx), fmtInts(idx), MaxDynRank))
	}
	var full [MaxDynRank]int
	copy(full[:], idx)
	o := 0
	for r := range max(len(idx), d.rank) {
		i := full[r]
		if uint(i) >= uint(d.ext[r]) {
			e := dynAccessError[T]{d: *d, op: opAt, n: max(len(idx), d.rank)}
			copy(e.idx[:], full[:])
			panic(e)
		}
		o += i * d.str[r]
	}
	return d.data[o]
}

// offset checks a variadic access by op and returns the element's offset.
func (d *DynRankView[T]) offset(op accessOp, idx []int) int {
	if len(idx) < d.rank || len(idx) > MaxDynRank {
		panic(fmt.Sprintf("kokkos: %v of rank-%d DynRankView %q with %d indices %s: give between %d and %d, those past the rank being 0", op, d.rank, d.rec.Label(), len(idx), fmtInts(idx), d.rank, MaxDynRank))
	}
	bad := d.data == nil || released(d.rec, d.flags)
	switch op {
	case opAt:
		bad = bad || d.flags&flagAtomic != 0
	case opSet, opPtr:
		bad = bad || d.flags&(flagReadOnly|flagNoHost|flagAtomic) != 0
	}
	// Past the rank, extents are 1 and strides 0: an index there must be
	// 0 and adds nothing.
	o := 0
	for r, i := range idx {
		if uint(i) >= uint(d.ext[r]) {
			bad = true
		}
		o += i * d.str[r]
	}
	if bad {
		e := dynAccessError[T]{d: *d, op: op, n: len(idx)}
		copy(e.idx[:], idx)
		panic(e)
	}
	return o
}

// dynAccessError is the panic value of a failed access by op to view d with
// n indices. It holds no more than this: a larger panic value costs the
// fixed-arity accessors their inlining.
type dynAccessError[T any] struct {
	d   DynRankView[T]
	op  accessOp
	n   int
	idx [MaxRank]int
}

func (e dynAccessError[T]) Error() string {
	d := &e.d
	idx := e.idx[:e.n]
	if e.n < d.rank {
		op := e.op.String()
		if e.op.writes() {
			op = "Set or Ptr"
		}
		return fmt.Sprintf("kokkos: %s%d of rank-%d DynRankView %q at %s: give at least %d indices",
			op, e.n, d.rank, d.rec.Label(), fmtInts(idx), d.rank)
	}
	for r, i := range idx {
		if uint(i) < uint(d.ext[r]) {
			continue
		}
		switch {
		case d.rec == nil:
			return fmt.Sprintf("kokkos: index %s out of bounds: the DynRankView is not allocated", fmtInts(idx))
		case r >= d.rank:
			return fmt.Sprintf("kokkos: index %s out of bounds for rank-%d DynRankView %q with extents %s: indices past the rank must be 0",
				fmtInts(idx), d.rank, d.rec.Label(), fmtInts(d.ext[:d.rank]))
		}
		return fmt.Sprintf("kokkos: index %s out of bounds for view %q with extents %s", fmtInts(idx), d.rec.Label(), fmtInts(d.ext[:d.rank]))
	}
	return accessKindMessage(d.rec, e.op, d.flags, idx)
}

// Rank returns the number of dimensions, 0 to MaxDynRank (7).
func (d *DynRankView[T]) Rank() int { return d.rank }

// Extent returns the extent of dimension r: the number of valid indices.
// For r in [Rank, 8) it returns 1, as Kokkos does; for the zero view, as
// for Kokkos's default-constructed DynRankView, it returns 0 for r < 7
// (MaxDynRank) and 1 for r = 7. It panics unless 0 <= r < 8.
func (d *DynRankView[T]) Extent(r int) int {
	if uint(r) < MaxDynRank {
		return d.ext[r]
	}
	if r == MaxDynRank {
		return 1
	}
	panic(dimError{"Extent", d.rank, r})
}

// Extents returns the Rank extents.
func (d *DynRankView[T]) Extents() []int { return append([]int(nil), d.ext[:d.rank]...) }

// Stride returns the distance, in elements, between consecutive indices of
// dimension r. For r in [Rank, 8) it returns what Kokkos's stride(r) does
// there (its DynRankView is a rank-7 View): 1 for LayoutRight and for rank
// 0, the last stride times the last extent for LayoutLeft, 0 for
// LayoutStride. It panics unless 0 <= r < 8.
func (d *DynRankView[T]) Stride(r int) int {
	if uint(r) < uint(d.rank) {
		return d.str[r]
	}
	if uint(r) < MaxRank {
		return stridePastRank(d.layout, d.ext[:d.rank], d.str[:d.rank])
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
	if d.flags&(flagReadOnly|flagNoHost|flagAtomic|flagForeign) != 0 {
		dataCheck("Data", d.rec, d.flags)
	}
	return d.data
}

// LayoutSpec returns the view's layout object, from which
// NewDynRankViewFrom, or NewViewNFrom for its rank, makes views of the same
// shape.
func (d DynRankView[T]) LayoutSpec() LayoutSpec {
	return LayoutSpec{Layout: d.layout, Extents: d.Extents(), Strides: append([]int(nil), d.str[:d.rank]...)}
}

// ReadOnly returns a view of the same elements whose writes panic, as
// Kokkos's DynRankView<const T>. No call, conversions included, turns it
// back into a writable view.
func (d DynRankView[T]) ReadOnly() DynRankView[T] {
	w := d
	w.flags |= flagReadOnly
	return w
}

// AsLayout returns the same elements as a view of layout l, under Kokkos's
// assignment rules: any view becomes LayoutStride; a LayoutStride view
// becomes LayoutLeft or LayoutRight only when its strides are that layout's;
// LayoutLeft and LayoutRight convert into each other only at rank 0 or 1.
// The error names the rule that failed.
func (d DynRankView[T]) AsLayout(l Layout) (DynRankView[T], error) {
	if err := convertLayout(d.rec, d.layout, l, d.ext[:d.rank], d.str[:d.rank]); err != nil {
		return DynRankView[T]{}, err
	}
	w := d
	w.layout = l
	return w, nil
}

// Equal reports whether d and w are the same view, as Kokkos's ==: the
// same rank, layout and space, the same first element (two views wrapping
// the same slice are equal), extents and strides. w may be any view kind of
// T, such as the View2 that d was made from.
func (d DynRankView[T]) Equal(w View[T]) bool { return sameView(d.viewDesc(), w.viewDesc()) }

// Subview returns the view of the elements that the arguments select,
// sharing d's memory, allocation and label, as Kokkos's subdynrankview.
// Argument r is for dimension r: an int index (the dimension is dropped),
// All or Pair(begin, end) (the dimension is kept, re-based to 0). As in
// Kokkos, missing trailing arguments are the index 0, and arguments past
// the rank, up to MaxDynRank in all, must select the one index of their
// extent-1 dimension (0, All or Pair(0, 1)) and add no dimension. The
// result's rank is the number of ranges before the rank and its layout is
// LayoutStride. It panics on out-of-bounds arguments, naming the label, the
// argument and the extents.
func (d *DynRankView[T]) Subview(args ...any) DynRankView[T] {
	if len(args) > MaxDynRank {
		panic(fmt.Sprintf("kokkos: Subview of rank-%d DynRankView %q with %d arguments: give at most %d", d.rank, d.rec.Label(), len(args), MaxDynRank))
	}
	var full [MaxDynRank]any
	m := 0
	for r := range d.rank {
		full[r] = 0
		if r < len(args) {
			full[r] = args[r]
		}
		switch full[r].(type) {
		case AllType, PairRange:
			m++
		}
	}
	for r := d.rank; r < len(args); r++ {
		if !selectsZero(args[r]) {
			panic(fmt.Sprintf("kokkos: Subview of rank-%d DynRankView %q with extents %s: argument %d (%v) is past the rank and must be 0, All or Pair(0, 1)",
				d.rank, d.rec.Label(), fmtInts(d.ext[:d.rank]), r, args[r]))
		}
	}
	w := DynRankView[T]{rank: m, rec: d.rec, flags: d.flags, traits: d.traits, layout: LayoutStride}
	off, span, _ := subMap("Subview", d.rec, d.layout, d.ext[:d.rank], d.str[:d.rank], full[:d.rank], w.ext[:m], w.str[:m])
	for r := m; r < MaxRank; r++ {
		w.ext[r] = 1
	}
	w.data = subData(d.data, off, span)
	w.off = d.off + off
	w.setHostRank()
	return w
}

// selectsZero reports whether the Subview argument a selects exactly the
// index 0 of an extent-1 dimension.
func selectsZero(a any) bool {
	switch a := a.(type) {
	case AllType:
		return true
	case PairRange:
		return a == Pair(0, 1)
	case int:
		return a == 0
	case int32:
		return a == 0
	case int64:
		return a == 0
	}
	return false
}

// Realloc replaces d with a new view of the given extents, whose rank is
// len(extents), with d's label, layout (LayoutRight if d is LayoutStride),
// memory space and traits. The elements are not preserved; the new view is
// zero-filled unless WithoutInitializing is given. Other copies of d keep
// the old elements. As Kokkos's realloc, it refuses, with an error wrapping
// ErrReadOnly, ErrUnmanaged or ErrReleased, a read-only view, an unmanaged
// one (over caller memory) and a released one. On error d is unchanged.
// With WithExec(exec) the zero fill is queued on exec (see WithExec).
// Realloc replaces the handle it is called on, so call it on a variable,
// not on a Must result: d := Must(NewDynRankView[float64]("d", []int{2}));
// d.Realloc([]int{5}).
func (d *DynRankView[T]) Realloc(extents []int, opts ...Option) error {
	w, err := d.replacement("Realloc", extents, opts)
	if err != nil {
		return err
	}
	*d = w
	return nil
}

// replacement returns the new view that Realloc and Resize (op) give d,
// without touching d.
func (d *DynRankView[T]) replacement(op string, extents []int, opts []Option) (DynRankView[T], error) {
	if err := d.replaceError(op); err != nil {
		return DynRankView[T]{}, err
	}
	if err := d.optionError(op, opts); err != nil {
		return DynRankView[T]{}, err
	}
	l := d.layout
	if l == LayoutStride {
		l = LayoutRight
	}
	base := []Option{l, InSpace(d.rec.Space()), WithTraits(d.traits &^ Unmanaged)}
	return NewDynRankView[T](d.rec.Label(), extents, append(base, opts...)...)
}

// optionError returns why op (Resize or Realloc) of an allocated d cannot
// apply opts: it keeps d's label, layout, space and traits.
func (d *DynRankView[T]) optionError(op string, opts []Option) error {
	if d.rec == nil || len(opts) == 0 {
		return nil
	}
	cfg := makeConfig(opts)
	if err := cmp.Or(cfg.err, optionsFor(&cfg, forResize)); err != nil {
		return fmt.Errorf("kokkos: %s of DynRankView %q with extents %s: %w", op, d.rec.Label(), fmtInts(d.ext[:d.rank]), err)
	}
	return nil
}

// Resize replaces d with a view of the given extents, whose rank is
// len(extents) and may differ from d's: a rank-3 view resized to (5, 10)
// becomes rank 2. The elements in the overlap of the old and new index
// ranges are kept, indices past the smaller rank being 0; the rest of the
// new view is zero (unless WithoutInitializing). Unchanged extents keep the
// view as it is. Other copies of d keep the old elements. It refuses the
// views that Realloc refuses, with the same errors. On any error, the copy
// of the overlap's included, d is unchanged and the new storage released.
// With WithExec(exec) the zero fill and the copy are queued on exec.
// Resize replaces the handle it is called on, so call it on a variable:
// d := Must(NewDynRankView[float64]("d", []int{2})); d.Resize([]int{5}).
func (d *DynRankView[T]) Resize(extents []int, opts ...Option) error {
	old := d.viewDesc()
	if err := cmp.Or(d.replaceError("Resize"), d.optionError("Resize", opts)); err != nil {
		return err
	}
	if old.rec != nil && slices.Equal(old.extents(), extents) {
		return nil
	}
	w, err := d.replacement("Resize", extents, opts)
	if err != nil {
		return fmt.Errorf("kokkos: Resize: %w", err)
	}
	if err := copyOverlap("Resize", w.viewDesc(), old, makeConfig(opts).exec); err != nil {
		w.rec.Release()
		return err
	}
	*d = w
	return nil
}

// copyOverlap copies, for Resize (op), the elements of old whose indices
// are also in n's index range into n, indices past the smaller rank being
// 0. It copies nothing when old is the zero view or the overlap is empty.
// With exec (WithExec) the copy is queued on it.
func copyOverlap[T any](op string, n, old desc[T], exec ExecutionSpace) error {
	if old.rec == nil {
		return nil
	}
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
	if err := copyKept(op, exec, &a, &b); err != nil {
		return fmt.Errorf("kokkos: %s: %w", op, err)
	}
	return nil
}

// replaceError returns why op (Resize or Realloc) cannot replace d: it is
// read-only, unmanaged or released. The zero view can be replaced.
func (d *DynRankView[T]) replaceError(op string) error {
	switch {
	case d.rec == nil:
		return nil
	case d.flags&flagReadOnly != 0:
		return errorf(ErrReadOnly, "kokkos: %s of read-only DynRankView %q with extents %s", op, d.rec.Label(), fmtInts(d.ext[:d.rank]))
	case !d.rec.managed:
		return errorf(ErrUnmanaged, "kokkos: %s of DynRankView %q with extents %s: the view is unmanaged (it wraps caller memory); make a new view with NewDynRankView", op, d.rec.Label(), fmtInts(d.ext[:d.rank]))
	case d.rec.Released():
		return errorf(ErrReleased, "kokkos: %s of DynRankView %q with extents %s: its allocation was released", op, d.rec.Label(), fmtInts(d.ext[:d.rank]))
	}
	return nil
}

// fromDesc returns the DynRankView that vd describes; the mirror functions
// use it.
//
//lint:ignore U1000 used through the viewKind constraint of the mirrors
func (d DynRankView[T]) fromDesc(vd desc[T]) DynRankView[T] { return dynRankOf(vd, vd.traits) }
