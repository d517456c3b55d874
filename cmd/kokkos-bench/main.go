// Command kokkos-bench measures what gokkos does and how fast, each measure
// against a plain-Go baseline timed in the same run.
//
//	go run ./cmd/kokkos-bench                   # every suite, default sizes
//	go run ./cmd/kokkos-bench -suite access,subview -reps 9
//	go run ./cmd/kokkos-bench -suite mdrange -reps 9  # MDRange tiles vs plain loops
//	go run ./cmd/kokkos-bench -json > results.jsonl
//	go run ./cmd/kokkos-bench -suite stream -plot stream.svg  # also a chart (.svg or .png)
//
// Kernel and baseline alternate, several repetitions each, and the table
// reports medians. Each row's speed is a multiple of its baseline's speed,
// higher better whatever the unit (a time such as ns/elem is inverted, a
// rate such as GB/s is not), with a noise band: a 90% confidence interval
// of the median of the speed ratios of the repetition pairs (kernel and
// baseline alternate), from their order statistics. A control row, timed
// before the suites and after them, is a plain loop against an identical
// copy of itself: the half-width of its band, the run's noise floor, heads
// the table, and every band is at least that wide. The verdict is "pass"
// when the whole band meets the goal, "MISS" when the whole band misses it,
// "within noise" when the band straddles it.
// A legend, one line on the suites that did not run and a paragraph that
// sums the run up in words follow the table.
//
// With -json, one object per measure: the fields of the table (suite, name,
// unit, value, baseline, speed, speed_lo, speed_hi, speed_goal,
// speed_goal_op, verdict, note) and, as before, ratio (value ÷ baseline),
// goal and goal_op (the goal as a bound on ratio, or on value without a
// baseline) and pass (false only when the verdict is MISS).
//
// Exit status: 0 when the run completed, whatever the verdicts (a MISS is
// information, not a failure); 1 when a suite or the output failed; 2 for
// a bad flag.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// A measure is one line of the report.
type measure struct {
	Suite    string  `json:"suite"`
	Name     string  `json:"name"`
	Unit     string  `json:"unit"`
	Value    float64 `json:"value"`
	Baseline float64 `json:"baseline"`
	// Ratio is Value/Baseline; 0 when the measure has no baseline.
	Ratio float64 `json:"ratio"`
	// Speed is the measure's speed as a multiple of its baseline's: Ratio
	// for a rate (GB/s, Gidx/s...), 1/Ratio for a time (ns/elem, µs...);
	// higher is better; 0 without a baseline.
	Speed float64 `json:"speed"`
	// SpeedLo and SpeedHi bound the noise band of Speed (see judge); 0
	// without a baseline.
	SpeedLo float64 `json:"speed_lo"`
	SpeedHi float64 `json:"speed_hi"`
	// Goal bounds Ratio (or Value, for measures without a baseline) from
	// below when GoalOp is ">=", from above when "<=".
	Goal   float64 `json:"goal"`
	GoalOp string  `json:"goal_op"`
	// SpeedGoal and SpeedGoalOp are Goal and GoalOp as a bound on Speed
	// (a time's "<= 1.25" is ">= 0.8"); empty without a baseline.
	SpeedGoal   float64 `json:"speed_goal"`
	SpeedGoalOp string  `json:"speed_goal_op"`
	// Verdict is "pass", "MISS", "within noise" or, without a goal, "info".
	Verdict string `json:"verdict"`
	// Pass is false only when Verdict is "MISS".
	Pass bool   `json:"pass"`
	Note string `json:"note,omitempty"`

	// samples are the repetitions whose medians are Value and Baseline,
	// as the suite that made the measure timed them; none where unknown.
	samples
	// NotRun, when set, makes the measure a note that its suite did not
	// run, and why: not a row of the table or of -json.
	NotRun string `json:"-"`
}

type config struct {
	reps    int
	scale   float64 // multiplies default problem sizes
	threads int
	space   string
}

type suite struct {
	name string
	desc string
	run  func(cfg config, add func(measure)) error
	// space, when set, runs the suite only under that -space.
	space string
}

var suites []suite

func register(s suite) { suites = append(suites, s) }

func main() {
	if os.Getenv(envLoadProbe) != "" {
		os.Exit(cudaLoadProbe())
	}
	var (
		only     = flag.String("suite", "", "comma-separated suites to run (default: all)")
		jsonOut  = flag.Bool("json", false, "print one JSON object per measure instead of a table")
		reps     = flag.Int("reps", 7, "repetitions of each kernel and baseline (medians are reported)")
		scale    = flag.Float64("scale", 1, "multiply the default problem sizes")
		threads  = flag.Int("threads", 0, "worker threads for parallel suites (0: GOMAXPROCS)")
		space    = flag.String("space", "host", "memory and execution space: host or cuda")
		list     = flag.Bool("list", false, "list the suites and exit")
		plotFile = flag.String("plot", "", "also draw stream bandwidth against array size into this .svg or .png file")
	)
	flag.Parse()
	if *list {
		for _, s := range suites {
			fmt.Printf("%-10s %s\n", s.name, s.desc)
		}
		return
	}
	if *plotFile != "" {
		if err := checkPlotFile(*plotFile); err != nil {
			fmt.Fprintln(os.Stderr, "kokkos-bench:", err)
			os.Exit(2)
		}
	}
	cfg := config{reps: max(*reps, 3), scale: *scale, threads: *threads, space: *space}
	if cfg.threads > 0 {
		runtime.GOMAXPROCS(cfg.threads)
	}
	ms, err := runSuites(cfg, *only, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "kokkos-bench:", err)
		os.Exit(1)
	}
	if *plotFile != "" {
		if err := plotStream(cfg, *plotFile, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "kokkos-bench:", err)
			os.Exit(1)
		}
	}
	if *jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetEscapeHTML(false)
		for _, m := range ms {
			if m.NotRun != "" {
				continue
			}
			if err := enc.Encode(m); err != nil {
				fmt.Fprintln(os.Stderr, "kokkos-bench:", err)
				os.Exit(1)
			}
		}
	} else {
		printTable(os.Stdout, ms, cfg)
	}
}

// runSuites runs the selected suites, reporting progress on progress. The
// control measure, timed before the first suite and after the last, comes
// first and sets the noise floor, the least half-width of the bands of the
// rows after it; a selected suite that did not run leaves a measure with
// NotRun set.
func runSuites(cfg config, only string, progress io.Writer) ([]measure, error) {
	want := map[string]bool{}
	for _, s := range strings.Split(only, ",") {
		if s = strings.TrimSpace(s); s != "" {
			want[s] = true
		}
	}
	for name := range want {
		if !slices.ContainsFunc(suites, func(s suite) bool { return s.name == name }) {
			return nil, fmt.Errorf("unknown suite %q (see -list)", name)
		}
	}
	if cfg.space != "host" && cfg.space != "cuda" {
		return nil, fmt.Errorf("unknown -space %q: use host or cuda", cfg.space)
	}
	var ms []measure
	var ctl *control
	floor := 0.0
	var err error
	for _, s := range suites {
		if len(want) > 0 && !want[s.name] {
			continue
		}
		if s.space != "" && s.space != cfg.space {
			ms = append(ms, measure{Suite: s.name, NotRun: "needs -space " + s.space})
			continue
		}
		if ctl == nil {
			fmt.Fprintf(progress, "control: a plain loop against an identical copy of itself...\n")
			ctl = newControl(cfg)
			ctl.time()
			ms = append([]measure{ctl.measure()}, ms...)
			floor = noiseFloor(ms[0])
		}
		start := time.Now()
		fmt.Fprintf(progress, "suite %s: %s...\n", s.name, s.desc)
		notRun := ""
		err = s.run(cfg, func(m measure) {
			m.Suite = s.name
			if m.NotRun == "" {
				judge(&m, floor)
			} else {
				notRun = m.NotRun
			}
			ms = append(ms, m)
		})
		if err != nil {
			err = fmt.Errorf("suite %s: %w", s.name, err)
			break
		}
		if notRun != "" {
			fmt.Fprintf(progress, "suite %s: not run: %s\n", s.name, notRun)
		} else {
			fmt.Fprintf(progress, "suite %s: done in %.1fs\n", s.name, time.Since(start).Seconds())
		}
	}
	if ctl != nil {
		// The control again, and every row judged against the floor of
		// the whole run.
		ctl.time()
		ms[0] = ctl.measure()
		floor = noiseFloor(ms[0])
		for i := range ms[1:] {
			if ms[1+i].NotRun == "" {
				judge(&ms[1+i], floor)
			}
		}
	}
	return ms, err
}

// timeAlternating runs kernel and baseline alternately reps times after a
// warm-up of each, and returns the median seconds of each and the seconds
// of each repetition, for the measure made of the medians; without a
// baseline, b is 0 and s is empty.
func timeAlternating(reps int, kernel, baseline func()) (k, b float64, s samples) {
	kernel()
	if baseline != nil {
		baseline()
	}
	var ks, bs []float64
	for range reps {
		t := time.Now()
		kernel()
		ks = append(ks, time.Since(t).Seconds())
		if baseline != nil {
			t = time.Now()
			baseline()
			bs = append(bs, time.Since(t).Seconds())
		}
	}
	if baseline != nil {
		s = samples{ks, bs}
	}
	return median(ks), median(bs), s
}

func median(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := slices.Clone(x)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func scaled(n int, s float64) int { return max(1, int(float64(n)*s)) }
