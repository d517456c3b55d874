package kerneltest

import (
	"math"

	"github.com/gokkos/kokkos"
)

// Kernels with local arrays and structs, and helper methods.

// LocalHist counts, in a local histogram of 16 bins, the low 4 bits of
// row i of in, then adds the bins to hist atomically, and writes the
// row's most frequent bin to mode.
//
//kokkos:kernel
func LocalHist(i int, in kokkos.View2[int32], hist kokkos.View1[int32], mode kokkos.View1[int32]) {
	var h [16]int32
	for k := range in.Extent(1) {
		h[in.At(i, k)&15]++
	}
	g := h // a copy: g's bins do not change with h's
	h[0] = -1
	best := 0
	for b, c := range g {
		if c > g[best] {
			best = b
		}
	}
	for b := range g {
		if g[b] != 0 {
			kokkos.AtomicAdd(hist.Ptr(b), g[b])
		}
	}
	mode.Set(i, int32(best)+100*int32(h[0])+rotated(g)[15])
}

// rotated returns a moved left by one bin, by value.
//
//kokkos:kernel
func rotated(a [16]int32) [16]int32 {
	b := a
	for k := 0; k < len(b)-1; k++ {
		b[k] = a[k+1]
	}
	b[len(b)-1] = a[0]
	return b
}

// vec3 is a vector of three float64s.
type vec3 struct{ X, Y, Z float64 }

//kokkos:kernel
func (a vec3) add(b vec3) vec3 { return vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

//kokkos:kernel
func (a vec3) sub(b vec3) vec3 { return vec3{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z} }

//kokkos:kernel
func (a vec3) scale(s float64) vec3 { return vec3{a.X * s, a.Y * s, a.Z * s} }

//kokkos:kernel
func (a vec3) dot(b vec3) float64 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }

// load reads row i of pos as a vec3.
//
//kokkos:kernel
func load(x, y, z float64) vec3 { return vec3{x, y, z} }

// Forces sums on particle i the inverse-square attractions of the n
// particles at the rows of pos (softened by eps), and writes the force
// to row i of f.
//
//kokkos:kernel
func Forces(i int, pos kokkos.View2[float64], f kokkos.View2[float64], eps float64) {
	p := load(pos.At(i, 0), pos.At(i, 1), pos.At(i, 2))
	var acc vec3
	for j := range pos.Extent(0) {
		q := vec3{pos.At(j, 0), pos.At(j, 1), pos.At(j, 2)}
		r := q.sub(p)
		d2 := r.dot(r) + eps
		acc = acc.add(r.scale(1 / (d2 * math.Sqrt(d2))))
	}
	c := [3]float64{acc.X, acc.Y, acc.Z}
	for k := range 3 {
		f.Set(i, k, c[k])
	}
}

// xorshift is the state of an xorshift64* generator.
type xorshift struct{ s uint64 }

// next advances the generator and returns its output.
//
//kokkos:kernel
func (r *xorshift) next() uint64 {
	r.s ^= r.s >> 12
	r.s ^= r.s << 25
	r.s ^= r.s >> 27
	return r.s * 2685821657736338717
}

// skip advances the generator n times.
//
//kokkos:kernel
func (r *xorshift) skip(n int) {
	for range n {
		r.next()
	}
}

// moments holds a count and the sums of draws and of their squares.
type moments struct {
	n   int32
	sum [2]float64
}

// Draws seeds a generator per index, skips some draws, and writes the
// next draws to row i of out and their moments to row i of m.
//
//kokkos:kernel
func Draws(i int, out kokkos.View2[uint64], m kokkos.View2[float64], seed uint64) {
	r := xorshift{s: seed ^ uint64(i)*0x9E3779B97F4A7C15}
	if r.s == 0 {
		r.s = 1
	}
	r.skip(i % 5)
	var st moments
	for k := range out.Extent(1) {
		x := r.next()
		out.Set(i, k, x)
		u := float64(x>>11) / (1 << 53)
		st.n++
		st.sum[0] += u
		st.sum[1] += u * u
	}
	m.Set(i, 0, float64(st.n))
	m.Set(i, 1, st.sum[0])
	m.Set(i, 2, st.sum[1])
}

// LocalIndex reads a local table at an index from a view: an index
// outside the table panics on the host, as Go's does.
//
//kokkos:kernel
func LocalIndex(i int, idx kokkos.View1[int32], out kokkos.View1[int32]) {
	var t [8]int32
	for k := range t {
		t[k] = int32(k * k)
	}
	var grid [2][4]int32
	grid[1][idx.At(i)&3] = t[7]
	out.Set(i, t[idx.At(i)]+grid[1][3])
}

// deposit counts x (in [0, 1)) in its bin of hist, writes it and its
// double to row i of out, and returns the double: a helper that writes
// views, as a C++ Kokkos body calls a function of views.
//
//kokkos:kernel
func deposit(hist kokkos.View1[int32], out kokkos.View2[float64], i int, x float64) float64 {
	b := int(x * float64(hist.Extent(0)))
	kokkos.AtomicAdd(hist.Ptr(min(b, hist.Extent(0)-1)), 1)
	out.Set(i, 0, x)
	twice(out, i)
	return out.At(i, 1)
}

// twice writes twice column 0 of row i of out to column 1.
//
//kokkos:kernel
func twice(out kokkos.View2[float64], i int) { out.Set(i, 1, 2*out.At(i, 0)) }

// Deposit deposits each x in hist and out through helpers, and writes
// the sum of what they return to sum.
//
//kokkos:kernel
func Deposit(i int, x kokkos.View1[float64], hist kokkos.View1[int32], out kokkos.View2[float64], sum kokkos.View1[float64]) {
	y := deposit(hist, out, i, x.At(i))
	sum.Set(i, y+out.At(i, 0))
}

// frame is a box corner and a step, given to a kernel by value: its
// fields have padding between them.
type frame struct {
	lo   [3]float64
	step float32
	n    int32
	tag  int8
	id   int64
}

// Place writes to row i of out the point of fr's lattice at i, and fr's id.
//
//kokkos:kernel
func Place(i int, out kokkos.View2[float64], fr frame) {
	for k := range 3 {
		out.Set(i, k, fr.lo[k]+float64(fr.step)*float64(int32(i)%fr.n+int32(fr.tag)))
	}
	out.Set(i, 3, float64(fr.id))
}

// RangeCopy ranges over a local array's values while it writes the
// array: the values are those of a copy made before the loop, as in Go.
//
//kokkos:kernel
func RangeCopy(i int, out kokkos.View1[int64]) {
	a := [3]int64{int64(i), 2, 3}
	for k, v := range a {
		a[(k+1)%3] += v
	}
	out.Set(i, a[0]*100+a[1]*10+a[2])
}
