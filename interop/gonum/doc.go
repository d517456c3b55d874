// Package gonum converts gokkos views to and from gonum's matrices and
// vectors (gonum.org/v1/gonum/mat and gonum.org/v1/gonum/blas/blas64),
// sharing memory wherever the layouts allow.
//
// # Sharing memory
//
// A gonum matrix is row-major with a row stride (blas64.General's Stride),
// so a View2[float64] whose columns have stride 1 (LayoutRight, a padded
// view, or a subview of either) becomes a *mat.Dense over the same
// elements: [Dense], [General]. The view's row stride is the matrix's
// Stride. A column-major view (LayoutLeft, or a subview whose rows have
// stride 1) is the transpose of a row-major matrix: [Transpose] returns it
// as a mat.Transpose without copying, and [CopyDense] copies any view into
// a new row-major matrix through kokkos.DeepCopy. A View1[float64] of any
// positive stride becomes a *mat.VecDense or a blas64.Vector whose Inc is
// that stride: [VecDense], [Vector].
//
// The other way, [FromDense], [FromGeneral], [FromVecDense] and
// [FromVector] wrap gonum's storage as an unmanaged view (LayoutRight, or
// LayoutStride for a vector with Inc > 1): writes through either side are
// seen by the other.
//
// # What is refused, and why
//
// Every function returns an error instead of a matrix where sharing would
// break a promise of the view:
//   - a read-only view (kokkos.ErrReadOnly): gonum has no read-only matrix,
//     and any of its methods may write; CopyDense and CopyVecDense copy one;
//   - a view in memory the host cannot access (kokkos.ErrNotHostAccessible):
//     mirror it to the host first with kokkos.CreateMirrorViewAndCopy;
//   - a view with the Atomic trait (ErrAtomic): its elements are only
//     touched atomically, and gonum's loads and stores are plain;
//   - a view whose allocation was released (kokkos.ErrReleased);
//   - a layout gonum cannot describe (kokkos.ErrLayout): the error says
//     what helps, Transpose for a column-major view, a copy (CopyDense, or
//     kokkos.DeepCopy into a LayoutRight view) for a view with no unit
//     stride;
//   - a zero extent (kokkos.ErrShape), since gonum has no matrix or vector
//     with a zero dimension: the other way too, FromDense and FromVecDense
//     refuse an empty matrix or vector, FromGeneral and FromVector a zero
//     dimension; a nil matrix or vector is refused with ErrNil.
//
// To write a result into a LayoutLeft view c, write its transpose into
// Transpose(c), a row-major matrix over c's memory: the transposed product
// Bᵀ·Aᵀ leaves A·B in c (see the example of Transpose).
//
// Sharing memory keeps the view's rules: the matrix is valid while the
// view's allocation is, so hold the view (or Retain its allocation) while
// gonum uses the matrix.
package gonum
