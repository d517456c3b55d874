// Command sort times algorithms.Sort of N random doubles in [0, 1), the
// Go side of examples/tutorials/cpp/sort.cpp (Kokkos::sort): on the host
// pool a parallel radix sort, with -cuda a radix sort of Go kernels on
// the GPU. The keys are splitmix64 of each position scaled to [0, 1) (the
// kernel Keys, in kernels.go; the C++ program computes the same). One
// sort warms up; each of nrepeat sorts of fresh copies of the keys is
// timed (the copy is not), and the median is reported.
//
//	go run ./examples/tutorials/sort [-cuda] [-N 26] [-nrepeat 3]
//
// It prints the first and last keys and the sum of the keys' bits (the
// same in any order), "Time Sort: N nrepeat seconds" and the JSON line
// {"name":"sort","unit":"s",...}, and fails when the keys are not sorted
// or their bits do not sum as before.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/algorithms"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

func main() {
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream, views in cuda.Space)")
	e := flag.Int("N", 26, "the number of keys, as an exponent of 2")
	nrepeat := flag.Int("nrepeat", 3, "timed sorts (the median is reported)")
	flag.Parse()
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("sort", err)
	}
	defer place.Release()
	if err := run(os.Stdout, place, tut.Pow2(*e), max(*nrepeat, 1)); err != nil {
		tut.Fatal("sort", err)
	}
}

// run sorts n keys at place once, then nrepeat times timed, prints the
// median time to w and checks the keys.
func run(w io.Writer, place tut.Place, n, nrepeat int) error {
	in := kokkos.InSpace(place.Mem)
	orig, err := kokkos.NewView1[float64]("orig", n, in)
	if err != nil {
		return err
	}
	defer orig.Release()
	keys, err := kokkos.NewView1[float64]("keys", n, in)
	if err != nil {
		return err
	}
	defer keys.Release()
	if err := kernel.For("keys", kokkos.Range(0, n).On(place.Space()), Keys, orig); err != nil {
		return err
	}
	if err := place.Fence(); err != nil {
		return err
	}
	sum, err := bitSum(orig)
	if err != nil {
		return err
	}
	fresh := func() error {
		if place.Stream == nil {
			return kokkos.DeepCopy(keys, orig)
		}
		if err := kokkos.DeepCopyOn(place.Stream, keys, orig); err != nil {
			return err
		}
		return place.Fence()
	}
	sort := func() error {
		if err := algorithms.SortOn(place.Space(), keys); err != nil {
			return err
		}
		return place.Fence()
	}
	if err := fresh(); err != nil {
		return err
	}
	if err := sort(); err != nil { // warm-up
		return err
	}
	var ts []float64
	for range nrepeat {
		if err := fresh(); err != nil {
			return err
		}
		start := time.Now()
		if err := sort(); err != nil {
			return err
		}
		ts = append(ts, time.Since(start).Seconds())
	}
	slices.Sort(ts)
	h, err := kokkos.CreateMirrorViewAndCopy(keys)
	if err != nil {
		return err
	}
	var got uint64
	for i := range n {
		got += math.Float64bits(h.At(i))
		if i > 0 && h.At(i) < h.At(i-1) {
			return fmt.Errorf("key %d (%g) is less than key %d (%g)", i, h.At(i), i-1, h.At(i-1))
		}
	}
	if got != sum {
		return fmt.Errorf("the sorted keys' bits sum to %d, the keys' to %d", got, sum)
	}
	fmt.Fprintf(w, "first %.17g last %.17g checksum %d\n", h.At(0), h.At(n-1), got)
	fmt.Fprintf(w, "Time Sort: %d %d %g\n", n, nrepeat, ts[len(ts)/2])
	tut.Emit(w, "sort", "s", ts[len(ts)/2])
	return nil
}

// bitSum returns the sum of the bits of v's keys, wrapping.
func bitSum(v kokkos.View1[float64]) (uint64, error) {
	h, err := kokkos.CreateMirrorViewAndCopy(v)
	if err != nil {
		return 0, err
	}
	var s uint64
	for _, x := range h.Data() {
		s += math.Float64bits(x)
	}
	return s, nil
}
