package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// unitKind says whether a unit is a time (lower is better: ns, µs, ms, s,
// and those per something, as ns/elem) or a rate (higher is better: any
// unit per second, as GB/s or Gidx/s); a count such as allocs/op is
// neither.
func unitKind(unit string) (isTime, isRate bool) {
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
// half-width, the control's) either side of Speed at least. A measure
// without a baseline compares its value with its goal, with no band. It
// panics on a baseline in a unit that is neither a time nor a rate, which
// has no direction.
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
