package kokkos

import (
	"fmt"
	"reflect"

	"github.com/gokkos/kokkos/internal/layout"
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
		begin, e, kind := subArg(a, ext[r])
		if kind == 3 {
			badSubArg(op, rec, ext, r, a)
		}
		off += begin * str[r]
		if kind == 0 {
			continue
		}
		kinds |= kind << (2 * r)
		if k >= m {
			panic(fmt.Sprintf("kokkos: %s of view %q: more than %d of the %d arguments are ranges (All or Pair)", op, rec.Label(), m, len(ext)))
		}
		oext[k], ostr[k] = e, str[r]
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

// badSubArg panics with the reason subArg refused argument a of dimension r.
func badSubArg(op string, rec *Allocation, ext []int, r int, a any) {
	prefix := fmt.Sprintf("kokkos: %s of view %q with extents %s: ", op, rec.Label(), fmtInts(ext))
	// Only values copied out of a reach fmt: passing a itself would make
	// every Subview argument escape to the heap.
	switch a := a.(type) {
	case PairRange:
		panic(fmt.Sprintf("%srange [%d, %d) of dimension %d is not within [0, %d]", prefix, a.Begin, a.End, r, ext[r]))
	case int:
		panic(fmt.Sprintf("%sindex %d of dimension %d is out of bounds", prefix, a, r))
	case int64:
		panic(fmt.Sprintf("%sindex %d of dimension %d is out of bounds", prefix, int64(a), r))
	case int32:
		panic(fmt.Sprintf("%sindex %d of dimension %d is out of bounds", prefix, int64(a), r))
	case int16:
		panic(fmt.Sprintf("%sindex %d of dimension %d is out of bounds", prefix, int64(a), r))
	case int8:
		panic(fmt.Sprintf("%sindex %d of dimension %d is out of bounds", prefix, int64(a), r))
	case uint, uint64, uint32, uint16, uint8, uintptr:
		panic(fmt.Sprintf("%sindex %d of dimension %d is out of bounds", prefix, unsignedOf(a), r))
	}
	panic(fmt.Sprintf("kokkos: %s of view %q: argument %d has type %v; use an integer, All or Pair(begin, end)", op, rec.Label(), r, reflect.TypeOf(a)))
}

// subLayout applies Kokkos's rules for the layout of a subview
// (layout.Subview, where the rule is stated): kinds holds two bits per
// argument (0 index, 1 All, 2 Pair) for n arguments and m ranges.
func subLayout(l Layout, kinds uint32, n, m int) Layout {
	return Layout(layout.Subview(layout.Layout(l), kinds, n, m))
}

// subArg decodes the Subview argument a for a dimension of extent e into
// the first index, the number of indices kept and the kind: 0 for an index,
// 1 for All, 2 for a Pair, 3 for anything invalid (subMap explains it).
// An index may be of any Go integer type, as Kokkos takes any integral
// type; the int case comes first, as the common one.
func subArg(a any, e int) (begin, n int, kind uint32) {
	var i uint64
	switch a := a.(type) {
	case int:
		if uint(a) < uint(e) {
			return a, 0, 0
		}
		return 0, 0, 3
	case AllType:
		return 0, e, 1
	case PairRange:
		if a.Begin >= 0 && a.Begin <= a.End && a.End <= e {
			return a.Begin, a.End - a.Begin, 2
		}
		return 0, 0, 3
	case int64:
		i = uint64(a) // a negative index wraps past every extent
	case int32:
		i = uint64(int64(a))
	case int16:
		i = uint64(int64(a))
	case int8:
		i = uint64(int64(a))
	case uint:
		i = uint64(a)
	case uint64:
		i = a
	case uint32:
		i = uint64(a)
	case uint16:
		i = uint64(a)
	case uint8:
		i = uint64(a)
	case uintptr:
		i = uint64(a)
	default:
		return 0, 0, 3
	}
	if i < uint64(e) {
		return int(i), 0, 0
	}
	return 0, 0, 3
}

// unsignedOf returns the value of an unsigned index argument.
func unsignedOf(a any) uint64 {
	switch a := a.(type) {
	case uint:
		return uint64(a)
	case uint64:
		return a
	case uint32:
		return uint64(a)
	case uint16:
		return uint64(a)
	case uint8:
		return uint64(a)
	case uintptr:
		return uint64(a)
	}
	return 0
}

// PairOf returns the half-open range [begin, end) for Subview from bounds
// of any integer type, as Kokkos's make_pair of any integral type. Bounds
// beyond int's range give a range that Subview refuses.
func PairOf[I Integer](begin, end I) PairRange {
	return PairRange{clampInt(begin), clampInt(end)}
}

// clampInt converts x to int, mapping values beyond int's range to -1,
// which no range accepts.
func clampInt[I Integer](x I) int {
	if x < 0 {
		if int64(x) < int64(minInt) {
			return -1
		}
		return int(x)
	}
	if uint64(x) > uint64(maxInt) {
		return -1
	}
	return int(x)
}

const (
	maxInt = int(^uint(0) >> 1)
	minInt = -maxInt - 1
)

// subLayoutOf applies Kokkos's subview layout rules in the form the
// generated Subview methods use (layout.SubviewOf): kinds holds two bits
// per argument, and the rules' masks, from layout.SubviewPatterns, say
// which argument kinds keep LayoutRight and LayoutLeft.
func subLayoutOf(l Layout, kinds, rClear, rPat, rAny, lClear, lPat, lAny uint32) Layout {
	return Layout(layout.SubviewOf(layout.Layout(l), kinds, layout.Rule{Clear: rClear, Pat: rPat, Any: rAny}, layout.Rule{Clear: lClear, Pat: lPat, Any: lAny}))
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
