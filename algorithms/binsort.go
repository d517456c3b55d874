package algorithms

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// A BinOp puts keys into bins, Kokkos's BinSortOp: BinOp1D and BinOp3D,
// or a type of the caller's. Unlike Kokkos's, whose bin and operator()
// are given the keys view, a BinOp holds its keys and is asked about
// their indices.
type BinOp interface {
	// Len is the number of keys.
	Len() int
	// MaxBins is the number of bins (Kokkos's max_bins()).
	MaxBins() int
	// Bin is the bin of key i, in [0, MaxBins()).
	Bin(i int) int
	// Less reports whether key i goes before key j within their bin,
	// Kokkos's operator()(keys, i, j), when the bins are sorted.
	Less(i, j int) bool
}

// BinOp1D bins the keys of a rank-1 view into equal intervals between a
// minimum and a maximum, Kokkos::BinOp1D.
type BinOp1D[T kokkos.Number] struct {
	keys     kokkos.View1[T]
	maxBins  int
	mul, min float64
}

// NewBinOp1D returns the bins of keys over [min, max] in maxBins equal
// intervals (maxBins+1 bins, the last holding max, as Kokkos's): key x goes
// to bin int(maxBins/(max-min) * (x-min)), computed in float64. For integer
// keys whose range is at most maxBins, each value has a bin of its own.
func NewBinOp1D[T kokkos.Number](keys kokkos.View1[T], maxBins int, min, max T) *BinOp1D[T] {
	b := &BinOp1D[T]{keys: keys, maxBins: maxBins + 1, min: float64(min)}
	b.mul = float64(maxBins) / (float64(max) - float64(min))
	if _, kind := kindOf[T](); kind != kindFloat && float64(max)-float64(min) <= float64(maxBins) {
		b.mul = 1
	}
	return b
}

// Len returns the keys' extent.
func (b *BinOp1D[T]) Len() int { return b.keys.Extent(0) }

// Label returns the keys' label, for BinSort's panics.
func (b *BinOp1D[T]) Label() string { return b.keys.Label() }

// MaxBins returns the number of bins, maxBins+1.
func (b *BinOp1D[T]) MaxBins() int { return b.maxBins }

// Bin returns key i's bin.
func (b *BinOp1D[T]) Bin(i int) int { return int(b.mul * (float64(b.keys.At(i)) - b.min)) }

// Less reports whether key i is less than key j.
func (b *BinOp1D[T]) Less(i, j int) bool { return b.keys.At(i) < b.keys.At(j) }

// BinOp3D bins the rows (x, y, z) of an n×3 view into a box of
// maxBins[0]×maxBins[1]×maxBins[2] cells, Kokkos::BinOp3D; bins are
// numbered with z fastest.
type BinOp3D[T kokkos.Number] struct {
	keys     kokkos.View2[T]
	maxBins  [3]int
	mul, min [3]float64
}

// NewBinOp3D returns the cells of the rows of keys (an n×3 view) in the
// box [min, max] cut into maxBins cells per dimension: coordinate d of a
// row goes to cell int(maxBins[d]/(max[d]-min[d]) * (x-min[d])). It panics,
// naming keys' label and extents, unless keys has 3 columns.
func NewBinOp3D[T kokkos.Number](keys kokkos.View2[T], maxBins [3]int, min, max [3]T) *BinOp3D[T] {
	if keys.Extent(1) != 3 {
		panic(fmt.Sprintf("algorithms.NewBinOp3D: keys %q of extents [%d %d], want n×3", keys.Label(), keys.Extent(0), keys.Extent(1)))
	}
	b := &BinOp3D[T]{keys: keys, maxBins: maxBins}
	for d := range 3 {
		b.mul[d] = float64(maxBins[d]) / (float64(max[d]) - float64(min[d]))
		b.min[d] = float64(min[d])
	}
	return b
}

// Len returns the number of rows.
func (b *BinOp3D[T]) Len() int { return b.keys.Extent(0) }

// Label returns the keys' label, for BinSort's panics.
func (b *BinOp3D[T]) Label() string { return b.keys.Label() }

// MaxBins returns the number of cells.
func (b *BinOp3D[T]) MaxBins() int { return b.maxBins[0] * b.maxBins[1] * b.maxBins[2] }

// Bin returns row i's cell, as Kokkos computes it, in float64.
func (b *BinOp3D[T]) Bin(i int) int {
	c := func(d int) int { return int(b.mul[d] * (float64(b.keys.At(i, d)) - b.min[d])) }
	return (c(0)*b.maxBins[1]+c(1))*b.maxBins[2] + c(2)
}

// Less reports whether row i goes before row j within a cell: as
// Kokkos's BinOp3D, whose comparison is "greater", rows in descending
// lexicographic order.
func (b *BinOp3D[T]) Less(i, j int) bool {
	for d := range 3 {
		x, y := b.keys.At(i, d), b.keys.At(j, d)
		if x != y {
			return x > y
		}
	}
	return false
}

// BinSort sorts keys into bins, Kokkos::BinSort: CreatePermuteVector
// counts the keys of [begin, end) per bin and computes the permutation
// that orders them by bin, which Apply then applies to views of values.
//
// Unlike Kokkos's, whose binning is by atomics, the permutation is
// stable: the keys of a bin keep their order, unless SortWithinBins asks
// for the bins to be sorted by the op's Less (stably too). BinSort runs on
// the host pool; its views are in host memory.
type BinSort struct {
	op             BinOp
	begin, end     int
	sortWithinBins bool
	perm           kokkos.View1[int]
	offsets        kokkos.View1[int]
	counts         kokkos.View1[int]
}

// NewBinSort returns a BinSort of all of op's keys, Kokkos's
// BinSort(keys, bin_op, sort_within_bins).
func NewBinSort(op BinOp, sortWithinBins bool) (*BinSort, error) {
	return NewBinSortRange(op, 0, op.Len(), sortWithinBins)
}

// NewBinSortRange returns a BinSort of op's keys [begin, end), Kokkos's
// BinSort(keys, range_begin, range_end, bin_op, sort_within_bins). It
// panics unless 0 <= begin <= end <= op.Len(), and returns an error
// wrapping kokkos.ErrShape when op has no bins.
func NewBinSortRange(op BinOp, begin, end int, sortWithinBins bool) (*BinSort, error) {
	if begin < 0 || begin > end || end > op.Len() {
		panic(fmt.Sprintf("algorithms.NewBinSortRange: range [%d, %d) outside %d keys", begin, end, op.Len()))
	}
	if op.MaxBins() <= 0 {
		return nil, errorf(kokkos.ErrShape, "NewBinSortRange: %d bins (the op must have at least one)", op.MaxBins())
	}
	b := &BinSort{op: op, begin: begin, end: end, sortWithinBins: sortWithinBins}
	var err error
	if b.perm, err = kokkos.NewView1[int]("Kokkos::SortImpl::BinSortFunctor::sort_order", end-begin); err != nil {
		return nil, err
	}
	if b.offsets, err = kokkos.NewView1[int]("Kokkos::SortImpl::BinSortFunctor::bin_offsets", op.MaxBins()); err != nil {
		return nil, err
	}
	if b.counts, err = kokkos.NewView1[int]("Kokkos::SortImpl::BinSortFunctor::bin_count", op.MaxBins()); err != nil {
		return nil, err
	}
	return b, nil
}

// CreatePermuteVector bins the keys and computes the permutation, the
// bins' offsets and counts, on the host pool; call it again after the
// keys change. It panics, naming the key's index, the keys (label and extent
// where the op has a Label method), its bin and the number of bins, for a
// key whose bin is outside [0, MaxBins()).
func (b *BinSort) CreatePermuteVector() error {
	return b.CreatePermuteVectorOn(nil)
}

// CreatePermuteVectorOn is CreatePermuteVector on a host space (nil is the
// host pool); a device space is refused with an error wrapping
// kokkos.ErrHostOnly: a BinOp is Go code.
func (b *BinSort) CreatePermuteVectorOn(exec kokkos.ExecutionSpace) error {
	h := hostOf(exec)
	if h == nil {
		return errorf(kokkos.ErrHostOnly, "BinSort.CreatePermuteVectorOn: %s", exec.Name())
	}
	if err := hostFence("BinSort.CreatePermuteVectorOn", h); err != nil {
		return err
	}
	n, nb := b.end-b.begin, b.op.MaxBins()
	perm, offs, counts := b.perm.Data(), b.offsets.Data(), b.counts.Data()
	p := max(1, min(h.workers(), n/minMergeChunk))
	if p > 1 && p*nb > 8*n {
		p = 1
	}
	bound := func(c int) int { return b.begin + c*n/p }
	bins := make([]int32, n)
	local := make([][]int, p)
	if err := h.each("algorithms.BinSort.count", p, func(c int) {
		cnt := make([]int, nb)
		for i := bound(c); i < bound(c+1); i++ {
			k := b.op.Bin(i)
			if k < 0 || k >= nb {
				panic(fmt.Sprintf("algorithms.BinSort: key %d%s has bin %d, outside [0, %d)", i, keysOf(b.op), k, nb))
			}
			bins[i-b.begin] = int32(k)
			cnt[k]++
		}
		local[c] = cnt
	}); err != nil {
		return err
	}
	at := 0
	for k := range nb {
		offs[k] = at
		t := 0
		for c := range p {
			x := local[c][k]
			local[c][k] = at + t
			t += x
		}
		counts[k] = t
		at += t
	}
	if err := h.each("algorithms.BinSort.binning", p, func(c int) {
		o := local[c]
		for i := bound(c); i < bound(c+1); i++ {
			k := bins[i-b.begin]
			perm[o[k]] = i
			o[k]++
		}
	}); err != nil {
		return err
	}
	if !b.sortWithinBins {
		return nil
	}
	less := func(i, j int) bool { return b.op.Less(i, j) }
	q := max(1, min(h.workers(), nb))
	return h.each("algorithms.BinSort.sortBins", q, func(c int) {
		var buf []int
		for k := c * nb / q; k < (c+1)*nb/q; k++ {
			if counts[k] > 1 {
				s := perm[offs[k] : offs[k]+counts[k]]
				if cap(buf) < len(s) {
					buf = make([]int, len(s))
				}
				mergeSortSerial(s, buf[:len(s)], less)
			}
		}
	})
}

// keysOf names op's keys for a panic: " of keys \"label\" of extent n"
// where op has a Label method.
func keysOf(op BinOp) string {
	if l, ok := op.(interface{ Label() string }); ok {
		return fmt.Sprintf(" of keys %q of extent %d", l.Label(), op.Len())
	}
	return fmt.Sprintf(" of %d keys", op.Len())
}

// PermuteVector returns the permutation, Kokkos's get_permute_vector():
// element i is the index of the key that goes to position begin+i.
func (b *BinSort) PermuteVector() kokkos.View1[int] { return b.perm.ReadOnly() }

// BinOffsets returns the position of each bin's first key in the
// permutation, Kokkos's get_bin_offsets().
func (b *BinSort) BinOffsets() kokkos.View1[int] { return b.offsets.ReadOnly() }

// BinCount returns the number of keys of each bin, Kokkos's
// get_bin_count().
func (b *BinSort) BinCount() kokkos.View1[int] { return b.counts.ReadOnly() }

// Apply permutes the first dimension of values (a View1 or View2, or a
// pointer to one, in host memory) by b's permutation, Kokkos's
// bin_sort.sort(values): its first end-begin rows.
func Apply[T any](b *BinSort, values kokkos.View[T]) error {
	return ApplyRange(b, values, 0, b.end-b.begin)
}

// ApplyRange permutes rows [begin, end) of values, Kokkos's
// bin_sort.sort(values, begin, end): row begin+i of the result is row
// begin+(p(i)-kb) of values, p the permutation and kb the keys' first
// index. (Kokkos writes the result to rows kb+i, the keys' range, which is
// the same when the two ranges are; here it stays in values' range.) The
// range's length must be the permutation's: an error wrapping
// kokkos.ErrShape otherwise, and for a view of another rank.
func ApplyRange[T any](b *BinSort, values kokkos.View[T], begin, end int) error {
	s := kokkos.ShapeOf(values)
	if end-begin != b.end-b.begin {
		return errorf(kokkos.ErrShape, "BinSort.ApplyRange: values %q range [%d, %d) of %d rows, the permutation has %d", s.Label, begin, end, end-begin, b.end-b.begin)
	}
	if s.Allocation != nil && s.Allocation.Released() {
		return errorf(kokkos.ErrReleased, "BinSort.ApplyRange: view %q", s.Label)
	}
	if s.ReadOnly {
		return errorf(kokkos.ErrReadOnly, "BinSort.ApplyRange: view %q", s.Label)
	}
	if s.Rank < 1 || s.Rank > 2 {
		return errorf(kokkos.ErrShape, "BinSort.ApplyRange: view %q of rank %d (1 or 2)", s.Label, s.Rank)
	}
	if begin < 0 || end > s.Extents[0] {
		panic(fmt.Sprintf("algorithms.BinSort.ApplyRange: range [%d, %d) outside view %q of extents %v", begin, end, s.Label, s.Extents))
	}
	if end == begin {
		return nil
	}
	if !s.Space.HostAccessible() {
		return errorf(kokkos.ErrNotHostAccessible, "BinSort.ApplyRange: view %q", s.Label)
	}
	d := kokkos.DynRankFrom(values)
	perm := b.perm.Data()
	shift := begin - b.begin
	h := hostOf(nil)
	n := end - begin
	p := max(1, min(h.workers(), n/minMergeChunk))
	if s.Rank == 1 {
		tmp := make([]T, n)
		if err := h.each("algorithms.BinSort.permute", p, func(c int) {
			for i := c * n / p; i < (c+1)*n/p; i++ {
				tmp[i] = d.At(perm[i] + shift)
			}
		}); err != nil {
			return err
		}
		return h.each("algorithms.BinSort.copy", p, func(c int) {
			for i := c * n / p; i < (c+1)*n/p; i++ {
				d.Set(tmp[i], begin+i)
			}
		})
	}
	m := s.Extents[1]
	tmp := make([]T, n*m)
	if err := h.each("algorithms.BinSort.permute", p, func(c int) {
		for i := c * n / p; i < (c+1)*n/p; i++ {
			for j := range m {
				tmp[i*m+j] = d.At(perm[i]+shift, j)
			}
		}
	}); err != nil {
		return err
	}
	return h.each("algorithms.BinSort.copy", p, func(c int) {
		for i := c * n / p; i < (c+1)*n/p; i++ {
			for j := range m {
				d.Set(tmp[i*m+j], begin+i, j)
			}
		}
	})
}
