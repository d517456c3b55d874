package kokkos

import (
	"fmt"
	"reflect"
	"slices"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/prof"
	"github.com/gokkos/kokkos/internal/typeinfo"
)

// viewFlags are the per-view bits that the element accessors check.
type viewFlags uint8

const (
	flagReadOnly viewFlags = 1 << iota
	flagAtomic             // the Atomic trait: elements only through Ref
	flagNoHost             // the host cannot access the elements
	// flagForeign marks elements the host can access that lie outside the
	// Go heap, in memory that the allocation's final Release frees (CUDA
	// managed memory, an mmapped BlockSpace): every access checks that the
	// allocation is still live, on the accessors' cold paths (see
	// hostLimits), so that views of Go memory pay nothing for it.
	flagForeign

	// The bits from flagKindShift up hold the elemKind of the element
	// type, for Ref; kindUnknown where the view was not made by build or
	// wrap, and for views with flagForeign, so that every operation of
	// their Refs takes the slow path, which checks the allocation.
	flagKindShift = 4
)

func sizeOf[T any]() int { var z T; return int(unsafe.Sizeof(z)) }

// View is implemented by every view kind of element type T (View0[T] to
// View8[T], their pointers, DynRankView[T] and OffsetView views); functions
// that take any view, such as DeepCopy, take a View.
type View[T any] interface {
	viewDesc() desc[T]
}

// desc describes any view to the code shared by all view kinds: the one
// layout mapping, the copy planner and the mirrors.
type desc[T any] struct {
	data   []T // host elements, nil when the host cannot access them
	rank   int
	ext    [MaxRank]int
	str    [MaxRank]int
	rec    *Allocation
	off    int // elements from the allocation's start to the view's origin
	layout Layout
	flags  viewFlags
	traits Trait
}

func (d *desc[T]) extents() []int { return d.ext[:d.rank] }
func (d *desc[T]) strides() []int { return d.str[:d.rank] }

func (d *desc[T]) label() string { return d.rec.Label() }

func (d *desc[T]) span() int {
	s, _ := spanOf(d.extents(), d.strides())
	return s
}

func (d *desc[T]) size() int {
	n := 1
	for _, e := range d.extents() {
		n *= e
	}
	return n
}

// build allocates storage for a new view of extents ext, fills the strides
// in str and returns the view's data, allocation, layout and flags.
func build[T any](label string, ext []int, cfg config, str []int) ([]T, *Allocation, Layout, viewFlags, error) {
	fail := func(err error) ([]T, *Allocation, Layout, viewFlags, error) {
		return nil, nil, 0, 0, fmt.Errorf("kokkos: view %q with extents %s: %w", label, fmtInts(ext), err)
	}
	if cfg.err != nil {
		return fail(cfg.err)
	}
	if err := optionsFor(&cfg, forAlloc); err != nil {
		return fail(err)
	}
	if err := execError(cfg.exec, cfg.space); err != nil {
		return fail(err)
	}
	if cfg.traits&Unmanaged != 0 {
		return fail(errorf(ErrUnmanaged, "the Unmanaged trait needs caller memory: use a WrapView constructor"))
	}
	flags, err := traitFlags[T](cfg.traits)
	if err != nil {
		return fail(err)
	}
	size := sizeOf[T]()
	span, err := mapStrides(cfg.layout, ext, cfg.strides, size, cfg.pad, str)
	if err != nil {
		return fail(err)
	}
	bytes, err := mulBytes(span, size)
	if err != nil {
		return fail(err)
	}
	bs, ok := cfg.space.(backend.BlockSpace)
	if !ok {
		if !cfg.space.HostAccessible() {
			return fail(errorf(ErrNoCopySpace, "memory space %s cannot allocate: it is neither host memory nor a BlockSpace", cfg.space.Name()))
		}
		n := span
		if flags&flagAtomic != 0 && size < 4 {
			// Whole aligned 4-byte words, so that the compare-and-swap
			// that updates a 1- or 2-byte element on its word touches no
			// other object.
			n = (span*size + 3) / 4 * 4 / size
		}
		data := make([]T, n)[:span:span]
		if flags&flagAtomic != 0 {
			data = alignAtomic16(data)
		}
		rec := newAllocation(label, cfg.space, bytes, nil)
		if prof.On() {
			profileAlloc(rec, sliceAddr(data))
		}
		return data, rec, cfg.layout, flags, nil
	}
	if typeinfo.HasPointers(reflect.TypeFor[T]()) {
		return fail(errorf(ErrElementType, "element type %v holds Go pointers and cannot live in %s, outside the Go heap", reflect.TypeFor[T](), cfg.space.Name()))
	}
	// With an instance, the zero fill is queued on it below (WithExec).
	initExec := cfg.exec != nil && !cfg.noInit && canFill(bs)
	rec, blk, err := newBlockAllocation(label, bs, bytes, !cfg.noInit && !initExec)
	if err != nil {
		return nil, nil, 0, 0, fmt.Errorf("kokkos: allocating %d bytes for view %q in %s: %w", bytes, label, bs.Name(), err)
	}
	var data []T
	if blk.Host != nil && span > 0 {
		data = unsafe.Slice((*T)(blk.Host), span)
	} else {
		flags |= flagNoHost
	}
	flags = foreignFlags(rec, data, flags)
	if err := atomicDataError(flags, data); err != nil {
		rec.Release()
		return fail(err)
	}
	if initExec {
		if err := initOn(cfg.exec, data, rec, span, flags); err != nil {
			rec.Release()
			return fail(err)
		}
	}
	return data, rec, cfg.layout, flags, nil
}

// wrap checks caller memory for an unmanaged view of extents ext: the
// slice data, or the memory at cfg.addr in cfg.space (AtAddress).
func wrap[T any](data []T, ext []int, cfg config, str []int) ([]T, *Allocation, Layout, viewFlags, error) {
	what := "a slice"
	if cfg.addr != 0 {
		what = fmt.Sprintf("address %#x in %s", cfg.addr, cfg.space.Name())
	}
	fail := func(err error) ([]T, *Allocation, Layout, viewFlags, error) {
		return nil, nil, 0, 0, fmt.Errorf("kokkos: wrapping %s as view %q with extents %s: %w", what, cfg.label(), fmtInts(ext), err)
	}
	if cfg.err != nil {
		return fail(cfg.err)
	}
	if err := optionsFor(&cfg, forWrap); err != nil {
		return fail(err)
	}
	flags, err := traitFlags[T](cfg.traits)
	if err != nil {
		return fail(err)
	}
	span, err := mapStrides(cfg.layout, ext, cfg.strides, sizeOf[T](), false, str)
	if err != nil {
		return fail(err)
	}
	if cfg.addr != 0 || cfg.space != HostSpace {
		switch {
		case data != nil:
			return fail(errorf(ErrShape, "give either a slice or AtAddress: a slice is Go memory, in HostSpace"))
		case cfg.space.HostAccessible():
			return fail(errorf(ErrNoCopySpace, "memory space %s is accessible from the host: wrap its memory as a slice (unsafe.Slice) in HostSpace", cfg.space.Name()))
		case cfg.addr == 0:
			return fail(errorf(ErrNotHostAccessible, "memory space %s needs the memory's address: give AtAddress", cfg.space.Name()))
		case flags&flagAtomic != 0 && cfg.addr%uintptr(sizeOf[T]()) != 0:
			return fail(errorf(ErrElementType, "the Atomic trait needs elements aligned to their size"))
		}
		rec := unmanagedAllocation(cfg.label(), cfg.space, span*sizeOf[T]())
		rec.addr = cfg.addr
		return nil, rec, cfg.layout, flags | flagNoHost, nil
	}
	if len(data) < span {
		return fail(errorf(ErrShape, "the slice holds %d elements, the view needs %d", len(data), span))
	}
	if err := atomicDataError(flags, data); err != nil {
		return fail(err)
	}
	rec := unmanagedAllocation(cfg.label(), HostSpace, span*sizeOf[T]())
	if data == nil {
		// A nil slice wraps nothing: the view reports IsAllocated false,
		// as a Kokkos view over a null pointer.
		return nil, rec, cfg.layout, flags, nil
	}
	return data[:span:span], rec, cfg.layout, flags, nil
}

// withTraits returns d with memory traits t (AsTraits). A view that is
// unmanaged stays unmanaged.
func withTraits[T any](d desc[T], t Trait) (desc[T], error) {
	flags, err := traitFlags[T](t)
	if err == nil {
		err = atomicDataError(flags, d.data)
	}
	if err != nil {
		return desc[T]{}, fmt.Errorf("kokkos: view %q with traits %v: %w", d.label(), t, err)
	}
	d.flags = foreignFlags(d.rec, d.data, d.flags&(flagReadOnly|flagNoHost)|flags)
	d.traits = t | d.traits&Unmanaged
	return d, nil
}

// assignData re-points d at data, or at the address opts give
// (AssignData).
func assignData[T any](d *desc[T], data []T, opts []Option) error {
	if len(opts) > 0 {
		return assignAddress(d, data, opts)
	}
	span := d.span()
	fail := func(err error) error {
		return fmt.Errorf("kokkos: AssignData of view %q with extents %s: %w", d.label(), fmtInts(d.extents()), err)
	}
	switch {
	case d.flags&flagNoHost != 0:
		return fail(errorf(ErrNotHostAccessible, "the view lives in %s, which the host cannot access: give an address there, AssignData(nil, AtAddress(p))", d.rec.Space().Name()))
	case len(data) < span:
		return fail(errorf(ErrShape, "the slice holds %d elements, the view needs %d", len(data), span))
	}
	if err := atomicDataError(d.flags, data); err != nil {
		return fail(err)
	}
	var space MemorySpace = HostSpace
	if d.rec != nil {
		space = d.rec.Space()
	}
	d.rec = unmanagedAllocation(d.label(), space, span*sizeOf[T]())
	// The caller's slice is Go memory: the view records its element kind
	// again, and has no allocation to check.
	d.flags = d.flags&(flagReadOnly|flagNoHost|flagAtomic) | viewFlags(elemKindOf[T]())<<flagKindShift
	d.off = 0
	d.traits |= Unmanaged
	d.data = nil
	if data != nil {
		d.data = data[:span:span]
	}
	return nil
}

// sameView reports whether a and b are the same view (Equal): rank,
// layout, space, first element, extents and strides.
func sameView[T any](a, b desc[T]) bool {
	if a.rank != b.rank || a.layout != b.layout || !slices.Equal(a.extents(), b.extents()) || !slices.Equal(a.strides(), b.strides()) || (a.rec == nil) != (b.rec == nil) {
		return false
	}
	if a.rec == nil {
		return true
	}
	ma, mb := memOf(&a), memOf(&b)
	return ma.space == mb.space && ma.lo == mb.lo && a.rec.Space() == b.rec.Space()
}

// ReadOnlyData returns the elements of v's span as a slice sharing its
// memory, read-only views included, as Kokkos's data() of a View<const T>:
// the way to hand a view's elements to code that reads a slice. Go has no
// read-only slice, so nothing stops a write through it; writing through the
// slice of a read-only view breaks that view's promise and is a bug. It
// panics, naming the view, for a view with the Atomic trait and where the
// host cannot access the view's memory; it returns nil for the zero view.
func ReadOnlyData[T any](v View[T]) []T {
	d := v.viewDesc()
	if d.rec != nil && (d.data == nil && d.span() > 0 || d.flags&(flagNoHost|flagAtomic) != 0) {
		viewPanic("ReadOnlyData", d.rec, d.flags)
	}
	if released(d.rec, d.flags) {
		panic(releasedMessage("ReadOnlyData", d.rec, nil))
	}
	return d.data
}

// traitFlags returns the view flags of traits t and element type T, and an
// error wrapping ErrElementType when T cannot take the traits: the Atomic
// trait needs an element type that Ref can update atomically (see
// atomicTypeError).
func traitFlags[T any](t Trait) (viewFlags, error) {
	f := viewFlags(elemKindOf[T]()) << flagKindShift
	if t&Atomic != 0 {
		if err := atomicTypeError[T](); err != nil {
			return 0, err
		}
		f |= flagAtomic
	}
	return f, nil
}

// WithLabel names a view made by a Wrap constructor; allocating
// constructors take the label as their first argument.
func WithLabel(label string) Option { return optionFunc(func(c *config) { c.wrapLabel = label }) }

func (c *config) label() string { return c.wrapLabel }

// accessOp names the element accessor whose check failed, for the panic
// message. The accessors put it in their panic value as a constant, which
// costs no more of their inlining budget than the bool it replaced.
type accessOp uint8

const (
	opAt accessOp = iota
	opSet
	opPtr
	opRef
)

func (op accessOp) String() string { return [...]string{"At", "Set", "Ptr", "Ref"}[op] }

// writes reports whether the accessor can write the element, so that a
// read-only view refuses it. Ref can, but a read-only view refuses its
// writes only when they happen (see Ref).
func (op accessOp) writes() bool { return op == opSet || op == opPtr }

// accessMessage explains a failed element access by op at indices idx.
func accessMessage(rec *Allocation, op accessOp, flags viewFlags, idx, ext []int) string {
	for r := range idx {
		if uint(idx[r]) >= uint(ext[r]) {
			if rec == nil {
				return fmt.Sprintf("kokkos: index %s out of bounds: the view is not allocated (extents %s)", fmtInts(idx), fmtInts(ext))
			}
			return fmt.Sprintf("kokkos: index %s out of bounds for view %q with extents %s", fmtInts(idx), rec.Label(), fmtInts(ext))
		}
	}
	return accessKindMessage(rec, op, flags, idx)
}

// accessKindMessage explains a failed access by op at indices idx, which
// are in bounds: what failed is the kind of access.
func accessKindMessage(rec *Allocation, op accessOp, flags viewFlags, idx []int) string {
	switch {
	case rec == nil:
		return "kokkos: access to an unallocated view"
	case released(rec, flags):
		return releasedMessage(op.String(), rec, idx)
	case flags&flagNoHost != 0:
		return fmt.Sprintf("kokkos: view %q lives in %s, which the host cannot access (index %s): make a host mirror with CreateMirrorView and DeepCopy into it",
			rec.Label(), rec.Space().Name(), fmtInts(idx))
	case op.writes() && flags&flagReadOnly != 0:
		return fmt.Sprintf("kokkos: write to read-only view %q at index %s", rec.Label(), fmtInts(idx))
	case op != opRef && flags&flagAtomic != 0:
		return atomicMessage(op.String(), rec.Label(), idx)
	}
	return fmt.Sprintf("kokkos: access to view %q at index %s failed", rec.Label(), fmtInts(idx))
}

// atomicMessage explains why op (At, Set, Ptr, Data, Row, Col, Access)
// refuses a view with the Atomic trait, and names what to use instead; idx
// are the indices op was given, nil for the whole-view operations.
func atomicMessage(op, label string, idx []int) string {
	at, ref := op, "Ref(i...)"
	if idx != nil {
		at, ref = op+fmtInts(idx), "Ref"+fmtInts(idx)
	}
	var use string
	switch op {
	case "At", "Access":
		use = "read with " + ref + ".Load()"
	case "Set":
		use = "write with " + ref + ".Store(x)"
	default:
		use = "a pointer or slice would allow plain loads and stores; use " + ref +
			" and its methods Load, Store, Add, Sub, Min, Max, And, Or, Xor and Update"
	}
	return fmt.Sprintf("kokkos: %s of view %q, which has the Atomic trait: every access to its elements must be atomic; %s", at, label, use)
}

// dimError is the panic value of Extent or Stride with a bad dimension.
type dimError struct {
	op      string
	rank, r int
}

func (e dimError) Error() string {
	return fmt.Sprintf("kokkos: %s(%d) of a rank-%d view: the dimension must be in [0, %d)", e.op, e.r, e.rank, MaxRank)
}

// viewPanic panics for a whole-view operation that the view's flags forbid.
func viewPanic(op string, rec *Allocation, flags viewFlags) {
	if flags&flagNoHost != 0 {
		panic(fmt.Sprintf("kokkos: %s of view %q: it lives in %s, which the host cannot access: make a host mirror with CreateMirrorView and DeepCopy into it",
			op, rec.Label(), rec.Space().Name()))
	}
	if flags&flagAtomic != 0 {
		panic(atomicMessage(op, rec.Label(), nil))
	}
	panic(fmt.Sprintf("kokkos: %s of read-only view %q would allow writes", op, rec.Label()))
}

// hostLimits returns a view's two check extents, from its host elements
// data, its flags and its first extent e. lim0, which the element
// accessors compare the first index with, is e where the host can access
// data with plain loads and stores and nothing more needs checking, and 0
// where it cannot (data is nil), must not (the Atomic trait), or must
// check first that the memory is still there (flagForeign): there every
// access fails the first compare, and only that cold path looks further.
// hlim, which the cold path compares the first index with, is e for a view
// with flagForeign whose elements the host may access, and 0 otherwise; the
// cold path also checks that the allocation is live.
//
// Views of Go memory thus run the accessors exactly as they would without
// views of other memory: one compare, whose failure is the panic.
func hostLimits[T any](data []T, flags viewFlags, e int) (lim0, hlim uint) {
	switch {
	case data == nil || flags&flagAtomic != 0:
		return 0, 0
	case flags&flagForeign != 0:
		return 0, uint(e)
	}
	return uint(e), 0
}

// foreignFlags returns flags, the flags of a view of allocation rec whose
// host elements are data, with flagForeign set where those elements lie in
// memory that rec's final Release frees, and then without the element kind
// (see flagKindShift).
func foreignFlags[T any](rec *Allocation, data []T, flags viewFlags) viewFlags {
	if data != nil && flags&flagNoHost == 0 && rec.freesMemory() {
		return flags&(1<<flagKindShift-1) | flagForeign
	}
	return flags &^ flagForeign
}

// plainData returns the pointer to data's first element that the offset
// views' At checks: nil where the host cannot access data with plain loads
// (data is nil, or the Atomic trait), or must first check that the memory
// is still there (flagForeign), as hostLimits. writableData is the same
// for Set and Ptr, and is also nil for a read-only view.
func plainData[T any](data []T, flags viewFlags) *T {
	if flags&(flagAtomic|flagForeign) != 0 {
		return nil
	}
	return unsafe.SliceData(data)
}

func writableData[T any](data []T, flags viewFlags) *T {
	if flags&flagReadOnly != 0 {
		return nil
	}
	return plainData(data, flags)
}

// refusedAllocation is the cold-path check value of offset views that the
// host must not access: its address equals no Allocation's self.
var refusedAllocation Allocation

// foreignCheck returns the value that the cold path of an offset view's
// At (write false) or Set and Ptr (write true) compares with rec.self,
// the view's allocation: rec where the only reason for that cold path is
// flagForeign, so that the access goes on while the allocation is live,
// and refusedAllocation otherwise, so that it panics.
func foreignCheck[T any](rec *Allocation, data []T, flags viewFlags, write bool) *Allocation {
	bad := flagAtomic | flagForeign
	if write {
		bad |= flagReadOnly
	}
	if data == nil || flags&bad != flagForeign {
		return &refusedAllocation
	}
	return rec
}

// released reports whether a view with flags and allocation rec has
// elements outside the Go heap that are gone: the allocation had its final
// Release.
func released(rec *Allocation, flags viewFlags) bool {
	return flags&flagForeign != 0 && rec.dead
}

// releasedMessage explains an access by op to a view whose allocation had
// its final Release and whose memory is therefore gone; idx are the
// indices op was given, nil for the whole-view operations.
func releasedMessage(op string, rec *Allocation, idx []int) string {
	if idx != nil {
		op += fmtInts(idx)
	}
	return fmt.Sprintf("kokkos: %s of view %q after the final Release of its allocation: its memory in %s is freed",
		op, rec.Label(), rec.Space().Name())
}

// dataCheck is the cold path of Data, Row, Col and Line for a view with
// flags in mask: it returns where the only reason is flagForeign and the
// memory is still there, and panics otherwise.
func dataCheck(op string, rec *Allocation, flags viewFlags) {
	if flags&(flagReadOnly|flagNoHost|flagAtomic) != 0 {
		viewPanic(op, rec, flags)
	}
	if released(rec, flags) {
		panic(releasedMessage(op, rec, nil))
	}
}

// noDataPanic explains why a view gives no plain access to its elements:
// it is not allocated, the host cannot access them, or it has the Atomic
// trait.
func noDataPanic(op string, rec *Allocation, flags viewFlags, hasData bool) {
	switch {
	case rec == nil:
		panic("kokkos: " + op + " of an unallocated view")
	case !hasData:
		flags |= flagNoHost
	case released(rec, flags):
		panic(releasedMessage(op, rec, nil))
	}
	viewPanic(op, rec, flags)
}

// accessOffset implements the Access methods, as Kokkos's access: at least
// rank and at most 8 indices, those past the rank being 0. Fewer indices
// than the rank panic, as Kokkos's access has no overload for them.
func accessOffset(rec *Allocation, ext, str []int, idx []int) int {
	rank := len(ext)
	if len(idx) < rank || len(idx) > MaxRank {
		panic(fmt.Sprintf("kokkos: Access%s of rank-%d view %q with extents %s: give between %d and %d indices, those past the rank being 0",
			fmtInts(idx), rank, rec.Label(), fmtInts(ext), rank, MaxRank))
	}
	off := 0
	for r, i := range idx {
		if r >= rank {
			if i != 0 {
				panic(fmt.Sprintf("kokkos: Access of rank-%d view %q at %s: index %d past the rank must be 0", rank, rec.Label(), fmtInts(idx), r))
			}
			continue
		}
		if uint(i) >= uint(ext[r]) {
			panic(fmt.Sprintf("kokkos: index %s out of bounds for view %q with extents %s", fmtInts(idx), rec.Label(), fmtInts(ext)))
		}
		off += i * str[r]
	}
	return off
}

// convertLayout checks Kokkos's assignment rules for a view of layout from
// becoming layout to, with the given extents and strides.
func convertLayout(rec *Allocation, from, to Layout, ext, str []int) error {
	if from == to || to == LayoutStride || len(ext) == 0 {
		return nil
	}
	rank := len(ext)
	if from != LayoutStride {
		if rank == 1 {
			return nil
		}
		return errorf(ErrLayout, "kokkos: view %q cannot become %v: a %v view of rank %d converts only to LayoutStride (only rank-1 views convert between LayoutLeft and LayoutRight)",
			rec.Label(), to, from, rank)
	}
	if !isLayoutMapping(to, ext, str) {
		return errorf(ErrLayout, "kokkos: LayoutStride view %q cannot become %v: its strides %s for extents %s are not those of %v",
			rec.Label(), to, fmtInts(str), fmtInts(ext), to)
	}
	return nil
}

func errSpecRank(label string, spec LayoutSpec, rank int) error {
	return errorf(ErrShape, "kokkos: view %q: layout spec of rank %d (extents %s) given to a rank-%d constructor", label, spec.Rank(), fmtInts(spec.Extents), rank)
}

// lineHint says what to use instead of op (Row, Col or Line) where its
// line, along dimension dim, is not contiguous.
func lineHint(op string, dim int) string {
	switch op {
	case "Row":
		return "Line gives the contiguous lines of any layout (Col of a LayoutLeft view); or use At, or DeepCopy into a LayoutRight view"
	case "Col":
		return "Line gives the contiguous lines of any layout (Row of a LayoutRight view); or use At, or DeepCopy into a LayoutLeft view"
	}
	return fmt.Sprintf("use At, or a view whose dimension %d is contiguous (DeepCopy into a new view)", dim)
}

// lineCheck is the cold path of Row and Col at indices idx, which index
// the dimensions from first on: it returns where the only reason is
// flagForeign and the memory is still there, and otherwise panics with the
// reason. dim is the dimension the line runs along, of stride stride.
func lineCheck(op string, rec *Allocation, flags viewFlags, idx, ext []int, stride, dim, first int) {
	inBounds := true
	for k, i := range idx {
		inBounds = inBounds && uint(i) < uint(ext[first+k])
	}
	switch {
	case flags&(flagReadOnly|flagNoHost|flagAtomic) != 0:
		viewPanic(op, rec, flags)
	case stride != 1 && ext[dim] > 1:
		panic(fmt.Sprintf("kokkos: %s%s of view %q with extents %s: dimension %d has stride %d, not 1, so that line is not contiguous; %s",
			op, fmtInts(idx), rec.Label(), fmtInts(ext), dim, stride, lineHint(op, dim)))
	case !inBounds:
		panic(fmt.Sprintf("kokkos: %s%s out of bounds for view %q with extents %s", op, fmtInts(idx), rec.Label(), fmtInts(ext)))
	case released(rec, flags):
		panic(releasedMessage(op, rec, idx))
	}
}

// Must returns v, and panics if err is not nil. It shortens the allocating
// constructors where a failure is a bug:
//
//	a := kokkos.Must(kokkos.NewView2[float64]("A", n0, n1))
//
// Its result is a value, which Go does not let a pointer-receiver method
// take: store it in a variable before element access (At, Set, Ptr, Ref,
// Row, Line, Data ...), shape queries (Extent, Size ...) and the methods
// that replace the view itself (AssignData, DynRankView's Resize and
// Realloc); a.Set(0, 0, 1), not Must(...).Set(0, 0, 1). The methods that
// return another view or describe it take value receivers and chain:
//
//	r := kokkos.Must(kokkos.NewView2[float64]("R", n0, n1)).ReadOnly()
func Must[V any](v V, err error) V {
	if err != nil {
		panic(err)
	}
	return v
}

// Describe returns the description of v for a backend that runs code on
// it: its origin, extents, strides, element kind and access rules. The
// caller checks Owner.Released() before it uses Addr or Host: the memory of
// a released view is gone.
func Describe[T any](v View[T]) backend.View {
	d := v.viewDesc()
	s := backend.View{
		Label: d.rec.Label(), Space: d.rec.Space(),
		Rank: d.rank, Extents: d.ext, Strides: d.str, Elem: kindOf[T](), ElemSize: sizeOf[T](),
		ReadOnly: d.flags&flagReadOnly != 0, Atomic: d.traits&Atomic != 0, Restrict: d.traits&Restrict != 0,
	}
	if d.rec != nil {
		s.Owner = d.rec
	}
	if s.Space == nil {
		s.Space = HostSpace
	}
	if a := d.rec.Addr(); a != 0 {
		s.Addr = a + uintptr(d.off*s.ElemSize)
	}
	if len(d.data) > 0 {
		s.Host = unsafe.Pointer(&d.data[0])
	}
	return s
}

// kindOf returns the backend kind of T.
func kindOf[T any]() backend.Kind { return backend.KindOf(reflect.TypeFor[T]()) }
