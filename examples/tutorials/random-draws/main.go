// Command random-draws times draws from package random's XorShift64Pool
// (Kokkos's Random_XorShift64_Pool) against the C++ program
// examples/tutorials/cpp/random_draws.cpp: each of 2^N indices of a Go
// kernel takes a generator from the pool, sums draws Drand()s of it and
// gives it back; then random.FillRange fills a view of 2^N * draws
// float64s in [0, 1) from the same pool (Kokkos's fill_random).
//
//	go run ./examples/tutorials/random-draws [-cuda] N [draws]
//
// draws defaults to 16. It prints the mean of the draws and the draws per
// second of each part, and the JSON lines {"name":"random-draws",...} and
// {"name":"random-draws.fill",...} of the side-by-side harness. With
// -cuda both run on a GPU (Fill as random's own kernel).
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
	"github.com/gokkos/kokkos/random"
)

// seed is the C++ program's seed of its pool.
const seed = 5374857

func main() {
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream)")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "random-draws N [draws]: 2^N indices of draws Drand() each (default 16)")
		os.Exit(2)
	}
	n, err := strconv.Atoi(flag.Arg(0))
	if err != nil {
		tut.Fatal("random-draws", err)
	}
	draws := 16
	if flag.NArg() > 1 {
		if draws, err = strconv.Atoi(flag.Arg(1)); err != nil {
			tut.Fatal("random-draws", err)
		}
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("random-draws", err)
	}
	defer place.Release()
	if _, _, err := run(os.Stdout, place, tut.Pow2(n), draws); err != nil {
		tut.Fatal("random-draws", err)
	}
}

// run draws n*draws numbers in a kernel and fills a view of as many at
// place, prints the figures to w, and returns the means of both.
func run(w io.Writer, place tut.Place, n, draws int) (mean, fillMean float64, err error) {
	if n < 1 || draws < 1 {
		return 0, 0, fmt.Errorf("want 1 index or more and 1 draw or more, got %d and %d", n, draws)
	}
	pool, err := random.NewXorShift64Pool(place.Space(), seed)
	if err != nil {
		return 0, 0, err
	}
	defer pool.Release()
	total := float64(n) * float64(draws)
	if err := warmUp(place, draws); err != nil {
		return 0, 0, err
	}
	start := time.Now()
	sum, err := kernel.Reduce("random-draws", kokkos.Range(0, n).On(place.Space()), kokkos.Sum[float64](), Draws, pool, draws)
	if err != nil {
		return 0, 0, err
	}
	secs := time.Since(start).Seconds()
	mean = sum / total
	fmt.Fprintf(w, "indices = %d  draws = %d  mean = %f  draws/s = %.4g\n", n, n*draws, mean, total/secs)
	tut.Emit(w, "random-draws", "s", secs)

	v, err := kokkos.NewView1[float64]("v", n*draws, kokkos.InSpace(place.Mem))
	if err != nil {
		return 0, 0, err
	}
	defer v.Release()
	// Kokkos's view constructor writes its zeros in parallel; so do we,
	// so that the fill does not also take the first touch of the pages.
	if err := kokkos.Fill(v, 0); err != nil {
		return 0, 0, err
	}
	if err := place.Fence(); err != nil {
		return 0, 0, err
	}
	start = time.Now()
	if err := random.FillRange(v, pool, 0, 1); err != nil {
		return 0, 0, err
	}
	secs = time.Since(start).Seconds()
	h, err := kokkos.CreateMirrorViewAndCopy(v)
	if err != nil {
		return 0, 0, err
	}
	fsum := kokkos.ParallelReduce("random-draws-sum", kokkos.Range(0, n*draws), kokkos.Sum[float64](), func(i int, acc *float64) { *acc += h.At(i) })
	fillMean = fsum / total
	fmt.Fprintf(w, "fill_random: %d values  mean = %f  values/s = %.4g\n", n*draws, fillMean, total/secs)
	tut.Emit(w, "random-draws.fill", "s", secs)
	if math.IsNaN(mean) || math.IsNaN(fillMean) {
		return mean, fillMean, fmt.Errorf("a mean is NaN")
	}
	return mean, fillMean, nil
}

// warmUp launches Draws and the fill's kernel once on a GPU place, with a
// pool and a view of their own, so that the timed launches do not include
// a kernel's first launch (its translation by NVRTC, or its load from the
// disk cache, which the C++ program pays when it is compiled). It does
// nothing on the host.
func warmUp(place tut.Place, draws int) error {
	if place.Stream == nil {
		return nil
	}
	pool, err := random.NewXorShift64PoolSize(place.Space(), 1, 1)
	if err != nil {
		return err
	}
	defer pool.Release()
	if _, err := kernel.Reduce("random-draws warm-up", kokkos.Range(0, 1).On(place.Space()), kokkos.Sum[float64](), Draws, pool, draws); err != nil {
		return err
	}
	v, err := kokkos.NewView1[float64]("warm-up", 1, kokkos.InSpace(place.Mem))
	if err != nil {
		return err
	}
	defer v.Release()
	if err := random.FillRange(v, pool, 0, 1); err != nil {
		return err
	}
	return place.Fence()
}
