// Package arrow connects gokkos views and dal arrays to Apache Arrow
// (github.com/apache/arrow-go/v18) without copying: a rank-1 view or a
// dal.Array and an Arrow primitive array (array.Float64, array.Int32, …)
// or memory.Buffer share one block of memory, and a rank-2 view shares
// its elements with a fixed-size-list array or an arrow/tensor tensor.
//
// The package is named arrow, as Arrow's own package is: import one of
// them under another name, as
//
//	import karrow "github.com/gokkos/kokkos/interop/arrow"
//
// # Directions and names
//
// ToView1, ToArray, BufferToView1, BufferToArray, FixedSizeListToView2
// and TensorToView2 take Arrow memory into gokkos; FromView1, FromArray,
// BufferFromView1, BufferFromArray, FixedSizeListFromView2 and
// TensorFromView2 hand gokkos memory to Arrow. Element types are those of
// Element: every fixed-width numeric Arrow type, float16.Num included
// (arrow/tensor has no half-float tensor).
//
// # Ownership
//
// Both sides count holders, and the memory lives until the last holder of
// either side lets go:
//
//   - A view or array made from Arrow memory retains the Arrow buffer
//     that holds the values (memory.Buffer.Retain) and releases it once,
//     when the last holder of its kokkos.Allocation is released: the
//     view's Release, its subviews' and copies' holders, dal arrays made
//     from it. Arrow's own Release of the array may come before or after.
//   - An Arrow array or buffer made from a view or a dal.Array takes a
//     holder of its Allocation (for a dal.Array, a Share) that the buffer's
//     last Release gives back. The view or array keeps its own holders, and may
//     be released before or after the Arrow side.
//
// The releases may come from any goroutines; the memory's deleter (a
// block's Free, a dal deleter, Arrow's allocator) runs exactly once.
// Release every holder on both sides: a holder never released keeps the
// memory from being freed, and is reported as a leak (kokkos.SetLeakHandler).
//
// # What is refused
//
// Arrow arrays with nulls are refused (ErrNulls) unless the caller passes
// FillNulls(x), which makes a copy with x in the null slots; Arrow arrays
// of another element type are refused (ErrType). Views in memory the host
// cannot access (a GPU) are refused with kokkos.ErrNotHostAccessible: copy
// them to the host first (kokkos.CreateMirrorViewAndCopy). Views with the
// Atomic trait are refused with kokkos.ErrElementType, and layouts that the
// Arrow side cannot describe with kokkos.ErrLayout. Views made from Arrow
// memory are read-only unless the caller passes Writable, which Arrow
// memory that is not mutable refuses with kokkos.ErrReadOnly. Options that
// a call cannot apply, or that conflict (Writable with FillNulls, FillNulls
// for a buffer), are refused with ErrOption.
package arrow
