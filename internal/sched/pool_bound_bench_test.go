package sched

import (
	"runtime"
	"testing"

	"github.com/gokkos/kokkos/internal/affinity"
)

// BenchmarkTriadPool: STREAM Triad (a = b + s*c, 24 bytes a unit) over 4
// Mi float64 (three 32 MiB arrays, beyond the caches) on a pool of
// GOMAXPROCS participants, in four chunks per participant as the kokkos
// package's default chunk size gives: unbound, and bound by spread to the
// allowed hardware threads, both handing out chunks through one counter.
// The arrays are first written by the same pool.
func BenchmarkTriadPool(b *testing.B) {
	const n = 1 << 22
	size := runtime.GOMAXPROCS(0)
	for _, v := range []struct {
		name  string
		bound bool
	}{{"unbound", false}, {"spread", true}} {
		bound := v.bound
		b.Run(v.name, func(b *testing.B) {
			var p *Pool
			if bound {
				m, err := affinity.ReadMachine()
				if err != nil {
					b.Skip(err)
				}
				places, err := affinity.Assign(affinity.Settings{Policy: affinity.Spread}, m, size)
				if err != nil {
					b.Skip(err)
				}
				if p, err = NewBoundPool(places); err != nil {
					b.Skip(err)
				}
			} else {
				p = NewPool(size)
			}
			defer p.Close()
			chunk := (n + 4*size - 1) / (4 * size)
			a, x, y := make([]float64, n), make([]float64, n), make([]float64, n)
			if err := run(p, 0, n, chunk, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					a[i], x[i], y[i] = 0, float64(i%7), float64(i%5)
				}
			}); err != nil {
				b.Fatal(err)
			}
			const s = 3.0
			triad := func(lo, hi int) {
				a, x, y := a[lo:hi], x[lo:hi], y[lo:hi]
				for i := range a {
					a[i] = x[i] + s*y[i]
				}
			}
			b.SetBytes(24 * n)
			b.ResetTimer()
			for b.Loop() {
				if err := run(p, 0, n, chunk, triad); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
