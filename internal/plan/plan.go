// Package plan holds the host kernels of the kokkos package's copies and
// fills: the merged loop nest of a copy (MakeNest), the odometer that walks
// its outer dimensions, and the row, tile and fill kernels over slices of
// any element type, strides and extents. It knows nothing of views, memory
// spaces or execution spaces: parallel work goes through the Parallel
// function its caller passes.
//
// Copy and Fill:
//
//  1. MakeNest drops dimensions of extent 1, orders the rest by the
//     destination's strides and merges dimensions that are contiguous on
//     both sides, so that most copies become one run or rows of runs;
//  2. one contiguous run is one parallel byte copy; rows whose innermost
//     dimension is the fastest on both sides are copied row by row; when
//     the fastest dimensions differ (LayoutLeft ↔ LayoutRight, permuted
//     strides) the two dimensions are transposed in cache-sized tiles.
package plan

import "unsafe"

// MaxRank is the highest rank of a nest (kokkos.MaxRank).
const MaxRank = 8

// Parallel runs body over [0, n) in chunks of grain indices (the last may
// be shorter) and returns when all are done. The kokkos package passes its
// parallelRange, which runs them on the default execution space.
type Parallel func(n, grain int, body func(lo, hi int))

// Tuning of the host copies, in bytes.
const (
	// CopyChunkBytes is the grain of a parallel contiguous copy: large
	// enough that memmove keeps its non-temporal path (1 MiB and more).
	CopyChunkBytes = 4 << 20
	// RowChunkBytes is the minimum work of one chunk of rows or tiles.
	RowChunkBytes = 256 << 10
	// FillChunkBytes is the largest grain of a parallel contiguous fill.
	FillChunkBytes = 8 << 20
	// fillBlockBytes is the block a long fill stores and then copies:
	// above memmove's non-temporal threshold (1 MiB), small enough to be
	// read back from cache.
	fillBlockBytes = 1280 << 10
	// StreamFillBytes is the size from which a fill streams its
	// contiguous runs (as Go's clear, from 32 MiB: a smaller fill may
	// still be read from the caches); streamRunBytes the shortest run
	// that streams.
	StreamFillBytes = 32 << 20
	streamRunBytes  = 256
	// fillSeedBytes is what a fill stores with a loop before it doubles
	// by copies.
	fillSeedBytes = 256
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

// A Nest is a loop nest over the elements of a copy: N dims of extent Ext,
// with strides DS in the destination and SS in the source, ordered from
// the outermost to the innermost (the destination's fastest) dimension.
type Nest struct {
	N   int
	Ext [MaxRank]int
	DS  [MaxRank]int
	SS  [MaxRank]int
}

// MakeNest returns the merged loop nest of a copy of extents ext with
// destination strides ds and source strides ss (nil for a fill), and
// whether there is nothing to copy.
func MakeNest(ext, ds, ss []int) (nt Nest, empty bool) {
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
		if nt.N > 0 {
			e, d, s := nt.Ext[nt.N-1], nt.DS[nt.N-1], nt.SS[nt.N-1]
			if ds[r] == d*e && sst(r) == s*e {
				nt.Ext[nt.N-1] *= ext[r]
				continue
			}
		}
		nt.Ext[nt.N], nt.DS[nt.N], nt.SS[nt.N] = ext[r], ds[r], sst(r)
		nt.N++
	}
	// nt was built innermost first: reverse it.
	for i, j := 0, nt.N-1; i < j; i, j = i+1, j-1 {
		nt.Ext[i], nt.Ext[j] = nt.Ext[j], nt.Ext[i]
		nt.DS[i], nt.DS[j] = nt.DS[j], nt.DS[i]
		nt.SS[i], nt.SS[j] = nt.SS[j], nt.SS[i]
	}
	return nt, false
}

// Count returns the number of elements of the dims [0, m).
func (nt *Nest) Count(m int) int {
	c := 1
	for _, e := range nt.Ext[:m] {
		c *= e
	}
	return c
}

// An Odometer walks the outer dims of a nest, skipping up to two of them
// (the ones a kernel handles itself), keeping the offsets in both sides:
// Do in the destination, So in the source.
type Odometer struct {
	m      int
	idx    [MaxRank]int
	ext    [MaxRank]int
	ds, ss [MaxRank]int
	Do, So int
}

// NewOdometer returns an odometer over the dims of nt in [0, limit) except
// skip, positioned at flat index q.
func NewOdometer(nt *Nest, limit, skip int, q int) Odometer {
	var od Odometer
	for r := 0; r < limit; r++ {
		if r == skip {
			continue
		}
		od.ext[od.m], od.ds[od.m], od.ss[od.m] = nt.Ext[r], nt.DS[r], nt.SS[r]
		od.m++
	}
	for r := od.m - 1; r >= 0; r-- {
		i := q % od.ext[r]
		q /= od.ext[r]
		od.idx[r] = i
		od.Do += i * od.ds[r]
		od.So += i * od.ss[r]
	}
	return od
}

// Count returns the number of positions of the odometer.
func (od *Odometer) Count() int {
	c := 1
	for _, e := range od.ext[:od.m] {
		c *= e
	}
	return c
}

// Step moves od to its next position. It is generic, T being the element
// type of the kernel that calls it, only so that it inlines into the
// kernels: Go inlines a plain function of this package into a generic
// kernel instantiated in another package only when that package imports
// this one, and the users of kokkos, where the kernels are instantiated,
// cannot import an internal package; generic functions travel with the
// kernel's instantiation.
func Step[T any](od *Odometer) {
	for r := od.m - 1; r >= 0; r-- {
		od.idx[r]++
		od.Do += od.ds[r]
		od.So += od.ss[r]
		if od.idx[r] < od.ext[r] {
			return
		}
		od.Do -= od.ds[r] * od.ext[r]
		od.So -= od.ss[r] * od.ext[r]
		od.idx[r] = 0
	}
}

// Copy copies the elements of extents ext from s (strides ss) to d
// (strides ds); d and s start at the views' origins and are host memory.
// Its parallel work runs through par.
func Copy[T any](par Parallel, d []T, ds []int, s []T, ss []int, ext []int) {
	nt, empty := MakeNest(ext, ds, ss)
	if empty {
		return
	}
	size := sizeOf[T]()
	switch {
	case nt.N == 0:
		d[0] = s[0]
	case nt.N == 1 && nt.DS[0] == 1 && nt.SS[0] == 1:
		n := nt.Ext[0]
		d, s = d[:n], s[:n]
		par(n, CopyChunkBytes/max(size, 1), func(lo, hi int) {
			copy(d[lo:hi], s[lo:hi])
		})
	default:
		fast := nt.N - 1 // the destination's fastest dimension
		sfast := fast    // the source's
		for r := 0; r < nt.N; r++ {
			if nt.SS[r] < nt.SS[sfast] {
				sfast = r
			}
		}
		if sfast == fast || nt.Ext[fast] >= 4*tileA && nt.Ext[sfast] < tileB {
			copyRows(par, d, s, &nt, size)
		} else {
			copyTiles(par, d, s, &nt, sfast, size)
		}
	}
}

// copyRows copies the innermost dimension of nt as rows, the outer ones
// through an odometer. A row that costs more than RowChunkBytes (by
// rowElemCost) is cut into pieces, so that a few long strided rows (the
// column of a matrix) still spread over the workers; a unit of parallel
// work is one piece.
func copyRows[T any](par Parallel, d, s []T, nt *Nest, size int) {
	in := nt.N - 1
	L, dst, sst := nt.Ext[in], nt.DS[in], nt.SS[in]
	rows := nt.Count(in)
	cost := rowElemCost(max(dst, sst), size)
	per := max(1, L*cost/RowChunkBytes) // pieces per row
	P := (L + per - 1) / per            // elements per piece
	per = (L + P - 1) / P
	par(rows*per, max(1, RowChunkBytes/(P*cost)), func(lo, hi int) {
		od := NewOdometer(nt, in, -1, lo/per)
		piece := lo % per
		for range hi - lo {
			j0 := piece * P
			n := min(P, L-j0)
			dr := d[od.Do+j0*dst : od.Do+j0*dst+(n-1)*dst+1]
			sr := s[od.So+j0*sst : od.So+j0*sst+(n-1)*sst+1]
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
			if piece++; piece == per {
				piece = 0
				Step[T](&od)
			}
		}
	})
}

// rowElemCost is what copying one element of a row costs, in bytes of
// contiguous copy, where the larger of its two strides is stride elements
// of size bytes: its own bytes where the row is contiguous or nearly so, a
// cache line where each element has a line of its own, and more where each
// has a page of its own (a TLB miss).
func rowElemCost(stride, size int) int {
	b := stride * size
	switch {
	case stride <= 1 || b <= 64:
		return b
	case b < 4096:
		return max(size, 64)
	default:
		return max(size, 256)
	}
}

// copyTiles transposes dimension a = nt.N-1 (the destination's fastest)
// with dimension b (the source's fastest), the other dimensions through an
// odometer. The a×b plane is cut into blocks of blockBytes per row on both
// sides (one 4 KiB page for each row of the block, so that a block's pages
// stay in the TLB), each block into tiles of tileA×tileB; a unit of
// parallel work is one block.
func copyTiles[T any](par Parallel, d, s []T, nt *Nest, b, size int) {
	a := nt.N - 1
	na, nb := nt.Ext[a], nt.Ext[b]
	dsa, dsb, ssa, ssb := nt.DS[a], nt.DS[b], nt.SS[a], nt.SS[b]
	blk := max(tileA, tileB, blockBytes/size)
	ba, bb := (na-1)/blk+1, (nb-1)/blk+1
	outer := nt.Count(a) / nb
	par(outer*ba*bb, 1, func(lo, hi int) {
		for q := lo; q < hi; q++ {
			od := NewOdometer(nt, a, b, q/(ba*bb))
			qa, qb := q%(ba*bb)/bb, q%bb
			aEnd, bEnd := min((qa+1)*blk, na), min((qb+1)*blk, nb)
			for a0 := qa * blk; a0 < aEnd; a0 += tileA {
				a1 := min(a0+tileA, aEnd)
				for b0 := qb * blk; b0 < bEnd; b0 += tileB {
					b1 := min(b0+tileB, bEnd)
					do := od.Do + a0*dsa + b0*dsb
					so := od.So + a0*ssa + b0*ssb
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

// Fill stores x in the elements of extents ext and strides ds of d. Its
// parallel work runs through par. A fill of StreamFillBytes and more
// writes its contiguous runs with non-temporal stores where the platform
// has them (amd64, elements of 1, 2, 4, 8 or 16 bytes): the filled memory
// is not read first and does not evict the caches, which a fill too large
// for them would only flush.
func Fill[T any](par Parallel, d []T, ds []int, ext []int, x T) {
	nt, empty := MakeNest(ext, ds, nil)
	if empty {
		return
	}
	size := sizeOf[T]()
	if nt.N == 0 {
		d[0] = x
		return
	}
	in := nt.N - 1
	L, dst := nt.Ext[in], nt.DS[in]
	rows := nt.Count(in)
	f := filler[T]{x: x, zero: isZero(&x), stream: rows*L*size >= StreamFillBytes && dst == 1}
	if rows == 1 {
		// One run: split it into pieces of at most FillChunkBytes, and
		// into at least fillPieces of them, so that every worker of a
		// large pool gets some (64 MiB in 8 MiB pieces kept 8 of 16
		// cores busy).
		grain := min(FillChunkBytes, max(fillMinPieceBytes, L*size/fillPieces))
		par(L, max(1, grain/size/max(dst, 1)), func(lo, hi int) {
			f.run(d[lo*dst:(hi-1)*dst+1], dst)
			if f.stream {
				StoreFence()
			}
		})
		return
	}
	par(rows, max(1, RowChunkBytes/(L*size)), func(lo, hi int) {
		od := NewOdometer(&nt, in, -1, lo)
		for range hi - lo {
			f.run(d[od.Do:od.Do+(L-1)*dst+1], dst)
			Step[T](&od)
		}
		if f.stream {
			StoreFence()
		}
	})
}

// A filler stores x in runs: zero when x's bytes are all zero, stream
// when the runs take non-temporal stores.
type filler[T any] struct {
	x            T
	zero, stream bool
}

// run stores x at r[0], r[st], r[2*st], ...; r ends at its last element.
// A contiguous run streams when f.stream and its platform allow it;
// otherwise it stores its first elements with a loop and doubles them with
// copies up to fillBlockBytes, then copies that block over the rest:
// copies of a megabyte and more take memmove's non-temporal stores, and
// memmove stores wider than a loop of small elements.
func (f *filler[T]) run(r []T, st int) {
	x := f.x
	if st != 1 {
		for i := 0; i < len(r); i += st {
			r[i] = x
		}
		return
	}
	size := sizeOf[T]()
	if f.stream && len(r)*size >= streamRunBytes && fillStream(r, x) {
		return
	}
	if f.zero && len(r)*size < 2*fillBlockBytes || size == 0 {
		clear(r)
		return
	}
	k := len(r)
	if len(r)*size >= 2*fillBlockBytes {
		k = fillBlockBytes / size
	}
	head := r[:k]
	if f.zero {
		clear(head)
	} else {
		// A loop over fillSeedBytes, then doubling copies.
		m := min(k, max(1, fillSeedBytes/size))
		seed := head[:m]
		for i := range seed {
			seed[i] = x
		}
		for m < k {
			m += copy(head[m:], head[:m])
		}
	}
	for i := k; i < len(r); i += k {
		copy(r[i:], head)
	}
}

// A contiguous fill is cut into at least fillPieces pieces, each of at
// least fillMinPieceBytes (a multiple of the page size).
const (
	fillPieces        = 64
	fillMinPieceBytes = 256 << 10
)

// Number is the set of Go integer and floating-point types, as
// kokkos.Number.
type Number interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr |
		~float32 | ~float64
}

// Convert is Copy for different element types, converting each element
// with Go's conversion D(x): rows along the destination's fastest
// dimension, without tiles.
func Convert[D, S Number](par Parallel, d []D, ds []int, s []S, ss []int, ext []int) {
	nt, empty := MakeNest(ext, ds, ss)
	if empty {
		return
	}
	if nt.N == 0 {
		d[0] = D(s[0])
		return
	}
	in := nt.N - 1
	L, dst, sst := nt.Ext[in], nt.DS[in], nt.SS[in]
	par(nt.Count(in), max(1, RowChunkBytes/(L*8)), func(lo, hi int) {
		od := NewOdometer(&nt, in, -1, lo)
		for range hi - lo {
			dr := d[od.Do : od.Do+(L-1)*dst+1]
			sr := s[od.So : od.So+(L-1)*sst+1]
			if dst == 1 && sst == 1 {
				sr = sr[:len(dr)]
				for j, x := range sr {
					dr[j] = D(x)
				}
			} else {
				for i, j := 0, 0; i < len(dr); i, j = i+dst, j+sst {
					dr[i] = D(sr[j])
				}
			}
			Step[D](&od)
		}
	})
}

// isZero reports whether all bytes of *x are zero.
func isZero[T any](x *T) bool {
	for _, c := range BytesOf(x) {
		if c != 0 {
			return false
		}
	}
	return true
}

// BytesOf returns the bytes of *x.
func BytesOf[T any](x *T) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(x)), unsafe.Sizeof(*x))
}

func sizeOf[T any]() int { var z T; return int(unsafe.Sizeof(z)) }
