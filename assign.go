package kokkos

import (
	"fmt"
	"reflect"
	"unsafe"
)

// viewTarget is satisfied by *View0[E] ... *View8[E] of any element type
// E: the destinations of AssignView, which rebuild themselves from a
// source whose element type is known only at run time.
type viewTarget interface {
	assignFrom(s anyDesc) error
}

// AssignView makes *dst a view of src's elements, as Kokkos's assignment
// between views whose compile-time extents differ: View<int*[10]> a3 =
// View<int**>(N, M) and View<int**> a2 = a3. gokkos spells a compile-time
// trailing extent as an array element type (View1[[10]int] for
// View<int*[10]>), so dst is a pointer to a View0 ... View8 whose element
// type E is src's T, or an array of T (nested arrays, [4][10]T, fold as
// many extents), or one of the arrays that T is made of:
//
//   - folding: E is [a1]...[ak]T, dst has src's rank minus k, and src's last
//     k extents must be a1, ..., ak (else an error wrapping ErrShape, the
//     run-time check of Kokkos's a3 = View<int**>(N, M), which fails unless
//     M == 10) and be laid out as an array is: contiguous, in LayoutRight
//     order (else an error wrapping ErrLayout). The leading extents keep
//     their strides, which must be whole arrays apart. A LayoutLeft view of
//     rank ≥ 2 thus folds only where its leading extents are 1: copy it into
//     a LayoutRight view with DeepCopy first.
//   - unfolding: T is [b1]...[bk]E, dst has src's rank plus k, and the new
//     trailing extents are b1, ..., bk (Kokkos's a2 = View<int*[10]>,
//     which always succeeds).
//   - E is T: dst has src's rank, and becomes src with its layout (a plain
//     assignment, as v2 := v).
//
// A View0[[4][10]int] from a View1[[10]int] checks that its extent is 4
// (Kokkos's View<int[4][10]> a8 = a3). The result shares src's allocation,
// as a subview does (no copy, no new holder), and keeps src's label, space,
// traits and read-only flag; an OffsetView gives its elements indexed from
// 0. Its layout is src's when E is T; otherwise it is LayoutRight where its
// strides are LayoutRight's, LayoutLeft for a LayoutLeft src where the
// result has rank ≤ 1, and LayoutStride otherwise. Views the host cannot
// access convert the same way.
//
// It returns an error wrapping ErrElementType when E and T are not related
// so (or E cannot take src's Atomic trait), ErrShape when the ranks or the
// folded extents do not match, and ErrLayout when the folded extents are
// not contiguous or the view's origin or leading strides fall inside an
// array; *dst is unchanged then. The zero view assigns the zero view.
func AssignView[T any](dst viewTarget, src View[T]) error {
	return dst.assignFrom(eraseDesc(src.viewDesc()))
}

// anyDesc is the description of a view whose element type is known only at
// run time: what AssignView hands the destination's assignFrom, which
// knows the destination's element type.
type anyDesc struct {
	d    desc[byte] // d.data is nil; host holds its start
	host unsafe.Pointer
	elem reflect.Type
}

func eraseDesc[T any](d desc[T]) anyDesc {
	a := anyDesc{elem: reflect.TypeFor[T]()}
	a.d = desc[byte]{rank: d.rank, ext: d.ext, str: d.str, rec: d.rec, off: d.off, layout: d.layout, flags: d.flags, traits: d.traits}
	if d.data != nil {
		a.host = unsafe.Pointer(unsafe.SliceData(d.data))
	}
	return a
}

// arrayLengths returns the lengths of the arrays that make t from base,
// outermost first (t = [l0][l1]...base), and false when t is not base
// wrapped in arrays. A named array type counts as the array it is.
func arrayLengths(t, base reflect.Type) ([]int, bool) {
	var lens []int
	for t != base {
		if t.Kind() != reflect.Array {
			return nil, false
		}
		lens = append(lens, t.Len())
		t = t.Elem()
	}
	return lens, true
}

// assignDesc returns the rank-rank description, of element type E, of the
// elements s describes: AssignView's conversion (see there for the rules).
func assignDesc[E any](rank int, s anyDesc) (desc[E], error) {
	dstT := reflect.TypeFor[E]()
	src := &s.d
	what := func() string {
		if src.rec == nil {
			return fmt.Sprintf("kokkos: AssignView of an unallocated rank-%d view of %v to a View%d[%v]", src.rank, s.elem, rank, dstT)
		}
		return fmt.Sprintf("kokkos: AssignView of view %q with extents %s and strides %s (%v) of %v to a View%d[%v]",
			src.label(), fmtInts(src.extents()), fmtInts(src.strides()), src.layout, s.elem, rank, dstT)
	}
	fail := func(kind error, format string, a ...any) (desc[E], error) {
		return desc[E]{}, errorf(kind, "%s: %s", what(), fmt.Sprintf(format, a...))
	}

	// The element types: E is T folded k times (fold > 0), T is E folded
	// k times (fold < 0), or E is T.
	var lens []int
	fold := 0
	if dstT != s.elem {
		if l, ok := arrayLengths(dstT, s.elem); ok {
			lens, fold = l, len(l)
		} else if l, ok := arrayLengths(s.elem, dstT); ok {
			lens, fold = l, -len(l)
		} else {
			return fail(ErrElementType, "the element type must be %v, an array of it ([n]%v, [m][n]%v, ...), or one of the arrays %v is made of", s.elem, s.elem, s.elem, s.elem)
		}
	}
	block := 1 // elements of the smaller type in one of the larger
	for _, n := range lens {
		if n == 0 {
			return fail(ErrElementType, "an array of length 0 holds no element to fold an extent into")
		}
		block *= n
	}
	if want := src.rank - fold; rank != want {
		switch {
		case want < 0:
			return fail(ErrShape, "the ranks do not match: %v folds %s, more than the view has", dstT, extentsWord(fold))
		case fold > 0:
			return fail(ErrShape, "the ranks do not match: %v folds the last %s, so the destination needs rank %d", dstT, extentsWord(fold), want)
		case fold < 0:
			return fail(ErrShape, "the ranks do not match: %v unfolds into %s more, so the destination needs rank %d", s.elem, extentsWord(-fold), want)
		}
		return fail(ErrShape, "the ranks do not match: the same element type needs the same rank %d", src.rank)
	}
	if src.rec == nil {
		return desc[E]{rank: rank}, nil
	}

	d := desc[E]{rank: rank, rec: src.rec, off: src.off, layout: src.layout, traits: src.traits}
	switch {
	case fold > 0:
		lead := src.rank - fold
		for i, n := range lens {
			if e := src.ext[lead+i]; e != n {
				return fail(ErrShape, "extent %d is %d, the length of the array it folds into is %d", lead+i, e, n)
			}
		}
		inner := 1 // the stride an array gives the dimension
		for r := src.rank - 1; r >= lead; r-- {
			if e, s := src.ext[r], src.str[r]; e > 1 && s != inner {
				why := fmt.Sprintf("extent %d has stride %d, an array's would be %d: the folded extents must be contiguous, in LayoutRight order", r, s, inner)
				if src.layout == LayoutLeft {
					why += " (a LayoutLeft view's trailing extents are not an array element's)"
				}
				return fail(ErrLayout, "%s; copy it into a LayoutRight view with DeepCopy first", why)
			}
			inner *= src.ext[r]
		}
		size := src.size()
		for r := range lead {
			e, s := src.ext[r], src.str[r]
			if e > 1 && s%block != 0 {
				return fail(ErrLayout, "extent %d has stride %d, not a multiple of the %d elements of one %v: its indices do not step whole arrays; copy it into a LayoutRight view with DeepCopy first", r, s, block, dstT)
			}
			d.ext[r], d.str[r] = e, (s+block-1)/block
		}
		if src.off%block != 0 && size > 0 {
			return fail(ErrLayout, "its first element lies %d elements into its allocation, inside a %v (whose %d elements start at multiples of %d); copy it into a view of its own with DeepCopy first", src.off, dstT, block, block)
		}
		d.off = src.off / block
	case fold < 0:
		copy(d.ext[:], src.ext[:src.rank])
		for r := range src.rank {
			d.str[r] = src.str[r] * block
		}
		inner := 1
		for i := len(lens) - 1; i >= 0; i-- {
			d.ext[src.rank+i], d.str[src.rank+i] = lens[i], inner
			inner *= lens[i]
		}
		d.off = src.off * block
	default:
		d.ext, d.str = src.ext, src.str
	}
	if fold != 0 {
		switch {
		case src.layout == LayoutLeft && rank <= 1 && isLayoutMapping(LayoutLeft, d.extents(), d.strides()):
			d.layout = LayoutLeft
		case isLayoutMapping(LayoutRight, d.extents(), d.strides()):
			d.layout = LayoutRight
		default:
			d.layout = LayoutStride
		}
	}

	if s.host != nil {
		span := d.span()
		if span*sizeOf[E]() > src.span()*int(s.elem.Size()) {
			panic(fmt.Sprintf("%s: the result's span of %d elements exceeds the view's", what(), span))
		}
		d.data = unsafe.Slice((*E)(s.host), span)
	}
	flags, err := traitFlags[E](src.traits)
	if err == nil {
		flags = foreignFlags(d.rec, d.data, src.flags&(flagReadOnly|flagNoHost)|flags)
		err = atomicDataError(flags, d.data)
	}
	if err != nil {
		return desc[E]{}, fmt.Errorf("%s: %w", what(), err)
	}
	d.flags = flags
	return d, nil
}

// extentsWord returns "1 extent" or "n extents".
func extentsWord(n int) string {
	if n == 1 {
		return "1 extent"
	}
	return fmt.Sprintf("%d extents", n)
}
