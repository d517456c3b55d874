package kernel

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The benchmarks of the vectorized loops: each idiom as the generator's
// unit-stride loop writes it (plain) and as the helper it calls (helper),
// which is the same loop without GOEXPERIMENT=simd and the vector form
// with it. Rows of 1024 elements, in the first-level cache. The loops are
// functions of their own, not in the body of b.Loop, which keeps each
// assignment's result (a sum's accumulator then lives in memory).

const benchN = 1024

func benchF64(n int) []float64 {
	r := rand.New(rand.NewPCG(1, 2))
	a := make([]float64, n)
	for i := range a {
		a[i] = r.Float64() - 0.5
	}
	return a
}

func benchI32(n int, max int32) []int32 {
	r := rand.New(rand.NewPCG(3, 4))
	a := make([]int32, n)
	for i := range a {
		a[i] = r.Int32N(max)
	}
	return a
}

var sinkF64 float64
var sinkI32 int32

func BenchmarkSIMDDotFloat64(b *testing.B) {
	x, y := benchF64(benchN), benchF64(benchN)
	px, py := unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			sinkF64 = plainDot(px, py, benchN)
		}
	})
	b.Run("helper", func(b *testing.B) {
		for b.Loop() {
			sinkF64 = DotFloat64(0, px, py, benchN)
		}
	})
}

func BenchmarkSIMDAxpyFloat64(b *testing.B) {
	x, y := benchF64(benchN), benchF64(benchN)
	px, py := unsafe.Pointer(&x[0]), unsafe.Pointer(&y[0])
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			plainAxpy(py, px, benchN)
		}
	})
	b.Run("helper", func(b *testing.B) {
		for b.Loop() {
			AddFloat64(py, py, px, benchN)
		}
	})
}

func BenchmarkSIMDSumInt32(b *testing.B) {
	x := benchI32(benchN, 1000)
	px := unsafe.Pointer(&x[0])
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			sinkI32 = plainSum(px, benchN)
		}
	})
	b.Run("helper", func(b *testing.B) {
		for b.Loop() {
			sinkI32 = SumInt32(0, px, benchN)
		}
	})
}

// BenchmarkSIMDHistogram16 counts 16-bin values: by compare-and-count (for
// each value, for each bin, count[b] += v == b, the loop a C++ compiler
// vectorizes over the bins) and by the direct index count[v]++; the vector
// form is in simd_amd64_bench_test.go.
func BenchmarkSIMDHistogram16(b *testing.B) {
	x := benchI32(benchN, 16)
	b.Run("compare", func(b *testing.B) {
		for b.Loop() {
			sinkI32 = histCompare(x)[3]
		}
	})
	b.Run("compare-b2i", func(b *testing.B) {
		for b.Loop() {
			sinkI32 = histCompareB2i(x)[3]
		}
	})
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			sinkI32 = histDirect(x)[3]
		}
	})
	histogramVector(b, x)
}

//go:noinline
func plainDot(px, py unsafe.Pointer, n int) float64 {
	s := 0.0
	for j := range n {
		s += float64(*(*float64)(unsafe.Add(px, j*8)) * *(*float64)(unsafe.Add(py, j*8)))
	}
	return s
}

//go:noinline
func plainAxpy(py, px unsafe.Pointer, n int) {
	for j := range n {
		*(*float64)(unsafe.Add(py, j*8)) = *(*float64)(unsafe.Add(py, j*8)) + *(*float64)(unsafe.Add(px, j*8))
	}
}

//go:noinline
func plainSum(px unsafe.Pointer, n int) int32 {
	var s int32
	for j := range n {
		s += *(*int32)(unsafe.Add(px, j*4))
	}
	return s
}

//go:noinline
func histCompare(x []int32) [16]int32 {
	var count [16]int32
	for _, v := range x {
		for bin := range int32(16) {
			if v == bin {
				count[bin]++
			}
		}
	}
	return count
}

//go:noinline
func histCompareB2i(x []int32) [16]int32 {
	var count [16]int32
	for _, v := range x {
		for bin := range int32(16) {
			var one int32
			if v == bin {
				one = 1
			}
			count[bin] += one
		}
	}
	return count
}

//go:noinline
func histDirect(x []int32) [16]int32 {
	var count [16]int32
	for _, v := range x {
		count[v&15]++
	}
	return count
}
