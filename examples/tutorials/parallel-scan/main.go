// Command parallel-scan is the Kokkos tutorial's parallel_scan exercise
// in Go: out(i) = i! for i below n, computed by an exclusive product scan
// (the scan kernel Factorial, in kernels.go, with kokkos.Prod) and checked
// against a sequential loop.
//
//	go run ./examples/tutorials/parallel-scan [-cuda] [n [nrepeat]]
//
// n (default 10, the C++ program's) and nrepeat (default 1) are
// positional. It prints "i: value should be reference" for the first 20
// indices (past 170 the factorials are +Inf, on both sides), and checks them all up
// to rounding, then the time
// of nrepeat scans and the JSON line {"name":"parallel-scan","unit":"s",...}
// of the side-by-side harness.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

func main() {
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream, the view in cuda.Space)")
	flag.Parse()
	n, nrepeat := 10, 1
	var err error
	if flag.NArg() > 0 {
		if n, err = strconv.Atoi(flag.Arg(0)); err != nil {
			tut.Fatal("parallel-scan", err)
		}
	}
	if flag.NArg() > 1 {
		if nrepeat, err = strconv.Atoi(flag.Arg(1)); err != nil {
			tut.Fatal("parallel-scan", err)
		}
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("parallel-scan", err)
	}
	defer place.Release()
	if err := run(os.Stdout, place, n, max(nrepeat, 1)); err != nil {
		tut.Fatal("parallel-scan", err)
	}
}

// run scans n factorials nrepeat times at place, prints them against the
// sequential reference and the time to w, and returns an error when they
// differ.
func run(w io.Writer, place tut.Place, n, nrepeat int) error {
	out, err := kokkos.NewView1[float64]("view", n, kokkos.InSpace(place.Mem))
	if err != nil {
		return err
	}
	defer out.Release()
	p := kokkos.Range(0, n).On(place.Space())
	start := time.Now()
	for range nrepeat {
		if _, err := kernel.Scan("factorial", p, kokkos.Prod[float64](), Factorial, out); err != nil {
			return err
		}
	}
	secs := time.Since(start).Seconds()
	h, err := kokkos.CreateMirrorViewAndCopy(out)
	if err != nil {
		return err
	}
	fmt.Fprintln(w, "Factorial: ")
	ref, bad := 1.0, 0
	for i := range n {
		if i < 20 {
			fmt.Fprintf(w, "%d: %g should be %g\n", i, h.At(i), ref)
		}
		if !close(h.At(i), ref) {
			bad++
		}
		ref *= float64(i + 1)
	}
	fmt.Fprintf(w, "n( %d ) nrepeat( %d ) time( %.6g s )\n", n, nrepeat, secs)
	tut.Emit(w, "parallel-scan", "s", secs)
	if bad > 0 {
		return fmt.Errorf("%d of %d factorials differ from the sequential loop's", bad, n)
	}
	return nil
}

// close reports whether a is b up to a relative 1e-12: past 18! the
// products are rounded, in another order by a parallel scan.
func close(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*math.Abs(b)
}
