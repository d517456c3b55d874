package main

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// unitKind says whether a unit is a time (lower is better: ns, µs, ms, s,
// and those per something, as ns/elem) or a rate (higher is better: any
// unit per second, as GB/s or Gidx/s); a count such as allocs/op is
// neither.
func unitKind(unit string) (time, rate bool) {
	if strings.HasSuffix(unit, "/s") {
		return false, true
	}
	head, _, _ := strings.Cut(unit, "/")
	switch head {
	case "ns", "µs", "us", "ms", "s":
		return true, false
	}
	return false, false
}

// judge sets m's Ratio, Speed, noise band, speed goal and verdict. The
// band is a confidence interval of the median of the speed ratios of the
// repetition pairs (KernelSec, BaselineSec), widened to floor (a relative
// half-width, the control's) either side of Speed at least. A measure without a
// baseline compares its value with its goal, with no band. It panics on a
// baseline in a unit that is neither a time nor a rate, which has no
// direction.
func judge(m *measure, floor float64) {
	m.Ratio, m.Speed, m.SpeedLo, m.SpeedHi, m.SpeedGoal, m.SpeedGoalOp = 0, 0, 0, 0, 0, ""
	x, lo, hi := m.Value, m.Value, m.Value
	op, goal := m.GoalOp, m.Goal
	if m.Baseline != 0 {
		isTime, isRate := unitKind(m.Unit)
		if !isTime && !isRate {
			panic(fmt.Sprintf("kokkos-bench: %s/%s: unit %q has a baseline but is neither a time nor a rate", m.Suite, m.Name, m.Unit))
		}
		m.Ratio = m.Value / m.Baseline
		m.Speed = m.Ratio
		if isTime {
			m.Speed = 1 / m.Ratio
			switch op {
			case "<=":
				op, goal = ">=", 1/goal
			case ">=":
				op, goal = "<=", 1/goal
			}
		}
		m.SpeedLo, m.SpeedHi = speedBand(m.Speed, m.KernelSec, m.BaselineSec, floor)
		if op != "" {
			m.SpeedGoal, m.SpeedGoalOp = goal, op
		}
		x, lo, hi = m.Speed, m.SpeedLo, m.SpeedHi
	}
	m.Verdict = verdict(x, lo, hi, op, goal)
	m.Pass = m.Verdict != verdictMiss
}

// The verdicts.
const (
	verdictPass  = "pass"
	verdictMiss  = "MISS"
	verdictNoise = "within noise"
	verdictInfo  = "info"
)

// verdict judges x, with the noise band lo..hi, against the goal "op goal":
// pass when the whole band meets it, MISS when the whole band misses it,
// within noise when the band straddles it; info without a goal.
func verdict(x, lo, hi float64, op string, goal float64) string {
	lo, hi = min(lo, x), max(hi, x)
	switch op {
	case ">=":
		switch {
		case lo >= goal:
			return verdictPass
		case hi < goal:
			return verdictMiss
		}
		return verdictNoise
	case "<=":
		switch {
		case hi <= goal:
			return verdictPass
		case lo > goal:
			return verdictMiss
		}
		return verdictNoise
	}
	return verdictInfo
}

// speedBand returns the noise band of speed: a confidence interval of the
// median of the speed ratios b[i]/k[i] of the repetition pairs (medianCI),
// widened to floor × speed either side of speed at least.
func speedBand(speed float64, k, b []float64, floor float64) (lo, hi float64) {
	lo, hi = speed*(1-floor), speed*(1+floor)
	if r := pairSpeeds(k, b); len(r) >= 2 {
		l, h := medianCI(r)
		lo, hi = min(lo, l), max(hi, h)
	}
	return lo, hi
}

// bandConfidence is the least confidence of the band, where the number of
// repetitions allows it.
const bandConfidence = 0.90

// medianCI returns a confidence interval of the median of sorted that
// assumes nothing of the distribution: the order statistics l and n+1-l,
// the interval of the sign test, with the largest l for which the chance
// that the median lies outside, 2·P(Binomial(n, ½) < l), is at most
// 1-bandConfidence; with fewer than 5 values, the whole range (less sure:
// 75% for 3 values, 87.5% for 4). For 5 to 7 values that is the whole range
// too (93.8% to 98.4%); 8 to 10 drop the outer one at each end.
func medianCI(sorted []float64) (lo, hi float64) {
	n := len(sorted)
	l := 1
	for l+1 <= n/2 && 2*binomialCDF(n, l+1) <= 1-bandConfidence {
		l++
	}
	return sorted[l-1], sorted[n-l]
}

// binomialCDF returns P(Binomial(n, ½) < l).
func binomialCDF(n, l int) float64 {
	p, c := 0.0, 1.0 // c: n choose i
	for i := range l {
		p += c
		c = c * float64(n-i) / float64(i+1)
	}
	return p / math.Pow(2, float64(n))
}

// pairSpeeds returns the sorted speed ratios b[i]/k[i] of the repetition
// pairs with two positive times; nil when k and b differ in length.
func pairSpeeds(k, b []float64) []float64 {
	if len(k) != len(b) {
		return nil
	}
	var r []float64
	for i := range k {
		if k[i] > 0 && b[i] > 0 {
			r = append(r, b[i]/k[i])
		}
	}
	slices.Sort(r)
	return r
}

// noiseFloor is the control measure's relative spread: half its band's
// width over its speed. It is 0 for a measure without a band.
func noiseFloor(c measure) float64 {
	if c.Speed <= 0 {
		return 0
	}
	return (c.SpeedHi - c.SpeedLo) / 2 / c.Speed
}

// A control times the plain slice loop of the access suite against an
// identical copy of itself, at the start of the run and at its end: the
// band of its speed, which would be 1 on a machine without noise, gives
// the noise floor of the run.
type control struct {
	d          []float64
	rows, cols int
	reps       int
	k, b       []float64 // seconds of each repetition
}

func newControl(cfg config) *control {
	c := &control{rows: scaled(2048, cfg.scale), cols: 4096, reps: max(cfg.reps, 7)}
	c.d = make([]float64, c.rows*c.cols)
	fillPattern(c.d)
	return c
}

// time adds reps repetitions to the control's.
func (c *control) time() {
	resetTimings()
	timeAlternating(c.reps, func() { sinkF = sliceSumRowsCopy(c.d, c.rows, c.cols) }, func() { sinkF = sliceSumRows(c.d, c.rows, c.cols) })
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
