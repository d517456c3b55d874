// Package layout holds the layout arithmetic of package kokkos as pure
// functions over ints: the layout mapping (strides and span of a view of
// given extents), the checks of explicit strides, and Kokkos's rule for the
// layout of a subview. Both the package and its code generator
// (internal/gen) use it, so each rule is written once.
//
// The package knows nothing of views. Its errors are *Error values whose
// Kind the kokkos package maps to its sentinels ErrShape and ErrLayout.
package layout

import (
	"fmt"
	"math/bits"
	"slices"
)

// MaxRank is the largest rank of a view (kokkos.MaxRank).
const MaxRank = 8

// A Layout is kokkos.Layout's value: Right, Left or Stride.
type Layout uint8

// The layouts, with the values of kokkos.LayoutRight, LayoutLeft and
// LayoutStride.
const (
	Right Layout = iota
	Left
	Stride
)

// Kind is the kind of an Error: which of kokkos's sentinels it maps to.
type Kind uint8

const (
	// Shape: extents or a rank that do not fit (kokkos.ErrShape).
	Shape Kind = iota + 1
	// Invalid: strides or a layout that break the layout's rules
	// (kokkos.ErrLayout).
	Invalid
)

// An Error is a failed layout computation: its message and its kind.
type Error struct {
	Kind Kind
	Msg  string
}

func (e *Error) Error() string { return e.Msg }

func errorf(k Kind, format string, a ...any) error {
	return &Error{Kind: k, Msg: fmt.Sprintf(format, a...)}
}

// MulBytes returns n elements of size bytes in bytes, or a Shape error when
// that exceeds maxSpan (2⁶² on 64-bit platforms).
func MulBytes(n, size int) (int, error) {
	hi, lo := bits.Mul64(uint64(n), uint64(size))
	if hi != 0 || lo > maxSpan {
		return 0, errorf(Shape, "%d elements of %d bytes overflow", n, size)
	}
	return int(lo), nil
}

// Product returns the product of extents, checking signs and overflow.
func Product(ext []int) (int, error) {
	n := 1
	for r, e := range ext {
		if e < 0 {
			return 0, errorf(Shape, "extent %d of dimension %d is negative", e, r)
		}
	}
	for _, e := range ext {
		hi, lo := bits.Mul64(uint64(n), uint64(e))
		if hi != 0 || lo > maxSpan {
			return 0, errorf(Shape, "extents %s overflow", FormatInts(ext))
		}
		n = int(lo)
	}
	return n, nil
}

// MapStrides is the one layout mapping: it fills str with the strides of a
// view of extents ext in layout l and returns the span, the number of
// elements between the first and one past the last addressed element.
//
// For Stride, given holds the strides, which must be non-negative and give
// every index tuple its own offset (CheckStrides). For Right and Left,
// given is either empty, and the strides are computed, or it holds every
// dimension's stride, which must be a padding of the layout (IsMapping):
// that is how a view keeps a leading dimension, as BLAS's lda. With pad
// and no given strides, the contiguous dimension of a view of rank 2 or
// more is padded as Kokkos pads it (Pad).
func MapStrides(l Layout, ext, given []int, elemSize int, pad bool, str []int) (int, error) {
	rank := len(ext)
	if rank > MaxRank {
		return 0, errorf(Shape, "rank %d exceeds %d", rank, MaxRank)
	}
	if _, err := Product(ext); err != nil {
		return 0, err
	}
	if l != Stride && len(given) > 0 {
		if len(given) != rank {
			return 0, errorf(Invalid, "%v of rank %d needs no strides or %d, got %d", name(l), rank, rank, len(given))
		}
		for r, s := range given {
			if s < 0 {
				return 0, errorf(Invalid, "stride %d of dimension %d is negative", s, r)
			}
		}
		if l != Right && l != Left {
			return 0, errorf(Invalid, "unknown layout %v", name(l))
		}
		if !IsMapping(l, ext, given) {
			lead, cont := rank-2, rank-1
			if l == Left {
				lead, cont = 1, 0
			}
			return 0, errorf(Invalid, "strides %s are not those of %v for extents %s: dimension %d must have stride 1, dimension %d a stride of at least its extent %d (the leading dimension), and each other dimension the product of the next inner one's stride and extent",
				FormatInts(given), name(l), FormatInts(ext), cont, max(lead, 0), ext[cont])
		}
		copy(str, given)
		return Span(ext, str)
	}
	switch l {
	case Right:
		s := 1
		for r := rank - 1; r >= 0; r-- {
			str[r] = s
			e := ext[r]
			if pad && r == rank-1 && rank >= 2 {
				e = Pad(e, elemSize)
			}
			s = mulClamp(s, max(e, 1))
		}
	case Left:
		s := 1
		for r := 0; r < rank; r++ {
			str[r] = s
			e := ext[r]
			if pad && r == 0 && rank >= 2 {
				e = Pad(e, elemSize)
			}
			s = mulClamp(s, max(e, 1))
		}
	case Stride:
		if len(given) != rank {
			return 0, errorf(Invalid, "LayoutStride needs %d strides, got %d", rank, len(given))
		}
		copy(str, given)
		if err := CheckStrides(ext, str); err != nil {
			return 0, err
		}
	default:
		return 0, errorf(Invalid, "unknown layout %v", name(l))
	}
	return Span(ext, str)
}

// Alignment and AlignmentThreshold are Kokkos's MEMORY_ALIGNMENT (bytes)
// and MEMORY_ALIGNMENT_THRESHOLD, the padding parameters.
const (
	Alignment          = 64
	AlignmentThreshold = 1
)

// AliasBytes is the distance at which addresses share their cache sets
// and their low address bits (4 KiB: one way of a typical L1 cache, and
// the span of the store-to-load alias check). Padding keeps a padded row
// off a multiple of it.
const AliasBytes = 4096

// Pad returns the padded extent of a view's contiguous dimension of extent
// n and elements of elemSize bytes. Where elemSize divides Alignment, an
// extent greater than AlignmentThreshold times the alignment in elements
// (Alignment/elemSize) and not a multiple of it is rounded up to the next
// multiple, as Kokkos pads it. Then, unlike Kokkos, a row of a whole
// multiple of AliasBytes gets one more alignment unit (a cache line): the
// same column of successive rows would otherwise fall in a handful of
// cache sets, and a loop down a column of a 4096² float64 view runs
// several times slower. Any other extent is kept.
func Pad(n, elemSize int) int {
	if elemSize <= 0 || Alignment%elemSize != 0 {
		return n
	}
	align := Alignment / elemSize
	if n <= AlignmentThreshold*align {
		return n
	}
	if n%align != 0 {
		n += align - n%align
	}
	if n*elemSize%AliasBytes == 0 {
		n += align
	}
	return n
}

// name is l's Kokkos name, as kokkos.Layout's String method gives it.
func name(l Layout) string {
	switch l {
	case Right:
		return "LayoutRight"
	case Left:
		return "LayoutLeft"
	case Stride:
		return "LayoutStride"
	}
	return fmt.Sprintf("Layout(%d)", uint8(l))
}

// maxSpan bounds element counts, spans and byte sizes: 2⁶² on 64-bit
// platforms, 2³⁰ on 32-bit ones, so that sums of two stay in an int.
const maxSpan = 1 << (bits.UintSize - 2)

// mulClamp multiplies, saturating instead of overflowing; Span reports
// the overflow.
func mulClamp(a, b int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > maxSpan {
		return maxSpan
	}
	return int(lo)
}

// Span returns 1 + the largest offset of a view of extents ext and
// (non-negative) strides str, or 0 for an empty view.
func Span(ext, str []int) (int, error) {
	span := 1
	for r, e := range ext {
		if e == 0 {
			return 0, nil
		}
		hi, lo := bits.Mul64(uint64(e-1), uint64(str[r]))
		if hi != 0 || lo > maxSpan {
			return 0, errorf(Shape, "extents %s with strides %s overflow", FormatInts(ext), FormatInts(str))
		}
		span += int(lo)
		if span > maxSpan {
			return 0, errorf(Shape, "extents %s with strides %s overflow", FormatInts(ext), FormatInts(str))
		}
	}
	return span, nil
}

// CheckStrides verifies that explicit strides are non-negative and that no
// two index tuples share an offset. Sorted by stride, dimensions that each
// step past everything the smaller ones address are accepted at once;
// strides that interleave are decided exactly by Injective, up to the size
// it can search (MaxSearch), and refused beyond it.
func CheckStrides(ext, str []int) error {
	for r := range ext {
		if str[r] < 0 {
			return errorf(Invalid, "stride %d of dimension %d is negative", str[r], r)
		}
	}
	if slices.Contains(ext, 0) {
		return nil // no element, no two that could share an offset
	}
	for r := range ext {
		if ext[r] > 1 && str[r] == 0 {
			return errorf(Invalid, "stride of dimension %d is 0 but its extent is %d", r, ext[r])
		}
	}
	injective, known := Injective(ext, str)
	switch {
	case !known:
		return errorf(Invalid, "strides %s interleave for extents %s over more than %d elements, too many to prove that no two index tuples share an offset; use strides that, sorted, each step past everything the smaller ones address", FormatInts(str), FormatInts(ext), MaxSearch)
	case !injective:
		return errorf(Invalid, "strides %s overlap for extents %s: two index tuples share an offset", FormatInts(str), FormatInts(ext))
	}
	return nil
}

// MaxSearch bounds Injective's exact search: the span of the offset
// differences it tracks, in elements.
const MaxSearch = 1 << 22

// Injective reports whether extents ext and non-negative strides str give
// every index tuple its own offset, and whether it could tell: it answers
// at once for strides that, sorted, each step past everything the smaller
// ones address (the layouts of every view the package makes), and
// otherwise searches the offset differences exactly when they span at most
// MaxSearch elements (known is false beyond that).
//
// The search: two tuples collide exactly when some non-zero d, |d_r| <
// ext[r], has Σ d_r·str[r] = 0. Taking the dimensions in order, with the
// last non-zero d_k positive, that is some multiple j·str[k], 0 < j <
// ext[k], among the sums P of the earlier dimensions' differences; P grows
// by each dimension's multiples as a bit set.
func Injective(ext, str []int) (injective, known bool) {
	if slices.Contains(ext, 0) {
		return true, true
	}
	var order [MaxRank]int
	n := 0
	for r := range ext {
		if ext[r] > 1 {
			if str[r] <= 0 {
				return false, true
			}
			order[n] = r
			n++
		}
	}
	// insertion sort of the (at most 8) dimensions by stride
	for i := 1; i < n; i++ {
		for j := i; j > 0 && str[order[j]] < str[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	reach := 1 // offsets 0..reach-1 are addressed by the dimensions so far
	nested := true
	g := 0 // gcd of the strides
	for _, r := range order[:n] {
		if str[r] < reach {
			nested = false
		}
		reach = mulClamp(str[r], ext[r]-1) + reach
		g = gcd(g, str[r])
	}
	if nested {
		return true, true
	}
	// The sums of the differences lie in [-S, S], S = Σ (ext-1)·str/g.
	S := 0
	for _, r := range order[:n] {
		S += mulClamp(str[r]/g, ext[r]-1)
		if S > MaxSearch/2 {
			return false, false
		}
	}
	w := 2*S + 1
	p := make([]uint64, (w+63)/64)
	q := make([]uint64, len(p))
	setBit(p, S) // the empty sum
	for _, r := range order[:n] {
		s, e := str[r]/g, ext[r]
		for j := 1; j < e && j*s <= S; j++ {
			if getBit(p, S+j*s) {
				return false, true
			}
		}
		// P += {d·s : |d| < e}: shift down by (e-1)·s, then add each of
		// the binary parts of [0, 2(e-1)] multiples of s.
		shift(q, p, -(e-1)*s)
		p, q = q, p
		for left, part := 2*(e-1), 1; left > 0; part *= 2 {
			k := min(part, left)
			shift(q, p, k*s)
			for i := range p {
				p[i] |= q[i]
			}
			left -= k
		}
		clearTail(p, w)
	}
	return true, true
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func setBit(b []uint64, i int)      { b[i/64] |= 1 << (i % 64) }
func getBit(b []uint64, i int) bool { return b[i/64]>>(i%64)&1 != 0 }

// shift sets dst to src shifted by k bits, towards higher indices for
// k > 0 and lower ones for k < 0.
func shift(dst, src []uint64, k int) {
	clear(dst)
	words, bitsK := k/64, k%64
	if k < 0 {
		words, bitsK = -((-k) / 64), -((-k) % 64)
	}
	n := len(src)
	if bitsK >= 0 {
		for i := n - 1; i >= 0; i-- {
			j := i - words
			if j < 0 || j >= n {
				continue
			}
			v := src[j] << bitsK
			if bitsK > 0 && j > 0 {
				v |= src[j-1] >> (64 - bitsK)
			}
			dst[i] = v
		}
		return
	}
	b := -bitsK
	for i := 0; i < n; i++ {
		j := i - words
		if j < 0 || j >= n {
			continue
		}
		v := src[j] >> b
		if j+1 < n {
			v |= src[j+1] << (64 - b)
		}
		dst[i] = v
	}
}

// clearTail clears the bits of b from w on.
func clearTail(b []uint64, w int) {
	if w%64 != 0 {
		b[len(b)-1] &= 1<<(w%64) - 1
	}
}

// IsMapping reports whether strides are those of layout l (Right or
// Left), with the leading dimension possibly padded. Dimensions are
// visited from the contiguous one outwards; those of extent 0 or 1 may
// have any stride.
func IsMapping(l Layout, ext, str []int) bool {
	rank := len(ext)
	dim := func(k int) int { // the k-th dimension from the contiguous one
		if l == Left {
			return k
		}
		return rank - 1 - k
	}
	if rank == 0 {
		return true
	}
	if r := dim(0); str[r] != 1 && ext[r] > 1 {
		return false
	}
	for k := 1; k < rank; k++ {
		r, in := dim(k), dim(k-1)
		if ext[r] <= 1 {
			continue
		}
		if k == 1 {
			if str[r] < max(ext[in], 1) { // padding allowed
				return false
			}
		} else if str[r] != str[in]*max(ext[in], 1) {
			return false
		}
	}
	return true
}

// FormatInts formats a as (a0, a1, ...).
func FormatInts(a []int) string {
	b := make([]byte, 0, 4*len(a)+2)
	b = append(b, '(')
	for i, x := range a {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%d", x)
	}
	return string(append(b, ')'))
}
