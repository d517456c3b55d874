package main

import (
	"fmt"
	"slices"
	"strings"
)

// A group is a kind of row the summary speaks of: the rows it holds, and
// the words for them and for their baselines.
type group struct {
	rows           func(m measure) bool
	what, baseline string
}

// isPerIndex says whether a row times a closure called once per index.
func isPerIndex(m measure) bool { return strings.Contains(m.Name, "(per-index body)") }

// fastGroups are the ways of writing a loop that the summary reports
// first, each against the plain loop it replaces.
var fastGroups = []group{
	{func(m measure) bool {
		return m.Suite == "kernels" || m.Suite == "mdrange" && strings.Contains(m.Name, "Go kernel")
	}, "Go kernels (kernel.For, kernel.Reduce)", "the same loops written by hand"},
	{func(m measure) bool {
		return m.Suite == "stream" && !isPerIndex(m) || m.Suite == "mdrange" && strings.Contains(m.Name, "Tiles")
	}, "chunked and tiled bodies (ParallelForChunks, ParallelForTiles...)", "goroutine loops"},
	{func(m measure) bool {
		return m.Suite == "deepcopy" && m.GoalOp != "" ||
			m.Suite == "fillscan" && (strings.HasPrefix(m.Name, "Fill") || strings.HasPrefix(m.Name, "DeepCopy"))
	}, "DeepCopy and Fill", "copy() and hand-written fills"},
	{func(m measure) bool { return m.Suite == "access" && strings.HasPrefix(m.Name, "rank-") },
		"View At and Row loops", "the same loops over slices"},
	{func(m measure) bool { return m.Suite == "kernelscuda" },
		"on the GPU, Go kernels", "the same bodies in CUDA C"},
}

// perIndexGroup is what the summary warns of.
var perIndexGroup = group{isPerIndex, "per-index closures (a body per index to ParallelFor, ParallelForMD, ParallelReduceMD)", "a plain loop"}

// slowPerIndex is the speed under which the summary advises against
// per-index closures in hot loops.
const slowPerIndex = 0.7

// speeds returns the sorted speeds of the measured rows of g.
func (g group) speeds(ms []measure) []float64 {
	var s []float64
	for _, m := range ms {
		if m.NotRun == "" && m.Baseline != 0 && m.Speed > 0 && g.rows(m) {
			s = append(s, m.Speed)
		}
	}
	slices.Sort(s)
	return s
}

// speedRange writes the median of sorted speeds and their range: "1.01×
// (0.97–1.05×, 9 rows)", or "1.01× (1 row)".
func speedRange(s []float64) string {
	if len(s) == 1 {
		return fmt.Sprintf("%s× (1 row)", num(s[0]))
	}
	return fmt.Sprintf("%s× (%s–%s×, %d rows)", num(median(s)), num(s[0]), num(s[len(s)-1]), len(s))
}

func num(x float64) string {
	if x >= 10 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// summary sums the run up in words, from its rows only: how fast each
// kind of loop ran against the plain one, what to avoid, how many rows
// missed their goals, and the noise floor where rows were within noise. A
// kind without rows in the run is left out.
func summary(ms []measure) string {
	var out []string
	var fast []string
	for _, g := range fastGroups {
		if s := g.speeds(ms); len(s) > 0 {
			fast = append(fast, fmt.Sprintf("%s ran at %s the speed of %s", g.what, speedRange(s), g.baseline))
		}
	}
	if len(fast) > 0 {
		out = append(out, "In this run, "+strings.Join(fast, "; ")+".")
	}
	if s := perIndexGroup.speeds(ms); len(s) > 0 {
		if median(s) < slowPerIndex {
			out = append(out, fmt.Sprintf("Avoid %s in hot loops: they ran at only %s the speed of %s; write a Go kernel or a chunked body instead.",
				perIndexGroup.what, speedRange(s), perIndexGroup.baseline))
		} else {
			out = append(out, fmt.Sprintf("Per-index closures ran at %s the speed of %s.", speedRange(s), perIndexGroup.baseline))
		}
	}
	goals, pass, noise := 0, 0, 0
	var missed []string
	for _, m := range ms {
		if m.NotRun != "" || m.GoalOp == "" {
			continue
		}
		goals++
		switch m.Verdict {
		case verdictPass:
			pass++
		case verdictNoise:
			noise++
		case verdictMiss:
			missed = append(missed, m.Suite+": "+m.Name)
		}
	}
	if goals > 0 {
		miss := "none missed it clearly"
		switch {
		case len(missed) == 1:
			miss = "1 missed it clearly (" + missed[0] + ")"
		case len(missed) <= 3 && len(missed) > 0:
			miss = fmt.Sprintf("%d missed it clearly (%s)", len(missed), strings.Join(missed, "; "))
		case len(missed) > 3:
			miss = fmt.Sprintf("%d missed it clearly", len(missed))
		}
		out = append(out, fmt.Sprintf("Of the %d rows with a goal, %d passed, %d were within noise of it and %s.", goals, pass, noise, miss))
	}
	if i := slices.IndexFunc(ms, func(m measure) bool { return m.Suite == "control" && m.NotRun == "" }); i >= 0 && noise > 0 {
		out = append(out, fmt.Sprintf("The run's noise floor was ±%.1f%% (the control row): on a quieter machine, or with more -reps, rows within noise may settle either way.",
			100*noiseFloor(ms[i])))
	}
	return strings.Join(out, " ")
}
