// Command mc-pi is the Kokkos tutorial's random_number exercise in Go:
// pi estimated by throwing 2^N darts at the unit square and counting
// those within the unit circle, with package random's XorShift64Pool
// (Kokkos's Random_XorShift64_Pool, seeded and drawing bit for bit as
// Kokkos 4.6.1's). The kernel DartsPool (kernels.go) takes a generator
// from the pool, as the C++ program does with get_state and free_state,
// on the host and, with -cuda, on a GPU.
//
//	go run ./examples/tutorials/mc-pi [-cuda] N [dart_groups]
//
// N is the exponent of the number of darts; each index of the launch
// throws dart_groups of them (default 1). It prints the reference pi, the
// darts, hits and estimate, the time, and the JSON line
// {"name":"mc-pi","unit":"s",...} of the side-by-side harness.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/random"
)

// seed is the C++ program's seed of its pool.
const seed = 5374857

func main() {
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream)")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "RNG Example: Need at least one argument (number darts) to run; second optional argument for serial_iterations")
		os.Exit(2)
	}
	n, err := strconv.Atoi(flag.Arg(0))
	if err != nil {
		tut.Fatal("mc-pi", err)
	}
	groups := 1
	if flag.NArg() > 1 {
		if groups, err = strconv.Atoi(flag.Arg(1)); err != nil {
			tut.Fatal("mc-pi", err)
		}
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("mc-pi", err)
	}
	defer place.Release()
	if _, err := run(os.Stdout, place, 1<<n, groups); err != nil {
		tut.Fatal("mc-pi", err)
	}
}

// run throws darts darts, groups per index, at place, prints the figures
// to w and returns the estimate of pi.
func run(w io.Writer, place tut.Place, darts, groups int) (float64, error) {
	if groups < 1 || darts < groups {
		return 0, fmt.Errorf("want dart_groups of 1 or more and no more than the darts, got %d and %d", groups, darts)
	}
	const rad = 1.0
	fmt.Fprintf(w, "Reference Value for pi:  %f\n", math.Pi)
	// The pool is made before the timer, as the C++ program's is.
	pool, err := random.NewXorShift64Pool(place.Space(), seed)
	if err != nil {
		return 0, err
	}
	defer pool.Release()
	if err := warmUp(place, rad); err != nil {
		return 0, err
	}
	start := time.Now()
	hits, err := poolHits(place, pool, darts/groups, groups, rad)
	if err != nil {
		return 0, err
	}
	secs := time.Since(start).Seconds()
	pi := 4 * float64(hits) / float64(darts)
	fmt.Fprintf(w, "darts = %d  hits = %d  pi est = %f\n", darts, hits, pi)
	fmt.Fprintf(w, "generator( %s ) time( %.6g s )\n", rngForm, secs)
	tut.Emit(w, "mc-pi", "s", secs)
	return pi, nil
}
