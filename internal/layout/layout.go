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
// that exceeds 2⁶².
func MulBytes(n, size int) (int, error) {
	hi, lo := bits.Mul64(uint64(n), uint64(size))
	if hi != 0 || lo > 1<<62 {
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
		if hi != 0 || lo > 1<<62 {
			return 0, errorf(Shape, "extents %s overflow", FormatInts(ext))
		}
		n = int(lo)
	}
	return n, nil
}

// MapStrides is the one layout mapping: it fills str with the strides of a
// view of extents ext in layout l (given holds Stride's strides) and
// returns the span, the number of elements between the first and one past
// the last addressed element. With pad, the contiguous dimension of a view
// of rank 2 or more is rounded up to 64 bytes of elements of elemSize
// bytes.
func MapStrides(l Layout, ext, given []int, elemSize int, pad bool, str []int) (int, error) {
	rank := len(ext)
	if rank > MaxRank {
		return 0, errorf(Shape, "rank %d exceeds %d", rank, MaxRank)
	}
	if _, err := Product(ext); err != nil {
		return 0, err
	}
	padTo := 1
	if pad && rank >= 2 && elemSize > 0 && elemSize <= 64 && 64%elemSize == 0 {
		padTo = 64 / elemSize
	}
	switch l {
	case Right:
		s := 1
		for r := rank - 1; r >= 0; r-- {
			str[r] = s
			e := ext[r]
			if r == rank-1 {
				e = roundUp(e, padTo)
			}
			s = mulClamp(s, max(e, 1))
		}
	case Left:
		s := 1
		for r := 0; r < rank; r++ {
			str[r] = s
			e := ext[r]
			if r == 0 {
				e = roundUp(e, padTo)
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

func roundUp(n, m int) int {
	if m <= 1 {
		return n
	}
	return (n + m - 1) / m * m
}

// mulClamp multiplies, saturating instead of overflowing; Span reports
// the overflow.
func mulClamp(a, b int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > 1<<62 {
		return 1 << 62
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
		if hi != 0 || lo > 1<<62 {
			return 0, errorf(Shape, "extents %s with strides %s overflow", FormatInts(ext), FormatInts(str))
		}
		span += int(lo)
		if span > 1<<62 {
			return 0, errorf(Shape, "extents %s with strides %s overflow", FormatInts(ext), FormatInts(str))
		}
	}
	return span, nil
}

// CheckStrides verifies that explicit strides are non-negative and that no
// two index tuples share an offset: sorted by stride, each dimension must
// step past everything the smaller ones address. The test is sufficient,
// not necessary: it refuses some interleaved strides whose offsets happen
// to be distinct, as Kokkos does.
func CheckStrides(ext, str []int) error {
	for r := range ext {
		if str[r] < 0 {
			return errorf(Invalid, "stride %d of dimension %d is negative", str[r], r)
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
				return errorf(Invalid, "stride of dimension %d is 0 but its extent is %d", r, ext[r])
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
			return errorf(Invalid, "strides %s overlap for extents %s", FormatInts(str), FormatInts(ext))
		}
		reach = mulClamp(str[r], ext[r]-1) + reach
	}
	return nil
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
