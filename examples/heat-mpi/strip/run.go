package strip

import (
	"fmt"
	"io"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/mpi"
)

// Options say where and how Run runs the strips.
type Options struct {
	// Space is where each strip runs: "cuda" (the process's GPU,
	// cuda.SelectDevice) or "pool" (the host pool).
	Space string
	// Halo is how the halo rows travel: "device" (Isend/Irecv of the rows
	// themselves), "pinned" (copied on the edge stream to pinned host
	// buffers, sent from there) or "auto" (device where the library is
	// CUDA-aware, else pinned).
	Halo string
	// Order is how a step's kernels and copies are ordered: "events",
	// "fences" or "auto" (events on a GPU whose halos are staged by the
	// program or read by a CUDA-aware library, else fences).
	Order string
	// Priority gives the edge stream of Space "cuda" the device's highest
	// priority.
	Priority bool
	// Out, when not nil, receives each process's line "rank r → where"
	// before the run and rank 0's line "halos: how" after the timed steps.
	Out io.Writer
	// Interior asks for Result.Interior; Reference asks rank 0 for
	// Result.Reference.
	Interior, Reference bool
}

// Result is what Run measured and computed on one process.
type Result struct {
	// PerStep is the time per step: steps steps between two barriers of
	// the communicator, and the fences of both streams, divided by steps.
	PerStep time.Duration
	// EdgeWait and Exchange are, per timed step of the event-ordered
	// step (zero for the fenced one), the host's time waiting for the
	// edge rows and their copies to the send buffers, and in the MPI
	// exchange of the halos: the interior runs meanwhile, so the exchange
	// is hidden while their sum stays below the interior's time.
	EdgeWait, Exchange time.Duration
	// Where is the place the strip ran ("GPU 1 (OMPI_COMM_WORLD_LOCAL_RANK=1,
	// 4 visible devices): NVIDIA H200", "the host pool"), How how its
	// halos travelled and its steps were ordered.
	Where, How string
	// Interior is a host copy of the process's rows after the steps: rows
	// First to First+Interior.Extent(0)-1 of the field, every column (with
	// Options.Interior).
	Interior kokkos.View2[float64]
	First    int
	// Reference is the whole field after the same steps run by one strip
	// on rank 0's place, and RefName says so ("the one-GPU run", "the
	// one-process run on the pool"): on rank 0, with Options.Reference.
	Reference kokkos.View2[float64]
	RefName   string
}

// Run runs steps steps of the stencil on an n×n grid cut into comm.Size()
// strips of rows, strip k on the process of rank k, after one halo
// exchange and one untimed launch of each kernel (their compilation). It
// is collective over comm.
func Run(comm *mpi.Comm, n, steps int, opts Options) (Result, error) {
	var res Result
	p, done, err := newPlace(opts.Space, opts.Halo, opts.Order, opts.Priority)
	if err != nil {
		return res, err
	}
	defer done()
	res.Where, res.How = p.what, p.how
	if opts.Out != nil {
		fmt.Fprintf(opts.Out, "rank %d → %s\n", comm.Rank(), p.what)
	}
	s, err := newStrip(p, n, comm.Rank(), comm.Size())
	if err != nil {
		return res, err
	}
	defer s.release()
	if err := s.exchange(p, comm, &s.cur); err != nil {
		return res, err
	}
	if err := s.warm(p, n); err != nil {
		return res, err
	}
	fence := func() error {
		if err := p.edge.Fence(); err != nil {
			return err
		}
		return p.inner.Fence()
	}
	k := 0
	s.pipe.wait, s.pipe.mpi = 0, 0
	res.PerStep, err = timeSteps(comm, steps, func() error { k++; return s.step(p, comm, n, k == steps) }, fence)
	if err != nil {
		return res, err
	}
	res.EdgeWait, res.Exchange = s.pipe.wait/time.Duration(steps), s.pipe.mpi/time.Duration(steps)
	if opts.Out != nil && comm.Rank() == 0 {
		fmt.Fprintf(opts.Out, "halos: %s\n", p.how)
	}
	if opts.Interior {
		if res.Interior, err = s.hostInterior(); err != nil {
			return res, err
		}
		res.First = s.gi
	}
	if opts.Reference && comm.Rank() == 0 {
		one, err := newStrip(p, n, 0, 1)
		if err != nil {
			return res, err
		}
		defer one.release()
		for k := range steps {
			if err := one.step(p, comm, n, k == steps-1); err != nil {
				return res, err
			}
		}
		if err := fence(); err != nil {
			return res, err
		}
		if res.Reference, err = one.hostInterior(); err != nil {
			return res, err
		}
		res.RefName = "the one-GPU run"
		if opts.Space != "cuda" {
			res.RefName = "the one-process run on the pool"
		}
	}
	return res, nil
}

// timeSteps runs step steps times between two barriers, then fence, and
// returns the time per step.
func timeSteps(w *mpi.Comm, steps int, step, fence func() error) (time.Duration, error) {
	if err := w.Barrier(); err != nil {
		return 0, err
	}
	t0 := time.Now()
	for range steps {
		if err := step(); err != nil {
			return 0, err
		}
	}
	if err := fence(); err != nil {
		return 0, err
	}
	if err := w.Barrier(); err != nil {
		return 0, err
	}
	return time.Since(t0) / time.Duration(max(steps, 1)), nil
}

// split returns the first index and the count of part k of n points cut
// into p parts of sizes differing by at most one, as examples/heat-mpi
// cuts its blocks.
func split(n, p, k int) (first, count int) {
	q, r := n/p, n%p
	first, count = k*q+min(k, r), q
	if k < r {
		count++
	}
	return first, count
}

// Halo tags: the direction a message travels.
const (
	tagSouth = iota
	tagNorth
)
