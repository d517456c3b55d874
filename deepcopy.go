package kokkos

import (
	"fmt"
	"runtime"
	"slices"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/layout"
	"github.com/gokkos/kokkos/internal/plan"
	"github.com/gokkos/kokkos/internal/prof"
)

// DeepCopy copies the elements of src into dst, as Kokkos's deep_copy(dst,
// src). The views must have the same rank and extents; their layouts,
// strides (subviews) and memory spaces may differ.
//
// As Kokkos's deep_copy without an execution space, DeepCopy first waits
// for all outstanding work: the work submitted to every asynchronous
// Threads instance and, when either view lives outside the Go heap, the
// device work of every backend (backend.RegisterFence). It returns when the copy
// is complete. Called from work running on an asynchronous instance, where
// that wait could never end, it returns an error wrapping ErrWouldDeadlock
// and copies nothing; use DeepCopyOn there.
//
// In Kokkos's order of checks: views of different ranks are an error; a
// read-only dst is an error; when either view is empty (no elements, or
// the zero view) it does nothing but wait, after checking that the extents
// agree; a released allocation on either side is an error; when dst and
// src are the same view (same memory and mapping) it does nothing but
// wait; views that share an element without being the same view are an
// error wrapping ErrOverlap; different extents are an error. Error
// messages name both views' labels and extents.
//
// Views of one array whose elements are disjoint are copied even where
// their address ranges interleave: two rows of a LayoutLeft matrix, two
// columns of a LayoutRight one, two blocks of a matrix. Whether two views
// share an element is decided exactly for such views; for strides chosen
// so that the decision would take long, the copy goes through a temporary
// buffer instead, which gives the result of copying from a snapshot of
// src.
//
// Contiguous views with the same strides are copied as one byte copy, in
// parallel when large; layout changes are tiled transpositions; other
// strided copies run along the contiguous dimension. Memory the host cannot
// access is copied through its space's CopySpace methods; between spaces
// that implement backend.StridedCopySpace (CUDA device, unified and pinned
// memory) layout changes and strided views are one device kernel.
func DeepCopy[T any](dst, src View[T]) error {
	d, s := dst.viewDesc(), src.viewDesc()
	mode, err := checkCopy("DeepCopy", &d, &s)
	if err != nil {
		return err
	}
	if prof.On() {
		beginCopy(&d, &s, 0)
		defer prof.EndDeepCopy()
	}
	return fenced("DeepCopy", &d, &s, func() error { return copyMode(mode, &d, &s) })
}

// copyMode copies src into dst as checkCopy's mode says.
func copyMode[T any](mode copyKind, dst, src *desc[T]) error {
	switch mode {
	case copySkip, copySame:
		return nil
	case copyStaged:
		tmp, err := snapshot(src)
		if err != nil {
			return err
		}
		return copyDesc(dst, &tmp)
	}
	return copyDesc(dst, src)
}

// snapshot returns a packed copy of src's elements, the source of a
// staged copy.
func snapshot[T any](src *desc[T]) (desc[T], error) {
	tmp := packedLike(src)
	return tmp, copyDesc(&tmp, src)
}

// DeepCopyOn is DeepCopy ordered on an execution-space instance exec, as
// Kokkos's deep_copy(exec, dst, src): the copy runs after the work already
// submitted to exec and before the work submitted after it, and may still
// be running when DeepCopyOn returns; fence exec before using dst. The
// arguments are checked at once and their errors returned; errors of the
// copy itself are reported by exec's fence. Views of any rank, 0 included,
// are copied this way.
//
// On a host instance (Serial, Threads) the copy runs as work submitted to
// the instance, without fences: on Serial and a pool's synchronous
// instance at once, on an asynchronous instance in its order, the copy's
// error then coming back from the instance's Fence (and the package Fence)
// as it is. A device instance (a CUDA stream) queues the bytes itself
// through its space's backend.AsyncCopySpace (contiguous copies) or
// backend.StridedCopySpace (layout changes and strided views between
// device-reachable spaces, as one kernel), or runs it as a
// backend.WorkQueue. A nil exec makes DeepCopyOn DeepCopy, fences
// included.
func DeepCopyOn[T any](exec ExecutionSpace, dst, src View[T]) error {
	d, s := dst.viewDesc(), src.viewDesc()
	mode, err := checkCopy("DeepCopyOn", &d, &s)
	if err != nil {
		return err
	}
	if prof.On() {
		beginCopy(&d, &s, 0)
		defer prof.EndDeepCopy()
	}
	if exec == nil {
		return fenced("DeepCopyOn", &d, &s, func() error { return copyMode(mode, &d, &s) })
	}
	return copyOn(exec, mode, &d, &s)
}

// copyOn is DeepCopyOn after the checks, with a non-nil exec.
func copyOn[T any](exec ExecutionSpace, mode copyKind, d, s *desc[T]) error {
	if mode == copySkip || mode == copySame {
		return nil
	}
	if mode == copyDirect && (d.data == nil || s.data == nil) {
		if queued, err := copyAsync(exec, d, s); queued || err != nil {
			return err
		}
		if queued, err := copyStrided(exec, d, s); queued || err != nil {
			return err
		}
	}
	return submitOn(exec, "kokkos.DeepCopy", func() error { return copyMode(mode, d, s) })
}

// copyAsync queues a contiguous same-stride copy with a side outside the
// host on exec through an AsyncCopySpace; it reports false when the copy
// needs the planner instead.
func copyAsync[T any](exec ExecutionSpace, d, s *desc[T]) (bool, error) {
	nt, empty := plan.MakeNest(d.extents(), d.strides(), s.strides())
	if empty || !(nt.N == 0 || nt.N == 1 && nt.DS[0] == 1 && nt.SS[0] == 1) {
		return false, nil
	}
	cs, err := copySpaceOf(d, s)
	if err != nil {
		return false, err
	}
	as, ok := cs.(backend.AsyncCopySpace)
	if !ok {
		return false, nil
	}
	n := nt.Count(nt.N)
	var pin runtime.Pinner
	defer pin.Unpin()
	queued, err := as.CopyBytesAsync(exec, endpoint(&pin, d, 0, n), endpoint(&pin, s, 0, n), n*sizeOf[T]())
	return queued, wrapHookErr("DeepCopyOn", d, s, err)
}

// Fill stores x in every element of dst, as Kokkos's deep_copy(dst, value),
// touching nothing outside the view (a subview's parent keeps its other
// elements). A read-only or released dst is an error; an empty one is left
// alone. It waits for all outstanding work first, as DeepCopy does. On the
// host a fill of 32 MiB and more writes its contiguous runs with
// non-temporal stores where the platform has them (amd64): dst's memory is
// not read first, and the fill does not evict the caches.
func Fill[T any](dst View[T], x T) error {
	d := dst.viewDesc()
	skip, err := checkFill("Fill", &d)
	if err != nil || skip {
		return err
	}
	if prof.On() {
		beginCopy(&d, nil, uintptr(unsafe.Pointer(&x)))
		defer prof.EndDeepCopy()
	}
	return fenced("Fill", &d, nil, func() error { return fillDesc(&d, x) })
}

// FillOn is Fill ordered on the execution-space instance exec, as
// Kokkos's deep_copy(exec, dst, value); see DeepCopyOn for the ordering and
// for what exec may be. A view the host cannot access in a
// backend.StridedCopySpace is filled by one device operation queued on
// exec (a CUDA stream), contiguous or not. A nil exec makes it Fill.
func FillOn[T any](exec ExecutionSpace, dst View[T], x T) error {
	d := dst.viewDesc()
	skip, err := checkFill("FillOn", &d)
	if err != nil || skip {
		return err
	}
	if prof.On() {
		beginCopy(&d, nil, uintptr(unsafe.Pointer(&x)))
		defer prof.EndDeepCopy()
	}
	if exec == nil {
		return fenced("FillOn", &d, nil, func() error { return fillDesc(&d, x) })
	}
	if queued, err := fillStrided(exec, &d, x); queued || err != nil {
		return err
	}
	return submitOn(exec, "kokkos.Fill", func() error { return fillDesc(&d, x) })
}

// DeepCopyToScalar stores the only element of the rank-0 view src in *dst,
// as Kokkos's deep_copy(value, view). It works for views in any space; src
// of another rank, or released, is an error; an unallocated src (the zero
// view) leaves *dst alone, as Kokkos's null view does. (The other direction
// is Fill.) It waits for all outstanding work first, as DeepCopy does.
func DeepCopyToScalar[T any](dst *T, src View[T]) error {
	d, s, err := scalarCopy("DeepCopyToScalar", dst, src)
	if err != nil {
		return err
	}
	return fenced("DeepCopyToScalar", &d, &s, func() error {
		if s.rec == nil {
			return nil
		}
		return copyDesc(&d, &s)
	})
}

// DeepCopyToScalarOn is DeepCopyToScalar ordered on the execution-space
// instance exec, as Kokkos's deep_copy(exec, value, view): the copy runs
// after the work already submitted to exec and may still be running when
// DeepCopyToScalarOn returns, so *dst holds src's element only once
// exec.Fence() (or the package Fence) has returned; until then dst must
// not be read or written. The arguments are checked at once; errors of the
// copy itself come back from exec's fence. See DeepCopyOn for what exec
// may be; a nil exec makes it DeepCopyToScalar.
func DeepCopyToScalarOn[T any](exec ExecutionSpace, dst *T, src View[T]) error {
	if exec == nil {
		return DeepCopyToScalar(dst, src)
	}
	d, s, err := scalarCopy("DeepCopyToScalarOn", dst, src)
	if err != nil || s.rec == nil {
		return err
	}
	return copyOn(exec, copyDirect, &d, &s)
}

// scalarCopy checks a copy from the rank-0 view src to *dst and returns
// their descs; s.rec is nil for the zero view, which copies nothing.
func scalarCopy[T any](op string, dst *T, src View[T]) (desc[T], desc[T], error) {
	s := src.viewDesc()
	if s.rank != 0 {
		return desc[T]{}, s, errorf(ErrShape, "kokkos: %s from view %q with extents %s: the view must have rank 0, not %d", op, s.label(), fmtInts(s.extents()), s.rank)
	}
	if dst == nil {
		panic(fmt.Sprintf("kokkos: %s from view %q to a nil pointer", op, s.label()))
	}
	d := desc[T]{data: unsafe.Slice(dst, 1), rec: unmanagedAllocation("scalar", HostSpace, sizeOf[T]())}
	if s.rec == nil {
		return d, s, nil
	}
	if _, err := checkCopy(op, &d, &s); err != nil {
		return d, s, err
	}
	return d, s, nil
}

// DeepCopyConvert copies src into dst converting each element with Go's
// conversion D(x), as deep_copy between views of different value types.
// The checks, errors and fences are those of DeepCopy. Views outside the
// host are staged through host buffers.
func DeepCopyConvert[D, S Number](dst View[D], src View[S]) error {
	d, s := dst.viewDesc(), src.viewDesc()
	mode, err := checkPair("DeepCopyConvert", sideOf(&d), sideOf(&s))
	if err != nil {
		return err
	}
	return fencedCopy("DeepCopyConvert", outsideGoHeap(&d) || outsideGoHeap(&s), func() error {
		switch mode {
		case copySkip:
			return nil
		case copyStaged:
			tmp, err := snapshot(&s)
			if err != nil {
				return err
			}
			return convertDesc(&d, &tmp)
		}
		// copySame: the same bytes as another type; each element is read
		// before it is written.
		return convertDesc(&d, &s)
	})
}

// convertDesc is DeepCopyConvert after the checks.
func convertDesc[D, S Number](d *desc[D], s *desc[S]) error {
	sh := *s
	if s.data == nil {
		sh = packedLike(s)
		if err := copyDesc(&sh, s); err != nil {
			return err
		}
	}
	dh := *d
	if d.data == nil {
		dh = packedLike(d)
	}
	convertHost(dh.data, dh.strides(), sh.data, sh.strides(), d.extents())
	if d.data == nil {
		return copyDesc(d, &dh)
	}
	return nil
}

// convertHost is hostCopy for different element types.
func convertHost[D, S Number](d []D, ds []int, s []S, ss []int, ext []int) {
	plan.Convert(parallelRange, d, ds, s, ss, ext)
}

// side is what the checks need to know of one view of a copy.
type side struct {
	rank     int
	ext, str []int
	flags    viewFlags
	rec      *Allocation
	mem      memRange
	label    string
	esz      int // element size in bytes
}

func sideOf[T any](d *desc[T]) side {
	return side{d.rank, d.extents(), d.strides(), d.flags, d.rec, memOf(d), d.label(), sizeOf[T]()}
}

// memRange is where a view's span lies: host addresses, or addresses in a
// space the host cannot access. lo is the view's origin.
type memRange struct {
	space  MemorySpace // nil for host memory
	lo, hi uintptr
}

func memOf[T any](d *desc[T]) memRange {
	if d.rec == nil {
		return memRange{}
	}
	size := uintptr(sizeOf[T]())
	span := uintptr(d.span())
	if d.data != nil {
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(d.data)))
		return memRange{lo: lo, hi: lo + span*size}
	}
	lo := d.rec.Addr() + uintptr(d.off)*size
	return memRange{space: d.rec.Space(), lo: lo, hi: lo + span*size}
}

// copyKind is what a checked copy has to do.
type copyKind uint8

const (
	// copyDirect: copy element by element, in any order.
	copyDirect copyKind = iota
	// copySkip: nothing to copy (an empty view).
	copySkip
	// copySame: dst and src are the same elements with the same mapping.
	copySame
	// copyStaged: the views' elements could not be proven disjoint in
	// bounded time: copy src to a temporary first.
	copyStaged
)

// checkCopy applies DeepCopy's checks and says what the copy has to do.
func checkCopy[T any](op string, d, s *desc[T]) (copyKind, error) {
	return checkPair(op, sideOf(d), sideOf(s))
}

// checkPair applies DeepCopy's checks, in Kokkos's order, to destination d
// and source s, and says what the copy has to do.
func checkPair(op string, d, s side) (copyKind, error) {
	fail := func(kind error, why string) (copyKind, error) {
		return copyDirect, errorf(kind, "kokkos: %s from view %q with extents %s to view %q with extents %s: %s",
			op, s.label, fmtInts(s.ext), d.label, fmtInts(d.ext), why)
	}
	if d.rank != s.rank {
		return fail(ErrShape, fmt.Sprintf("the ranks differ (%d and %d)", s.rank, d.rank))
	}
	if d.flags&flagReadOnly != 0 {
		return fail(ErrReadOnly, "the destination is read-only")
	}
	sameExt := slices.Equal(d.ext, s.ext)
	if d.mem.lo == d.mem.hi || s.mem.lo == s.mem.hi {
		if !sameExt {
			return fail(ErrShape, "the extents differ")
		}
		return copySkip, nil
	}
	if d.rec.Released() {
		return fail(ErrReleased, "the destination's allocation was released")
	}
	if s.rec.Released() {
		return fail(ErrReleased, "the source's allocation was released")
	}
	mode := copyDirect
	if d.mem.space == s.mem.space && d.mem.lo < s.mem.hi && s.mem.lo < d.mem.hi {
		if sameExt && sameMapping(d, s) {
			return copySame, nil
		}
		switch layout.Shared(elementsOf(d), elementsOf(s)) {
		case layout.Intersect:
			return fail(ErrOverlap, "the views overlap in memory: they share elements without being the same view; copy the source into a new view first")
		case layout.Unknown:
			mode = copyStaged
		}
	}
	if !sameExt {
		return fail(ErrShape, "the extents differ")
	}
	return mode, nil
}

// sameMapping reports whether d and s, of equal extents, are the same
// elements in the same order: the same origin, element size and strides
// (those of dimensions of extent 1 do not count).
func sameMapping(d, s side) bool {
	if d.mem.lo != s.mem.lo || d.esz != s.esz {
		return false
	}
	for r, e := range d.ext {
		if e > 1 && d.str[r] != s.str[r] {
			return false
		}
	}
	return true
}

// elementsOf returns the bytes of a side's elements, for layout.Shared.
func elementsOf(v side) layout.Elements {
	str := make([]int, len(v.str))
	for r, x := range v.str {
		str[r] = x * v.esz
	}
	return layout.Elements{Base: int(v.mem.lo), Size: v.esz, Ext: v.ext, Str: str}
}

// checkFill applies Fill's checks; skip reports a fill with nothing to do.
func checkFill[T any](op string, d *desc[T]) (bool, error) {
	if d.rec == nil || d.size() == 0 && d.rank > 0 {
		return true, nil
	}
	if d.flags&flagReadOnly != 0 {
		return false, errorf(ErrReadOnly, "kokkos: %s of view %q with extents %s: the view is read-only", op, d.label(), fmtInts(d.extents()))
	}
	if d.rec.Released() {
		return false, errorf(ErrReleased, "kokkos: %s of view %q with extents %s: its allocation was released", op, d.label(), fmtInts(d.extents()))
	}
	return false, nil
}
