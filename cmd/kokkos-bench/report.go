package main

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// legend explains the table's columns, printed under it.
const legend = `columns:
  value     the gokkos measure: the median of the repetitions
  baseline  the same work in plain Go (or a bare library call), timed alternately in this run
  speed     × the baseline's speed: higher is better, 1 is as fast (a time such as ns/elem
            is inverted: baseline ÷ value; a rate such as GB/s is not: value ÷ baseline)
  band      the noise of speed: a 90% confidence interval (from 5 repetitions up) of the
            median speed ratio of the repetition pairs, at least the noise floor either side
  goal      the speed the measure is meant to reach (without a baseline, a bound on the value)
  verdict   pass: the whole band meets the goal; MISS: the whole band misses it;
            within noise: the band straddles the goal; info: no goal
`

// printTable prints the header with the noise floor, the table of the
// measured rows, one line on the suites that did not run, the legend, the
// count of verdicts and a summary of the run in words; without measured
// rows, only the header and the line on the suites that did not run.
func printTable(w io.Writer, ms []measure, cfg config) {
	fmt.Fprintf(w, "gokkos benchmark: %s, GOMAXPROCS=%d, %d repetitions, medians", runtime.GOARCH, runtime.GOMAXPROCS(0), cfg.reps)
	for _, m := range ms {
		if m.Suite == "control" && m.NotRun == "" {
			fmt.Fprintf(w, "; noise floor ±%.1f%% (the control row)", 100*noiseFloor(m))
			break
		}
	}
	fmt.Fprint(w, "\n\n")
	if !slices.ContainsFunc(ms, func(m measure) bool { return m.NotRun == "" }) {
		fmt.Fprintln(w, "nothing measured")
		if line := notRunLine(ms); line != "" {
			fmt.Fprintln(w, line)
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "suite\tmeasure\tvalue\tbaseline\tspeed\tband\tgoal\tverdict")
	for _, m := range ms {
		if m.NotRun != "" {
			continue
		}
		base, speed, band, goal := "-", "-", "-", "-"
		if m.Baseline != 0 {
			base = fmt.Sprintf("%.4g %s", m.Baseline, m.Unit)
			speed = fmt.Sprintf("%#.3g×", m.Speed)
			band = fmt.Sprintf("%#.3g–%#.3g", m.SpeedLo, m.SpeedHi)
			if m.SpeedGoalOp != "" {
				goal = fmt.Sprintf("%s %.3g", opSign(m.SpeedGoalOp), m.SpeedGoal)
			}
		} else if m.GoalOp != "" {
			goal = fmt.Sprintf("%s %.3g %s", opSign(m.GoalOp), m.Goal, m.Unit)
		}
		fmt.Fprintf(tw, "%s\t%s\t%.4g %s\t%s\t%s\t%s\t%s\t%s\n", m.Suite, m.Name, m.Value, m.Unit, base, speed, band, goal, m.Verdict)
	}
	tw.Flush()
	if line := notRunLine(ms); line != "" {
		fmt.Fprintf(w, "\n%s\n", line)
	}
	fmt.Fprintf(w, "\n%s\n%s\n", legend, countLine(ms))
	if s := summary(ms); s != "" {
		fmt.Fprintf(w, "\n%s\n", wrap(s, 78))
	}
}

func opSign(op string) string {
	switch op {
	case ">=":
		return "≥"
	case "<=":
		return "≤"
	}
	return op
}

// notRunLine names the selected suites that did not run, grouped by why;
// "" when all ran.
func notRunLine(ms []measure) string {
	var reasons []string
	by := map[string][]string{}
	for _, m := range ms {
		if m.NotRun == "" {
			continue
		}
		if _, ok := by[m.NotRun]; !ok {
			reasons = append(reasons, m.NotRun)
		}
		by[m.NotRun] = append(by[m.NotRun], m.Suite)
	}
	if len(reasons) == 0 {
		return ""
	}
	var parts []string
	for _, r := range reasons {
		parts = append(parts, fmt.Sprintf("%s (%s)", strings.Join(by[r], ", "), r))
	}
	return "not run: " + strings.Join(parts, "; ")
}

// countLine counts the measured rows by verdict.
func countLine(ms []measure) string {
	n := map[string]int{}
	total := 0
	for _, m := range ms {
		if m.NotRun == "" {
			n[m.Verdict]++
			total++
		}
	}
	return fmt.Sprintf("%d measures: %d pass, %d within noise, %d MISS (the whole band below the goal), %d info (no goal)",
		total, n[verdictPass], n[verdictNoise], n[verdictMiss], n[verdictInfo])
}

// wrap breaks s into lines of at most width characters at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(s) {
		switch {
		case i == 0:
		case line+1+utf8.RuneCountInString(word) > width:
			b.WriteByte('\n')
			line = 0
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += utf8.RuneCountInString(word)
	}
	return b.String()
}
