package kokkos

import (
	"fmt"
	"runtime"
	"slices"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/plan"
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
// the zero view) it does nothing, after checking that the extents agree; a
// released allocation on either side is an error; when dst and src are the
// same view (same memory and mapping) it does nothing; overlapping memory is
// an error; different extents are an error. Error messages name both views'
// labels and extents.
//
// Contiguous views with the same strides are copied as one byte copy, in
// parallel when large; layout changes are tiled transpositions; other
// strided copies run along the contiguous dimension. Memory the host cannot
// access is copied through its space's CopySpace methods; between spaces
// that implement backend.StridedCopySpace (CUDA device, unified and pinned
// memory) layout changes and strided views are one device kernel.
func DeepCopy[T any](dst, src View[T]) error {
	d, s := dst.viewDesc(), src.viewDesc()
	skip, err := checkCopy("DeepCopy", &d, &s)
	if err != nil || skip {
		return err
	}
	return fenced("DeepCopy", &d, &s, func() error { return copyDesc(&d, &s) })
}

// DeepCopyOn is DeepCopy ordered on an execution-space instance exec, as
// Kokkos's deep_copy(exec, dst, src): the copy runs after the work already
// submitted to exec and before the work submitted after it, and may still
// be running when DeepCopyOn returns; fence exec before using dst. The
// arguments are checked at once and their errors returned; errors of the
// copy itself are reported by exec's fence.
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
	skip, err := checkCopy("DeepCopyOn", &d, &s)
	if err != nil || skip {
		return err
	}
	if exec == nil {
		return fenced("DeepCopyOn", &d, &s, func() error { return copyDesc(&d, &s) })
	}
	if d.data == nil || s.data == nil {
		if queued, err := copyAsync(exec, &d, &s); queued || err != nil {
			return err
		}
		if queued, err := copyStrided(exec, &d, &s); queued || err != nil {
			return err
		}
	}
	return submitOn(exec, "kokkos.DeepCopy", func() error { return copyDesc(&d, &s) })
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
// of another rank, empty or released is an error. (The other direction is
// Fill.) It waits for all outstanding work first, as DeepCopy does.
func DeepCopyToScalar[T any](dst *T, src View[T]) error {
	s := src.viewDesc()
	if s.rank != 0 {
		return errorf(ErrShape, "kokkos: DeepCopyToScalar from view %q with extents %s: the view must have rank 0, not %d", s.label(), fmtInts(s.extents()), s.rank)
	}
	if s.rec == nil {
		return errorf(ErrShape, "kokkos: DeepCopyToScalar from an unallocated rank-0 view")
	}
	d := desc[T]{data: unsafe.Slice(dst, 1), rec: unmanagedAllocation("scalar", HostSpace, sizeOf[T]())}
	skip, err := checkCopy("DeepCopyToScalar", &d, &s)
	if err != nil || skip {
		return err
	}
	return fenced("DeepCopyToScalar", &d, &s, func() error { return copyDesc(&d, &s) })
}

// DeepCopyConvert copies src into dst converting each element with Go's
// conversion D(x), as deep_copy between views of different value types.
// The checks, errors and fences are those of DeepCopy. Views outside the
// host are staged through host buffers.
func DeepCopyConvert[D, S Number](dst View[D], src View[S]) error {
	d, s := dst.viewDesc(), src.viewDesc()
	if err := checkConvert(&d, &s); err != nil {
		return err
	}
	if d.rec == nil || s.rec == nil || d.size() == 0 {
		return nil
	}
	return fencedCopy("DeepCopyConvert", outsideGoHeap(&d) || outsideGoHeap(&s), func() error { return convertDesc(&d, &s) })
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

// checkConvert applies DeepCopy's checks to views of different types.
func checkConvert[D, S any](d *desc[D], s *desc[S]) error {
	_, err := checkPair("DeepCopyConvert", sideOf(d), sideOf(s))
	return err
}

// side is what the checks need to know of one view of a copy.
type side struct {
	rank     int
	ext, str []int
	flags    viewFlags
	rec      *Allocation
	mem      memRange
	label    string
}

func sideOf[T any](d *desc[T]) side {
	return side{d.rank, d.extents(), d.strides(), d.flags, d.rec, memOf(d), d.label()}
}

// memRange is where a view's span lies: host addresses, or addresses in a
// space the host cannot access.
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

// checkCopy applies DeepCopy's checks; skip reports a copy with nothing to
// do.
func checkCopy[T any](op string, d, s *desc[T]) (skip bool, err error) {
	return checkPair(op, sideOf(d), sideOf(s))
}

// checkPair applies DeepCopy's checks, in Kokkos's order, to destination d
// and source s.
func checkPair(op string, d, s side) (skip bool, err error) {
	fail := func(kind error, why string) (bool, error) {
		return false, errorf(kind, "kokkos: %s from view %q with extents %s to view %q with extents %s: %s",
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
		return true, nil
	}
	if d.rec.Released() {
		return fail(ErrReleased, "the destination's allocation was released")
	}
	if s.rec.Released() {
		return fail(ErrReleased, "the source's allocation was released")
	}
	if d.mem.space == s.mem.space && d.mem.lo < s.mem.hi && s.mem.lo < d.mem.hi {
		if d.mem == s.mem && sameExt && slices.Equal(d.str, s.str) {
			return true, nil
		}
		return fail(ErrOverlap, "the views overlap in memory")
	}
	if !sameExt {
		return fail(ErrShape, "the extents differ")
	}
	return false, nil
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
