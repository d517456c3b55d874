package main

import "runtime"

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
	_, _, s := timeAlternating(c.reps, func() { sinkF = sliceSumRowsCopy(d, c.rows, c.cols) }, func() { sinkF = sliceSumRows(d, c.rows, c.cols) })
	runtime.KeepAlive(sinkF)
	c.k, c.b = append(c.k, s.KernelSec...), append(c.b, s.BaselineSec...)
}

// measure returns the control's row, judged.
func (c *control) measure() measure {
	perElem := func(sec float64) float64 { return sec / float64(c.rows*c.cols) * 1e9 }
	m := measure{Suite: "control", Name: "plain loop vs an identical copy", Unit: "ns/elem", Value: perElem(median(c.k)), Baseline: perElem(median(c.b)),
		samples: samples{c.k, c.b}, Note: "timed at the start and at the end; the half-width of its band is the run's noise floor"}
	judge(&m, 0)
	return m
}

// samples are the times (seconds, or any one time unit) of each
// repetition of a kernel and of its baseline, in the order they ran: the
// timing helpers return them with their medians, and the measure made of
// those medians carries them, for the band of its speed (judge). Nil where
// they are unknown.
type samples struct {
	KernelSec, BaselineSec []float64 `json:"-"`
}
