// Package kokkos provides performance-portable multidimensional arrays
// (views) and parallel patterns for Go, modelled on Kokkos.
//
// # Views
//
// A view is a value that refers to elements of type T through a layout
// mapping. View0[T] … View8[T] have a fixed rank and fixed-arity accessors
// (At, Set, Ptr); up to rank 3 the compiler inlines At and Ptr to the bounds
// checks and the index arithmetic (Set up to rank 2; docs/internals/design.md
// lists the costs); DynRankView[T] chooses its rank at run time, and
// OffsetView1[T] … OffsetView8[T] index from any begin:
//
//	a := kokkos.Must(kokkos.NewView2[float64]("A", n0, n1))                // LayoutRight, zeroed
//	c, err := kokkos.NewView2[float64]("C", n0, n1, kokkos.LayoutLeft)    // column-major
//	a.Set(i, j, 2.5)
//	x := a.At(i, j)
//
// Copying a view copies the reference, as in Kokkos; DeepCopy copies
// elements. Indices are always checked: an out-of-bounds index panics with
// the view's label, the indices and the extents, as a Go slice does.
//
// # Layouts and subviews
//
// LayoutRight is row-major (the default), LayoutLeft column-major, and
// LayoutStride takes explicit strides (WithStrides). AllowPadding pads the
// leading dimension to 64 bytes, and rows of a multiple of 4 KiB by one
// cache line more. Subview methods, named by the result's
// rank, take an int index, All or Pair(begin, end) per dimension and share
// memory with their parent; they keep LayoutRight or LayoutLeft where
// Kokkos's rules allow it:
//
//	s := a.Subview1(i, kokkos.All) // row i: LayoutRight, rank 1
//	t := a.Subview2(kokkos.All, kokkos.Pair(2, 6))
//
// Row and Col return a contiguous line of a view as a plain Go slice for the
// fastest inner loops.
//
// # Read-only views and conversions
//
// ReadOnly returns a view whose writes panic; no call turns it back into a
// writable one. AsLayout converts between layouts under Kokkos's assignment
// rules and returns an error naming the rule that failed.
//
// # Atomic views
//
// A view with the Atomic trait is read and written only through Ref, the
// atomic reference to one element: v.Ref(i, j).Add(x) is Kokkos's
// v(i, j) += x. At, Set, Ptr and the slices panic on such a view, naming Ref.
//
// # Code generic over views
//
// Every view kind implements View[T]. ShapeOf returns what generic code
// reads of any view (rank, extents, strides, begins, label, space, traits),
// and DynRankFrom gives indexed access to any of rank at most 7 (Kokkos's
// limit for DynRankView).
//
// # Memory spaces and ownership
//
// HostSpace is Go memory, reclaimed by the garbage collector. Other spaces
// (CUDA device, pinned and unified memory, in package
// github.com/gokkos/kokkos/cuda) implement backend.BlockSpace; their memory is freed
// by the last Release of the view's Allocation. Go copies values without
// telling anyone, so the holder count is explicit: Retain adds a holder,
// Release removes one, and copies and subviews share the count. Memory
// outside the Go heap is freed by the last Release and by nothing else: an
// Allocation dropped before it is reported (SetLeakHandler), never freed
// under a slice that still points into it.
//
// # Errors
//
// Failures a caller can act on are errors wrapping one sentinel (ErrShape,
// ErrReadOnly, ErrReleased, ...) for errors.Is; programmer errors panic with
// the view's label, the indices and the extents.
//
// # Deep copies and mirrors
//
// DeepCopy copies between two views of equal extents, in any layouts and
// spaces, contiguous or not, through one copy planner; Fill stores a value
// in every element. CreateMirror, CreateMirrorView and
// CreateMirrorViewAndCopy give host copies of device views, and Resize and
// Realloc change extents.
//
// # Execution spaces and parallel patterns
//
// ParallelFor, ParallelReduce and ParallelScan run over a RangePolicy or an
// MDRangePolicy on an execution space: Serial, or the goroutine pool
// Threads (the default). Reductions give bit-identical results for any
// number of threads. Instances made with NewInstance run work
// asynchronously and in order; Fence waits for them:
//
//	sum := kokkos.ParallelReduce("dot", kokkos.Range(0, n), kokkos.Sum[float64](),
//		func(i int, acc *float64) { *acc += x.At(i) * y.At(i) })
//
// A UniqueToken (NewUniqueToken) hands each body an id of its own among
// those running at once, for per-id copies of an accumulator or per-id
// random generators.
package kokkos
