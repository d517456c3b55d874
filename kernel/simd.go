package kernel

import "unsafe"

// Vectorized loops of the host code. The generator writes an innermost
// loop of unit stride whose accesses are proved in range, and whose body
// is one of a few idioms, as a call of a helper here:
//
//	s += a.At(.., j) * b.At(j)            s = DotT(s, &a[..][lo], &b[lo], n)
//	s += a.At(.., j)                      s = SumT(s, &a[..][lo], n)
//	c.Set(.., j, a.At(.., j) op b.At(j))  OpT(&c[..][lo], &a[..][lo], &b[lo], n)
//
// for T float64, float32, int32 or int64 and op +, - or *. The maps run
// stream.go's AVX2 assembly on amd64 in every build (the loops elsewhere);
// built with GOEXPERIMENT=simd on amd64 the sums and dot products run as
// 256-bit vectors (simd_amd64.go); otherwise they are the scalar loops
// (simd_generic.go), and the results are the loop's own. The vector sums of integers are
// exact (they wrap as the loop does); those of floats add in another
// order, so the generator writes them only for kernels marked fastmath.
// The maps give the loop's results in either build.

// number is the element types of the helpers.
type number interface {
	~float64 | ~float32 | ~int32 | ~int64
}

func sumScalar[T number](s T, p unsafe.Pointer, n int) T {
	for _, x := range unsafe.Slice((*T)(p), n) {
		s += x
	}
	return s
}

func dotScalar[T number](s T, p, q unsafe.Pointer, n int) T {
	a, b := unsafe.Slice((*T)(p), n), unsafe.Slice((*T)(q), n)
	for i := range a {
		s += T(a[i] * b[i])
	}
	return s
}

func addScalar[T number](dst, p, q unsafe.Pointer, n int) {
	c := unsafe.Slice((*T)(dst), n)
	a, b := unsafe.Slice((*T)(p), len(c)), unsafe.Slice((*T)(q), len(c))
	for i := range c {
		c[i] = a[i] + b[i]
	}
}

func subScalar[T number](dst, p, q unsafe.Pointer, n int) {
	c := unsafe.Slice((*T)(dst), n)
	a, b := unsafe.Slice((*T)(p), len(c)), unsafe.Slice((*T)(q), len(c))
	for i := range c {
		c[i] = a[i] - b[i]
	}
}

func mulScalar[T number](dst, p, q unsafe.Pointer, n int) {
	c := unsafe.Slice((*T)(dst), n)
	a, b := unsafe.Slice((*T)(p), len(c)), unsafe.Slice((*T)(q), len(c))
	for i := range c {
		c[i] = T(a[i] * b[i])
	}
}
