package main

import (
	"math"
	"runtime"
	"slices"
	"sync"
)

// A control times the plain slice loop of the access suite against an
// identical copy of itself, at the start of the run and at its end: the
// band of its speed, which would be 1 on a machine without noise, gives
// the noise floor of the run.
type control struct {
	rows, cols int
	reps       int
	k, b       []float64 // seconds of each repetition
}

func newControl(cfg config) *control {
	return &control{rows: scaled(2048, cfg.scale), cols: 4096, reps: max(cfg.reps, 7)}
}

// time adds reps repetitions to the control's, over an array of its own
// that the suites in between do not keep.
func (c *control) time() {
	d := make([]float64, c.rows*c.cols)
	fillPattern(d)
	resetTimings()
	timeAlternating(c.reps, func() { sinkF = sliceSumRowsCopy(d, c.rows, c.cols) }, func() { sinkF = sliceSumRows(d, c.rows, c.cols) })
	runtime.KeepAlive(sinkF)
	timings.Lock()
	t := timings.list[len(timings.list)-1]
	timings.list = nil
	timings.Unlock()
	c.k, c.b = append(c.k, t[0]...), append(c.b, t[1]...)
}

// measure returns the control's row, judged.
func (c *control) measure() measure {
	perElem := func(sec float64) float64 { return sec / float64(c.rows*c.cols) * 1e9 }
	m := measure{Suite: "control", Name: "plain loop vs an identical copy", Unit: "ns/elem", Value: perElem(median(c.k)), Baseline: perElem(median(c.b)),
		KernelSec: c.k, BaselineSec: c.b, Note: "timed at the start and at the end; the half-width of its band is the run's noise floor"}
	judge(&m, 0)
	return m
}

// timings keeps the times of each repetition of the timings of the running
// suite, newest last: each entry holds one series per function timed, the
// kernel's first, for attachSamples.
var timings struct {
	sync.Mutex
	list [][][]float64
}

// recordTiming records the times of each repetition of a kernel (first)
// and of the baselines it ran against, rep by rep, so that the measure
// made of their medians gets them (attachSamples). timeAlternating and
// timeAll record their own; a suite that times by hand calls it.
func recordTiming(series ...[]float64) {
	c := make([][]float64, len(series))
	for i, s := range series {
		c[i] = slices.Clone(s)
	}
	timings.Lock()
	defer timings.Unlock()
	timings.list = append(timings.list, c)
	if len(timings.list) > 256 {
		timings.list = slices.Delete(timings.list, 0, 1)
	}
}

func resetTimings() {
	timings.Lock()
	defer timings.Unlock()
	timings.list = nil
}

// attachSamples gives m, which has a baseline and no samples yet, the
// repetitions of the latest recorded timing whose medians make m's ratio:
// the kernel's series and the baseline's, the one whose median over the
// kernel's is m's speed. A measure made otherwise gets none.
func attachSamples(m *measure) {
	if m.Baseline == 0 || m.KernelSec != nil {
		return
	}
	isTime, isRate := unitKind(m.Unit)
	if !isTime && !isRate {
		return
	}
	want := m.Value / m.Baseline // the ratio, the speed for a rate
	timings.Lock()
	defer timings.Unlock()
	for i := len(timings.list) - 1; i >= 0; i-- {
		t := timings.list[i]
		if len(t) < 2 {
			continue
		}
		k := median(t[0])
		for _, s := range t[1:] {
			b := median(s)
			r := b / k
			if isTime {
				r = k / b
			}
			if k > 0 && b > 0 && math.Abs(r-want) <= 1e-9*math.Abs(want) {
				m.KernelSec, m.BaselineSec = t[0], s
				return
			}
		}
	}
}
