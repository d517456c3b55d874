package gonum

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/errkind"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"
)

// Vector returns a blas64.Vector over v's elements, sharing its memory:
// element i of the view is Data[i*Inc], and the view's stride is Inc, so
// strided views (a column of a LayoutRight matrix) convert too. It returns
// the errors of the package overview for read-only, atomic, device and
// empty views.
func Vector(v kokkos.View1[float64]) (blas64.Vector, error) {
	s := kokkos.ShapeOf[float64](&v)
	if err := checkShared("Vector", s, false); err != nil {
		return blas64.Vector{}, err
	}
	inc := s.Strides[0]
	if s.Extents[0] == 1 || inc < 1 {
		inc = 1 // one element: the stride is never used, gonum wants it positive
	}
	return blas64.Vector{N: s.Extents[0], Inc: inc, Data: v.Data()}, nil
}

// VecDense returns a *mat.VecDense over v's elements, sharing its memory:
// writes through either side are seen by the other. It takes the views
// Vector takes and returns its errors.
func VecDense(v kokkos.View1[float64]) (*mat.VecDense, error) {
	b, err := Vector(v)
	if err != nil {
		return nil, err
	}
	var x mat.VecDense
	x.SetRawVector(b)
	return &x, nil
}

// CopyVecDense returns a new *mat.VecDense holding a copy of v's elements:
// the way to hand gonum a read-only view or one with the Atomic trait. It
// returns an error wrapping kokkos.ErrNotHostAccessible for a view the host
// cannot access (mirror it first), and one wrapping kokkos.ErrShape for an
// empty view.
func CopyVecDense(v kokkos.View1[float64]) (*mat.VecDense, error) {
	s := kokkos.ShapeOf[float64](&v)
	if err := checkShared("CopyVecDense", s, true); err != nil {
		return nil, err
	}
	n := s.Extents[0]
	if n == 0 {
		return nil, errorf(kokkos.ErrShape, "CopyVecDense", s, "gonum has no vector of length 0")
	}
	data := make([]float64, n)
	dst, err := kokkos.WrapView1(data, n, kokkos.WithLabel(s.Label))
	if err == nil {
		err = kokkos.DeepCopy[float64](dst, v)
	}
	if err != nil {
		return nil, err
	}
	return mat.NewVecDense(n, data), nil
}

// FromVector returns an unmanaged view labelled label over x's elements,
// sharing its memory: LayoutRight where x.Inc is 1, LayoutStride with
// stride x.Inc otherwise. It returns an error wrapping kokkos.ErrShape for
// a negative or zero N (gonum has no vector of length 0, and VecDense
// refuses an empty view likewise), kokkos.ErrLayout for an Inc below 1 (a
// view's strides are positive), and the error of kokkos.WrapView1 when
// Data is too short.
func FromVector(x blas64.Vector, label string) (kokkos.View1[float64], error) {
	return fromVector("FromVector", x, label)
}

func fromVector(op string, x blas64.Vector, label string) (kokkos.View1[float64], error) {
	switch {
	case x.N < 0:
		return kokkos.View1[float64]{}, errkind.Errorf(kokkos.ErrShape, "gonum: %s %q: negative length %d", op, label, x.N)
	case x.N == 0:
		return kokkos.View1[float64]{}, errkind.Errorf(kokkos.ErrShape,
			"gonum: %s %q: a vector of length 0: gonum has no vector of length 0 (an empty mat.VecDense is only a receiver), and a view of no elements shares no memory; make the view with kokkos.NewView1 instead", op, label)
	case x.N > 1 && x.Inc < 1:
		return kokkos.View1[float64]{}, errkind.Errorf(kokkos.ErrLayout,
			"gonum: %s %q: increment %d: a view's stride must be positive; copy the vector into a new one (mat.VecDense.CloneFromVec)", op, label, x.Inc)
	case x.N <= 1 || x.Inc == 1:
		return kokkos.WrapView1(x.Data, x.N, kokkos.WithLabel(label))
	}
	return kokkos.WrapView1(x.Data, x.N, kokkos.WithLabel(label), kokkos.WithStrides(x.Inc))
}

// FromVecDense returns an unmanaged view labelled label over x's elements,
// sharing its memory, as FromVector(x.RawVector(), label). It returns an
// error wrapping ErrNil for a nil x, and the errors of FromVector (an
// empty x, x.IsEmpty(), is refused with kokkos.ErrShape).
func FromVecDense(x *mat.VecDense, label string) (kokkos.View1[float64], error) {
	if x == nil {
		return kokkos.View1[float64]{}, errkind.Errorf(ErrNil, "gonum: FromVecDense %q of a nil *mat.VecDense: give a vector (mat.NewVecDense)", label)
	}
	return fromVector("FromVecDense", x.RawVector(), label)
}
