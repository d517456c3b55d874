package main

import (
	"runtime"
	"testing"
	"time"

	"github.com/gokkos/kokkos"
)

func init() {
	register(suite{name: "subview", desc: "subview creation time and allocations", run: runSubview})
}

var sinkV1 kokkos.View1[float64]
var sinkV2 kokkos.View2[float64]

func runSubview(cfg config, add func(measure)) error {
	a, err := kokkos.NewView3[float64]("s", 64, 64, 64)
	if err != nil {
		return err
	}
	const count = 1 << 20
	perOp := func(f func(i int)) (ns, allocs float64) {
		var ts []float64
		for range cfg.reps {
			t := time.Now()
			for i := range count {
				f(i)
			}
			ts = append(ts, time.Since(t).Seconds()/count*1e9)
		}
		i := 0
		allocs = testing.AllocsPerRun(1000, func() { f(i); i++ })
		return median(ts), allocs
	}
	ns, allocs := perOp(func(i int) { sinkV1 = a.Subview1(i&63, 3, kokkos.All) })
	add(measure{Name: "Subview1(i, j, All) time", Unit: "ns", Value: ns, Goal: 5, GoalOp: "<=", Note: "Kokkos 4.6: 36.6 ns"})
	add(measure{Name: "Subview1(i, j, All) allocations", Unit: "allocs/op", Value: allocs, Goal: 0, GoalOp: "<="})
	ns, allocs = perOp(func(i int) { sinkV2 = a.Subview2(kokkos.Pair(1, 9), i&63, kokkos.All) })
	add(measure{Name: "Subview2(Pair, i, All) time", Unit: "ns", Value: ns, Goal: 5, GoalOp: "<="})
	runtime.KeepAlive(sinkV1)
	runtime.KeepAlive(sinkV2)
	add(measure{Name: "Subview2(Pair, i, All) allocations", Unit: "allocs/op", Value: allocs, Goal: 0, GoalOp: "<="})
	return nil
}
