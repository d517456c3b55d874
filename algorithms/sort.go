package algorithms

import (
	"fmt"
	"unsafe"

	"github.com/gokkos/kokkos"
)

// Sort sorts the elements of v in ascending order, Kokkos::sort(view):
// on the host pool for a view of host-accessible memory, stably (a
// parallel radix sort). A view of device memory must be given its
// device's execution space: use SortOn. Floating-point keys sort in IEEE
// 754 total order (see the package's documentation).
//
// It returns an error wrapping kokkos.ErrReadOnly for a read-only view,
// kokkos.ErrReleased for a released one, kokkos.ErrElementType for one with
// the Atomic trait and kokkos.ErrNotHostAccessible for a view of memory the
// host cannot access.
func Sort[T kokkos.Number](v kokkos.View1[T]) error {
	return sortRange(nil, "Sort", v, 0, v.Extent(0), false)
}

// SortOn sorts v on exec, Kokkos::sort(exec, view): on a host space
// (nil is the host pool) as Sort, on a device space (a *cuda.Stream) by
// radix sort kernels on the device, queued on exec as its kernels are, and
// waited for before SortOn returns. Keys of 1 or 2 bytes are sorted there
// through a host mirror (the CUDA backend binds views of 4- and 8-byte
// elements only). The view must be of memory exec can access; the errors
// are Sort's, and the kernels' launch errors.
func SortOn[T kokkos.Number](exec kokkos.ExecutionSpace, v kokkos.View1[T]) error {
	return sortRange(exec, "SortOn", v, 0, v.Extent(0), true)
}

// SortRange sorts v's elements [begin, end), Kokkos::sort(view, begin,
// end), leaving the others in place. It panics, naming v's label, the
// range and the extent, unless 0 <= begin <= end <= v.Extent(0).
func SortRange[T kokkos.Number](v kokkos.View1[T], begin, end int) error {
	return sortRange(nil, "SortRange", v, begin, end, false)
}

// SortRangeOn is SortRange on exec, Kokkos::sort(exec, view, begin, end).
func SortRangeOn[T kokkos.Number](exec kokkos.ExecutionSpace, v kokkos.View1[T], begin, end int) error {
	return sortRange(exec, "SortRangeOn", v, begin, end, true)
}

// SortFunc sorts v by less, Kokkos::sort(view, comparator): a stable
// parallel merge sort on the host pool. less must be a strict weak
// order, as std::sort's comparator.
func SortFunc[T any](v kokkos.View1[T], less func(a, b T) bool) error {
	return sortFunc(nil, "SortFunc", v, less, false)
}

// SortFuncOn is SortFunc on exec, Kokkos::sort(exec, view, comparator).
// less is Go code and runs on the host: on a device space, v is copied
// to a host mirror after exec's queued work, sorted there and copied
// back, and SortFuncOn returns when that is done.
func SortFuncOn[T any](exec kokkos.ExecutionSpace, v kokkos.View1[T], less func(a, b T) bool) error {
	return sortFunc(exec, "SortFuncOn", v, less, true)
}

// SortByKey sorts keys in ascending order and moves the elements of
// values with their keys, Kokkos::Experimental::sort_by_key(keys,
// values): stably here, equal keys keeping their values' order (Kokkos
// does not promise it). The two views must have the same extent (an error
// wrapping kokkos.ErrShape otherwise); the other errors are Sort's.
func SortByKey[K kokkos.Number, V any](keys kokkos.View1[K], values kokkos.View1[V]) error {
	return sortByKey(nil, "SortByKey", keys, values, false)
}

// SortByKeyOn is SortByKey on exec, sort_by_key(exec, keys, values): on a
// device space, a radix sort of the keys and of their positions on the
// device, then a gather of the values, for keys and values of 4 or 8
// bytes; other widths are sorted through host mirrors (the CUDA backend
// binds views of 4- and 8-byte elements only).
func SortByKeyOn[K kokkos.Number, V any](exec kokkos.ExecutionSpace, keys kokkos.View1[K], values kokkos.View1[V]) error {
	return sortByKey(exec, "SortByKeyOn", keys, values, true)
}

// SortByKeyFunc sorts keys by less and moves values with them, stably,
// sort_by_key(keys, values, comparator).
func SortByKeyFunc[K, V any](keys kokkos.View1[K], values kokkos.View1[V], less func(a, b K) bool) error {
	return sortByKeyFunc(nil, "SortByKeyFunc", keys, values, less, false)
}

// SortByKeyFuncOn is SortByKeyFunc on exec; on a device space the views
// are sorted through host mirrors, as SortFuncOn's.
func SortByKeyFuncOn[K, V any](exec kokkos.ExecutionSpace, keys kokkos.View1[K], values kokkos.View1[V], less func(a, b K) bool) error {
	return sortByKeyFunc(exec, "SortByKeyFuncOn", keys, values, less, true)
}

// errorf returns an error of the package wrapping the sentinel kind.
func errorf(kind error, format string, a ...any) error {
	return fmt.Errorf("algorithms: "+format+": %w", append(a, kind)...)
}

// checkView returns an error unless v can be sorted in place: a view
// that is released, read-only or atomic cannot.
func checkView[T any](fn string, v *kokkos.View1[T]) error {
	s := kokkos.ShapeOf(v)
	switch {
	case s.Allocation != nil && s.Allocation.Released():
		return errorf(kokkos.ErrReleased, "%s: view %q", fn, s.Label)
	case s.ReadOnly:
		return errorf(kokkos.ErrReadOnly, "%s: view %q", fn, s.Label)
	case s.Traits&kokkos.Atomic != 0:
		return errorf(kokkos.ErrElementType, "%s: view %q has the Atomic trait (sort a view of the same memory without it)", fn, s.Label)
	}
	return nil
}

// checkRange panics unless [begin, end) lies within v's extent.
func checkRange[T any](fn string, v *kokkos.View1[T], begin, end int) {
	if begin < 0 || begin > end || end > v.Extent(0) {
		panic(fmt.Sprintf("algorithms.%s: range [%d, %d) outside view %q of extent %d", fn, begin, end, v.Label(), v.Extent(0)))
	}
}

// hostOf returns the host pool of exec: the default one for nil, nil for
// a device space.
func hostOf(exec kokkos.ExecutionSpace) *hostPool {
	if exec == nil {
		return &hostPool{exec: kokkos.DefaultExecutionSpace()}
	}
	if h, ok := exec.(kokkos.HostExecutionSpace); ok {
		return &hostPool{exec: h}
	}
	return nil
}

// hostElements returns v's elements [begin, end) as a slice to sort in
// place and a function that stores the slice back into v: v's own
// memory where it is contiguous (and the function does nothing), a copy
// otherwise.
func hostElements[T any](v *kokkos.View1[T], begin, end int) ([]T, func()) {
	if end-begin <= 1 || v.Stride(0) == 1 {
		return kokkos.ReadOnlyData(v)[begin:end:end], func() {}
	}
	s := make([]T, end-begin)
	for i := range s {
		s[i] = v.At(begin + i)
	}
	return s, func() {
		for i, x := range s {
			v.Set(begin+i, x)
		}
	}
}

// notHost is the error for a view of memory a host space cannot reach.
func notHost(fn, label string, onSpace bool) error {
	if onSpace {
		return errorf(kokkos.ErrNotHostAccessible, "%s: view %q on a host execution space", fn, label)
	}
	return errorf(kokkos.ErrNotHostAccessible, "%s: view %q (give its device's execution space to the On form)", fn, label)
}

// hostFence waits for the work queued on a host instance before a sort,
// as Kokkos's sort fences its space.
func hostFence(fn string, h *hostPool) error {
	if a, ok := h.exec.(asyncSpace); ok && a.Async() {
		if err := h.exec.Fence(); err != nil {
			return fmt.Errorf("algorithms: %s: work queued before the sort: %w", fn, err)
		}
	}
	return nil
}

func sortRange[T kokkos.Number](exec kokkos.ExecutionSpace, fn string, v kokkos.View1[T], begin, end int, onSpace bool) error {
	checkRange(fn, &v, begin, end)
	if err := checkView(fn, &v); err != nil {
		return err
	}
	if end-begin < 2 {
		return nil
	}
	h := hostOf(exec)
	if h == nil {
		return deviceSort(exec, fn, v, begin, end)
	}
	if !v.Space().HostAccessible() {
		return notHost(fn, v.Label(), onSpace)
	}
	if err := hostFence(fn, h); err != nil {
		return err
	}
	s, store := hostElements(&v, begin, end)
	if err := radixSortNumbers[T, struct{}](h, s, nil); err != nil {
		return err
	}
	store()
	return nil
}

func sortFunc[T any](exec kokkos.ExecutionSpace, fn string, v kokkos.View1[T], less func(a, b T) bool, onSpace bool) error {
	if err := checkView(fn, &v); err != nil {
		return err
	}
	n := v.Extent(0)
	if n < 2 {
		return nil
	}
	h := hostOf(exec)
	if h == nil || !v.Space().HostAccessible() {
		if h != nil {
			return notHost(fn, v.Label(), onSpace)
		}
		return throughHost(exec, fn, func() error {
			m, err := kokkos.CreateMirrorViewAndCopy(v)
			if err != nil {
				return err
			}
			if err := mergeSort(hostOf(nil), kokkos.ReadOnlyData(&m), less); err != nil {
				return err
			}
			return kokkos.DeepCopy(v, m)
		})
	}
	if err := hostFence(fn, h); err != nil {
		return err
	}
	s, store := hostElements(&v, 0, n)
	if err := mergeSort(h, s, less); err != nil {
		return err
	}
	store()
	return nil
}

// throughHost runs f, which sorts host mirrors of device views, after
// exec's queued work.
func throughHost(exec kokkos.ExecutionSpace, fn string, f func() error) error {
	if err := exec.Fence(); err != nil {
		return fmt.Errorf("algorithms: %s: work queued before the sort: %w", fn, err)
	}
	if err := f(); err != nil {
		return fmt.Errorf("algorithms: %s: through the host: %w", fn, err)
	}
	return nil
}

// checkPair checks keys and values for a sort by key.
func checkPair[K, V any](fn string, keys *kokkos.View1[K], values *kokkos.View1[V]) error {
	if err := checkView(fn, keys); err != nil {
		return err
	}
	if err := checkView(fn, values); err != nil {
		return err
	}
	if keys.Extent(0) != values.Extent(0) {
		return errorf(kokkos.ErrShape, "%s: keys %q of extent %d, values %q of extent %d", fn, keys.Label(), keys.Extent(0), values.Label(), values.Extent(0))
	}
	return nil
}

func sortByKey[K kokkos.Number, V any](exec kokkos.ExecutionSpace, fn string, keys kokkos.View1[K], values kokkos.View1[V], onSpace bool) error {
	if err := checkPair(fn, &keys, &values); err != nil {
		return err
	}
	n := keys.Extent(0)
	if n < 2 {
		return nil
	}
	h := hostOf(exec)
	if h == nil {
		return deviceSortByKey(exec, fn, keys, values)
	}
	for _, s := range []kokkos.MemorySpace{keys.Space(), values.Space()} {
		if !s.HostAccessible() {
			return notHost(fn, keys.Label(), onSpace)
		}
	}
	if err := hostFence(fn, h); err != nil {
		return err
	}
	ks, storeK := hostElements(&keys, 0, n)
	vs, storeV := hostElements(&values, 0, n)
	if overlap(ks, vs) {
		return errorf(kokkos.ErrOverlap, "%s: keys %q and values %q share memory", fn, keys.Label(), values.Label())
	}
	if err := radixSortNumbers(h, ks, vs); err != nil {
		return err
	}
	storeK()
	storeV()
	return nil
}

// overlap reports whether the memory of a and b intersects.
func overlap[K, V any](a []K, b []V) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	a0 := uintptr(unsafe.Pointer(unsafe.SliceData(a)))
	b0 := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	a1 := a0 + uintptr(len(a))*unsafe.Sizeof(a[0])
	b1 := b0 + uintptr(len(b))*unsafe.Sizeof(b[0])
	return a0 < b1 && b0 < a1
}

// pair is a key and its value, sorted together by a comparator.
type pair[K, V any] struct {
	k K
	v V
}

func sortByKeyFunc[K, V any](exec kokkos.ExecutionSpace, fn string, keys kokkos.View1[K], values kokkos.View1[V], less func(a, b K) bool, onSpace bool) error {
	if err := checkPair(fn, &keys, &values); err != nil {
		return err
	}
	n := keys.Extent(0)
	if n < 2 {
		return nil
	}
	sortPairs := func(h *hostPool, ks []K, vs []V) error {
		if overlap(ks, vs) {
			return errorf(kokkos.ErrOverlap, "%s: keys %q and values %q share memory", fn, keys.Label(), values.Label())
		}
		ps := make([]pair[K, V], n)
		for i := range ps {
			ps[i] = pair[K, V]{ks[i], vs[i]}
		}
		if err := mergeSort(h, ps, func(a, b pair[K, V]) bool { return less(a.k, b.k) }); err != nil {
			return err
		}
		for i, p := range ps {
			ks[i], vs[i] = p.k, p.v
		}
		return nil
	}
	h := hostOf(exec)
	if h == nil {
		return throughHost(exec, fn, func() error {
			mk, err := kokkos.CreateMirrorViewAndCopy(keys)
			if err != nil {
				return err
			}
			mv, err := kokkos.CreateMirrorViewAndCopy(values)
			if err != nil {
				return err
			}
			if err := sortPairs(hostOf(nil), kokkos.ReadOnlyData(&mk), kokkos.ReadOnlyData(&mv)); err != nil {
				return err
			}
			if err := kokkos.DeepCopy(keys, mk); err != nil {
				return err
			}
			return kokkos.DeepCopy(values, mv)
		})
	}
	for _, s := range []kokkos.MemorySpace{keys.Space(), values.Space()} {
		if !s.HostAccessible() {
			return notHost(fn, keys.Label(), onSpace)
		}
	}
	if err := hostFence(fn, h); err != nil {
		return err
	}
	ks, storeK := hostElements(&keys, 0, n)
	vs, storeV := hostElements(&values, 0, n)
	if err := sortPairs(h, ks, vs); err != nil {
		return err
	}
	storeK()
	storeV()
	return nil
}
