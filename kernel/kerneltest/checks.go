package kerneltest

import (
	"math"

	"github.com/gokkos/kokkos"
)

// The kernels below exercise the host code's bounds checks: accesses in
// loops checked once before the loop (checks_test.go runs each on random
// data against the function called directly, and with indices that leave
// the views, where the checked copy must panic), rows of small constant
// extent, and kernels marked nocheck, whose host code loads and stores
// without checks unless kernel.CheckHostBounds is on.

// YAx is y = A x for the row i, over the m columns of A.
//
//kokkos:kernel
func YAx(i int, y kokkos.View1[float64], A kokkos.View2[float64], x kokkos.View1[float64], m int) {
	s := 0.0
	for j := range m {
		s += A.At(i, j) * x.At(j)
	}
	y.Set(i, s)
}

// YAxExt is YAx over the extent of A's columns.
//
//kokkos:kernel
func YAxExt(i int, y kokkos.View1[float64], A kokkos.View2[float64], x kokkos.View1[float64]) {
	s := 0.0
	for j := range A.Extent(1) {
		s += A.At(i, j) * x.At(j)
	}
	y.Set(i, s)
}

// LoopForms sums x over loops of every form whose range is known before
// the loop: inclusive bounds, steps, bounds from locals, indices and
// enclosing loops (a triangle), an offset and a scaled index, a loop
// variable the body assigns (checked on each access), and a store.
//
//kokkos:kernel
func LoopForms(i int, x kokkos.View1[int64], w kokkos.View2[int64], lo, hi int, out kokkos.View2[int64]) {
	var s0 int64
	for k := lo; k <= hi; k++ {
		s0 += x.At(k) * int64(k)
	}
	var s1 int64
	for k := lo; k < hi; k += 3 {
		s1 += x.At(k+1) - x.At(2*k-lo)
	}
	n := i % 7
	var s2 int64
	for a := range n {
		for b := a; b < n; b++ {
			s2 += w.At(a, b) * x.At(i+b-a)
		}
	}
	var s3 int64
	for k := 0; k < hi; k++ {
		s3 += x.At(k)
		if x.At(k) < 0 {
			k++
		}
	}
	for c := range w.Extent(1) {
		out.Set(i, c%4, out.At(i, c%4)+w.At(i%w.Extent(0), c))
	}
	out.Set(i, 4, s0)
	out.Set(i, 5, s1)
	out.Set(i, 6, s2)
	out.Set(i, 7, s3)
}

// Norm3 is the length of each row of x, an (N, 3) view of positions.
//
//kokkos:kernel
func Norm3(i int, r kokkos.View1[float64], x kokkos.View2[float64]) {
	r.Set(i, math.Sqrt(x.At(i, 0)*x.At(i, 0)+x.At(i, 1)*x.At(i, 1)+x.At(i, 2)*x.At(i, 2)))
}

// Force is a Lennard-Jones-like force on particle i from its neighbors
// (the first cnt of the row i of neigh), x and f of shape (N, 3): a
// gather whose indices the host checks on each access.
//
//kokkos:kernel
func Force(i int, f, x kokkos.View2[float64], neigh kokkos.View2[int32], cnt int, cut2 float64) {
	xi, yi, zi := x.At(i, 0), x.At(i, 1), x.At(i, 2)
	var fx, fy, fz float64
	for k := range cnt {
		j := int(neigh.At(i, k))
		dx, dy, dz := xi-x.At(j, 0), yi-x.At(j, 1), zi-x.At(j, 2)
		r2 := dx*dx + dy*dy + dz*dz
		if r2 < cut2 {
			r2i := 1 / r2
			r6i := r2i * r2i * r2i
			s := 48 * r6i * (r6i - 0.5) * r2i
			fx += dx * s
			fy += dy * s
			fz += dz * s
		}
	}
	f.Set(i, 0, fx)
	f.Set(i, 1, fy)
	f.Set(i, 2, fz)
}

// ForceNocheck is Force without the host's checks.
//
//kokkos:kernel nocheck
func ForceNocheck(i int, f, x kokkos.View2[float64], neigh kokkos.View2[int32], cnt int, cut2 float64) {
	xi, yi, zi := x.At(i, 0), x.At(i, 1), x.At(i, 2)
	var fx, fy, fz float64
	for k := range cnt {
		j := int(neigh.At(i, k))
		dx, dy, dz := xi-x.At(j, 0), yi-x.At(j, 1), zi-x.At(j, 2)
		r2 := dx*dx + dy*dy + dz*dz
		if r2 < cut2 {
			r2i := 1 / r2
			r6i := r2i * r2i * r2i
			s := 48 * r6i * (r6i - 0.5) * r2i
			fx += dx * s
			fy += dy * s
			fz += dz * s
		}
	}
	f.Set(i, 0, fx)
	f.Set(i, 1, fy)
	f.Set(i, 2, fz)
}

// GatherNocheck sums, without the host's checks, x at the indices of the
// row i of idx, and adds them to out atomically at the first one: every
// access form of a nocheck kernel (At, Set, Ptr; a reduction). The Set
// stores idx(i, 0) back, an element no other index touches.
//
//kokkos:kernel nocheck
func GatherNocheck(i int, x kokkos.View1[float64], idx kokkos.View2[int32], out kokkos.View1[float64], acc *float64) {
	s := 0.0
	for k := range idx.Extent(1) {
		s += x.At(int(idx.At(i, k)))
	}
	if i%5 == 0 {
		return
	}
	kokkos.AtomicAdd(out.Ptr(int(idx.At(i, 0))), s)
	idx.Set(i, 0, idx.At(i, 0))
	*acc += s
}

// GatherNocheck2 is a nocheck kernel over a box: out(i, j) = x(idx(i, j)).
//
//kokkos:kernel nocheck
func GatherNocheck2(i, j int, x kokkos.View1[float32], idx kokkos.View2[int32], out kokkos.View2[float32]) {
	out.Set(i, j, x.At(int(idx.At(i, j))))
}

// YAxEach is YAx with a loop whose range the generator does not take as
// known (j = j + 1 is not one of the forms), so that each access is
// checked: the host code of YAx before loops were checked once.
//
//kokkos:kernel
func YAxEach(i int, y kokkos.View1[float64], A kokkos.View2[float64], x kokkos.View1[float64], m int) {
	s := 0.0
	for j := 0; j < m; j = j + 1 {
		s += A.At(i, j) * x.At(j)
	}
	y.Set(i, s)
}

// Axpy3 is y += a x on rows of 3, (N, 3) views of positions.
//
//kokkos:kernel
func Axpy3(i int, y, x kokkos.View2[float64], a float64) {
	y.Set(i, 0, y.At(i, 0)+a*x.At(i, 0))
	y.Set(i, 1, y.At(i, 1)+a*x.At(i, 1))
	y.Set(i, 2, y.At(i, 2)+a*x.At(i, 2))
}

// ScaleRows is y = a x over the first m columns of the row i.
//
//kokkos:kernel
func ScaleRows(i int, y, x kokkos.View2[float64], a float64, m int) {
	for j := range m {
		y.Set(i, j, a*x.At(i, j))
	}
}

// MatMul is c = a b, the inner product over a loop in a kernel over a
// box.
//
//kokkos:kernel
func MatMul(i, j int, c, a, b kokkos.View2[float64]) {
	s := 0.0
	for k := range a.Extent(1) {
		s += a.At(i, k) * b.At(k, j)
	}
	c.Set(i, j, s)
}

// Histo adds the row i of x to h, atomically, and counts in cnt the
// entries of the row above t: stores and atomics through Ptr in loops.
//
//kokkos:kernel
func Histo(i int, h kokkos.View1[int64], x kokkos.View2[int64], cnt kokkos.View2[int32], t int64) {
	for k := range x.Extent(1) {
		kokkos.AtomicAdd(h.Ptr(k), x.At(i, k))
		if x.At(i, k) > t {
			cnt.Set(i, k/2, cnt.At(i, k/2)+1)
		}
	}
	for k := 0; k < x.Extent(1); k += 2 {
		kokkos.AtomicAdd(cnt.Ptr(i, x.Extent(1)/2+k/2), 1)
	}
}
