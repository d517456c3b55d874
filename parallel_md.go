package kokkos

// The MDRange patterns take the rank from the body's type: ParallelForMD
// with a body func(i, j int) runs a rank-2 policy, with func(i, j, k int) a
// rank-3 one. Each dispatches once, on the body's type, to the loops of its
// rank (parallel_md_gen.go), so the loop nest over a tile is the same code
// as a hand-written one and calls the body with its indices in registers.

// MDBody is the type of the body of ParallelForMD: a function of 2 to 6
// int indices.
type MDBody interface {
	func(i0, i1 int) |
		func(i0, i1, i2 int) |
		func(i0, i1, i2, i3 int) |
		func(i0, i1, i2, i3, i4 int) |
		func(i0, i1, i2, i3, i4, i5 int)
}

// MDReduceBody is the type of the body of ParallelReduceMD: a function of
// 2 to 6 int indices and the accumulator.
type MDReduceBody[T any] interface {
	func(i0, i1 int, acc *T) |
		func(i0, i1, i2 int, acc *T) |
		func(i0, i1, i2, i3 int, acc *T) |
		func(i0, i1, i2, i3, i4 int, acc *T) |
		func(i0, i1, i2, i3, i4, i5 int, acc *T)
}

// MDIndex is the type of a multidimensional index of rank 2 to 6, as the
// tile bounds of ParallelForTiles and ParallelReduceTiles.
type MDIndex interface {
	[2]int | [3]int | [4]int | [5]int | [6]int
}

// ParallelForMD calls body(i0, i1, ...) for every index of the
// multidimensional policy p, as Kokkos's parallel_for over an
// MDRangePolicy, concurrently, tile by tile: tiles are handed out in p's
// outer order, and the indices of a tile run in p's inner order. The
// body's number of indices is the rank: func(i, j int) for a rank-2 policy,
// up to six indices. It waits as ParallelFor does, and panics, naming the
// label and the policy, if p is not a valid policy of that rank.
func ParallelForMD[F MDBody](label string, p MDRangePolicy, body F) {
	switch b := any(body).(type) {
	case func(i0, i1 int):
		parallelFor2(label, p, b)
	case func(i0, i1, i2 int):
		parallelFor3(label, p, b)
	case func(i0, i1, i2, i3 int):
		parallelFor4(label, p, b)
	case func(i0, i1, i2, i3, i4 int):
		parallelFor5(label, p, b)
	case func(i0, i1, i2, i3, i4, i5 int):
		parallelFor6(label, p, b)
	}
}

// ParallelReduceMD calls body(i0, i1, ..., acc) for every index of the
// multidimensional policy p and returns the join of all contributions by
// r, as ParallelReduce does; the body's number of indices is the rank, as
// for ParallelForMD. Each tile is reduced from r.Identity() in the inner
// order, and the tile results are joined in a fixed pairwise tree in the
// outer order, so the result depends on the tile sizes and orders but not
// on the number of goroutines or the chunk size. It panics, naming the
// label and the policy, if p is not a valid policy of the body's rank.
func ParallelReduceMD[T any, F MDReduceBody[T]](label string, p MDRangePolicy, r Reducer[T], body F) T {
	switch b := any(body).(type) {
	case func(i0, i1 int, acc *T):
		return parallelReduce2(label, p, r, b)
	case func(i0, i1, i2 int, acc *T):
		return parallelReduce3(label, p, r, b)
	case func(i0, i1, i2, i3 int, acc *T):
		return parallelReduce4(label, p, r, b)
	case func(i0, i1, i2, i3, i4 int, acc *T):
		return parallelReduce5(label, p, r, b)
	default:
		return parallelReduce6(label, p, r, any(body).(func(i0, i1, i2, i3, i4, i5 int, acc *T)))
	}
}

// ParallelForTiles calls body(lo, hi) once per tile of the multidimensional
// policy p, concurrently: the tile is the box lo[d] <= i_d < hi[d], and the
// tiles together cover p's box, each index once. The rank is the length of
// I: func(lo, hi [2]int) for a rank-2 policy. The loops over a tile are the
// body's own, so they compile to plain Go speed: one indirect call per tile
// instead of one per index, and the body can take a contiguous line of a
// view (View2.Line) for its innermost loop. Run that loop over the
// dimension p's inner order runs fastest (the last for IterateRight, the
// default). Tiles are those of ParallelForMD with the same policy. It waits
// as ParallelFor does, and panics, naming the label and the policy, if p is
// not a valid policy of rank len(I).
func ParallelForTiles[I MDIndex](label string, p MDRangePolicy, body func(lo, hi I)) {
	switch b := any(body).(type) {
	case func(lo, hi [2]int):
		parallelForTiles2(label, p, b)
	case func(lo, hi [3]int):
		parallelForTiles3(label, p, b)
	case func(lo, hi [4]int):
		parallelForTiles4(label, p, b)
	case func(lo, hi [5]int):
		parallelForTiles5(label, p, b)
	case func(lo, hi [6]int):
		parallelForTiles6(label, p, b)
	}
}

// ParallelReduceTiles calls body(lo, hi, acc) once per tile of the
// multidimensional policy p, as ParallelForTiles does, and returns the join
// of all contributions by r. *acc starts at r.Identity() for each tile,
// and the tile results are joined in a fixed pairwise tree in the outer
// order, exactly as ParallelReduceMD joins them: a body that runs its tile
// in p's inner order gives the same result, bit for bit, as
// ParallelReduceMD with the same policy, whatever the number of goroutines
// or the chunk size.
func ParallelReduceTiles[T any, I MDIndex](label string, p MDRangePolicy, r Reducer[T], body func(lo, hi I, acc *T)) T {
	switch b := any(body).(type) {
	case func(lo, hi [2]int, acc *T):
		return parallelReduceTiles2(label, p, r, b)
	case func(lo, hi [3]int, acc *T):
		return parallelReduceTiles3(label, p, r, b)
	case func(lo, hi [4]int, acc *T):
		return parallelReduceTiles4(label, p, r, b)
	case func(lo, hi [5]int, acc *T):
		return parallelReduceTiles5(label, p, r, b)
	default:
		return parallelReduceTiles6(label, p, r, any(body).(func(lo, hi [6]int, acc *T)))
	}
}
