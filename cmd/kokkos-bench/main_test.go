package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"
)

// tinyRun runs every host suite at a tiny size, once for the tests that
// read its rows.
func tinyRun(t *testing.T) []measure {
	tiny.Do(func() {
		var progress bytes.Buffer
		tiny.ms, tiny.err = runSuites(tinyConfig, "", &progress)
	})
	if tiny.err != nil {
		t.Fatal(tiny.err)
	}
	return tiny.ms
}

var (
	tinyConfig = config{reps: 3, scale: 1.0 / 64, space: "host"}
	tiny       struct {
		sync.Once
		ms  []measure
		err error
	}
)

// TestTinySuites runs every suite at a tiny size so that the benchmark
// keeps working; it checks the report, not the speed.
func TestTinySuites(t *testing.T) {
	cfg := tinyConfig
	ms := tinyRun(t)
	var progress bytes.Buffer
	seen := map[string]bool{}
	notRun := map[string]string{}
	for i, m := range ms {
		seen[m.Suite] = true
		if m.NotRun != "" {
			notRun[m.Suite] = m.NotRun
			continue
		}
		if (i == 0) != (m.Suite == "control") {
			t.Errorf("row %d is %s/%s: want the control first, once", i, m.Suite, m.Name)
		}
		if m.Value <= 0 && m.Unit != "allocs/op" {
			t.Errorf("%s/%s: value %v", m.Suite, m.Name, m.Value)
		}
		if m.Verdict == "" || m.Pass != (m.Verdict != verdictMiss) {
			t.Errorf("%s/%s: verdict %q, pass %v", m.Suite, m.Name, m.Verdict, m.Pass)
		}
		if m.Baseline != 0 {
			if m.SpeedLo > m.Speed || m.Speed > m.SpeedHi || m.Speed <= 0 {
				t.Errorf("%s/%s: speed %v, band %v-%v", m.Suite, m.Name, m.Speed, m.SpeedLo, m.SpeedHi)
			}
			// Rows with a goal against a baseline keep their repetitions.
			if m.GoalOp != "" && len(m.KernelSec) != cfg.reps {
				t.Errorf("%s/%s: %d repetition pairs, want %d", m.Suite, m.Name, len(m.KernelSec), cfg.reps)
			}
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"suite", "name", "unit", "value", "baseline", "ratio", "goal", "goal_op", "pass",
			"speed", "speed_lo", "speed_hi", "speed_goal", "speed_goal_op", "verdict"} {
			if _, ok := back[k]; !ok {
				t.Errorf("JSON of %s lacks %q", m.Name, k)
			}
		}
	}
	for _, s := range suites {
		if !seen[s.name] {
			t.Errorf("suite %s reported nothing", s.name)
		}
		if s.space != "" && s.space != cfg.space && notRun[s.name] == "" {
			t.Errorf("suite %s of space %s: not listed as not run", s.name, s.space)
		}
	}
	if c := ms[0]; c.Suite != "control" || len(c.KernelSec) != 14 || len(c.BaselineSec) != 14 || c.Verdict != verdictInfo {
		t.Errorf("control %+v: want 7 repetition pairs before the suites and 7 after", c)
	}
	if !strings.Contains(notRun["mpi"], "mpirun -np 2") {
		t.Errorf("outside mpirun, the mpi suite says %q", notRun["mpi"])
	}
	var out bytes.Buffer
	printTable(&out, ms, cfg)
	for _, want := range []string{"measures:", "not run: ", "mpi (needs 2 processes", "noise floor ±", "columns:"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("table lacks %q: %s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "not measured") {
		t.Fatalf("table: %s", out.String())
	}
	if _, err := runSuites(cfg, "nosuch", &progress); err == nil || !strings.Contains(err.Error(), `unknown suite "nosuch"`) {
		t.Fatalf("unknown suite: %v", err)
	}
	if _, err := runSuites(config{reps: 3, space: "tpu"}, "", &progress); err == nil {
		t.Fatal("unknown space must fail")
	}
}
