// Command unordered-map is the Kokkos tutorial's unordered_map exercise
// in Go: a global-to-local id map. It makes num_ids global ids (the bytes
// of ^i reversed, as the exercise does), inserts each into a
// containers.UnorderedMap with its local index i from a parallel loop,
// then finds every id again from a second loop and checks its index, and
// checks every entry by a loop over the map's indices, as the exercise
// does. Each repetition clears the map first (not timed).
//
//	go run ./examples/tutorials/unordered-map [-cuda] [-nrepeat R] [num_ids [map_capacity]]
//
// num_ids (default 100000) and map_capacity (default num_ids) are
// positional, as in the C++ program. It prints "Time Insert: num_ids
// capacity seconds" and "Time Find: ...", the JSON lines
// {"name":"unordered-map.insert","unit":"s",...} and "unordered-map.find"
// (the medians of R repetitions), and fails with the exercise's messages
// when an insert fails ("exceeded UnorderedMap capacity") or an id maps
// to the wrong index ("the UnorderedMap has incorrect values"). The loops
// are Go kernels that take the map; with -cuda they run on a CUDA stream,
// over ids and a map in cuda.Space.
package main

import (
	"errors"
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
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream, the ids and the map in cuda.Space)")
	nrepeat := flag.Int("nrepeat", 1, "times the inserts and finds run (the medians are reported)")
	flag.Parse()
	n := 100000
	var err error
	if flag.NArg() > 0 {
		if n, err = strconv.Atoi(flag.Arg(0)); err != nil {
			tut.Fatal("unordered-map", err)
		}
	}
	capacity := n
	if flag.NArg() > 1 {
		if capacity, err = strconv.Atoi(flag.Arg(1)); err != nil {
			tut.Fatal("unordered-map", err)
		}
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("unordered-map", err)
	}
	defer place.Release()
	if err := run(os.Stdout, place, n, capacity, max(*nrepeat, 1)); err != nil {
		tut.Fatal("unordered-map", err)
	}
}

// errCapacity and errValues are run's errors, the exercise's messages.
var (
	errCapacity = errors.New("exceeded UnorderedMap capacity")
	errValues   = errors.New("the UnorderedMap has incorrect values")
)

// run inserts n ids into a map made for capacity, finds them, checks the
// map, nrepeat times, at place, and prints the median times to w.
func run(w io.Writer, place tut.Place, n, capacity, nrepeat int) error {
	if n < 0 {
		return fmt.Errorf("num_ids %d is negative", n)
	}
	in := kokkos.InSpace(place.Mem)
	sp := place.Space()
	l2g, err := kokkos.NewView1[uint64]("local_2_global", n, in)
	if err != nil {
		return err
	}
	defer l2g.Release()
	if err := kernel.For("l2g", kokkos.Range(0, n).On(sp), GlobalIDs, l2g); err != nil {
		return err
	}
	ids := l2g.ReadOnly()
	var opts []kokkos.Option
	if place.Stream != nil {
		opts = append(opts, in) // on the host, the map's arrays are Go memory
	}
	g2l, err := containers.NewUnorderedMap[uint64, int32]("g2l", capacity, opts...)
	if err != nil {
		return err
	}
	defer g2l.Release()
	var tin, tfind []float64
	insertErrors, findErrors, valueErrors := 0, 0, 0
	for range nrepeat {
		g2l.Clear()
		t0 := time.Now()
		errs, err := kernel.Reduce("Insert", kokkos.Range(0, n).On(sp), kokkos.Sum[int](), InsertIDs, ids, g2l)
		if err != nil {
			return err
		}
		tin = append(tin, time.Since(t0).Seconds())
		insertErrors += errs

		t0 = time.Now()
		errs, err = kernel.Reduce("Find", kokkos.Range(0, n).On(sp), kokkos.Sum[int](), FindIDs, ids, g2l)
		if err != nil {
			return err
		}
		tfind = append(tfind, time.Since(t0).Seconds())
		findErrors += errs

		errs, err = kernel.Reduce("Iterate", kokkos.Range(0, int(g2l.Capacity())).On(sp), kokkos.Sum[int](), CheckEntries, ids, g2l)
		if err != nil {
			return err
		}
		valueErrors += errs
	}
	slices.Sort(tin)
	slices.Sort(tfind)
	fmt.Fprintf(w, "Time Insert: %d %d %g\n", n, g2l.Capacity(), tin[len(tin)/2])
	fmt.Fprintf(w, "Time Find: %d %d %g\n", n, g2l.Capacity(), tfind[len(tfind)/2])
	tut.Emit(w, "unordered-map.insert", "s", tin[len(tin)/2])
	tut.Emit(w, "unordered-map.find", "s", tfind[len(tfind)/2])
	switch {
	case insertErrors > 0:
		return fmt.Errorf("%w: %d failed inserts", errCapacity, insertErrors)
	case findErrors > 0 || valueErrors > 0:
		return fmt.Errorf("%w: %d ids not found at their index, %d entries with a wrong id", errValues, findErrors, valueErrors)
	}
	return nil
}
