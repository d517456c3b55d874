package kokkos

import (
	"fmt"

	"github.com/gokkos/kokkos/internal/errkind"
	"github.com/gokkos/kokkos/internal/layout"
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
// NewViewNFrom constructors. Strides are in elements, one per dimension.
// For LayoutStride they are required. For LayoutRight and LayoutLeft they
// may be left empty, and the constructor computes them, or given in full,
// which keeps a padded leading dimension (Kokkos's layout stride, BLAS's
// lda): LayoutLeft's Strides[1] and LayoutRight's Strides[rank-2] may
// exceed the contiguous extent, and every other stride must be that of the
// layout (1 for the contiguous dimension, the product of the inner one's
// stride and extent for the rest); other strides are an error wrapping
// ErrLayout. A view's LayoutSpec gives them in full.
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

// The layout arithmetic lives in internal/layout, as pure functions over
// ints that the generator shares; the functions below adapt it to the
// package's types and map its errors to ErrShape and ErrLayout.

// Layout's values are internal/layout's, and MaxRank is its MaxRank: the
// conversions below compile only while they agree.
const (
	_ = uint(MaxRank-layout.MaxRank) + uint(layout.MaxRank-MaxRank)
	_ = uint(LayoutRight-Layout(layout.Right)) + uint(Layout(layout.Right)-LayoutRight)
	_ = uint(LayoutLeft-Layout(layout.Left)) + uint(Layout(layout.Left)-LayoutLeft)
	_ = uint(LayoutStride-Layout(layout.Stride)) + uint(Layout(layout.Stride)-LayoutStride)
)

// layoutError returns the error of internal/layout err as an error of the
// package's kind for it: ErrShape or ErrLayout. Its message is err's.
func layoutError(err error) error {
	e, ok := err.(*layout.Error)
	if !ok {
		return err
	}
	kind := ErrShape
	if e.Kind == layout.Invalid {
		kind = ErrLayout
	}
	return errkind.Wrap(kind, e)
}

// mulBytes returns the size of n elements of size bytes (layout.MulBytes).
func mulBytes(n, size int) (int, error) {
	b, err := layout.MulBytes(n, size)
	if err != nil {
		return 0, layoutError(err)
	}
	return b, nil
}

// product returns the product of extents, checking signs and overflow
// (layout.Product).
func product(ext []int) (int, error) {
	n, err := layout.Product(ext)
	if err != nil {
		return 0, layoutError(err)
	}
	return n, nil
}

// mapStrides is the one layout mapping (layout.MapStrides): it fills str
// with the strides of a view of extents ext in layout l (given holds
// LayoutStride's strides) and returns the span, the number of elements
// between the first and one past the last addressed element.
func mapStrides(l Layout, ext, given []int, elemSize int, pad bool, str []int) (int, error) {
	span, err := layout.MapStrides(layout.Layout(l), ext, given, elemSize, pad, str)
	if err != nil {
		return 0, layoutError(err)
	}
	return span, nil
}

// spanOf returns 1 + the largest offset, or 0 for an empty view
// (layout.Span).
func spanOf(ext, str []int) (int, error) {
	span, err := layout.Span(ext, str)
	if err != nil {
		return 0, layoutError(err)
	}
	return span, nil
}

// isLayoutMapping reports whether strides are those of layout l
// (LayoutRight or LayoutLeft), with the leading dimension possibly padded
// (layout.IsMapping).
func isLayoutMapping(l Layout, ext, str []int) bool {
	return layout.IsMapping(layout.Layout(l), ext, str)
}

func fmtInts(a []int) string { return layout.FormatInts(a) }

// strideTotal is the last element of Strides for a view of rank ≥ 1, as
// Kokkos's stride(int*) writes it: the largest stride (the first, among
// equal ones) times its dimension's extent.
func strideTotal(ext, str []int) int {
	best := 0
	for r := range str {
		if str[r] > str[best] {
			best = r
		}
	}
	return str[best] * ext[best]
}
