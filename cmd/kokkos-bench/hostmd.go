package main

import (
	"fmt"
	"runtime"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

func init() {
	register(suite{name: "mdrange", desc: "MDRange 2-D write, heat stencil and sum (tile and per-index bodies), short expensive reduction vs plain Go loops", run: runMDRange})
}

var sinkMD float64

func runMDRange(cfg config, add func(measure)) error {
	n := scaled(4096, cfg.scale)
	a, err := kokkos.NewView2[float64]("md.a", n, n)
	if err != nil {
		return err
	}
	b, err := kokkos.NewView2[float64]("md.b", n, n)
	if err != nil {
		return err
	}
	ad, bd := a.Data(), b.Data()
	for i := range ad {
		ad[i] = float64(i%17) * 0.25
	}
	all := kokkos.MDRange([]int{0, 0}, []int{n, n})
	inner := kokkos.MDRange([]int{1, 1}, []int{n - 1, n - 1})
	gidx := func(count int) func(sec float64) float64 {
		return func(sec float64) float64 { return float64(count) / sec / 1e9 }
	}
	rate := gidx(n * n)
	stencilRate := gidx((n - 2) * (n - 2))
	report := func(name string, kt, bt float64, s samples, r func(float64) float64, goal float64, note string) {
		m := measure{Name: name, Unit: "Gidx/s", Value: r(kt), Baseline: r(bt), samples: s, Note: note}
		if goal > 0 {
			m.Goal, m.GoalOp = goal, ">="
		}
		add(m)
	}

	// Write a(i, j) = i + j.
	plainWrite := func() {
		goLoop(n, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				row := bd[i*n : i*n+n]
				for j := range row {
					row[j] = float64(i + j)
				}
			}
		})
	}
	kt, bt, s := timeAlternating(cfg.reps, func() {
		kokkos.ParallelForTiles("md.write", all, func(lo, hi [2]int) {
			for i := lo[0]; i < hi[0]; i++ {
				row, ij := b.Line(i)[lo[1]:hi[1]], i+lo[1]
				for j := range row {
					row[j] = float64(ij + j)
				}
			}
		})
	}, plainWrite)
	report(fmt.Sprintf("ParallelForTiles write, %dx%d", n, n), kt, bt, s, rate, 0.95, "baseline: row loop split over GOMAXPROCS goroutines")
	kt, bt, s = timeAlternating(cfg.reps, func() {
		kokkos.ParallelForMD("md.write", all, func(i, j int) { b.Set(i, j, float64(i+j)) })
	}, plainWrite)
	report(fmt.Sprintf("ParallelForMD write (per-index body), %dx%d", n, n), kt, bt, s, rate, 0, "reported, no goal")
	var kerr error
	kt, bt, s = timeAlternating(cfg.reps, func() {
		if err := kernel.For("md.write", all, kWrite2, b); err != nil && kerr == nil {
			kerr = err
		}
	}, plainWrite)
	if kerr != nil {
		return kerr
	}
	report(fmt.Sprintf("kernel.For write (per-index Go kernel), %dx%d", n, n), kt, bt, s, rate, 0.95, "the per-index body as a //kokkos:kernel function")

	// Heat stencil: b = a + 0.1*(laplacian of a), interior points. Both
	// loops cut their rows to the points they update and to one length,
	// so that the compiler drops the bounds checks of the inner loop (see
	// docs/guide/parallel.md).
	plainHeat := func() {
		goLoop(n-2, func(lo, hi int) {
			for i := lo + 1; i < hi+1; i++ {
				heatRow(bd[i*n+1:i*n+n-1], ad[(i-1)*n+1:i*n-1], ad[i*n:(i+1)*n], ad[(i+1)*n+1:(i+2)*n-1])
			}
		})
	}
	kt, bt, s = timeAlternating(cfg.reps, func() {
		kokkos.ParallelForTiles("md.heat", inner, func(lo, hi [2]int) {
			j0, j1 := lo[1], hi[1]
			for i := lo[0]; i < hi[0]; i++ {
				heatRow(b.Line(i)[j0:j1], a.Line(i - 1)[j0:j1], a.Line(i)[j0-1:j1+1], a.Line(i + 1)[j0:j1])
			}
		})
	}, plainHeat)
	report(fmt.Sprintf("ParallelForTiles heat stencil, %dx%d", n, n), kt, bt, s, stencilRate, 0.95, "baseline: the same loop split over goroutines")
	kt, bt, s = timeAlternating(cfg.reps, func() {
		kokkos.ParallelForMD("md.heat", inner, func(i, j int) {
			c := a.At(i, j)
			b.Set(i, j, c+0.1*(a.At(i-1, j)+a.At(i+1, j)+a.At(i, j-1)+a.At(i, j+1)-4*c))
		})
	}, plainHeat)
	report(fmt.Sprintf("ParallelForMD heat stencil (per-index body), %dx%d", n, n), kt, bt, s, stencilRate, 0, "reported, no goal")
	kt, bt, s = timeAlternating(cfg.reps, func() {
		if err := kernel.For("md.heat", inner, kHeat2, b, a); err != nil && kerr == nil {
			kerr = err
		}
	}, plainHeat)
	if kerr != nil {
		return kerr
	}
	report(fmt.Sprintf("kernel.For heat stencil (per-index Go kernel), %dx%d", n, n), kt, bt, s, stencilRate, 0.95, "the per-index body as a //kokkos:kernel function")

	// Sum of a.
	var plainSum float64
	plainReduce := func() {
		parts := make([]float64, runtime.GOMAXPROCS(0))
		goLoopIdx(n, func(k, lo, hi int) {
			s := 0.0
			for _, x := range ad[lo*n : hi*n] {
				s += x
			}
			parts[k] = s
		})
		plainSum = 0
		for _, s := range parts {
			plainSum += s
		}
	}
	kt, bt, s = timeAlternating(cfg.reps, func() {
		sinkMD = kokkos.ParallelReduceTiles("md.sum", all, kokkos.Sum[float64](), func(lo, hi [2]int, acc *float64) {
			s := *acc
			for i := lo[0]; i < hi[0]; i++ {
				for _, x := range a.Line(i)[lo[1]:hi[1]] {
					s += x
				}
			}
			*acc = s
		})
	}, plainReduce)
	report(fmt.Sprintf("ParallelReduceTiles sum, %dx%d", n, n), kt, bt, s, rate, 0.95, "baseline: slice sum split over goroutines")
	kt, bt, s = timeAlternating(cfg.reps, func() {
		sinkMD = kokkos.ParallelReduceMD("md.sum", all, kokkos.Sum[float64](), func(i, j int, acc *float64) { *acc += a.At(i, j) })
	}, plainReduce)
	report(fmt.Sprintf("ParallelReduceMD sum (per-index body), %dx%d", n, n), kt, bt, s, rate, 0, "reported, no goal")

	// A short range with an expensive body: 64 rows of 2^14 elements.
	const rows, cols = 64, 1 << 14
	x := make([]float64, rows*cols)
	for i := range x {
		x[i] = float64(i%13) * 0.5
	}
	rowSum := func(i int) float64 {
		s := 0.0
		for _, v := range x[i*cols : (i+1)*cols] {
			s += v
		}
		return s
	}
	kt, bt, s = timeAlternating(cfg.reps, func() {
		sinkMD = kokkos.ParallelReduce("md.rows", kokkos.Range(0, rows), kokkos.Sum[float64](), func(i int, acc *float64) { *acc += rowSum(i) })
	}, func() {
		s := 0.0
		for i := range rows {
			s += rowSum(i)
		}
		sinkMD = s
	})
	serial := bt
	report(fmt.Sprintf("ParallelReduce over %d rows of %d", rows, cols), kt, bt, s, gidx(rows*cols), 1.7, "baseline: serial loop; goal on 2+ cores")
	// What the machine allows: the same rows split over goroutines by hand.
	plainRows, _, _ := timeAlternating(cfg.reps, func() {
		parts := make([]float64, runtime.GOMAXPROCS(0))
		goLoopIdx(rows, func(k, lo, hi int) {
			for i := lo; i < hi; i++ {
				parts[k] += rowSum(i)
			}
		})
		sinkMD = parts[0]
	}, nil)
	report(fmt.Sprintf("goroutines by hand over %d rows of %d", rows, cols), plainRows, serial, samples{}, gidx(rows*cols), 0, "the machine's ceiling for the line above")
	runtime.KeepAlive(sinkMD)
	runtime.KeepAlive(plainSum)
	return nil
}

// heatRow updates the points o of a row of the heat stencil from the same
// points of the rows above (up) and below (down) and from its own row mid,
// which has one more point at each end.
func heatRow(o, up, mid, down []float64) {
	up, down, mid = up[:len(o)], down[:len(o)], mid[:len(o)+2]
	for j := range o {
		o[j] = mid[j+1] + 0.1*(up[j]+down[j]+mid[j]+mid[j+2]-4*mid[j+1])
	}
}
