package kokkos

import (
	"fmt"
	"reflect"
)

// AllType is the type of All.
type AllType struct{}

// All, as a Subview argument, keeps a whole dimension.
var All AllType

// A PairRange, as a Subview argument, keeps the indices [Begin, End) of a
// dimension; the result's indices start at 0.
type PairRange struct{ Begin, End int }

// Pair returns the half-open range [begin, end) for Subview, as Kokkos's
// make_pair(begin, end).
func Pair(begin, end int) PairRange { return PairRange{begin, end} }

func (p PairRange) String() string { return fmt.Sprintf("Pair(%d, %d)", p.Begin, p.End) }

// subMap is the one subview mapping. From a view of extents ext and strides
// str it takes one argument per dimension (an int index, All or a
// PairRange), fills the result's extents and strides and returns the offset
// of the result's origin, the result's span and its layout by Kokkos's
// rules.
func subMap(op string, rec *Allocation, layout Layout, ext, str []int, args []any, oext, ostr []int) (off, span int, l Layout) {
	m := len(oext)
	k := 0
	span = 1
	var kinds uint32 // two bits per dimension: 0 index, 1 All, 2 Pair
	for r, a := range args {
		if r >= len(ext) {
			break
		}
		var begin, end int
		switch a := a.(type) {
		case int:
			if uint(a) >= uint(ext[r]) {
				subPanic(op, rec, ext, r, a, a, false)
			}
			off += a * str[r]
			continue
		case AllType:
			begin, end = 0, ext[r]
			kinds |= 1 << (2 * r)
		case PairRange:
			begin, end = a.Begin, a.End
			if begin < 0 || end < begin || end > ext[r] {
				subPanic(op, rec, ext, r, begin, end, true)
			}
			kinds |= 2 << (2 * r)
		case int64:
			if uint64(a) >= uint64(ext[r]) {
				subPanic(op, rec, ext, r, int(a), int(a), false)
			}
			off += int(a) * str[r]
			continue
		case int32:
			if uint(a) >= uint(ext[r]) {
				subPanic(op, rec, ext, r, int(a), int(a), false)
			}
			off += int(a) * str[r]
			continue
		default:
			panic(fmt.Sprintf("kokkos: %s of view %q: argument %d has type %v; use an int, All or Pair(begin, end)", op, rec.Label(), r, reflect.TypeOf(a)))
		}
		if k >= m {
			panic(fmt.Sprintf("kokkos: %s of view %q: more than %d of the %d arguments are ranges (All or Pair)", op, rec.Label(), m, len(ext)))
		}
		e := end - begin
		oext[k], ostr[k] = e, str[r]
		off += begin * str[r]
		if e == 0 || span == 0 {
			span = 0
		} else {
			span += (e - 1) * str[r]
		}
		k++
	}
	if k != m {
		panic(fmt.Sprintf("kokkos: %s of view %q: %d of the %d arguments are ranges (All or Pair), so the result has rank %d, not %d", op, rec.Label(), k, len(ext), k, m))
	}
	return off, span, subLayout(layout, kinds, len(ext), m)
}

func subPanic(op string, rec *Allocation, ext []int, r, begin, end int, isRange bool) {
	if isRange {
		panic(fmt.Sprintf("kokkos: %s of view %q with extents %s: range [%d, %d) of dimension %d is not within [0, %d]", op, rec.Label(), fmtInts(ext), begin, end, r, ext[r]))
	}
	panic(fmt.Sprintf("kokkos: %s of view %q with extents %s: index %d of dimension %d is out of bounds", op, rec.Label(), fmtInts(ext), begin, r))
}

// subLayout applies Kokkos's rules for the layout of a subview: LayoutRight
// stays LayoutRight when the arguments are indices, then one range, then
// only All; LayoutLeft stays LayoutLeft when they are only All, then one
// range, then indices. Everything else is LayoutStride.
func subLayout(l Layout, kinds uint32, n, m int) Layout {
	if m == 0 || l == LayoutStride {
		return l
	}
	kind := func(r int) uint32 { return kinds >> (2 * r) & 3 }
	switch l {
	case LayoutRight:
		for r := range n - m {
			if kind(r) != 0 {
				return LayoutStride
			}
		}
		for r := n - m + 1; r < n; r++ {
			if kind(r) != 1 {
				return LayoutStride
			}
		}
		return LayoutRight
	case LayoutLeft:
		for r := range m - 1 {
			if kind(r) != 1 {
				return LayoutStride
			}
		}
		for r := m; r < n; r++ {
			if kind(r) != 0 {
				return LayoutStride
			}
		}
		return LayoutLeft
	}
	return LayoutStride
}

// subArg decodes the Subview argument a for a dimension of extent e into
// the first index, the number of indices kept and the kind: 0 for an index,
// 1 for All, 2 for a Pair, 3 for anything invalid (subMap explains it).
func subArg(a any, e int) (begin, n int, kind uint32) {
	switch a := a.(type) {
	case int:
		if uint(a) < uint(e) {
			return a, 0, 0
		}
	case AllType:
		return 0, e, 1
	case PairRange:
		if a.Begin >= 0 && a.Begin <= a.End && a.End <= e {
			return a.Begin, a.End - a.Begin, 2
		}
	case int64:
		if uint64(a) < uint64(e) {
			return int(a), 0, 0
		}
	case int32:
		if uint(a) < uint(e) {
			return int(a), 0, 0
		}
	}
	return 0, 0, 3
}

// subLayoutOf applies Kokkos's subview layout rules in the form the
// generated Subview methods use: kinds holds two bits per argument, and
// the clear/pattern pairs say which argument kinds keep LayoutRight and
// LayoutLeft (see subLayout).
func subLayoutOf(l Layout, kinds, rClear, rPat, lClear, lPat uint32) Layout {
	switch {
	case l == LayoutRight && kinds&^rClear == rPat:
		return LayoutRight
	case l == LayoutLeft && kinds&^lClear == lPat:
		return LayoutLeft
	}
	return LayoutStride
}

// subSpan returns the span of a subview from the product of its extents
// and the offset of its last element.
func subSpan(size, last int) int {
	if size == 0 {
		return 0
	}
	return last + 1
}

// subData returns the span elements of a subview whose origin is off
// elements into data.
func subData[T any](data []T, off, span int) []T {
	if data == nil {
		return nil
	}
	if span == 0 {
		return data[:0:0]
	}
	return data[off : off+span : off+span]
}
