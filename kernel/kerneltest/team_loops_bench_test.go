package kerneltest

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// cpuTime returns the process's user and system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loopCPU runs f b.N times and reports, besides the time, the process's
// CPU time per call (cpu-ns/op), which other processes' load on the
// machine changes less.
func loopCPU(b *testing.B, f func()) {
	start := cpuTime()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
}

// BenchmarkTeamYAxLoops times y·(A x) over a 1024² matrix as the team
// kernel TeamYAx (its nested range's loop unchecked behind a test), as
// TeamYAxNocheck, as the flat kernel YAxRow, and as a loop by hand over
// the rows' slices, a ParallelReduce over the rows.
func BenchmarkTeamYAxLoops(b *testing.B) {
	const n = 1024
	rng := rand.New(rand.NewPCG(1, 2))
	y, x := randView1Bench(b, rng, "y", n), randView1Bench(b, rng, "x", n)
	a := randMatrix(b, rng, "a", n, n)
	p := kokkos.Teams(n, kokkos.Auto)
	sum := kokkos.Sum[float64]()
	for _, k := range []struct {
		name string
		f    any
	}{{"team", TeamYAx}, {"team-nocheck", TeamYAxNocheck}} {
		b.Run(k.name, func(b *testing.B) {
			loopCPU(b, func() {
				if _, err := kernel.Reduce("yax", p, sum, k.f, y, x, a); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
	b.Run("flat", func(b *testing.B) {
		loopCPU(b, func() {
			if _, err := kernel.Reduce("yax", kokkos.Range(0, n), sum, YAxRow, y, x, a); err != nil {
				b.Fatal(err)
			}
		})
	})
	ys, xs, as := make([]float64, n), make([]float64, n), make([]float64, n*n)
	for i := range n {
		ys[i], xs[i] = y.At(i), x.At(i)
		for j := range n {
			as[i*n+j] = a.At(i, j)
		}
	}
	b.Run("slice", func(b *testing.B) {
		loopCPU(b, func() {
			kokkos.ParallelReduce("yax", kokkos.Range(0, n), sum, func(i int, acc *float64) {
				row := as[i*n : i*n+n]
				var s float64
				for j, v := range row {
					s += v * xs[j]
				}
				*acc += ys[i] * s
			})
		})
	})
}
