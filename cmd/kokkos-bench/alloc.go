package main

import (
	"runtime"

	"github.com/gokkos/kokkos"
)

func init() {
	register(suite{name: "alloc", desc: "small view allocation against make of the same slice", run: runAlloc})
}

var (
	sinkView1 kokkos.View1[float64]
	sinkSlice []float64
)

func runAlloc(cfg config, add func(measure)) error {
	const n, count = 1000, 1 << 16
	var err error
	view := func() {
		for range count {
			if sinkView1, err = kokkos.NewView1[float64]("small", n); err != nil {
				return
			}
		}
	}
	slice := func() {
		for range count {
			sinkSlice = make([]float64, n)
		}
	}
	runtime.GC()
	kt, bt, s := timeAlternating(cfg.reps, view, slice)
	if err != nil {
		return err
	}
	sinkInt += len(sinkSlice) + sinkView1.Extent(0)
	us := func(sec float64) float64 { return sec / count * 1e6 }
	add(measure{Name: "NewView1[float64] of 1000, dropped", Unit: "µs", Value: us(kt), Baseline: us(bt), samples: s, Goal: 1.5, GoalOp: "<=",
		Note: "baseline: make([]float64, 1000), dropped; the garbage collector's share included in both"})
	return nil
}
