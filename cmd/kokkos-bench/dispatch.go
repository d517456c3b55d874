package main

import (
	"runtime"
	"sync"
	"time"

	"github.com/gokkos/kokkos"
)

func init() {
	register(suite{name: "dispatch", desc: "fenced ParallelFor/ParallelReduce latency over 2 indices vs spawning goroutines", run: runDispatch})
}

var sinkInt int

func runDispatch(cfg config, add func(measure)) error {
	perOp := nsPerOp(scaled(20000, cfg.scale*4))
	// one cache line per index, so that the measure is dispatch, not false sharing
	var x [2][8]int
	pf := perOp(func() {
		kokkos.ParallelFor("dispatch", kokkos.Range(0, 2), func(i int) { x[i][0]++ })
		if err := kokkos.Fence(); err != nil {
			panic(err)
		}
	})
	pr := perOp(func() {
		sinkInt = kokkos.ParallelReduce("dispatch", kokkos.Range(0, 2), kokkos.Sum[int](), func(i int, acc *int) { *acc += i })
	})
	spawn := perOp(func() {
		var wg sync.WaitGroup
		for i := range 2 {
			wg.Go(func() { x[i][0]++ })
		}
		wg.Wait()
	})
	var fs, rs, ss []float64
	for range cfg.reps {
		fs = append(fs, pf())
		ss = append(ss, spawn())
		rs = append(rs, pr())
	}
	sinkInt += x[0][0]
	runtime.KeepAlive(sinkInt)
	add(measure{Name: "ParallelFor over 2 indices, fenced", Unit: "ns", Value: median(fs), Baseline: median(ss), samples: samples{fs, ss}, Goal: 0.5, GoalOp: "<=",
		Note: "baseline: 2 goroutines + WaitGroup"})
	add(measure{Name: "ParallelReduce over 2 indices", Unit: "ns", Value: median(rs), Baseline: median(ss), samples: samples{rs, ss}})
	return nil
}

// nsPerOp returns a timer of count calls of f, in nanoseconds per call.
func nsPerOp(count int) func(f func()) func() float64 {
	return func(f func()) func() float64 {
		return func() float64 {
			t := time.Now()
			for range count {
				f()
			}
			return time.Since(t).Seconds() / float64(count) * 1e9
		}
	}
}
