package kokkos

import (
	"fmt"
	"runtime"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// The copy planner. Every deep copy and fill, of every view kind and every
// pair of memory spaces, goes through copyDesc and fillDesc here:
//
//  1. makeNest drops dimensions of extent 1, orders the rest by the
//     destination's strides and merges dimensions that are contiguous on
//     both sides, so that most copies become one run or rows of runs;
//  2. on the host, one contiguous run is one parallel byte copy; rows whose
//     innermost dimension is the fastest on both sides are copied row by
//     row; when the fastest dimensions differ (LayoutLeft ↔ LayoutRight,
//     permuted strides) the two dimensions are transposed in cache-sized
//     tiles;
//  3. when one side is not host-accessible, the space's CopySpace hook
//     moves bytes: contiguous same-stride copies are one hook call, the
//     rest is packed or unpacked on the host through a staging buffer.
//
// All parallel host work goes through parallelRange.

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

// Tuning of the host copies, in bytes.
const (
	// copyChunkBytes is the grain of a parallel contiguous copy: large
	// enough that memmove keeps its non-temporal path (1 MiB and more).
	copyChunkBytes = 4 << 20
	// rowChunkBytes is the minimum work of one chunk of rows or tiles.
	rowChunkBytes = 256 << 10
	// Transposition tiles: tileA elements along the destination's fastest
	// dimension, tileB along the source's. 16×16 float64 tiles (2 KiB per
	// side) in blocks of 512×512 (blockBytes per row) ran at about twice
	// the speed of 8×8 and 32×32 tiles here, and of 16×16 tiles without
	// blocks: a transposition's rows lie one page apart, so TLB reach
	// matters as much as L1; see BenchmarkTransposeDeepCopy.
	tileA      = 16
	tileB      = 16
	blockBytes = 4 << 10
)

// nest is a loop nest over the elements of a copy: dims of extent ext, with
// strides ds in the destination and ss in the source, ordered from the
// outermost to the innermost (the destination's fastest) dimension.
type nest struct {
	n   int
	ext [MaxRank]int
	ds  [MaxRank]int
	ss  [MaxRank]int
}

// makeNest returns the merged loop nest of a copy of extents ext with
// destination strides ds and source strides ss (nil for a fill), and
// whether there is nothing to copy.
func makeNest(ext, ds, ss []int) (nt nest, empty bool) {
	var o [MaxRank]int
	k := 0
	for r, e := range ext {
		if e == 0 {
			return nt, true
		}
		if e > 1 {
			o[k] = r
			k++
		}
	}
	sst := func(r int) int {
		if ss == nil {
			return 0
		}
		return ss[r]
	}
	// Insertion sort of at most 8 dimensions: destination stride
	// descending, then source stride descending.
	for i := 1; i < k; i++ {
		for j := i; j > 0; j-- {
			a, b := o[j-1], o[j]
			if ds[a] > ds[b] || ds[a] == ds[b] && sst(a) >= sst(b) {
				break
			}
			o[j-1], o[j] = b, a
		}
	}
	// Merge from the innermost dimension outwards.
	for i := k - 1; i >= 0; i-- {
		r := o[i]
		if nt.n > 0 {
			e, d, s := nt.ext[nt.n-1], nt.ds[nt.n-1], nt.ss[nt.n-1]
			if ds[r] == d*e && sst(r) == s*e {
				nt.ext[nt.n-1] *= ext[r]
				continue
			}
		}
		nt.ext[nt.n], nt.ds[nt.n], nt.ss[nt.n] = ext[r], ds[r], sst(r)
		nt.n++
	}
	// nt was built innermost first: reverse it.
	for i, j := 0, nt.n-1; i < j; i, j = i+1, j-1 {
		nt.ext[i], nt.ext[j] = nt.ext[j], nt.ext[i]
		nt.ds[i], nt.ds[j] = nt.ds[j], nt.ds[i]
		nt.ss[i], nt.ss[j] = nt.ss[j], nt.ss[i]
	}
	return nt, false
}

// count returns the number of elements of the dims [0, m).
func (nt *nest) count(m int) int {
	c := 1
	for _, e := range nt.ext[:m] {
		c *= e
	}
	return c
}

// odometer walks the outer dims of a nest, skipping up to two of them (the
// ones a kernel handles itself), keeping the offsets in both sides.
type odometer struct {
	m      int
	idx    [MaxRank]int
	ext    [MaxRank]int
	ds, ss [MaxRank]int
	do, so int
}

// newOdometer returns an odometer over the dims of nt in [0, limit) except
// skip, positioned at flat index q.
func newOdometer(nt *nest, limit, skip int, q int) odometer {
	var od odometer
	for r := 0; r < limit; r++ {
		if r == skip {
			continue
		}
		od.ext[od.m], od.ds[od.m], od.ss[od.m] = nt.ext[r], nt.ds[r], nt.ss[r]
		od.m++
	}
	for r := od.m - 1; r >= 0; r-- {
		i := q % od.ext[r]
		q /= od.ext[r]
		od.idx[r] = i
		od.do += i * od.ds[r]
		od.so += i * od.ss[r]
	}
	return od
}

func (od *odometer) count() int {
	c := 1
	for _, e := range od.ext[:od.m] {
		c *= e
	}
	return c
}

func (od *odometer) next() {
	for r := od.m - 1; r >= 0; r-- {
		od.idx[r]++
		od.do += od.ds[r]
		od.so += od.ss[r]
		if od.idx[r] < od.ext[r] {
			return
		}
		od.do -= od.ds[r] * od.ext[r]
		od.so -= od.ss[r] * od.ext[r]
		od.idx[r] = 0
	}
}

// hostCopy copies the elements of extents ext from s (strides ss) to d
// (strides ds); d and s start at the views' origins and are host memory.
func hostCopy[T any](d []T, ds []int, s []T, ss []int, ext []int) {
	nt, empty := makeNest(ext, ds, ss)
	if empty {
		return
	}
	size := sizeOf[T]()
	switch {
	case nt.n == 0:
		d[0] = s[0]
	case nt.n == 1 && nt.ds[0] == 1 && nt.ss[0] == 1:
		n := nt.ext[0]
		d, s = d[:n], s[:n]
		parallelRange(n, copyChunkBytes/max(size, 1), func(lo, hi int) {
			copy(d[lo:hi], s[lo:hi])
		})
	default:
		fast := nt.n - 1 // the destination's fastest dimension
		sfast := fast    // the source's
		for r := 0; r < nt.n; r++ {
			if nt.ss[r] < nt.ss[sfast] {
				sfast = r
			}
		}
		if sfast == fast || nt.ext[fast] >= 4*tileA && nt.ext[sfast] < tileB {
			copyRows(d, s, &nt, size)
		} else {
			copyTiles(d, s, &nt, sfast, size)
		}
	}
}

// copyRows copies the innermost dimension of nt as rows, the outer ones
// through an odometer.
func copyRows[T any](d, s []T, nt *nest, size int) {
	in := nt.n - 1
	L, dst, sst := nt.ext[in], nt.ds[in], nt.ss[in]
	rows := nt.count(in)
	parallelRange(rows, max(1, rowChunkBytes/(L*size)), func(lo, hi int) {
		od := newOdometer(nt, in, -1, lo)
		for range hi - lo {
			dr := d[od.do : od.do+(L-1)*dst+1]
			sr := s[od.so : od.so+(L-1)*sst+1]
			switch {
			case dst == 1 && sst == 1:
				copy(dr, sr)
			case sst == 1:
				for j, x := range sr {
					dr[j*dst] = x
				}
			case dst == 1:
				for j := range dr {
					dr[j] = sr[j*sst]
				}
			default:
				for i, j := 0, 0; i < len(dr); i, j = i+dst, j+sst {
					dr[i] = sr[j]
				}
			}
			od.next()
		}
	})
}

// copyTiles transposes dimension a = nt.n-1 (the destination's fastest)
// with dimension b (the source's fastest), the other dimensions through an
// odometer. The a×b plane is cut into blocks of blockBytes per row on both
// sides (one 4 KiB page for each row of the block, so that a block's pages
// stay in the TLB), each block into tiles of tileA×tileB; a unit of
// parallel work is one block.
func copyTiles[T any](d, s []T, nt *nest, b, size int) {
	a := nt.n - 1
	na, nb := nt.ext[a], nt.ext[b]
	dsa, dsb, ssa, ssb := nt.ds[a], nt.ds[b], nt.ss[a], nt.ss[b]
	blk := max(tileA, tileB, blockBytes/size)
	ba, bb := (na-1)/blk+1, (nb-1)/blk+1
	outer := nt.count(a) / nb
	parallelRange(outer*ba*bb, 1, func(lo, hi int) {
		for q := lo; q < hi; q++ {
			od := newOdometer(nt, a, b, q/(ba*bb))
			qa, qb := q%(ba*bb)/bb, q%bb
			aEnd, bEnd := min((qa+1)*blk, na), min((qb+1)*blk, nb)
			for a0 := qa * blk; a0 < aEnd; a0 += tileA {
				a1 := min(a0+tileA, aEnd)
				for b0 := qb * blk; b0 < bEnd; b0 += tileB {
					b1 := min(b0+tileB, bEnd)
					do := od.do + a0*dsa + b0*dsb
					so := od.so + a0*ssa + b0*ssb
					if dsa == 1 && ssb == 1 {
						tileUnit(d, s, do, so, a1-a0, b1-b0, dsb, ssa)
					} else {
						tileAny(d, s, do, so, a1-a0, b1-b0, dsa, dsb, ssa, ssb)
					}
				}
			}
		}
	})
}

// tileUnit copies an na×nb tile whose destination rows (along a) and source
// rows (along b) are contiguous: d[do + i + j*dsb] = s[so + i*ssa + j].
// The destination is written row by row; the source is read through
// unsafe pointers after one bounds check of the tile's last element.
func tileUnit[T any](d, s []T, do, so, na, nb, dsb, ssa int) {
	last := so + (na-1)*ssa + nb - 1
	_ = s[so]
	_ = s[last]
	base := unsafe.Pointer(unsafe.SliceData(s))
	sz := unsafe.Sizeof(*new(T))
	for j := 0; j < nb; j++ {
		dr := d[do+j*dsb : do+j*dsb+na]
		p := uintptr(so+j) * sz
		step := uintptr(ssa) * sz
		for i := range dr {
			dr[i] = *(*T)(unsafe.Add(base, p))
			p += step
		}
	}
}

// tileAny copies an na×nb tile with any strides.
func tileAny[T any](d, s []T, do, so, na, nb, dsa, dsb, ssa, ssb int) {
	for j := 0; j < nb; j++ {
		dj, sj := do+j*dsb, so+j*ssb
		for i := 0; i < na; i++ {
			d[dj+i*dsa] = s[sj+i*ssa]
		}
	}
}

// hostFill stores x in the elements of extents ext and strides ds of d.
func hostFill[T any](d []T, ds []int, ext []int, x T) {
	nt, empty := makeNest(ext, ds, nil)
	if empty {
		return
	}
	size := sizeOf[T]()
	if nt.n == 0 {
		d[0] = x
		return
	}
	zero := isZero(&x)
	in := nt.n - 1
	L, dst := nt.ext[in], nt.ds[in]
	rows := nt.count(in)
	grain := max(1, rowChunkBytes/(L*size))
	if rows == 1 {
		// One run: split it.
		grain = max(1, copyChunkBytes/size/max(dst, 1))
		parallelRange(L, grain, func(lo, hi int) {
			fillRun(d[lo*dst:(hi-1)*dst+1], dst, x, zero)
		})
		return
	}
	parallelRange(rows, grain, func(lo, hi int) {
		od := newOdometer(&nt, in, -1, lo)
		for range hi - lo {
			fillRun(d[od.do:od.do+(L-1)*dst+1], dst, x, zero)
			od.next()
		}
	})
}

// fillRun stores x at r[0], r[st], r[2*st], ...; r ends at its last
// element.
func fillRun[T any](r []T, st int, x T, zero bool) {
	switch {
	case st == 1 && zero:
		clear(r)
	case st == 1:
		for i := range r {
			r[i] = x
		}
	default:
		for i := 0; i < len(r); i += st {
			r[i] = x
		}
	}
}

// isZero reports whether all bytes of *x are zero.
func isZero[T any](x *T) bool {
	for _, c := range bytesOf(x) {
		if c != 0 {
			return false
		}
	}
	return true
}

func bytesOf[T any](x *T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(x)), unsafe.Sizeof(*x))
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
	nt, empty := makeNest(dst.extents(), dst.strides(), src.strides())
	if empty {
		return nil
	}
	if nt.n == 0 || nt.n == 1 && nt.ds[0] == 1 && nt.ss[0] == 1 {
		n := nt.count(nt.n)
		var pin runtime.Pinner
		defer pin.Unpin()
		return wrapHookErr("DeepCopy", dst, src, cs.CopyBytes(endpoint(&pin, dst, 0, n), endpoint(&pin, src, 0, n), n*size))
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
	nt, _ := makeNest(d.extents(), d.strides(), nil)
	if c2, ok := cs.(backend.Copy2DSpace); ok && nt.n == 2 && nt.ds[1] == 1 {
		L := nt.ext[1]
		return c2.CopyBytes2D(devEndpoint(d, 0), nt.ds[0]*size, hostEndpoint(&pin, buf), L*size, L*size, nt.ext[0])
	}
	return forRuns(d, func(off, i, n int) error {
		return cs.CopyBytes(devEndpoint(d, off), hostEndpoint(&pin, buf[i:i+n]), n*size)
	})
}

// forRuns calls f for each contiguous run of d's elements, in d's stride
// order: off is the run's offset from d's origin, i its index in the packed
// order and n its length.
func forRuns[T any](d *desc[T], f func(off, i, n int) error) error {
	nt, empty := makeNest(d.extents(), d.strides(), nil)
	if empty {
		return nil
	}
	if nt.n == 0 {
		return f(0, 0, 1)
	}
	limit, L := nt.n-1, nt.ext[nt.n-1]
	if nt.ds[nt.n-1] != 1 {
		limit, L = nt.n, 1
	}
	od := newOdometer(&nt, limit, -1, 0)
	for q := range od.count() {
		if err := f(od.do, q*L, L); err != nil {
			return err
		}
		od.next()
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
	pat := bytesOf(&x)
	return wrapHookErr[T]("Fill", d, nil, forRuns(d, func(off, _, n int) error {
		return cs.FillBytes(devEndpoint(d, off).Addr, pat, n)
	}))
}
