package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/heat-mpi/strip"
	"github.com/gokkos/kokkos/mpi"
)

// edgePriority gives the edge stream of -space cuda the device's highest
// priority.
var edgePriority = flag.Bool("priority", true, "-space cuda: run the edge rows on a stream of the highest priority")

// runPlace is run for -space cuda and pool: every process's strip
// (package strip), the time per step, then the gathered field checked
// against one strip of the whole grid run on rank 0's device (and, for
// small runs, against the single-process host stencil).
func runPlace(out io.Writer, w *mpi.Comm, n, steps int, dir, space, haloMode, order string) error {
	r, err := strip.Run(w, n, steps, strip.Options{
		Space: space, Halo: haloMode, Order: order, Priority: *edgePriority,
		Out: out, Interior: true, Reference: true,
	})
	if err != nil {
		return err
	}
	if w.Rank() == 0 && r.Exchange > 0 {
		fmt.Fprintf(out, "rank 0, per step: %.4f ms waiting for the edge rows, %.4f ms in the MPI exchange (hidden behind the interior while shorter)\n",
			float64(r.EdgeWait.Nanoseconds())/1e6, float64(r.Exchange.Nanoseconds())/1e6)
	}
	ref := func() (kokkos.View2[float64], string, error) { return r.Reference, r.RefName, nil }
	return gather(out, w, n, steps, dir, r.Interior, w.Size(), 1, r.PerStep, ref)
}
