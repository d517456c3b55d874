package kokkos

import "fmt"

// lineAnyCheck is the cold path of a Line call with the indices idx on a
// view of the given extents and strides, whose contiguous dimension is d
// (-1: none): it returns where the only reason is flagForeign and the
// memory is still there, and otherwise panics with the reason.
func lineAnyCheck(rec *Allocation, flags viewFlags, layout Layout, idx, ext, str []int, d int) {
	if flags&(flagReadOnly|flagNoHost|flagAtomic) != 0 {
		viewPanic("Line", rec, flags)
	}
	if d < 0 {
		panic(fmt.Sprintf("kokkos: Line%s of view %q: no contiguous dimension (%v, extents %s, strides %s): neither dimension 0 nor dimension %d has stride 1; use At, or DeepCopy into a LayoutRight or LayoutLeft view",
			fmtInts(idx), rec.Label(), layout, fmtInts(ext), fmtInts(str), len(ext)-1))
	}
	first := 0 // idx[k] indexes dimension first+k
	if d == 0 {
		first = 1
	}
	for k, j := range idx {
		if uint(j) >= uint(ext[first+k]) {
			panic(fmt.Sprintf("kokkos: Line%s along dimension %d out of bounds for view %q with extents %s", fmtInts(idx), d, rec.Label(), fmtInts(ext)))
		}
	}
	if released(rec, flags) {
		panic(releasedMessage("Line", rec, idx))
	}
}
