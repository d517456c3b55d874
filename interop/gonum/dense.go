package gonum

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/errkind"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// General returns a blas64.General over v's elements, sharing its memory:
// element (i, j) of the view is Data[i*Stride+j]. v's columns must have
// stride 1 (LayoutRight, a padded view, or a subview that keeps stride 1
// along its columns); the view's row stride becomes Stride. It returns an
// error wrapping kokkos.ErrLayout for other layouts (a column-major view
// converts with Transpose; a view with no unit stride, with CopyDense or
// through a kokkos.DeepCopy into a LayoutRight view), and the errors of
// the package overview for read-only, atomic, device and empty views.
func General(v kokkos.View2[float64]) (blas64.General, error) {
	s := kokkos.ShapeOf[float64](&v)
	if err := checkShared("General", s, false); err != nil {
		return blas64.General{}, err
	}
	stride, ok := rowMajorStride(s.Extents[0], s.Extents[1], s.Strides[0], s.Strides[1])
	if !ok {
		if _, colMajor := rowMajorStride(s.Extents[1], s.Extents[0], s.Strides[1], s.Strides[0]); colMajor {
			return blas64.General{}, errorf(kokkos.ErrLayout, "General", s,
				"gonum needs stride 1 along the columns; this column-major view converts with Transpose (no copy), or CopyDense (a copy)")
		}
		return blas64.General{}, errorf(kokkos.ErrLayout, "General", s, "%s", noUnitStride)
	}
	return blas64.General{Rows: s.Extents[0], Cols: s.Extents[1], Stride: stride, Data: v.Data()}, nil
}

// noUnitStride says what helps a view with stride 1 in neither dimension,
// which neither General nor Transpose can describe.
const noUnitStride = "gonum needs stride 1 along the columns (or, through Transpose, the rows), and this view has neither: " +
	"copy it with CopyDense, or kokkos.DeepCopy it into a LayoutRight view and convert that (writes then reach the copy, not this view)"

// rowMajorStride returns the row stride of gonum's row-major storage of an
// n0×n1 view of strides s0, s1, and whether the view has such storage:
// stride 1 along the columns and rows that do not overlap. A dimension of
// extent 1 may have any stride.
func rowMajorStride(n0, n1, s0, s1 int) (int, bool) {
	if n1 > 1 && s1 != 1 {
		return 0, false
	}
	if n0 == 1 || s0 < n1 {
		// One row: its stride is never used, but gonum checks Stride >= Cols.
		return n1, n0 == 1
	}
	return s0, true
}

// Dense returns a *mat.Dense over v's elements, sharing its memory: writes
// through the matrix are seen through the view and the other way round. It
// takes the views General takes and returns its errors.
func Dense(v kokkos.View2[float64]) (*mat.Dense, error) {
	g, err := General(v)
	if err != nil {
		return nil, err
	}
	var m mat.Dense
	m.SetRawMatrix(g)
	return &m, nil
}

// Transpose returns v as a mat.Transpose of a *mat.Dense over v's
// elements, without copying: At(i, j) of the result is v.At(i, j). It takes
// column-major views: LayoutLeft, or a subview whose rows have stride 1.
// Gonum's operations accept a mat.Transpose wherever they take a
// mat.Matrix. It returns an error wrapping kokkos.ErrLayout for other
// layouts (use Dense for a row-major view; CopyDense, or a kokkos.DeepCopy
// into a LayoutRight view, for a view with no unit stride), and the errors
// of the package overview for read-only, atomic, device and empty views.
func Transpose(v kokkos.View2[float64]) (mat.Transpose, error) {
	s := kokkos.ShapeOf[float64](&v)
	if err := checkShared("Transpose", s, false); err != nil {
		return mat.Transpose{}, err
	}
	stride, ok := rowMajorStride(s.Extents[1], s.Extents[0], s.Strides[1], s.Strides[0])
	if !ok {
		if _, rowMajor := rowMajorStride(s.Extents[0], s.Extents[1], s.Strides[0], s.Strides[1]); rowMajor {
			return mat.Transpose{}, errorf(kokkos.ErrLayout, "Transpose", s,
				"a transposed gonum matrix needs stride 1 along the rows; this row-major view converts with Dense (no copy), or CopyDense (a copy)")
		}
		return mat.Transpose{}, errorf(kokkos.ErrLayout, "Transpose", s, "%s", noUnitStride)
	}
	var m mat.Dense
	m.SetRawMatrix(blas64.General{Rows: s.Extents[1], Cols: s.Extents[0], Stride: stride, Data: v.Data()})
	return mat.Transpose{Matrix: &m}, nil
}

// CopyDense returns a new row-major *mat.Dense holding a copy of v's
// elements, copied by kokkos.DeepCopy: the way to hand gonum a view of any
// layout, a read-only view, or a view with the Atomic trait. It returns
// an error wrapping kokkos.ErrNotHostAccessible for a view the host cannot
// access (mirror it first), and one wrapping kokkos.ErrShape for a view
// with a zero extent.
func CopyDense(v kokkos.View2[float64]) (*mat.Dense, error) {
	s := kokkos.ShapeOf[float64](&v)
	if err := checkShared("CopyDense", s, true); err != nil {
		return nil, err
	}
	r, c := s.Extents[0], s.Extents[1]
	if r == 0 || c == 0 {
		return nil, errorf(kokkos.ErrShape, "CopyDense", s, "gonum has no matrix with a zero dimension")
	}
	data := make([]float64, r*c)
	dst, err := kokkos.WrapView2(data, r, c, kokkos.WithLabel(s.Label))
	if err == nil {
		err = kokkos.DeepCopy[float64](dst, v)
	}
	if err != nil {
		return nil, err
	}
	return mat.NewDense(r, c, data), nil
}

// FromGeneral returns an unmanaged LayoutRight view labelled label over
// g's elements, sharing its memory: view element (i, j) is
// g.Data[i*g.Stride+j], and g's Stride is the view's row stride (a padded
// view where Stride > Cols). It returns an error wrapping kokkos.ErrShape
// when g's fields do not describe a matrix (negative dimensions, Stride <
// Cols, Data too short) and for a zero dimension: gonum has no matrix with
// a zero dimension, so, as Dense refuses a view with a zero extent,
// FromGeneral refuses a matrix without elements.
func FromGeneral(g blas64.General, label string) (kokkos.View2[float64], error) {
	return fromGeneral("FromGeneral", g, label)
}

func fromGeneral(op string, g blas64.General, label string) (kokkos.View2[float64], error) {
	if g.Rows < 0 || g.Cols < 0 || g.Stride < max(g.Cols, 1) && g.Rows > 1 {
		return kokkos.View2[float64]{}, errkind.Errorf(kokkos.ErrShape,
			"gonum: %s %q: %d rows, %d columns and stride %d do not describe a row-major matrix", op, label, g.Rows, g.Cols, g.Stride)
	}
	if g.Rows == 0 || g.Cols == 0 {
		return kokkos.View2[float64]{}, errkind.Errorf(kokkos.ErrShape,
			"gonum: %s %q: a matrix of %d rows and %d columns: gonum has no matrix with a zero dimension (an empty mat.Dense is only a receiver), and a view of no elements shares no memory; make the view with kokkos.NewView2 instead", op, label, g.Rows, g.Cols)
	}
	stride := max(g.Stride, g.Cols)
	v, err := kokkos.WrapView2(g.Data, g.Rows, g.Cols, kokkos.WithLabel(label), kokkos.WithStrides(stride, 1))
	if err != nil {
		return v, err
	}
	return v.AsLayout(kokkos.LayoutRight)
}

// FromDense returns an unmanaged LayoutRight view labelled label over m's
// elements, sharing its memory, as FromGeneral(m.RawMatrix(), label). It
// returns an error wrapping ErrNil for a nil m, and one wrapping
// kokkos.ErrShape for an empty matrix (m.IsEmpty(), such as a zero
// mat.Dense not yet used as a receiver): it has no elements to share, as
// a view with a zero extent has none to give Dense.
func FromDense(m *mat.Dense, label string) (kokkos.View2[float64], error) {
	if m == nil {
		return kokkos.View2[float64]{}, errkind.Errorf(ErrNil, "gonum: FromDense %q of a nil *mat.Dense: give a matrix (mat.NewDense)", label)
	}
	return fromGeneral("FromDense", m.RawMatrix(), label)
}
