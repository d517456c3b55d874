package main

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestUnitKind(t *testing.T) {
	for _, c := range []struct {
		unit       string
		time, rate bool
	}{
		{"ns", true, false}, {"ns/elem", true, false}, {"µs", true, false}, {"ms", true, false}, {"s", true, false},
		{"GB/s", false, true}, {"Gidx/s", false, true}, {"GFLOP/s", false, true}, {"steps/s", false, true}, {"Melem/s", false, true},
		{"allocs/op", false, false}, {"processes", false, false}, {"", false, false},
	} {
		if tm, r := unitKind(c.unit); tm != c.time || r != c.rate {
			t.Errorf("unitKind(%q) = %v, %v, want %v, %v", c.unit, tm, r, c.time, c.rate)
		}
	}
}

// Speeds point one way: a time is inverted with its goal, a rate is not.
func TestJudgeSpeedDirection(t *testing.T) {
	m := measure{Name: "t", Unit: "ns/elem", Value: 2, Baseline: 1.6, Goal: 1.25, GoalOp: "<="}
	judge(&m, 0)
	if m.Ratio != 1.25 || m.Speed != 0.8 || m.SpeedGoalOp != ">=" || math.Abs(m.SpeedGoal-0.8) > 1e-15 {
		t.Errorf("time: %+v, want ratio 1.25, speed 0.8, speed goal >= 0.8", m)
	}
	m = measure{Name: "r", Unit: "GB/s", Value: 10, Baseline: 8, Goal: 0.95, GoalOp: ">="}
	judge(&m, 0)
	if m.Ratio != 1.25 || m.Speed != 1.25 || m.SpeedGoalOp != ">=" || m.SpeedGoal != 0.95 {
		t.Errorf("rate: %+v, want ratio and speed 1.25, speed goal >= 0.95", m)
	}
	// Without samples and without a floor, the band is the speed itself.
	if m.SpeedLo != m.Speed || m.SpeedHi != m.Speed || m.Verdict != verdictPass || !m.Pass {
		t.Errorf("rate: %+v, want band 1.25-1.25 and pass", m)
	}
	m = measure{Name: "info", Unit: "µs", Value: 3, Baseline: 1}
	judge(&m, 0)
	if m.Speed != 1.0/3 || m.SpeedGoalOp != "" || m.Verdict != verdictInfo || !m.Pass {
		t.Errorf("no goal: %+v", m)
	}
}

// Without a baseline, the value itself meets its goal or not, with no band.
func TestJudgeWithoutBaseline(t *testing.T) {
	for _, c := range []struct {
		value   float64
		op      string
		goal    float64
		verdict string
	}{{0, "<=", 0, verdictPass}, {1, "<=", 0, verdictMiss}, {0.4, "<=", 0.5, verdictPass}, {0.6, "<=", 0.5, verdictMiss}, {3, ">=", 2, verdictPass}, {7, "", 0, verdictInfo}} {
		m := measure{Name: "v", Unit: "allocs/op", Value: c.value, Goal: c.goal, GoalOp: c.op}
		judge(&m, 0.5)
		if m.Verdict != c.verdict || m.Speed != 0 || m.SpeedLo != 0 || m.SpeedHi != 0 || m.Pass != (c.verdict != verdictMiss) {
			t.Errorf("%v %s %v: %+v, want %s", c.value, c.op, c.goal, m, c.verdict)
		}
	}
}

func TestJudgePanicsOnCountWithBaseline(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `unit "allocs/op" has a baseline`) {
			t.Fatalf("recovered %v", r)
		}
	}()
	m := measure{Suite: "s", Name: "n", Unit: "allocs/op", Value: 1, Baseline: 2}
	judge(&m, 0)
}

func TestVerdictBounds(t *testing.T) {
	for _, c := range []struct {
		x, lo, hi float64
		op        string
		goal      float64
		want      string
	}{
		{1, 0.95, 1.05, ">=", 0.9, verdictPass},
		{1, 0.9, 1.05, ">=", 0.9, verdictPass}, // the band's edge on the goal
		{1, 0.89, 1.05, ">=", 0.9, verdictNoise},
		{0.8, 0.7, 0.9, ">=", 0.9, verdictNoise}, // the band's top on the goal
		{0.8, 0.7, 0.89, ">=", 0.9, verdictMiss},
		{2, 1.5, 2.5, "<=", 3, verdictPass},
		{2, 1.5, 3.5, "<=", 3, verdictNoise},
		{4, 3.5, 4.5, "<=", 3, verdictMiss},
		{1, 1.2, 1.3, ">=", 1.1, verdictNoise}, // a band that misses x is widened to hold it
		{1, 0, 2, "", 1, verdictInfo},
	} {
		if got := verdict(c.x, c.lo, c.hi, c.op, c.goal); got != c.want {
			t.Errorf("verdict(%v, %v..%v, %s %v) = %s, want %s", c.x, c.lo, c.hi, c.op, c.goal, got, c.want)
		}
	}
}

// medianCI against a reference: the order statistics whose binomial
// tails, counted here by enumerating every subset of signs for small n,
// leave at most 10% outside, the widest such l.
func TestMedianCI(t *testing.T) {
	for n := 2; n <= 16; n++ {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i + 1)
		}
		// P(fewer than l of n fair coins are heads), by enumeration.
		below := func(l int) float64 {
			c := 0
			for s := range 1 << n {
				if bits.OnesCount(uint(s)) < l {
					c++
				}
			}
			return float64(c) / float64(int(1)<<n)
		}
		want := 1
		for l := 2; l <= n/2; l++ {
			if 2*below(l) <= 0.10 {
				want = l
			}
		}
		lo, hi := medianCI(x)
		if lo != float64(want) || hi != float64(n+1-want) {
			t.Errorf("n %d: %v..%v, want order statistics %d..%d", n, lo, hi, want, n+1-want)
		}
		if math.Abs(binomialCDF(n, want)-below(want)) > 1e-12 {
			t.Errorf("n %d: binomialCDF %v, enumerated %v", n, binomialCDF(n, want), below(want))
		}
	}
	for _, c := range []struct{ n, l int }{{5, 1}, {7, 1}, {8, 2}, {9, 2}, {10, 2}, {11, 3}, {14, 4}} {
		x := make([]float64, c.n)
		for i := range x {
			x[i] = float64(i + 1)
		}
		if lo, _ := medianCI(x); lo != float64(c.l) {
			t.Errorf("n %d: l %v, want %d", c.n, lo, c.l)
		}
	}
}

// synthetic returns reps repetition pairs (kernel, baseline seconds) of a
// kernel at speed × the baseline's, each time multiplied by a noise of
// relative spread sigma.
func synthetic(r *rand.Rand, reps int, speed, sigma float64) (k, b []float64) {
	for range reps {
		base := 0.010 * (1 + sigma*r.NormFloat64())
		b = append(b, base)
		k = append(k, 0.010/speed*(1+sigma*r.NormFloat64()))
	}
	return k, b
}

// asMeasure makes the row a suite would: a time per element or a
// bandwidth from the medians.
func asMeasure(unit string, k, b []float64, goalOp string, goal float64) measure {
	m := measure{Unit: unit, Goal: goal, GoalOp: goalOp, samples: samples{k, b}}
	switch unit {
	case "ns/elem":
		m.Value, m.Baseline = median(k)/1e6*1e9, median(b)/1e6*1e9
	case "GB/s":
		m.Value, m.Baseline = 8e6/median(k)/1e9, 8e6/median(b)/1e9
	}
	return m
}

// The three-way verdict on synthetic samples: a speed clearly above its
// goal passes, clearly below misses, in either unit direction, at every
// seed; one at the goal, with noise, is within noise at 9 seeds in 10 at
// least (the band is a 90% interval, 96% for 9 pairs).
func TestVerdictOnSyntheticSamples(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const seeds = 200
	atGoal := 0
	for seed := range seeds {
		for _, c := range []struct {
			speed, sigma float64
			want         string
		}{
			{1.3, 0.02, verdictPass},
			{0.7, 0.02, verdictMiss},
			{1.0, 0.10, verdictNoise},
		} {
			k, b := synthetic(r, 9, c.speed, c.sigma)
			var got [2]string
			for i, u := range []struct{ unit, op string }{{"ns/elem", "<="}, {"GB/s", ">="}} {
				goal := 1.0 // "<= 1" on the time ratio is ">= 1" on speed
				m := asMeasure(u.unit, k, b, u.op, goal)
				judge(&m, 0)
				got[i] = m.Verdict
				if m.Verdict != c.want && c.want != verdictNoise {
					t.Errorf("seed %d, %s, speed %v ± %v: %s (speed %.3f, band %.3f-%.3f), want %s",
						seed, u.unit, c.speed, c.sigma, m.Verdict, m.Speed, m.SpeedLo, m.SpeedHi, c.want)
				}
				if !(m.SpeedLo <= m.Speed && m.Speed <= m.SpeedHi) {
					t.Errorf("band %v-%v does not hold the speed %v", m.SpeedLo, m.SpeedHi, m.Speed)
				}
			}
			if got[0] != got[1] {
				t.Errorf("seed %d: the time says %s, the rate %s", seed, got[0], got[1])
			}
			if c.want == verdictNoise && got[0] == verdictNoise {
				atGoal++
			}
		}
	}
	if atGoal < seeds*9/10 {
		t.Errorf("at the goal, within noise at %d seeds of %d", atGoal, seeds)
	}
}

// Two runs of one row on a quiet machine (3% noise on each time, 7 pairs,
// the default) never say pass in one and MISS in the other, wherever the
// true speed lies about the goal.
func TestVerdictDoesNotFlip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	count := map[string]int{}
	for _, speed := range []float64{0.90, 0.93, 0.95, 0.97, 1.0, 1.03, 1.05, 1.07, 1.10} {
		for run := range 200 {
			var v [2]string
			for i := range v {
				k, b := synthetic(r, 7, speed, 0.03)
				m := asMeasure("ns/elem", k, b, "<=", 1)
				judge(&m, 0)
				v[i] = m.Verdict
				count[m.Verdict]++
			}
			if v[0] != v[1] && v[0] != verdictNoise && v[1] != verdictNoise {
				t.Errorf("speed %v, pair %d: %s then %s", speed, run, v[0], v[1])
			}
		}
	}
	if count[verdictPass] == 0 || count[verdictMiss] == 0 || count[verdictNoise] == 0 {
		t.Errorf("verdicts %v: want all three", count)
	}
}

// The band is the confidence interval of the median of the pair ratios,
// computed here from the samples; both units give the same band.
func TestBandIsMedianCI(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		k, b := synthetic(r, 3+r.IntN(10), 0.5+r.Float64(), 0.05)
		var ratios []float64
		for i := range k {
			ratios = append(ratios, b[i]/k[i])
		}
		slices.Sort(ratios)
		t1, r1 := asMeasure("ns/elem", k, b, "", 0), asMeasure("GB/s", k, b, "", 0)
		judge(&t1, 0)
		judge(&r1, 0)
		l, h := medianCI(ratios)
		wantLo, wantHi := min(l, r1.Speed), max(h, r1.Speed)
		if math.Abs(r1.SpeedLo-wantLo) > 1e-12 || math.Abs(r1.SpeedHi-wantHi) > 1e-12 {
			t.Errorf("rate band %v-%v, want %v-%v", r1.SpeedLo, r1.SpeedHi, wantLo, wantHi)
		}
		if math.Abs(t1.Speed-r1.Speed) > 1e-12 || math.Abs(t1.SpeedLo-r1.SpeedLo) > 1e-12 || math.Abs(t1.SpeedHi-r1.SpeedHi) > 1e-12 {
			t.Errorf("time %v %v-%v, rate %v %v-%v", t1.Speed, t1.SpeedLo, t1.SpeedHi, r1.Speed, r1.SpeedLo, r1.SpeedHi)
		}
	}
}

// The noise floor widens a narrow band, and is the band of a row without
// samples: a row 5% under its goal misses it on a quiet run, and is
// within noise when the control spreads 10%.
func TestNoiseFloor(t *testing.T) {
	k := []float64{1, 1, 1, 1, 1}
	b := []float64{0.95, 0.95, 0.95, 0.95, 0.95}
	for _, samples := range []bool{true, false} {
		m := asMeasure("GB/s", k, b, ">=", 1)
		if !samples {
			m.KernelSec, m.BaselineSec = nil, nil
		}
		judge(&m, 0.01)
		if m.Verdict != verdictMiss || math.Abs(m.SpeedHi-0.95*1.01) > 1e-12 {
			t.Errorf("samples %v, floor 1%%: %+v, want a MISS with band top 0.9595", samples, m)
		}
		judge(&m, 0.10)
		if m.Verdict != verdictNoise || math.Abs(m.SpeedLo-0.95*0.9) > 1e-12 || math.Abs(m.SpeedHi-0.95*1.1) > 1e-12 {
			t.Errorf("samples %v, floor 10%%: %+v, want within noise, band 0.855-1.045", samples, m)
		}
	}
	// The control's floor is half its band's width over its speed.
	c := measure{Unit: "ns/elem", Value: 1, Baseline: 1, samples: samples{[]float64{1, 1, 1, 1, 1}, []float64{0.95, 0.97, 1, 1.02, 1.05}}}
	judge(&c, 0)
	if f := noiseFloor(c); math.Abs(f-0.05) > 1e-12 {
		t.Errorf("control band %v-%v: floor %v, want 0.05", c.SpeedLo, c.SpeedHi, f)
	}
	if f := noiseFloor(measure{}); f != 0 {
		t.Errorf("floor without a control %v", f)
	}
}
