package kokkos

import (
	"runtime"
	"sync"
	"testing"
)

// Benchmarks of per-index bodies (ParallelFor, ParallelReduce and
// ParallelScan with a closure called once per index, the side-by-side
// harness's [per-index] rows and its body scan), each against its floor in
// the same run: the same closure called by plain Go loops, split over
// GOMAXPROCS goroutines for ParallelFor and ParallelReduce
// (base-ns/op), and by one serial loop, once per index, for ParallelScan,
// which calls its body twice for most indices. The pattern and its floor
// call the same func value. "speedup" is base/lib: 1 means the pattern
// adds nothing to the indirect call per index.

const indexBenchN = 1 << 24

// callEach calls f(i) for i from lo to hi-1, as a plain loop does.
//
//go:noinline
func callEach(f func(i int), lo, hi int) {
	for i := lo; i < hi; i++ {
		f(i)
	}
}

//go:noinline
func callEachAcc(f func(i int, acc *float64), lo, hi int, acc *float64) {
	for i := lo; i < hi; i++ {
		f(i, acc)
	}
}

//go:noinline
func callEachScan(f func(i int, acc *int32, final bool), lo, hi int, acc *int32) {
	for i := lo; i < hi; i++ {
		f(i, acc, true)
	}
}

// splitGo runs body over equal shares of [0, n) on GOMAXPROCS goroutines.
func splitGo(n int, body func(k, lo, hi int)) {
	nt := runtime.GOMAXPROCS(0)
	per := (n + nt - 1) / nt
	var wg sync.WaitGroup
	for k := range nt {
		wg.Go(func() { body(k, k*per, min((k+1)*per, n)) })
	}
	wg.Wait()
}

func indexViews(b *testing.B) (x, y, z View1[float64]) {
	x, y, z = Must(NewView1[float64]("x", indexBenchN)), Must(NewView1[float64]("y", indexBenchN)), Must(NewView1[float64]("z", indexBenchN))
	ParallelForChunks("init", Range(0, indexBenchN), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			x.Set(i, float64(i%7))
			y.Set(i, float64(i%5))
		}
	})
	return
}

// BenchmarkTriadIndexViews: the harness's stream.triad[per-index] body.
func BenchmarkTriadIndexViews(b *testing.B) {
	x, y, z := indexViews(b)
	const s = 0.4
	body := func(i int) { z.Set(i, x.At(i)+s*y.At(i)) }
	benchVs(b, 1, func() {
		ParallelFor("triad", Range(0, indexBenchN), body)
	}, func() { splitGo(indexBenchN, func(_, lo, hi int) { callEach(body, lo, hi) }) })
	b.SetBytes(3 * 8 * indexBenchN)
}

// BenchmarkDotIndexViews: the harness's stream.dot[per-index] body.
func BenchmarkDotIndexViews(b *testing.B) {
	x, y, _ := indexViews(b)
	var sink float64
	body := func(i int, acc *float64) { *acc += x.At(i) * y.At(i) }
	benchVs(b, 1, func() {
		sink += ParallelReduce("dot", Range(0, indexBenchN), Sum[float64](), body)
	}, func() {
		part := make([]float64, runtime.GOMAXPROCS(0))
		splitGo(indexBenchN, func(k, lo, hi int) {
			acc := new(float64)
			callEachAcc(body, lo, hi, acc)
			part[k] = *acc
		})
		for _, v := range part {
			sink += v
		}
	})
	b.SetBytes(2 * 8 * indexBenchN)
}

// BenchmarkScanIndexInt32: the harness's body scan (BenchmarkParallelScanInt32)
// against the same closure called once per index by one serial loop.
func BenchmarkScanIndexInt32(b *testing.B) {
	x, y := make([]int32, indexBenchN), make([]int32, indexBenchN)
	for i := range x {
		x[i] = int32(i % 7)
	}
	body := func(i int, acc *int32, final bool) {
		*acc += x[i]
		if final {
			y[i] = *acc
		}
	}
	var sink int32
	benchVs(b, 1, func() {
		sink += ParallelScan("scan", Range(0, indexBenchN), Sum[int32](), body)
	}, func() {
		acc := new(int32)
		callEachScan(body, 0, indexBenchN, acc)
		sink += *acc
	})
	b.SetBytes(8 * indexBenchN)
}
