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
// reports medians. A measure that misses its goal says so.
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
	"text/tabwriter"
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
	// Goal bounds Ratio (or Value, for measures without a baseline) from
	// below when GoalOp is ">=", from above when "<=".
	Goal   float64 `json:"goal"`
	GoalOp string  `json:"goal_op"`
	Pass   bool    `json:"pass"`
	Note   string  `json:"note,omitempty"`
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
			if err := enc.Encode(m); err != nil {
				fmt.Fprintln(os.Stderr, "kokkos-bench:", err)
				os.Exit(1)
			}
		}
	} else {
		printTable(os.Stdout, ms, cfg)
	}
}

// runSuites runs the selected suites, reporting progress on progress.
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
	for _, s := range suites {
		if len(want) > 0 && !want[s.name] || s.space != "" && s.space != cfg.space {
			continue
		}
		start := time.Now()
		fmt.Fprintf(progress, "suite %s: %s...\n", s.name, s.desc)
		err := s.run(cfg, func(m measure) {
			m.Suite = s.name
			judge(&m)
			ms = append(ms, m)
		})
		if err != nil {
			return ms, fmt.Errorf("suite %s: %w", s.name, err)
		}
		fmt.Fprintf(progress, "suite %s: done in %.1fs\n", s.name, time.Since(start).Seconds())
	}
	return ms, nil
}

func judge(m *measure) {
	x := m.Value
	if m.Baseline != 0 {
		m.Ratio = m.Value / m.Baseline
		x = m.Ratio
	}
	switch m.GoalOp {
	case ">=":
		m.Pass = x >= m.Goal
	case "<=":
		m.Pass = x <= m.Goal
	default:
		m.Pass = true
	}
}

func printTable(w io.Writer, ms []measure, cfg config) {
	fmt.Fprintf(w, "gokkos benchmark: %s, GOMAXPROCS=%d, %d repetitions, medians\n\n", runtime.GOARCH, runtime.GOMAXPROCS(0), cfg.reps)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "suite\tmeasure\tvalue\tbaseline\tratio\tgoal\tresult\t")
	for _, m := range ms {
		base, ratio := "-", "-"
		if m.Baseline != 0 {
			base = fmt.Sprintf("%.4g %s", m.Baseline, m.Unit)
			ratio = fmt.Sprintf("%.3f", m.Ratio)
		}
		goal, res := "-", "info"
		if m.GoalOp != "" {
			goal = fmt.Sprintf("%s %.3g", m.GoalOp, m.Goal)
			res = "pass"
			if !m.Pass {
				res = "MISS"
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%.4g %s\t%s\t%s\t%s\t%s\t\n", m.Suite, m.Name, m.Value, m.Unit, base, ratio, goal, res)
	}
	tw.Flush()
	miss := 0
	for _, m := range ms {
		if !m.Pass {
			miss++
		}
	}
	fmt.Fprintf(w, "\n%d measures, %d miss their goal\n", len(ms), miss)
}

// timeAlternating runs kernel and baseline alternately reps times after a
// warm-up of each, and returns the median seconds of each.
func timeAlternating(reps int, kernel, baseline func()) (k, b float64) {
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
	return median(ks), median(bs)
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
