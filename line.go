package kokkos

import "fmt"

// lineAnyPanic panics for a Line call with the indices idx that failed on
// a view of the given extents and strides, whose contiguous dimension is
// d (-1: none).
func lineAnyPanic(rec *Allocation, flags viewFlags, layout Layout, idx, ext, str []int, d int) {
	if flags&(flagReadOnly|flagNoHost|flagAtomic) != 0 {
		viewPanic("Line", rec, flags)
	}
	if d < 0 {
		panic(fmt.Sprintf("kokkos: Line%s of view %q: no contiguous dimension (%v, extents %s, strides %s): neither dimension 0 nor dimension %d has stride 1; use At, or DeepCopy into a LayoutRight or LayoutLeft view",
			fmtInts(idx), rec.Label(), layout, fmtInts(ext), fmtInts(str), len(ext)-1))
	}
	panic(fmt.Sprintf("kokkos: Line%s along dimension %d out of bounds for view %q with extents %s", fmtInts(idx), d, rec.Label(), fmtInts(ext)))
}
