package main

import (
	"errors"
	"fmt"
	"math"
	"os"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/heat-mpi/strip"
	"github.com/gokkos/kokkos/mpi"
)

// mpiStencilCommand is the command line that gives the multigpu suite its
// rows of examples/heat-mpi on 1, 2 and 4 ranks.
const mpiStencilCommand = "mpirun -np 4 kokkos-bench -space cuda -suite multigpu"

// runMultiGPUMPI is the multigpu suite under an MPI launcher: rank 0
// measures the peer copy and the in-process stencil while the other ranks
// wait, then every rank takes part in heatMPIRows on its own GPU. Rank 0
// reports; the other ranks finalise MPI and exit when the suite ends, as
// in the mpi suite, so that only rank 0 goes on and prints the table.
func runMultiGPUMPI(cfg config, add func(measure)) error {
	if err := mpi.Init(); err != nil {
		if errors.Is(err, mpi.ErrNotInitialized) {
			// An earlier suite (mpi) ended MPI, and the other ranks with it.
			fmt.Fprintf(multigpuLog, "suite multigpu: MPI was finalised by an earlier suite: the rows of examples/heat-mpi need a run of their own: %s\n", mpiStencilCommand)
			return multiGPURows(cfg, add)
		}
		return err
	}
	w := mpi.World()
	err := measureUnderMPI(cfg, w, "cuda", multiGPURows, add)
	if e := mpi.Finalize(); err == nil {
		err = e
	}
	if w.Rank() != 0 {
		if err != nil {
			fmt.Fprintf(os.Stderr, "rank %d: %v\n", w.Rank(), err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	return err
}

// measureUnderMPI runs inProcess on rank 0 alone, the other ranks waiting
// for it so that no measurement shares a GPU with another, then
// heatMPIRows with strips on space ("cuda", or "pool" in the tests). Every
// rank of w calls it; only rank 0 adds measures.
func measureUnderMPI(cfg config, w *mpi.Comm, space string, inProcess func(config, func(measure)) error, add func(measure)) error {
	var err error
	if w.Rank() == 0 {
		impl, _, _ := mpi.Library()
		fmt.Fprintf(multigpuLog, "suite multigpu: %s, %d processes; rank 0 measures the rows of one process while the others wait\n", impl, w.Size())
		err = inProcess(cfg, add)
	}
	if err := agree(w, err); err != nil {
		return err
	}
	return heatMPIRows(cfg, w, space, add)
}

// agree is a barrier of w that also tells every rank whether one of them
// failed: it returns err where err is not nil, an error naming no cause
// where another rank's was.
func agree(w *mpi.Comm, err error) error {
	failed, e := kokkos.NewView0[int32]("failed")
	if e != nil {
		return errors.Join(err, e)
	}
	defer failed.Release()
	if err != nil {
		failed.Set(1)
	}
	if e := mpi.Allreduce[int32](w, &failed, &failed, mpi.Max); e != nil {
		return errors.Join(err, e)
	}
	if err == nil && failed.At() != 0 {
		return errors.New("another rank failed (rank 0 reports why, or the rank that says so)")
	}
	return err
}

// fewestDevices returns the fewest GPUs any rank of w sees (for space
// "cuda"; a count no row reaches for the host pool), so that every rank
// leaves out the same rows: ranks sharing a GPU measure no speed-up.
func fewestDevices(w *mpi.Comm, space string) (int, error) {
	if space != "cuda" {
		return math.MaxInt32, nil
	}
	n, err := cuda.DeviceCount()
	if err != nil {
		n = 0
	}
	v, e := kokkos.NewView0[int32]("devices")
	if e != nil {
		return 0, errors.Join(err, e)
	}
	defer v.Release()
	v.Set(int32(n))
	if e := mpi.Allreduce[int32](w, &v, &v, mpi.Min); e != nil {
		return 0, e
	}
	return int(v.At()), nil
}

// heatMPIRows times the strip stencil of examples/heat-mpi (package
// examples/heat-mpi/strip; 8192² at -scale 1, the side scaling with the
// square root, 100 steps) on the first 1, 2 and 4 ranks of w, each rank on
// its place (Space "cuda": the GPU of cuda.SelectDevice, its local rank
// modulo the visible devices) with heat-mpi's defaults (-halo auto,
// -order auto, -priority): steps per second, the median of cfg.reps runs,
// with the one-rank rate as the baseline of the others, so that the ratio
// is the speed-up. Each count runs on a communicator of its own
// (Comm.Split); the ranks outside it wait at a barrier of w. Counts past
// w's size are left out, with a line saying so.
func heatMPIRows(cfg config, w *mpi.Comm, space string, add func(measure)) error {
	n := max(64, int(8192*math.Sqrt(cfg.scale)))
	const steps = 100
	rank0 := w.Rank() == 0
	devices, err := fewestDevices(w, space)
	if err != nil {
		return err
	}
	var one float64
	for _, c := range []struct {
		ranks int
		goal  float64
	}{{1, 0}, {2, 1.8}, {4, 3.4}} {
		if c.ranks > w.Size() {
			if rank0 {
				fmt.Fprintf(multigpuLog, "suite multigpu: %d MPI process(es): examples/heat-mpi on %d ranks is left out (%s)\n", w.Size(), c.ranks, mpiStencilCommand)
			}
			continue
		}
		if c.ranks > devices {
			if rank0 {
				fmt.Fprintf(multigpuLog, "suite multigpu: %d device(s) on a host: examples/heat-mpi on %d ranks is left out (ranks sharing a GPU measure no speed-up)\n", devices, c.ranks)
			}
			continue
		}
		color := -1
		if w.Rank() < c.ranks {
			color = 0
		}
		sub, err := w.Split(color, w.Rank())
		if err != nil {
			return err
		}
		var per []float64
		var res strip.Result
		if sub != nil {
			for range cfg.reps {
				res, err = strip.Run(sub, n, steps, strip.Options{Space: space, Halo: "auto", Order: "auto", Priority: true})
				if err != nil {
					break
				}
				per = append(per, res.PerStep.Seconds())
			}
			if e := sub.Free(); err == nil {
				err = e
			}
		}
		if err := agree(w, err); err != nil {
			return fmt.Errorf("examples/heat-mpi on %d ranks: %w", c.ranks, err)
		}
		if !rank0 {
			continue
		}
		sec := median(per)
		m := measure{Name: fmt.Sprintf("heat-mpi stencil %d² on %d rank(s)", n, c.ranks), Unit: "steps/s", Value: 1 / sec,
			Note: fmt.Sprintf("%.4f ms/step, %d steps; examples/heat-mpi/strip, rank 0 on %s; halos: %s", 1e3*sec, steps, res.Where, res.How)}
		if c.ranks == 1 {
			one = m.Value
		} else {
			m.Baseline, m.Goal, m.GoalOp = one, c.goal, ">="
			m.Note += "; baseline: the same on 1 rank, ratio: the speed-up"
		}
		add(m)
	}
	return nil
}
