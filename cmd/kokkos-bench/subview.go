package main

import (
	"fmt"
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/gokkos/kokkos"
)

func init() {
	register(suite{name: "subview", desc: "subview creation time and allocations", run: runSubview})
}

func runSubview(cfg config, add func(measure)) error {
	a, err := kokkos.NewView3[float64]("s", 64, 64, 64)
	if err != nil {
		return err
	}
	const count = 1 << 20
	var ts []float64 // the last perOp's times
	perOp := func(f func(i int)) (ns, allocs float64) {
		ts = nil
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
	// The floor under any function that returns a view: a call that fills
	// a struct of View1's size and shape field by field and returns it.
	if unsafe.Sizeof(viewSized{}) != unsafe.Sizeof(kokkos.View1[float64]{}) {
		return fmt.Errorf("viewSized is %d bytes, View1 %d", unsafe.Sizeof(viewSized{}), unsafe.Sizeof(kokkos.View1[float64]{}))
	}
	d := a.Data()
	rec := new(int)
	floor, _ := perOp(func(i int) { w := makeViewSized(d, i&63, 64, rec); sinkInt += w.ext })
	floorTs := ts
	runtime.KeepAlive(sinkInt)
	add(measure{Name: "return of a View1-sized struct", Unit: "ns", Value: floor,
		Note: "the floor for a call returning a view: the caller copies the result"})

	// Each subview goes to a local variable and its extent is read, as in
	// code that goes on to use the subview; the baseline is the floor.
	ns, allocs := perOp(func(i int) { w := a.Subview1(i&63, 3, kokkos.All); sinkInt += w.Extent(0) })
	add(measure{Name: "Subview1(i, j, All) time", Unit: "ns", Value: ns, Baseline: floor, samples: samples{ts, floorTs}, Goal: 1.5, GoalOp: "<=",
		Note: "baseline: the return of a View1-sized struct; Kokkos 4.6: 36.6 ns"})
	add(measure{Name: "Subview1(i, j, All) allocations", Unit: "allocs/op", Value: allocs, Goal: 0, GoalOp: "<="})
	ns, allocs = perOp(func(i int) { w := a.Subview2(kokkos.Pair(1, 9), i&63, kokkos.All); sinkInt += w.Extent(1) })
	add(measure{Name: "Subview2(Pair, i, All) time", Unit: "ns", Value: ns, Baseline: floor, samples: samples{ts, floorTs}, Goal: 1.5, GoalOp: "<=",
		Note: "baseline: the return of a View1-sized struct"})
	add(measure{Name: "Subview2(Pair, i, All) allocations", Unit: "allocs/op", Value: allocs, Goal: 0, GoalOp: "<="})
	return nil
}

// viewSized has the size and shape of a View1[float64].
type viewSized struct {
	data         []float64
	ext, str     int
	lim, hlim    uint
	rec          *int
	off          int
	layout, flag uint8
	traits       uint32
}

//go:noinline
func makeViewSized(d []float64, i, n int, rec *int) (w viewSized) {
	w.data = d[i:]
	w.ext, w.str, w.lim, w.hlim = n, 1, uint(n), 0
	w.rec, w.off = rec, i
	w.layout, w.flag, w.traits = 1, 2, 3
	return w
}
