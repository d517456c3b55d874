package main

import (
	"bytes"
	"slices"
	"testing"
)

// timeAlternating returns the seconds of each repetition with their
// medians, the kernel's first; without a baseline, no samples.
func TestTimeAlternatingSamples(t *testing.T) {
	n := 0
	k, b, s := timeAlternating(5, func() { n++ }, func() { n += 2 })
	if n != 18 || len(s.KernelSec) != 5 || len(s.BaselineSec) != 5 {
		t.Fatalf("%d calls, samples %v %v", n, s.KernelSec, s.BaselineSec)
	}
	if k != median(s.KernelSec) || b != median(s.BaselineSec) {
		t.Errorf("medians %v %v of samples %v %v", k, b, s.KernelSec, s.BaselineSec)
	}
	k, b, s = timeAlternating(3, func() { n++ }, nil)
	if k <= 0 || b != 0 || s.KernelSec != nil || s.BaselineSec != nil {
		t.Errorf("without a baseline: %v %v %+v", k, b, s)
	}
}

// timeAll's pair(i) gives the kernel's repetitions and the i-th
// function's, whose medians are those it returned.
func TestTimeAllSamples(t *testing.T) {
	calls := make([]int, 3)
	med, pair := timeAll(4, func() { calls[0]++ }, func() { calls[1]++ }, func() { calls[2]++ })
	if !slices.Equal(calls, []int{5, 5, 5}) || len(med) != 3 {
		t.Fatalf("calls %v, medians %v", calls, med)
	}
	for i := 1; i < 3; i++ {
		s := pair(i)
		if len(s.KernelSec) != 4 || len(s.BaselineSec) != 4 || median(s.KernelSec) != med[0] || median(s.BaselineSec) != med[i] {
			t.Errorf("pair(%d) = %+v, medians %v", i, s, med)
		}
	}
}

// Each row's band comes from the samples it was made with: two rows with
// the same medians, one of quiet repetitions and one of noisy ones, get
// their own samples and different bands, after the run's final judging
// too; a row made without samples gets the noise floor only.
func TestRowBandFromItsOwnSamples(t *testing.T) {
	quiet := samples{[]float64{2, 2, 2, 2, 2}, []float64{4, 4.02, 3.98, 4.01, 3.99}}
	noisy := samples{[]float64{1, 2, 3, 2, 2}, []float64{3.6, 4, 3.6, 4, 4}} // medians 2 and 4 too, speeds 1.2 to 3.6
	defer func(s []suite) { suites = s }(suites)
	suites = []suite{{name: "own", desc: "rows with equal medians", run: func(cfg config, add func(measure)) error {
		for _, r := range []struct {
			name string
			s    samples
		}{{"quiet", quiet}, {"noisy", noisy}, {"none", samples{}}} {
			add(measure{Name: r.name, Unit: "ns/elem", Value: 2, Baseline: 4, samples: r.s, Goal: 1.5, GoalOp: "<="})
		}
		return nil
	}}}
	var progress bytes.Buffer
	ms, err := runSuites(config{reps: 3, scale: 1.0 / 64, space: "host"}, "", &progress)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4 {
		t.Fatalf("%d rows: %+v", len(ms), ms)
	}
	floor := noiseFloor(ms[0])
	q, n, z := ms[1], ms[2], ms[3]
	if !slices.Equal(q.KernelSec, quiet.KernelSec) || !slices.Equal(q.BaselineSec, quiet.BaselineSec) ||
		!slices.Equal(n.KernelSec, noisy.KernelSec) || !slices.Equal(n.BaselineSec, noisy.BaselineSec) || z.KernelSec != nil {
		t.Fatalf("samples: quiet %+v, noisy %+v, none %+v", q.samples, n.samples, z.samples)
	}
	for _, m := range ms[1:] {
		if m.Speed != 2 {
			t.Errorf("%s: speed %v, want 2", m.Name, m.Speed)
		}
	}
	// The band of 5 pairs is their whole range, at least the floor.
	band := func(s samples) (lo, hi float64) {
		lo, hi = 2*(1-floor), 2*(1+floor)
		for i := range s.KernelSec {
			r := s.BaselineSec[i] / s.KernelSec[i]
			lo, hi = min(lo, r), max(hi, r)
		}
		return lo, hi
	}
	for _, c := range []struct {
		m measure
		s samples
	}{{q, quiet}, {n, noisy}, {z, samples{}}} {
		if lo, hi := band(c.s); c.m.SpeedLo != lo || c.m.SpeedHi != hi {
			t.Errorf("%s: band %v-%v, want %v-%v (floor %v)", c.m.Name, c.m.SpeedLo, c.m.SpeedHi, lo, hi, floor)
		}
	}
	if q.SpeedLo == n.SpeedLo && q.SpeedHi == n.SpeedHi {
		t.Errorf("equal medians, different samples, same band: %v-%v and %v-%v", q.SpeedLo, q.SpeedHi, n.SpeedLo, n.SpeedHi)
	}
}
