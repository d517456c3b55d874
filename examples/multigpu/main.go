// Command multigpu runs the 2-D heat stencil of examples/heat on an N×N
// float64 grid split by rows across the GPUs of one process, and checks
// it against the same stencil on one GPU:
//
//	go run ./examples/multigpu -n 8192 -steps 100 -gpus 4
//
// Device k holds band k of the rows (cuda.Split) with a halo row above and
// below, and runs on its own streams; every step it updates its boundary
// rows, then its interior while a second stream copies the neighbours'
// boundary rows into its halos, peer to peer, ordered by cuda.Event: the
// host queues all the steps without waiting for a device (package
// examples/multigpu/stencil holds the code). At the end the command
// gathers the field, prints its checksum (FNV-1a of the bits, row-major,
// as examples/heat-mpi) and the time per step, runs the same steps on one
// GPU, prints its time and the speed-up, and exits with status 1 when the
// two fields differ in any bit (-check=false skips the one-GPU run).
//
// The steps are replayed as a CUDA graph of -graph-steps steps of every
// device (20 by default), launched once per -graph-steps steps, the rest
// queued on the streams: queueing each step's nine driver calls per
// device costs the host as long as the step takes 4 GPUs, a graph launch
// one call for all of them. -graph=false queues every step on the
// streams. The one-GPU run does as the split run. Each time line gives
// the host's time to queue a step next to the time per step.
//
// -gpus 0 (the default) uses every device; -gpus 1 runs on one. Without a
// GPU the command says that CUDA is unavailable and does nothing else.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/pprof"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/multigpu/stencil"
)

// The kernels are in package stencil, which the benchmark imports too;
// go generate ./examples/multigpu/ regenerates them.
//go:generate go generate ./stencil

func main() {
	n := flag.Int("n", 8192, "the grid is n×n")
	steps := flag.Int("steps", 100, "time steps")
	gpus := flag.Int("gpus", 0, "devices to split the grid across (0: all)")
	check := flag.Bool("check", true, "also run on one GPU, compare the fields bit for bit and print the speed-up")
	cpuprofile := flag.String("cpuprofile", "", "write the host's CPU profile to this file")
	var gr graphOpt
	flag.BoolVar(&gr.on, "graph", true, "replay the steps as a CUDA graph (false: queue every step on the streams)")
	flag.IntVar(&gr.steps, "graph-steps", stencil.DefaultGraphSteps, "steps in one graph (even)")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "multigpu:", err)
			os.Exit(1)
		}
		defer func() { pprof.StopCPUProfile(); f.Close() }()
	}
	if err := run(os.Stdout, *n, *steps, *gpus, *check, gr); err != nil {
		fmt.Fprintln(os.Stderr, "multigpu:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// errDiffer is matched by run's error when the split field differs from
// the one-GPU field.
var errDiffer = errors.New("the field differs from the one-GPU run")

// graphOpt is -graph and -graph-steps.
type graphOpt struct {
	on    bool
	steps int
}

// A result is one timed run.
type result struct {
	gpus     int
	perStep  time.Duration
	queued   time.Duration // per step, the host's time to queue the steps
	graph    string        // how the steps were queued
	checksum uint64
	field    kokkos.View2[float64]
}

func run(w io.Writer, n, steps, gpus int, check bool, gr graphOpt) error {
	if n < 3 || steps < 1 || gpus < 0 {
		return fmt.Errorf("want -n of 3 or more, -steps of 1 or more and -gpus of 0 or more, got %d, %d and %d", n, steps, gpus)
	}
	if gr.on && (gr.steps < 2 || gr.steps%2 != 0) {
		return fmt.Errorf("want an even -graph-steps of 2 or more, got %d", gr.steps)
	}
	if err := cuda.Available(); err != nil {
		fmt.Fprintf(w, "multigpu: CUDA unavailable: %v\n", err)
		return nil
	}
	count, err := cuda.DeviceCount()
	if err != nil {
		return err
	}
	if gpus == 0 {
		gpus = count
	}
	if gpus > count {
		return fmt.Errorf("-gpus %d: the driver reports %d device(s)", gpus, count)
	}
	dev, err := cuda.GetDevice(0)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "multigpu: %d×%d float64 grid, %d steps, %d of %d GPU(s) (%s)\n", n, n, steps, gpus, count, dev.Name())
	for k, b := range stencil.Bands(n, gpus) {
		fmt.Fprintf(w, "  GPU %d: rows [%d, %d)\n", k, b.First, b.First+b.Rows)
	}
	split, err := simulate(n, steps, gpus, gr)
	if err != nil {
		return err
	}
	defer split.field.Release()
	report(w, split)
	if !check {
		return nil
	}
	if gpus == 1 {
		fmt.Fprintln(w, "one GPU: nothing to compare with")
		return nil
	}
	one, err := simulate(n, steps, 1, gr)
	if err != nil {
		return err
	}
	defer one.field.Release()
	report(w, one)
	fmt.Fprintf(w, "speed-up %.2f× on %d GPUs over one\n", one.perStep.Seconds()/split.perStep.Seconds(), gpus)
	if split.checksum != one.checksum {
		i, j := firstDiff(&split.field, &one.field)
		return fmt.Errorf("%w: checksum %016x on %d GPUs, %016x on one; first difference at (%d, %d): %v against %v",
			errDiffer, split.checksum, gpus, one.checksum, i, j, split.field.At(i, j), one.field.At(i, j))
	}
	fmt.Fprintf(w, "bit-identical to the one-GPU run\n")
	return nil
}

// firstDiff returns the first point, row-major, where a and b differ in
// their bits ((0, 0) when none does).
func firstDiff(a, b *kokkos.View2[float64]) (int, int) {
	for i := range a.Extent(0) {
		for j := range a.Extent(1) {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return i, j
			}
		}
	}
	return 0, 0
}

func report(w io.Writer, r result) {
	fmt.Fprintf(w, "%d GPU(s), %s: %.4f ms/step (queued by the host in %.4f ms/step), checksum %016x\n",
		r.gpus, r.graph, float64(r.perStep.Nanoseconds())/1e6, float64(r.queued.Nanoseconds())/1e6, r.checksum)
}

// simulate runs steps steps split across d devices, after one untimed step
// that loads the kernels, and returns the time per step and the gathered
// field.
func simulate(n, steps, d int, gr graphOpt) (result, error) {
	r := result{gpus: d}
	g, err := stencil.New(n, d)
	if err != nil {
		return r, err
	}
	defer g.Release()
	g.Graph = gr.on
	if gr.on {
		g.GraphSteps = gr.steps
	}
	if _, err := g.Run(1); err != nil {
		return r, err
	}
	if err := g.Reset(); err != nil {
		return r, err
	}
	t, err := g.Run(steps)
	if err != nil {
		return r, err
	}
	r.perStep = t / time.Duration(steps)
	switch {
	case g.GraphErr() != nil:
		r.graph = fmt.Sprintf("on the streams (no graph: %v)", g.GraphErr())
	case g.Graph && steps >= g.GraphSteps:
		r.graph = fmt.Sprintf("graphs of %d steps (%d launches, %d steps on the streams)", g.GraphSteps, steps/g.GraphSteps, steps%g.GraphSteps)
	default:
		r.graph = "on the streams"
	}
	r.queued = g.Queued() / time.Duration(steps)
	if r.field, err = g.Gather(); err != nil {
		return r, err
	}
	r.checksum = stencil.Checksum(&r.field)
	return r, nil
}
