package sched

import (
	"runtime"
	"testing"
)

// Benchmarks of regions run index by index (Dispatch.Index, what
// ParallelFor's body becomes), each against its floor in the same run: a
// plain loop calling the same closure, on one goroutine.

// indexBodyN indices of a triad over three 512 KiB slices: in the caches
// of two cores, so that what the loop around the body costs shows.
const indexBodyN = 1 << 16

func indexTriad() (func(int), []float64) {
	a, x, y := make([]float64, indexBodyN), make([]float64, indexBodyN), make([]float64, indexBodyN)
	for i := range x {
		x[i], y[i] = float64(i%7), float64(i%5)
	}
	return func(i int) { a[i] = x[i] + 3*y[i] }, a
}

//go:noinline
func callLoop(f func(int), lo, hi int) {
	for i := lo; i < hi; i++ {
		f(i)
	}
}

// BenchmarkIndexFloor: the closure called by a plain loop, serially.
func BenchmarkIndexFloor(b *testing.B) {
	f, _ := indexTriad()
	b.SetBytes(24 * indexBodyN)
	for b.Loop() {
		callLoop(f, 0, indexBodyN)
	}
}

// BenchmarkIndexPool: the same closure as a region's Index on a pool of
// GOMAXPROCS participants (at least two), four chunks a participant; its
// floor is BenchmarkIndexFloor's time divided by GOMAXPROCS. With
// GOMAXPROCS 1 the caller runs nearly every chunk itself, through the
// pool's loop over chunks.
func BenchmarkIndexPool(b *testing.B) {
	f, _ := indexTriad()
	size := max(2, runtime.GOMAXPROCS(0))
	p := NewPool(size)
	defer p.Close()
	chunk := (indexBodyN + 4*size - 1) / (4 * size)
	d := &Dispatch{Label: "index", Kind: KindFor, Begin: 0, End: indexBodyN, Chunk: chunk, Index: f}
	b.SetBytes(24 * indexBodyN)
	for b.Loop() {
		if err := Execute(d, p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkIndexSerial: the region on the calling goroutine alone (the
// path of a one-goroutine instance and of nested patterns).
func BenchmarkIndexSerial(b *testing.B) {
	f, _ := indexTriad()
	d := &Dispatch{Label: "index", Kind: KindFor, Begin: 0, End: indexBodyN, Chunk: indexBodyN, Index: f}
	b.SetBytes(24 * indexBodyN)
	for b.Loop() {
		if err := Execute(d, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
