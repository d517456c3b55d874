package kokkos

import (
	"fmt"
	"runtime"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/plan"
)

// The copy planner. Every deep copy and fill, of every view kind and every
// pair of memory spaces, goes through copyDesc and fillDesc here:
//
//  1. plan.MakeNest drops dimensions of extent 1, orders the rest by the
//     destination's strides and merges dimensions that are contiguous on
//     both sides, so that most copies become one run or rows of runs;
//  2. on the host, hostCopy and hostFill run the kernels of internal/plan:
//     one contiguous run is one parallel byte copy; rows whose innermost
//     dimension is the fastest on both sides are copied row by row; when
//     the fastest dimensions differ (LayoutLeft ↔ LayoutRight, permuted
//     strides) the two dimensions are transposed in cache-sized tiles;
//  3. when one side is not host-accessible, the space's CopySpace hook
//     moves bytes: contiguous same-stride copies are one hook call; when
//     both sides are in StridedCopySpaces (device memory and the memory
//     the device reaches), layout changes and strided views are one
//     device operation (copyStrided, fillStrided); the rest is packed or
//     unpacked on the host through a staging buffer.
//
// All parallel host work goes through parallelRange.

// plan's nests have room for every rank.
var _ [plan.MaxRank - MaxRank]struct{}

// parallelRange runs body over [0, n) in chunks of grain indices (the last
// may be shorter) on the default execution space's pool, and returns when
// all are done. It is the one entry point of the copy planner's
// parallelism. Called from inside a parallel body, it runs on the calling
// goroutine.
func parallelRange(n, grain int, body func(lo, hi int)) {
	if n <= 0 {
		return
	}
	grain = max(grain, 1)
	if n <= grain {
		body(0, n)
		return
	}
	ParallelForChunks("kokkos.DeepCopy", Range(0, n).WithChunk(grain), body)
}

// hostCopy copies the elements of extents ext from s (strides ss) to d
// (strides ds); d and s start at the views' origins and are host memory.
func hostCopy[T any](d []T, ds []int, s []T, ss []int, ext []int) {
	plan.Copy(parallelRange, d, ds, s, ss, ext)
}

// hostFill stores x in the elements of extents ext and strides ds of d.
func hostFill[T any](d []T, ds []int, ext []int, x T) {
	plan.Fill(parallelRange, d, ds, ext, x)
}

// copyDesc copies src into dst; they have the same rank and extents and
// have passed checkCopy.
func copyDesc[T any](dst, src *desc[T]) error {
	if dst.data != nil && src.data != nil {
		hostCopy(dst.data, dst.strides(), src.data, src.strides(), dst.extents())
		return nil
	}
	cs, err := copySpaceOf(dst, src)
	if err != nil {
		return err
	}
	size := sizeOf[T]()
	nt, empty := plan.MakeNest(dst.extents(), dst.strides(), src.strides())
	if empty {
		return nil
	}
	if nt.N == 0 || nt.N == 1 && nt.DS[0] == 1 && nt.SS[0] == 1 {
		n := nt.Count(nt.N)
		var pin runtime.Pinner
		defer pin.Unpin()
		return wrapHookErr("DeepCopy", dst, src, cs.CopyBytes(endpoint(&pin, dst, 0, n), endpoint(&pin, src, 0, n), n*size))
	}
	// Between device-reachable spaces of one backend: one device
	// operation.
	if done, err := copyStrided(nil, dst, src); done || err != nil {
		return err
	}
	// Bring the source to the host.
	sh := *src
	if src.data == nil {
		sh, err = stageIn(cs, src)
		if err != nil {
			return wrapHookErr("DeepCopy", dst, src, err)
		}
	}
	if dst.data != nil {
		hostCopy(dst.data, dst.strides(), sh.data, sh.strides(), dst.extents())
		return nil
	}
	// Pack in the destination's order, then write its runs.
	buf := packedLike(dst)
	hostCopy(buf.data, buf.strides(), sh.data, sh.strides(), dst.extents())
	return wrapHookErr("DeepCopy", dst, src, writeRuns(cs, dst, buf.data))
}

// copySpaceOf returns the CopySpace that moves the bytes of a copy with at
// least one side outside the host's reach.
func copySpaceOf[T any](dst, src *desc[T]) (backend.CopySpace, error) {
	for _, d := range []*desc[T]{dst, src} {
		if d.data != nil {
			continue
		}
		if cs, ok := d.rec.Space().(backend.CopySpace); ok {
			return cs, nil
		}
		return nil, errorf(ErrNoCopySpace, "kokkos: DeepCopy from view %q to view %q: memory space %s cannot be copied: it does not implement CopySpace",
			src.label(), dst.label(), d.rec.Space().Name())
	}
	panic("kokkos: copySpaceOf with host views")
}

func wrapHookErr[T any](op string, dst, src *desc[T], err error) error {
	if err == nil {
		return nil
	}
	if src == nil {
		return fmt.Errorf("kokkos: %s of view %q with extents %s in %s: %w", op, dst.label(), fmtInts(dst.extents()), dst.rec.Space().Name(), err)
	}
	return fmt.Errorf("kokkos: %s from view %q with extents %s in %s to view %q in %s: %w",
		op, src.label(), fmtInts(src.extents()), src.rec.Space().Name(), dst.label(), dst.rec.Space().Name(), err)
}

// endpoint returns the Endpoint of the n elements from off elements past
// d's origin.
func endpoint[T any](pin *runtime.Pinner, d *desc[T], off, n int) backend.Endpoint {
	if d.data != nil {
		return hostEndpoint(pin, d.data[off:off+n])
	}
	return devEndpoint(d, off)
}

// packedLike returns a host desc with d's extents over a new buffer that
// holds d's elements packed in d's stride order.
func packedLike[T any](d *desc[T]) desc[T] {
	b := *d
	b.data = make([]T, d.size())
	b.rec, b.off, b.flags = nil, 0, 0
	b.str = packedStrides(d.extents(), d.strides())
	return b
}

// packedStrides returns the compact strides of extents ext whose dimensions
// keep the order of the strides str, the largest outermost.
func packedStrides(ext, str []int) [MaxRank]int {
	var o [MaxRank]int
	rank := len(ext)
	for r := range rank {
		o[r] = r
	}
	for i := 1; i < rank; i++ {
		for j := i; j > 0 && str[o[j]] > str[o[j-1]]; j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
	var ps [MaxRank]int
	s := 1
	for i := rank - 1; i >= 0; i-- {
		ps[o[i]] = s
		s *= max(ext[o[i]], 1)
	}
	return ps
}

// stageIn copies the elements of d, which the host cannot access, to a host
// buffer and returns a host desc of them: the whole span when it is not much
// larger than the view, otherwise run by run into a packed buffer.
func stageIn[T any](cs backend.CopySpace, d *desc[T]) (desc[T], error) {
	span, size := d.span(), d.size()
	var pin runtime.Pinner
	defer pin.Unpin()
	if span <= 2*size {
		h := *d
		h.data = make([]T, span)
		h.flags &^= flagNoHost
		return h, cs.CopyBytes(hostEndpoint(&pin, h.data), devEndpoint(d, 0), span*sizeOf[T]())
	}
	h := packedLike(d)
	return h, forRuns(d, func(off, i, n int) error {
		return cs.CopyBytes(hostEndpoint(&pin, h.data[i:i+n]), devEndpoint(d, off), n*sizeOf[T]())
	})
}

// writeRuns copies buf, d's elements packed in d's stride order, to d,
// which the host cannot access.
func writeRuns[T any](cs backend.CopySpace, d *desc[T], buf []T) error {
	var pin runtime.Pinner
	defer pin.Unpin()
	size := sizeOf[T]()
	nt, _ := plan.MakeNest(d.extents(), d.strides(), nil)
	if c2, ok := cs.(backend.Copy2DSpace); ok && nt.N == 2 && nt.DS[1] == 1 {
		L := nt.Ext[1]
		return c2.CopyBytes2D(devEndpoint(d, 0), nt.DS[0]*size, hostEndpoint(&pin, buf), L*size, L*size, nt.Ext[0])
	}
	return forRuns(d, func(off, i, n int) error {
		return cs.CopyBytes(devEndpoint(d, off), hostEndpoint(&pin, buf[i:i+n]), n*size)
	})
}

// forRuns calls f for each contiguous run of d's elements, in d's stride
// order: off is the run's offset from d's origin, i its index in the packed
// order and n its length.
func forRuns[T any](d *desc[T], f func(off, i, n int) error) error {
	nt, empty := plan.MakeNest(d.extents(), d.strides(), nil)
	if empty {
		return nil
	}
	if nt.N == 0 {
		return f(0, 0, 1)
	}
	limit, L := nt.N-1, nt.Ext[nt.N-1]
	if nt.DS[nt.N-1] != 1 {
		limit, L = nt.N, 1
	}
	od := plan.NewOdometer(&nt, limit, -1, 0)
	for q := range od.Count() {
		if err := f(od.Do, q*L, L); err != nil {
			return err
		}
		plan.Step[T](&od)
	}
	return nil
}

// fillDesc stores x in every element of d, which has passed checkFill.
func fillDesc[T any](d *desc[T], x T) error {
	if d.data != nil {
		hostFill(d.data, d.strides(), d.extents(), x)
		return nil
	}
	cs, ok := d.rec.Space().(backend.CopySpace)
	if !ok {
		return errorf(ErrNoCopySpace, "kokkos: Fill of view %q: memory space %s cannot be filled: it does not implement CopySpace", d.label(), d.rec.Space().Name())
	}
	if done, err := fillStrided(nil, d, x); done || err != nil {
		return err
	}
	pat := plan.BytesOf(&x)
	return wrapHookErr[T]("Fill", d, nil, forRuns(d, func(off, _, n int) error {
		return cs.FillBytes(devEndpoint(d, off).Addr, pat, n)
	}))
}

// stridedOf returns d as a backend.Strided: its origin's address in its
// space, element size, extents and strides.
func stridedOf[T any](d *desc[T]) backend.Strided {
	s := backend.Strided{Addr: d.rec.Addr() + uintptr(d.off*sizeOf[T]()), ElemSize: sizeOf[T](), Rank: d.rank}
	copy(s.Extents[:], d.extents())
	copy(s.Strides[:], d.strides())
	return s
}

// copyStrided hands a copy with a side outside the host's reach to the
// destination's space as one device operation on exec (nil: synchronous),
// when both spaces are StridedCopySpaces. It reports false when they are
// not, or when the space declines; the copy then takes the other paths.
func copyStrided[T any](exec backend.Exec, dst, src *desc[T]) (bool, error) {
	if dst.data != nil && src.data != nil {
		return false, nil
	}
	ds, ok := dst.rec.Space().(backend.StridedCopySpace)
	if !ok {
		return false, nil
	}
	if _, ok := src.rec.Space().(backend.StridedCopySpace); !ok {
		return false, nil
	}
	done, err := ds.CopyStrided(exec, stridedOf(dst), stridedOf(src))
	return done, wrapHookErr("DeepCopy", dst, src, err)
}

// fillStrided hands a fill of d, which the host cannot access, to its
// space as one device operation on exec (nil: synchronous), when the
// space is a StridedCopySpace. It reports false when it is not, or when
// the space declines.
func fillStrided[T any](exec backend.Exec, d *desc[T], x T) (bool, error) {
	if d.data != nil {
		return false, nil
	}
	fs, ok := d.rec.Space().(backend.StridedCopySpace)
	if !ok {
		return false, nil
	}
	done, err := fs.FillStrided(exec, stridedOf(d), plan.BytesOf(&x))
	return done, wrapHookErr[T]("Fill", d, nil, err)
}
