package main

import (
	"bytes"
	"strings"
	"testing"
)

// row makes a judged row of the given speed against its baseline, in GB/s.
func row(suite, name string, speed float64, goal float64) measure {
	m := measure{Suite: suite, Name: name, Unit: "GB/s", Value: 10 * speed, Baseline: 10}
	if goal > 0 {
		m.Goal, m.GoalOp = goal, ">="
	}
	judge(&m, 0.02)
	return m
}

func TestSummary(t *testing.T) {
	ms := []measure{
		row("control", "plain loop vs an identical copy", 1.0, 0),
		row("kernels", "Copy, 100 float64", 0.97, 0.95),
		row("kernels", "Triad, 100 float64", 1.05, 0.95),
		row("mdrange", "kernel.For write (per-index Go kernel), 8x8", 1.01, 0.95),
		row("mdrange", "ParallelForMD write (per-index body), 8x8", 0.16, 0),
		row("stream", "Triad (per-index body), 100 float64", 0.38, 0),
		row("stream", "Copy, 100 float64", 0.5, 0.97), // a clear miss
		{Suite: "mpi", NotRun: "needs 2 processes"},
	}
	s := summary(ms)
	for _, want := range []string{
		"Go kernels (kernel.For, kernel.Reduce) ran at 1.01× (0.97–1.05×, 3 rows) the speed of the same loops written by hand",
		"chunked and tiled bodies (ParallelForChunks, ParallelForTiles...) ran at 0.50× (1 row) the speed of goroutine loops",
		"Avoid per-index closures",
		"ran at only 0.27× (0.16–0.38×, 2 rows) the speed of a plain loop; write a Go kernel or a chunked body instead.",
		"Of the 4 rows with a goal, 3 passed, 0 were within noise of it and 1 missed it clearly (stream: Copy, 100 float64).",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "noise floor") {
		t.Errorf("no row within noise, yet the summary speaks of the noise floor:\n%s", s)
	}
	noisy := append(ms, measure{Suite: "access", Name: "rank-1 At sum", Unit: "GB/s", Value: 1, Baseline: 1, Goal: 1, GoalOp: ">="})
	judge(&noisy[len(noisy)-1], 0.02)
	if s := summary(noisy); !strings.Contains(s, "The run's noise floor was ±2.0% (the control row)") {
		t.Errorf("a row within noise, and the summary does not give the noise floor:\n%s", s)
	}
	// Claims whose rows are absent are left out.
	for _, absent := range []string{"DeepCopy", "View At", "GPU", "mpi"} {
		if strings.Contains(s, absent) {
			t.Errorf("summary speaks of %s without its rows:\n%s", absent, s)
		}
	}
	// Per-index closures that run near a plain loop are reported, not
	// warned of.
	s = summary([]measure{row("stream", "Triad (per-index body), 1 float64", 0.9, 0)})
	if !strings.Contains(s, "Per-index closures ran at 0.90× (1 row) the speed of a plain loop.") || strings.Contains(s, "Avoid") || strings.Contains(s, "rows with a goal") {
		t.Errorf("summary: %s", s)
	}
	if s := summary(nil); s != "" {
		t.Errorf("summary of nothing: %q", s)
	}
	var many []measure
	for range 5 {
		many = append(many, row("access", "rank-1 At sum", 0.5, 0.9))
	}
	if s := summary(many); !strings.Contains(s, "5 missed it clearly.") || !strings.Contains(s, "View At and Row loops ran at 0.50× (0.50–0.50×, 5 rows)") {
		t.Errorf("summary: %s", s)
	}
}

// Every group of the summary finds rows in a run of the host suites, so
// that a renamed row does not silently drop a claim.
func TestSummaryGroupsMatchSuites(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suites")
	}
	ms := tinyRun(t)
	for _, g := range append(fastGroups, perIndexGroup) {
		if g.what == "on the GPU, Go kernels" {
			continue
		}
		if len(g.speeds(ms)) == 0 {
			t.Errorf("no row of the host suites for %q", g.what)
		}
	}
}

func TestPrintTable(t *testing.T) {
	c := measure{Suite: "control", Name: "plain loop vs an identical copy", Unit: "ns/elem", Value: 1, Baseline: 1,
		samples: samples{[]float64{1, 1, 1, 1, 1}, []float64{0.96, 0.98, 1, 1.02, 1.04}}}
	judge(&c, 0)
	at := measure{Suite: "access", Name: "rank-1 At sum", Unit: "ns/elem", Value: 1.25, Baseline: 1, Goal: 1.1, GoalOp: "<="}
	judge(&at, noiseFloor(c))
	allocs := measure{Suite: "subview", Name: "allocations", Unit: "allocs/op", Value: 0, Goal: 0, GoalOp: "<="}
	judge(&allocs, noiseFloor(c))
	ms := []measure{c, at, allocs,
		{Suite: "cuda", NotRun: "needs -space cuda"}, {Suite: "mpi", NotRun: "needs 2 processes"}, {Suite: "cudastream", NotRun: "needs -space cuda"}}
	var b bytes.Buffer
	printTable(&b, ms, config{reps: 5})
	out := b.String()
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"5 repetitions, medians; noise floor ±4.0% (the control row)",
		"suite measure value baseline speed band goal verdict",
		"control plain loop vs an identical copy 1 ns/elem 1 ns/elem 1.00× 0.960–1.04 - info",
		"access rank-1 At sum 1.25 ns/elem 1 ns/elem 0.800× 0.768–0.832 ≥ 0.909 MISS",
		"subview allocations 0 allocs/op - - - ≤ 0 allocs/op pass",
		"not run: cuda, cudastream (needs -space cuda); mpi (needs 2 processes)",
		"verdict pass: the whole band meets the goal",
		"3 measures: 1 pass, 0 within noise, 1 MISS (the whole band below the goal), 1 info (no goal)",
		"Of the 2 rows with a goal, 1 passed, 0 were within noise of it and 1 missed it clearly (access: rank-1 At sum).",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "cuda") || strings.HasPrefix(line, "mpi") {
			t.Errorf("a suite that did not run has a row: %q", line)
		}
	}
}

func TestPrintTableNothingMeasured(t *testing.T) {
	var b bytes.Buffer
	printTable(&b, []measure{{Suite: "cuda", NotRun: "needs -space cuda"}}, config{reps: 7})
	out := b.String()
	if !strings.Contains(out, "nothing measured\nnot run: cuda (needs -space cuda)\n") || strings.Contains(out, "columns:") || strings.Contains(out, "noise floor") {
		t.Errorf("table of nothing:\n%s", out)
	}
}

func TestWrap(t *testing.T) {
	s := wrap("aaa bbb× ccc ddd", 8)
	if s != "aaa bbb×\nccc ddd" {
		t.Errorf("wrap: %q", s)
	}
}
