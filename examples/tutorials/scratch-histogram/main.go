// Command scratch-histogram is a 16-bin histogram of an N×M matrix of
// bins counted with hierarchical parallelism, after the Kokkos tutorial's
// scratch-memory and scatter-contribute examples: each team counts a block
// of rows into a histogram in its scratch pad (atomics there) and adds it
// to the global one with one atomic per bin; and each index of a range
// counts a block of rows into a local array (plain increments), then adds
// it the same way. The team kernel HistScratch (kernels_team.go) and the
// kernel HistLocal with its local array (kernels_local.go) run on the
// host and, with -cuda, on a GPU.
//
//	go run ./examples/tutorials/scratch-histogram [-rows 128] [-nrepeat 1] [-cuda] [N [M]]
//
// N (default 100000) and M (default 100) are positional; the bins are
// splitmix64 of each element's position modulo 16 (Values, in kernels.go;
// the C++ program computes the same). It prints "Time TeamScratch: N M
// seconds" and "Time LocalArray: ...", the JSON lines
// {"name":"scratch-histogram.team-scratch","unit":"s",...} and
// "scratch-histogram.local-array", and checks the counts against a
// sequential loop.
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
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

func main() {
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream, views in cuda.Space)")
	rows := flag.Int("rows", 128, "rows of a team's or an index's block")
	nrepeat := flag.Int("nrepeat", 1, "times each form runs (the median is reported)")
	flag.Parse()
	n, m := 100000, 100
	var err error
	if flag.NArg() > 0 {
		if n, err = strconv.Atoi(flag.Arg(0)); err != nil {
			tut.Fatal("scratch-histogram", err)
		}
	}
	if flag.NArg() > 1 {
		if m, err = strconv.Atoi(flag.Arg(1)); err != nil {
			tut.Fatal("scratch-histogram", err)
		}
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("scratch-histogram", err)
	}
	defer place.Release()
	if err := run(os.Stdout, place, n, m, max(*rows, 1), max(*nrepeat, 1)); err != nil {
		tut.Fatal("scratch-histogram", err)
	}
}

// run fills v (n×m) with bins, counts them into r with each form nrepeat
// times, prints the median times to w and checks r.
func run(w io.Writer, place tut.Place, n, m, rows, nrepeat int) error {
	in := kokkos.InSpace(place.Mem)
	v, err := kokkos.NewView2[int32]("V", n, m, in)
	if err != nil {
		return err
	}
	defer v.Release()
	r, err := kokkos.NewView1[int32]("R", bins, in)
	if err != nil {
		return err
	}
	defer r.Release()
	if err := kernel.For("values", kokkos.MDRange([]int{0, 0}, []int{n, m}).On(place.Space()), Values, v); err != nil {
		return err
	}
	if err := place.Fence(); err != nil {
		return err
	}
	type countForm struct {
		name, label, form string
		count             func(tut.Place, kokkos.View2[int32], kokkos.View1[int32], int) error
	}
	forms := []countForm{
		{"team-scratch", "TeamScratch", teamForm, teamScratch},
		{"local-array", "LocalArray", localForm, localArray},
	}
	runs := 0
	for _, f := range forms {
		var ts []float64
		for range nrepeat {
			start := time.Now()
			if err := f.count(place, v, r, rows); err != nil {
				return err
			}
			if err := place.Fence(); err != nil {
				return err
			}
			ts = append(ts, time.Since(start).Seconds())
			runs++
		}
		slices.Sort(ts)
		fmt.Fprintf(w, "Time %s (%s): %d %d %g\n", f.label, f.form, n, m, ts[len(ts)/2])
		tut.Emit(w, "scratch-histogram."+f.name, "s", ts[len(ts)/2])
	}
	return check(v, r, runs)
}

// check counts v by a sequential loop and reports an error unless r holds
// runs times each count.
func check(v kokkos.View2[int32], r kokkos.View1[int32], runs int) error {
	hv, err := kokkos.CreateMirrorViewAndCopy(v)
	if err != nil {
		return err
	}
	hr, err := kokkos.CreateMirrorViewAndCopy(r)
	if err != nil {
		return err
	}
	var want [bins]int
	for i := range hv.Extent(0) {
		for j := range hv.Extent(1) {
			want[hv.At(i, j)]++
		}
	}
	for b, c := range want {
		if int(hr.At(b)) != runs*c {
			return fmt.Errorf("bin %d counts %d, want %d", b, hr.At(b), runs*c)
		}
	}
	return nil
}
