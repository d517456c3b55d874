package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestTinySuites runs every suite at a tiny size so that the benchmark
// keeps working; it checks the report, not the speed.
func TestTinySuites(t *testing.T) {
	cfg := config{reps: 3, scale: 1.0 / 64, space: "host"}
	var progress bytes.Buffer
	ms, err := runSuites(cfg, "", &progress)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, m := range ms {
		seen[m.Suite] = true
		if m.Value <= 0 && m.Unit != "allocs/op" {
			t.Errorf("%s/%s: value %v", m.Suite, m.Name, m.Value)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"suite", "name", "unit", "value", "baseline", "ratio", "goal", "pass"} {
			if _, ok := back[k]; !ok {
				t.Errorf("JSON of %s lacks %q", m.Name, k)
			}
		}
	}
	for _, s := range suites {
		if !seen[s.name] && (s.space == "" || s.space == cfg.space) {
			t.Errorf("suite %s reported nothing", s.name)
		}
	}
	var out bytes.Buffer
	printTable(&out, ms, cfg)
	if !strings.Contains(out.String(), "measures,") {
		t.Fatalf("table: %s", out.String())
	}
	if _, err := runSuites(cfg, "nosuch", &progress); err == nil || !strings.Contains(err.Error(), `unknown suite "nosuch"`) {
		t.Fatalf("unknown suite: %v", err)
	}
	if _, err := runSuites(config{reps: 3, space: "tpu"}, "", &progress); err == nil {
		t.Fatal("unknown space must fail")
	}
}
