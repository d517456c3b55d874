// Command histogram is the Kokkos tutorial's scatter_view exercise in Go:
// an N-bin histogram of an N×M matrix of bins, counted into one view by
// concurrent threads, first with an atomic increment per value
// (HistAtomic, in kernels.go), then, on the host, with one copy of the
// histogram per thread, plain increments, and a loop adding the copies
// (duplicated: HistToken counts each row into the copy of the id it
// acquires from a unique token, where the C++ program takes
// omp_get_thread_num, and Contribute adds the copies), and with a
// ScatterView of package containers, as the C++ program's
// Kokkos::Experimental::ScatterView (HistScatter, a Go kernel, in
// kernels_scatter.go, and the same with a closure on the host). Each form
// adds to the same histogram, as in the C++ program, and is timed once.
//
//	go run ./examples/tutorials/histogram [-cuda] [-nrepeat R] [N [M]]
//
// N (default 100000) and M (default 100) are positional, as in the C++
// program; the bins are splitmix64 of each element's position modulo N
// (the C++ program computes the same ones). It prints "Time Atomic: N M
// seconds", "Time Duplicated: ...", "Time ScatterView: ..." and "Time
// ScatterView (closure): ...", the JSON lines
// {"name":"histogram.atomic","unit":"s",...}, "histogram.duplicated",
// "histogram.scatter-view" (the C++ program's name for its ScatterView)
// and "histogram.scatter-view-closure", and checks the counts. On a GPU
// it runs the atomic and the ScatterView forms (the ScatterView is then
// non-duplicated and atomic, as Kokkos's on CUDA). -nrepeat runs each form
// that many times and reports the median.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

func main() {
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream, views in cuda.Space): the atomic form only")
	nrepeat := flag.Int("nrepeat", 1, "times each form runs (the median is reported)")
	flag.Parse()
	n, m := 100000, 100
	var err error
	if flag.NArg() > 0 {
		if n, err = strconv.Atoi(flag.Arg(0)); err != nil {
			tut.Fatal("histogram", err)
		}
	}
	if flag.NArg() > 1 {
		if m, err = strconv.Atoi(flag.Arg(1)); err != nil {
			tut.Fatal("histogram", err)
		}
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("histogram", err)
	}
	defer place.Release()
	if err := run(os.Stdout, place, n, m, max(*nrepeat, 1)); err != nil {
		tut.Fatal("histogram", err)
	}
}

// run fills v (n×m) with bins, counts them into r with each form, prints
// the times to w and checks that r holds every value once per run.
func run(w io.Writer, place tut.Place, n, m, nrepeat int) error {
	in := kokkos.InSpace(place.Mem)
	v, err := kokkos.NewView2[int32]("V", n, m, in)
	if err != nil {
		return err
	}
	defer v.Release()
	r, err := kokkos.NewView1[int32]("R", n, in)
	if err != nil {
		return err
	}
	defer r.Release()
	sp := place.Space()
	if err := kernel.For("values", kokkos.MDRange([]int{0, 0}, []int{n, m}).On(sp), Values, v); err != nil {
		return err
	}
	if err := place.Fence(); err != nil {
		return err
	}
	runs := 0
	timeIt := func(f func() error) (float64, error) {
		var ts []float64
		for range nrepeat {
			start := time.Now()
			if err := f(); err != nil {
				return 0, err
			}
			if err := place.Fence(); err != nil {
				return 0, err
			}
			ts = append(ts, time.Since(start).Seconds())
			runs++
		}
		slices.Sort(ts)
		return ts[len(ts)/2], nil
	}
	t, err := timeIt(func() error {
		return kernel.For("Atomic Loop", kokkos.Range(0, n).On(sp), HistAtomic, v.ReadOnly(), r)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Time Atomic: %d %d %g\n", n, m, t)
	tut.Emit(w, "histogram.atomic", "s", t)
	if place.Stream == nil {
		// As in the C++ program, the copies are made outside the timing.
		tok := kokkos.NewUniqueToken(kokkos.DefaultHostExecutionSpace())
		dup, err := kokkos.NewView2[int32]("Rdup", tok.Size(), n)
		if err != nil {
			return err
		}
		defer dup.Release()
		t, err := timeIt(func() error { return duplicated(place, tok, v, r, dup) })
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "Time Duplicated (%s): %d %d %g\n", dupForm, n, m, t)
		tut.Emit(w, "histogram.duplicated", "s", t)
	}
	// As in the C++ program, the ScatterView is made outside the timing:
	// on the host it is duplicated, a copy per worker of the pool.
	sv, err := containers.NewScatterView1[containers.ScatterSum](r, containers.ScatterOn(sp))
	if err != nil {
		return err
	}
	defer sv.Release()
	t, err = timeIt(func() error { return scatterView(place, sv, v, r) })
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Time ScatterView: %d %d %g\n", n, m, t)
	tut.Emit(w, "histogram.scatter-view", "s", t)
	if place.Stream == nil {
		t, err = timeIt(func() error { return scatterViewClosure(sv, v, r) })
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "Time ScatterView (closure): %d %d %g\n", n, m, t)
		tut.Emit(w, "histogram.scatter-view-closure", "s", t)
	}
	return check(r, n, m, runs)
}

// check reports an error unless the counts of r add up to runs times the
// n*m values.
func check(r kokkos.View1[int32], n, m, runs int) error {
	h, err := kokkos.CreateMirrorViewAndCopy(r)
	if err != nil {
		return err
	}
	total := 0
	for i := range h.Extent(0) {
		total += int(h.At(i))
	}
	if want := runs * n * m; total != want {
		return fmt.Errorf("the histogram counts %d values, want %d", total, want)
	}
	return nil
}
