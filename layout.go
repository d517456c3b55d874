package kokkos

import (
	"fmt"
	"math/bits"
	"slices"
)

// A Layout maps a view's indices to offsets in its memory.
type Layout uint8

const (
	// LayoutRight is row-major order, as C arrays: the last index is
	// contiguous. It is the default.
	LayoutRight Layout = iota
	// LayoutLeft is column-major order, as Fortran arrays: the first index
	// is contiguous.
	LayoutLeft
	// LayoutStride has an arbitrary, non-overlapping stride per dimension.
	LayoutStride
)

// String returns the layout's Kokkos name.
func (l Layout) String() string {
	switch l {
	case LayoutRight:
		return "LayoutRight"
	case LayoutLeft:
		return "LayoutLeft"
	case LayoutStride:
		return "LayoutStride"
	}
	return fmt.Sprintf("Layout(%d)", uint8(l))
}

// MaxRank is the largest rank a view may have.
const MaxRank = 8

// A LayoutSpec is a view's layout object: its layout, extents and strides.
// A view's LayoutSpec builds other views of the same shape with the
// NewViewNFrom constructors. Strides are in elements; they are ignored for
// LayoutRight and LayoutLeft, where the constructor computes them.
type LayoutSpec struct {
	Layout  Layout
	Extents []int
	Strides []int
}

// Rank returns the number of extents.
func (s LayoutSpec) Rank() int { return len(s.Extents) }

// RequiredAllocationSize returns the number of bytes an unmanaged view of
// element type T and the given extents (LayoutRight or LayoutLeft, no
// padding) needs. It panics on negative extents or an overflowing size.
func RequiredAllocationSize[T any](extents ...int) int {
	n, err := product(extents)
	if err != nil {
		panic("kokkos: RequiredAllocationSize: " + err.Error())
	}
	b, err := mulBytes(n, sizeOf[T]())
	if err != nil {
		panic("kokkos: RequiredAllocationSize: " + err.Error())
	}
	return b
}

// RequiredAllocationSizeFor returns the number of bytes an unmanaged view
// of element type T and layout spec needs: its span times the element size.
func RequiredAllocationSizeFor[T any](spec LayoutSpec) int {
	var str [MaxRank]int
	span, err := mapStrides(spec.Layout, spec.Extents, spec.Strides, sizeOf[T](), false, str[:len(spec.Extents)])
	if err != nil {
		panic("kokkos: RequiredAllocationSizeFor: " + err.Error())
	}
	b, err := mulBytes(span, sizeOf[T]())
	if err != nil {
		panic("kokkos: RequiredAllocationSizeFor: " + err.Error())
	}
	return b
}

func mulBytes(n, size int) (int, error) {
	hi, lo := bits.Mul64(uint64(n), uint64(size))
	if hi != 0 || lo > 1<<62 {
		return 0, errorf(ErrShape, "%d elements of %d bytes overflow", n, size)
	}
	return int(lo), nil
}

// product returns the product of extents, checking signs and overflow.
func product(ext []int) (int, error) {
	n := 1
	for r, e := range ext {
		if e < 0 {
			return 0, errorf(ErrShape, "extent %d of dimension %d is negative", e, r)
		}
	}
	for _, e := range ext {
		hi, lo := bits.Mul64(uint64(n), uint64(e))
		if hi != 0 || lo > 1<<62 {
			return 0, errorf(ErrShape, "extents %s overflow", fmtInts(ext))
		}
		n = int(lo)
	}
	return n, nil
}

// mapStrides is the one layout mapping: it fills str with the strides of a
// view of extents ext in layout l (given holds LayoutStride's strides) and
// returns the span, the number of elements between the first and one past
// the last addressed element.
func mapStrides(l Layout, ext, given []int, elemSize int, pad bool, str []int) (int, error) {
	rank := len(ext)
	if rank > MaxRank {
		return 0, errorf(ErrShape, "rank %d exceeds %d", rank, MaxRank)
	}
	if _, err := product(ext); err != nil {
		return 0, err
	}
	padTo := 1
	if pad && rank >= 2 && elemSize > 0 && elemSize <= 64 && 64%elemSize == 0 {
		padTo = 64 / elemSize
	}
	switch l {
	case LayoutRight:
		s := 1
		for r := rank - 1; r >= 0; r-- {
			str[r] = s
			e := ext[r]
			if r == rank-1 {
				e = roundUp(e, padTo)
			}
			s = mulClamp(s, max(e, 1))
		}
	case LayoutLeft:
		s := 1
		for r := 0; r < rank; r++ {
			str[r] = s
			e := ext[r]
			if r == 0 {
				e = roundUp(e, padTo)
			}
			s = mulClamp(s, max(e, 1))
		}
	case LayoutStride:
		if len(given) != rank {
			return 0, errorf(ErrLayout, "LayoutStride needs %d strides, got %d", rank, len(given))
		}
		copy(str, given)
		if err := checkStrides(ext, str); err != nil {
			return 0, err
		}
	default:
		return 0, errorf(ErrLayout, "unknown layout %v", l)
	}
	return spanOf(ext, str)
}

func roundUp(n, m int) int {
	if m <= 1 {
		return n
	}
	return (n + m - 1) / m * m
}

// mulClamp multiplies, saturating instead of overflowing; spanOf reports
// the overflow.
func mulClamp(a, b int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > 1<<62 {
		return 1 << 62
	}
	return int(lo)
}

// spanOf returns 1 + the largest offset, or 0 for an empty view.
func spanOf(ext, str []int) (int, error) {
	span := 1
	for r, e := range ext {
		if e == 0 {
			return 0, nil
		}
		hi, lo := bits.Mul64(uint64(e-1), uint64(str[r]))
		if hi != 0 || lo > 1<<62 {
			return 0, errorf(ErrShape, "extents %s with strides %s overflow", fmtInts(ext), fmtInts(str))
		}
		span += int(lo)
		if span > 1<<62 {
			return 0, errorf(ErrShape, "extents %s with strides %s overflow", fmtInts(ext), fmtInts(str))
		}
	}
	return span, nil
}

// checkStrides verifies that explicit strides are positive and that no two
// index tuples share an offset: sorted by stride, each dimension must step
// past everything the smaller ones address.
func checkStrides(ext, str []int) error {
	for r := range ext {
		if str[r] < 0 {
			return errorf(ErrLayout, "stride %d of dimension %d is negative", str[r], r)
		}
	}
	if slices.Contains(ext, 0) {
		return nil // no element, no two that could share an offset
	}
	var order [MaxRank]int
	n := 0
	for r := range ext {
		if ext[r] > 1 {
			if str[r] == 0 {
				return errorf(ErrLayout, "stride of dimension %d is 0 but its extent is %d", r, ext[r])
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
	for _, r := range order[:n] {
		if str[r] < reach {
			return errorf(ErrLayout, "strides %s overlap for extents %s", fmtInts(str), fmtInts(ext))
		}
		reach = mulClamp(str[r], ext[r]-1) + reach
	}
	return nil
}

// isLayoutMapping reports whether strides are those of layout l
// (LayoutRight or LayoutLeft), with the leading dimension possibly padded.
// Dimensions are visited from the contiguous one outwards; those of extent
// 0 or 1 may have any stride.
func isLayoutMapping(l Layout, ext, str []int) bool {
	rank := len(ext)
	dim := func(k int) int { // the k-th dimension from the contiguous one
		if l == LayoutLeft {
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

func fmtInts(a []int) string {
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
