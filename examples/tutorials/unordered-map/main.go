// Command unordered-map is the Kokkos tutorial's unordered_map exercise
// in Go: a global-to-local id map. It makes num_ids global ids (the bytes
// of ^i reversed, as the exercise does), inserts each into a
// containers.UnorderedMap with its local index i from a parallel loop,
// then finds every id again from a second loop and checks its index, and
// checks every entry by a loop over the map's indices, as the exercise
// does. Each repetition clears the map first (not timed).
//
//	go run ./examples/tutorials/unordered-map [-nrepeat R] [num_ids [map_capacity]]
//
// num_ids (default 100000) and map_capacity (default num_ids) are
// positional, as in the C++ program. It prints "Time Insert: num_ids
// capacity seconds" and "Time Find: ...", the JSON lines
// {"name":"unordered-map.insert","unit":"s",...} and "unordered-map.find"
// (the medians of R repetitions), and fails with the exercise's messages
// when an insert fails ("exceeded UnorderedMap capacity") or an id maps
// to the wrong index ("the UnorderedMap has incorrect values"). The loops
// are plain Go bodies of kokkos.ParallelReduceChunks patterns on the host
// pool: an UnorderedMap is not a Go kernel parameter, so -cuda is refused.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
)

func main() {
	gpu := flag.Bool("cuda", false, "refused: an UnorderedMap lives in host memory only")
	nrepeat := flag.Int("nrepeat", 1, "times the inserts and finds run (the medians are reported)")
	flag.Parse()
	if *gpu {
		tut.Fatal("unordered-map", errors.New("-cuda: containers.UnorderedMap lives in host memory and is not a Go kernel parameter; this program runs on the host only"))
	}
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
	if err := run(os.Stdout, n, capacity, max(*nrepeat, 1)); err != nil {
		tut.Fatal("unordered-map", err)
	}
}

// globalID is the exercise's global id of local index i: the bytes of
// ^i (as a 64-bit integer) in reverse order.
func globalID(i int) uint64 { return bits.ReverseBytes64(uint64(int64(^int32(i)))) }

// errCapacity and errValues are run's errors, the exercise's messages.
var (
	errCapacity = errors.New("exceeded UnorderedMap capacity")
	errValues   = errors.New("the UnorderedMap has incorrect values")
)

// run inserts n ids into a map made for capacity, finds them, checks the
// map, nrepeat times, and prints the median times to w.
func run(w io.Writer, n, capacity, nrepeat int) error {
	if n < 0 {
		return fmt.Errorf("num_ids %d is negative", n)
	}
	l2g := make([]uint64, n)
	kokkos.ParallelForChunks("l2g", kokkos.Range(0, n), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			l2g[i] = globalID(i)
		}
	})
	g2l, err := containers.NewUnorderedMap[uint64, int32]("g2l", capacity)
	if err != nil {
		return err
	}
	var tin, tfind []float64
	insertErrors, findErrors, valueErrors := 0, 0, 0
	for range nrepeat {
		g2l.Clear()
		t0 := time.Now()
		insertErrors += kokkos.ParallelReduceChunks("Insert", kokkos.Range(0, n), kokkos.Sum[int](), func(lo, hi int, acc *int) {
			for i := lo; i < hi; i++ {
				if g2l.Insert(l2g[i], int32(i)).Failed() {
					*acc++
				}
			}
		})
		tin = append(tin, time.Since(t0).Seconds())

		t0 = time.Now()
		findErrors += kokkos.ParallelReduceChunks("Find", kokkos.Range(0, n), kokkos.Sum[int](), func(lo, hi int, acc *int) {
			for i := lo; i < hi; i++ {
				x := g2l.Find(l2g[i])
				if !g2l.ValidAt(x) || g2l.ValueAt(x) != int32(i) {
					*acc++
				}
			}
		})
		tfind = append(tfind, time.Since(t0).Seconds())

		valueErrors += kokkos.ParallelReduceChunks("Iterate", kokkos.Range(0, int(g2l.Capacity())), kokkos.Sum[int](), func(lo, hi int, acc *int) {
			for x := uint32(lo); x < uint32(hi); x++ {
				if g2l.ValidAt(x) && l2g[g2l.ValueAt(x)] != g2l.KeyAt(x) {
					*acc++
				}
			}
		})
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
