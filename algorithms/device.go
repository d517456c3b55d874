package algorithms

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// The radix sort on a device space: the kernels of kernels.go launched on
// the space, over the view's own memory seen as unsigned integers of its
// elements' width (kokkos.ViewOnAllocation1 on its Allocation).

// deviceTeam and devicePer are the threads of a block and the keys of a
// thread's run: a block sorts deviceTeam*devicePer keys.
var deviceTeam, devicePer = 128, 8

// devScratch collects the temporaries of a device sort, released after
// the space's Fence.
type devScratch struct {
	exec  kokkos.ExecutionSpace
	fn    string
	space kokkos.MemorySpace
	frees []interface{ Release() error }
}

func (s *devScratch) release(err error) error {
	if ferr := s.exec.Fence(); ferr != nil && err == nil {
		err = fmt.Errorf("algorithms: %s: %w", s.fn, ferr)
	}
	for i := len(s.frees) - 1; i >= 0; i-- {
		if rerr := s.frees[i].Release(); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// newView returns a temporary view of n elements in the sort's space.
func newView[T any](s *devScratch, label string, n int) (kokkos.View1[T], error) {
	v, err := kokkos.NewView1[T]("algorithms::"+label, n, kokkos.InSpace(s.space), kokkos.WithoutInitializing)
	if err != nil {
		return v, err
	}
	s.frees = append(s.frees, &v)
	return v, nil
}

// contiguous returns v's elements [begin, end) as a contiguous view: v's
// own, or a temporary that DeepCopyOn fills now and the returned function
// copies back.
func contiguous[T any](s *devScratch, v kokkos.View1[T], begin, end int) (kokkos.View1[T], func() error, error) {
	sub := v.Subview1(kokkos.Pair(begin, end))
	if sub.Stride(0) == 1 {
		return sub, func() error { return nil }, nil
	}
	tmp, err := newView[T](s, "contiguous", end-begin)
	if err != nil {
		return tmp, nil, err
	}
	if err := kokkos.DeepCopyOn(s.exec, tmp, sub); err != nil {
		return tmp, nil, err
	}
	return tmp, func() error { return kokkos.DeepCopyOn(s.exec, sub, tmp) }, nil
}

// alias returns v (contiguous) as a view of U, a type of T's width, over
// the same memory.
func alias[U, T any](s *devScratch, v kokkos.View1[T]) (kokkos.View1[U], error) {
	sh := kokkos.ShapeOf(v)
	var host []U
	if sh.Space.HostAccessible() {
		host = reinterpret[U](kokkos.ReadOnlyData(v))[:v.Extent(0)]
	}
	u, err := kokkos.ViewOnAllocation1(sh.Allocation, sh.Offset, v.Extent(0), host)
	if err != nil {
		return u, err
	}
	s.frees = append(s.frees, &u)
	return u, nil
}

// checkDevice checks that n keys fit the device sort's 32-bit positions.
func checkDevice(fn, label string, n int) error {
	if n > math.MaxInt32 {
		return errorf(kokkos.ErrShape, "%s: view %q of %d elements: the device sort takes at most %d", fn, label, n, math.MaxInt32)
	}
	return nil
}

func deviceSort[T kokkos.Number](exec kokkos.ExecutionSpace, fn string, v kokkos.View1[T], begin, end int) (err error) {
	if err := checkDevice(fn, v.Label(), end-begin); err != nil {
		return err
	}
	if size, _ := kindOf[T](); size < 4 {
		return throughHost(exec, fn, func() error {
			sub := v.Subview1(kokkos.Pair(begin, end))
			m, err := kokkos.CreateMirrorViewAndCopy(sub)
			if err != nil {
				return err
			}
			ks, store := hostElements(&m, 0, end-begin)
			if err := radixSortNumbers[T, struct{}](hostOf(nil), ks, nil); err != nil {
				return err
			}
			store()
			return kokkos.DeepCopy(sub, m)
		})
	}
	s := &devScratch{exec: exec, fn: fn, space: v.Space()}
	defer func() { err = s.release(err) }()
	c, back, err := contiguous(s, v, begin, end)
	if err != nil {
		return err
	}
	if err := sortKeysDevice(s, c, nil); err != nil {
		return err
	}
	return back()
}

func deviceSortByKey[K kokkos.Number, V any](exec kokkos.ExecutionSpace, fn string, keys kokkos.View1[K], values kokkos.View1[V]) (err error) {
	n := keys.Extent(0)
	if err := checkDevice(fn, keys.Label(), n); err != nil {
		return err
	}
	if keys.Space() != values.Space() {
		return errorf(kokkos.ErrNoCopySpace, "%s: keys %q in %s, values %q in %s", fn, keys.Label(), keys.Space().Name(), values.Label(), values.Space().Name())
	}
	if kokkos.ShapeOf(keys).Allocation == kokkos.ShapeOf(values).Allocation {
		return errorf(kokkos.ErrOverlap, "%s: keys %q and values %q share memory", fn, keys.Label(), values.Label())
	}
	vsize := int(unsafe.Sizeof(*new(V)))
	if ksize, _ := kindOf[K](); ksize < 4 || (vsize != 4 && vsize != 8) {
		return throughHost(exec, fn, func() error {
			mk, err := kokkos.CreateMirrorViewAndCopy(keys)
			if err != nil {
				return err
			}
			mv, err := kokkos.CreateMirrorViewAndCopy(values)
			if err != nil {
				return err
			}
			ks, storeK := hostElements(&mk, 0, n)
			vs, storeV := hostElements(&mv, 0, n)
			if err := radixSortNumbers(hostOf(nil), ks, vs); err != nil {
				return err
			}
			storeK()
			storeV()
			if err := kokkos.DeepCopy(keys, mk); err != nil {
				return err
			}
			return kokkos.DeepCopy(values, mv)
		})
	}
	s := &devScratch{exec: exec, fn: fn, space: keys.Space()}
	defer func() { err = s.release(err) }()
	kc, backK, err := contiguous(s, keys, 0, n)
	if err != nil {
		return err
	}
	vc, backV, err := contiguous(s, values, 0, n)
	if err != nil {
		return err
	}
	perm, err := newView[uint32](s, "positions", n)
	if err != nil {
		return err
	}
	if err := kernel.For("algorithms.iota", kokkos.Range(0, n).On(exec), positions, perm); err != nil {
		return err
	}
	if err := sortKeysDevice(s, kc, &perm); err != nil {
		return err
	}
	var gerr error
	switch vsize {
	case 4:
		gerr = gather[uint32](s, perm, vc, gather32)
	default:
		gerr = gather[uint64](s, perm, vc, gather64)
	}
	if gerr != nil {
		return gerr
	}
	if err := backK(); err != nil {
		return err
	}
	return backV()
}

// gather permutes v (contiguous, elements of U's width) by perm through a
// temporary.
func gather[U, V any](s *devScratch, perm kokkos.View1[uint32], v kokkos.View1[V], fn any) error {
	u, err := alias[U](s, v)
	if err != nil {
		return err
	}
	tmp, err := newView[U](s, "gathered", v.Extent(0))
	if err != nil {
		return err
	}
	if err := kernel.For("algorithms.gather", kokkos.Range(0, v.Extent(0)).On(s.exec), fn, perm.ReadOnly(), u.ReadOnly(), tmp); err != nil {
		return err
	}
	return kokkos.DeepCopyOn(s.exec, u, tmp)
}

// sortKeysDevice sorts the contiguous view k on the device, and perm with
// it when not nil.
func sortKeysDevice[T kokkos.Number](s *devScratch, k kokkos.View1[T], perm *kokkos.View1[uint32]) error {
	size, kind := kindOf[T]()
	switch size {
	case 4:
		u, err := alias[uint32](s, k)
		if err != nil {
			return err
		}
		return flipSortFlip(s, u, perm, kind, flip32)
	}
	u, err := alias[uint64](s, k)
	if err != nil {
		return err
	}
	return flipSortFlip(s, u, perm, kind, flip64)
}

// flipSortFlip maps u's keys of kind kind to their ordering bits, sorts
// them and maps them back.
func flipSortFlip[U uint32 | uint64](s *devScratch, u kokkos.View1[U], perm *kokkos.View1[uint32], kind keyKind, flip any) error {
	all := kokkos.Range(0, u.Extent(0)).On(s.exec)
	in, out := 0, 0
	switch kind {
	case kindSigned:
		in, out = 1, 1
	case kindFloat:
		in, out = 2, 3
	}
	if in != 0 {
		if err := kernel.For("algorithms.flip", all, flip, u, in); err != nil {
			return err
		}
	}
	if err := radixDevice(s, u, perm, int(unsafe.Sizeof(U(0)))*8); err != nil {
		return err
	}
	if out != 0 {
		return kernel.For("algorithms.unflip", all, flip, u, out)
	}
	return nil
}

// errBits is returned for a digit count that leaves the keys in the
// temporary (an odd number of passes), which radixDevice never makes.
var errBits = errors.New("algorithms: odd number of radix passes")

// radixDevice sorts keys (and perm, when not nil) by their low bits bits,
// radixBits a pass; bits/radixBits must be even, so that the last pass
// leaves the keys in keys.
func radixDevice[U uint32 | uint64](s *devScratch, keys kokkos.View1[U], perm *kokkos.View1[uint32], bits int) error {
	if bits/radixBits%2 != 0 {
		return errBits
	}
	n := keys.Extent(0)
	ts, per := deviceTeam, devicePer
	blocks := (n + ts*per - 1) / (ts * per)
	buf, err := newView[U](s, "keys", n)
	if err != nil {
		return err
	}
	counts, err := newView[int32](s, "counts", radixBuckets*blocks)
	if err != nil {
		return err
	}
	offsets, err := newView[int32](s, "offsets", radixBuckets*blocks)
	if err != nil {
		return err
	}
	pos := 0
	var psrc, pdst kokkos.View1[uint32]
	if perm != nil {
		pos = 1
		psrc = *perm
		if pdst, err = newView[uint32](s, "positions", n); err != nil {
			return err
		}
	} else {
		// The scatter's position views, never read or written.
		if psrc, err = newView[uint32](s, "no positions", 1); err != nil {
			return err
		}
		if pdst, err = newView[uint32](s, "no positions", 1); err != nil {
			return err
		}
	}
	// One lane a thread: the kernels' per-thread code runs once per thread.
	teams := kokkos.Teams(blocks, ts).WithVectorLength(1).
		SetScratchSize(0, kokkos.ScratchSize[int32](radixBuckets*ts), 0).On(s.exec)
	scan := kokkos.Range(0, radixBuckets*blocks).On(s.exec)
	var count, scatter any = radixCount32, radixScatter32
	if unsafe.Sizeof(U(0)) == 8 {
		count, scatter = radixCount64, radixScatter64
	}
	src, dst := keys, buf
	for shift := 0; shift < bits; shift += radixBits {
		if err := kernel.For("algorithms.radix.count", teams, count, src.ReadOnly(), counts, shift, per); err != nil {
			return err
		}
		if _, err := kernel.Scan("algorithms.radix.scan", scan, kokkos.Sum[int32](), scanCounts, counts.ReadOnly(), offsets); err != nil {
			return err
		}
		if err := kernel.For("algorithms.radix.scatter", teams, scatter, src.ReadOnly(), dst, psrc.ReadOnly(), pdst, offsets.ReadOnly(), shift, per, pos); err != nil {
			return err
		}
		src, dst = dst, src
		psrc, pdst = pdst, psrc
	}
	return nil
}
