// Command testsum reads `go test -json` on its input and prints what plain
// `go test` prints (one line a package, and the output of each failing test
// or package), then one line that counts the tests skipped for want of a
// GPU, with the reason they gave. It exits non-zero when a package or test
// failed or the input held no package result.
//
//	go test -json ./... | go run .ci/testsum.go
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
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

func main() {
	type key struct{ pkg, test string }
	out := map[key][]string{}
	var (
		failed, pkgs, skipped, gpuSkipped int
		gpuReason                         string
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
				for _, o := range out[k] {
					if i := strings.Index(o, gpuSkip); i >= 0 {
						gpuSkipped++
						if gpuReason == "" {
							gpuReason, _, _ = strings.Cut(strings.TrimSpace(o[i:]), " (")
						}
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
		fmt.Printf("%d tests skipped for want of a GPU (%s); %d skipped in all\n", gpuSkipped, gpuReason, skipped)
	default:
		fmt.Printf("no test skipped for want of a GPU; %d skipped in all\n", skipped)
	}
	if failed > 0 || pkgs == 0 {
		os.Exit(1)
	}
}
