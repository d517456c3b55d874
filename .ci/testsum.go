// Command testsum reads `go test -json` on its input and prints what plain
// `go test` prints (one line a package, and the output of each failing test
// or package), then one line that counts the tests and subtests skipped for
// want of a GPU, with the reason they gave. It exits non-zero when a
// package or test failed, when a test skipped for a reason that names a GPU
// or CUDA without the words "CUDA unavailable" (so that the count would
// miss it), when the long tests should have run (GOKKOS_LONG_TESTS=1 in
// -long, as .ci/run passes with -tags longtest) and one skipped as long, or when the input held no
// package result. It counts the long tests and parts that skipped
// (internal/testutil.SkipUnlessLong, LongPart). It warns, naming
// them, of the tests that passed while their output says that a GPU part
// did not run: such a part should skip, as a subtest, to be counted.
//
//	go test -json ./... | go run .ci/testsum.go
//	go test -tags longtest -json ./... | go run .ci/testsum.go -long
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

// gpuSkip is how every test that needs a GPU says why it skipped.
const gpuSkip = "CUDA unavailable"

// longSkip begins the reason of every long test or part left out
// (internal/testutil.LongSkipMessage).
const longSkip = "long test: -tags longtest runs it"

var (
	// gpuWord finds a skip reason that is about a GPU.
	gpuWord = regexp.MustCompile(`(?i)\b(gpus?|cuda)\b`)
	// gpuDropped finds the output of a test that went on without its GPU
	// part.
	gpuDropped = regexp.MustCompile(`(?i)CUDA unavailable|\bno GPU\b|\bGPU (part )?skipped\b|\bskipp(ed|ing) (the )?(GPU|CUDA)\b`)
)

// message returns the lines of out that the test wrote, less the lines of
// go test itself (=== RUN, --- PASS and the like), which name the test.
func message(out []string) []string {
	var m []string
	for _, o := range out {
		t := strings.TrimSpace(o)
		if strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		m = append(m, t)
	}
	return m
}

func main() {
	long := flag.Bool("long", false, "the tests ran with -tags longtest: a long test that skipped fails")
	flag.Parse()
	type key struct{ pkg, test string }
	out := map[key][]string{}
	var (
		failed, pkgs, skipped, gpuSkipped int
		longSkipped                       []string
		gpuReason                         string
		unmarked, dropped                 []string // "package test: line"
		counted                           = map[string]bool{}
	)
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			fmt.Println(string(line)) // not an event: pass it on
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "output":
			out[k] = append(out[k], e.Output)
		case "build-output":
			fmt.Print(e.Output)
		case "pass", "skip", "fail":
			if e.Action == "skip" && e.Test != "" {
				skipped++
				marked := false
				for _, o := range message(out[k]) {
					if i := strings.Index(o, gpuSkip); i >= 0 {
						marked = true
						gpuSkipped++
						// The parents of a subtest that skipped for want of
						// a GPU have their GPU part counted.
						for t := e.Test; strings.Contains(t, "/"); {
							t = t[:strings.LastIndex(t, "/")]
							counted[e.Package+" "+t] = true
						}
						if gpuReason == "" {
							gpuReason, _, _ = strings.Cut(o[i:], " (")
						}
						break
					}
				}
				for _, o := range message(out[k]) {
					if strings.Contains(o, longSkip) {
						marked = true
						longSkipped = append(longSkipped, e.Package+" "+e.Test)
						break
					}
				}
				if !marked {
					for _, o := range message(out[k]) {
						if gpuWord.MatchString(o) {
							unmarked = append(unmarked, e.Package+" "+e.Test+": "+o)
							break
						}
					}
				}
			}
			if e.Action == "pass" && e.Test != "" && !counted[e.Package+" "+e.Test] {
				for _, o := range message(out[k]) {
					if gpuDropped.MatchString(o) {
						dropped = append(dropped, e.Package+" "+e.Test+": "+o)
						break
					}
				}
			}
			if e.Action == "fail" {
				failed++
				for _, o := range out[k] {
					fmt.Print(o)
				}
			}
			if e.Test == "" {
				pkgs++
				switch {
				case e.Action == "fail":
				case e.Action == "skip":
					fmt.Printf("?   \t%s\t[no test files]\n", e.Package)
				default:
					fmt.Printf("ok  \t%s\t%.3fs\n", e.Package, e.Elapsed)
				}
			}
			delete(out, k)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(1)
	}
	switch {
	case gpuSkipped > 0:
		fmt.Printf("%d tests and subtests skipped for want of a GPU (%s); %d skipped in all\n", gpuSkipped, gpuReason, skipped)
	default:
		fmt.Printf("no test skipped for want of a GPU; %d skipped in all\n", skipped)
	}
	longWanted := *long
	switch {
	case len(longSkipped) > 0 && longWanted:
		fmt.Printf("FAIL: %d long tests and parts skipped although built with -tags longtest (-short?):\n", len(longSkipped))
		for _, l := range longSkipped {
			fmt.Println("\t" + l)
		}
	case len(longSkipped) > 0:
		fmt.Printf("%d long tests and parts skipped (go test -tags longtest runs them, as .ci/run does)\n", len(longSkipped))
	case longWanted:
		fmt.Println("the long tests ran (-tags longtest)")
	}
	if len(dropped) > 0 {
		fmt.Printf("WARNING: %d tests passed without running their GPU part, and no skip counts it:\n", len(dropped))
		for _, d := range dropped {
			fmt.Println("\t" + d)
		}
	}
	if len(unmarked) > 0 {
		fmt.Printf("FAIL: %d tests skipped for want of a GPU without saying %q, which the count above misses:\n", len(unmarked), gpuSkip)
		for _, u := range unmarked {
			fmt.Println("\t" + u)
		}
	}
	if failed > 0 || pkgs == 0 || len(unmarked) > 0 || len(longSkipped) > 0 && longWanted {
		os.Exit(1)
	}
}
