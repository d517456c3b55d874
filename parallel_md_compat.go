package kokkos

// The rank-numbered names of the MDRange patterns, kept while callers move
// to the generic ones.

// Deprecated: use ParallelForMD.
func ParallelFor2(label string, p MDRangePolicy, body func(i0, i1 int)) { parallelFor2(label, p, body) }

// Deprecated: use ParallelReduceMD.
func ParallelReduce2[T any](label string, p MDRangePolicy, r Reducer[T], body func(i0, i1 int, acc *T)) T {
	return parallelReduce2(label, p, r, body)
}

// Deprecated: use ParallelForTiles.
func ParallelForTiles2(label string, p MDRangePolicy, body func(lo, hi [2]int)) {
	parallelForTiles2(label, p, body)
}

// Deprecated: use ParallelReduceTiles.
func ParallelReduceTiles2[T any](label string, p MDRangePolicy, r Reducer[T], body func(lo, hi [2]int, acc *T)) T {
	return parallelReduceTiles2(label, p, r, body)
}

// Deprecated: use ParallelForMD.
func ParallelFor3(label string, p MDRangePolicy, body func(i0, i1, i2 int)) {
	parallelFor3(label, p, body)
}

// Deprecated: use ParallelReduceMD.
func ParallelReduce3[T any](label string, p MDRangePolicy, r Reducer[T], body func(i0, i1, i2 int, acc *T)) T {
	return parallelReduce3(label, p, r, body)
}

// Deprecated: use ParallelForTiles.
func ParallelForTiles3(label string, p MDRangePolicy, body func(lo, hi [3]int)) {
	parallelForTiles3(label, p, body)
}

// Deprecated: use ParallelReduceTiles.
func ParallelReduceTiles3[T any](label string, p MDRangePolicy, r Reducer[T], body func(lo, hi [3]int, acc *T)) T {
	return parallelReduceTiles3(label, p, r, body)
}

// Deprecated: use ParallelForMD.
func ParallelFor4(label string, p MDRangePolicy, body func(i0, i1, i2, i3 int)) {
	parallelFor4(label, p, body)
}

// Deprecated: use ParallelReduceMD.
func ParallelReduce4[T any](label string, p MDRangePolicy, r Reducer[T], body func(i0, i1, i2, i3 int, acc *T)) T {
	return parallelReduce4(label, p, r, body)
}

// Deprecated: use ParallelForTiles.
func ParallelForTiles4(label string, p MDRangePolicy, body func(lo, hi [4]int)) {
	parallelForTiles4(label, p, body)
}

// Deprecated: use ParallelReduceTiles.
func ParallelReduceTiles4[T any](label string, p MDRangePolicy, r Reducer[T], body func(lo, hi [4]int, acc *T)) T {
	return parallelReduceTiles4(label, p, r, body)
}

// Deprecated: use ParallelForMD.
func ParallelFor5(label string, p MDRangePolicy, body func(i0, i1, i2, i3, i4 int)) {
	parallelFor5(label, p, body)
}

// Deprecated: use ParallelReduceMD.
func ParallelReduce5[T any](label string, p MDRangePolicy, r Reducer[T], body func(i0, i1, i2, i3, i4 int, acc *T)) T {
	return parallelReduce5(label, p, r, body)
}

// Deprecated: use ParallelForTiles.
func ParallelForTiles5(label string, p MDRangePolicy, body func(lo, hi [5]int)) {
	parallelForTiles5(label, p, body)
}

// Deprecated: use ParallelReduceTiles.
func ParallelReduceTiles5[T any](label string, p MDRangePolicy, r Reducer[T], body func(lo, hi [5]int, acc *T)) T {
	return parallelReduceTiles5(label, p, r, body)
}

// Deprecated: use ParallelForMD.
func ParallelFor6(label string, p MDRangePolicy, body func(i0, i1, i2, i3, i4, i5 int)) {
	parallelFor6(label, p, body)
}

// Deprecated: use ParallelReduceMD.
func ParallelReduce6[T any](label string, p MDRangePolicy, r Reducer[T], body func(i0, i1, i2, i3, i4, i5 int, acc *T)) T {
	return parallelReduce6(label, p, r, body)
}

// Deprecated: use ParallelForTiles.
func ParallelForTiles6(label string, p MDRangePolicy, body func(lo, hi [6]int)) {
	parallelForTiles6(label, p, body)
}

// Deprecated: use ParallelReduceTiles.
func ParallelReduceTiles6[T any](label string, p MDRangePolicy, r Reducer[T], body func(lo, hi [6]int, acc *T)) T {
	return parallelReduceTiles6(label, p, r, body)
}
