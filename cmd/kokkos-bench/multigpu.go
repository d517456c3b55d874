package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"unsafe"

	"github.com/ebitengine/purego"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/multigpu/stencil"
)

func init() {
	register(suite{name: "multigpu", space: "cuda", run: runMultiGPU,
		desc: "peer copy device 0 → 1 vs cuMemcpyPeer, and the heat stencil's speed-up from 1 GPU to 2 and 4 (-space cuda only); under mpirun, examples/heat-mpi's from 1 rank to 2 and 4"})
}

// multigpuLog receives the lines that say which measures are left out.
var multigpuLog io.Writer = os.Stderr

// runMultiGPU times a DeepCopy from device 0 to device 1 against the
// driver's peer copy of the same bytes, and the stencil of
// examples/multigpu on 1, 2 and 4 devices. Measures that need more
// devices than the machine has are left out, with a line on stderr. Under
// an MPI launcher it also times examples/heat-mpi on 1, 2 and 4 ranks
// (multigpu_mpi.go); outside one, a line on stderr says how to get those
// rows.
func runMultiGPU(cfg config, add func(measure)) error {
	if err := cuda.Available(); err != nil {
		return err
	}
	if underMPIRun() {
		return runMultiGPUMPI(cfg, add)
	}
	fmt.Fprintf(multigpuLog, "suite multigpu: not under mpirun: for the rows of examples/heat-mpi on 1, 2 and 4 ranks, run %s\n", mpiStencilCommand)
	return multiGPURows(cfg, add)
}

// multiGPURows measures the rows of one process: the peer copy and the
// stencil of examples/multigpu.
func multiGPURows(cfg config, add func(measure)) error {
	ndev, err := cuda.DeviceCount()
	if err != nil {
		return err
	}
	if ndev < 2 {
		fmt.Fprintf(multigpuLog, "suite multigpu: 1 device: the peer copy is left out\n")
	} else if err := peerCopy(cfg, add); err != nil {
		return err
	}
	return stencilSpeedup(cfg, ndev, add)
}

// peerCopy times kokkos.DeepCopy of 1 GiB (at -scale 1) from device 0 to
// device 1 against cuMemcpyPeer and a synchronization of both devices.
func peerCopy(cfg config, add func(measure)) error {
	peer, err := openRawPeer()
	if err != nil {
		return err
	}
	n := max(512, scaled((1<<30)/8, cfg.scale)&^511)
	bytes := n * 8
	src, err := kokkos.NewView1[float64]("peer src", n, kokkos.InSpace(cuda.SpaceOn(0)))
	if err != nil {
		return err
	}
	defer src.Release()
	dst, err := kokkos.NewView1[float64]("peer dst", n, kokkos.InSpace(cuda.SpaceOn(1)))
	if err != nil {
		return err
	}
	defer dst.Release()
	if err := kokkos.Fill(src, 1.2345); err != nil {
		return err
	}
	var cerr error
	run := func(f func() error) func() {
		return func() {
			if err := f(); err != nil && cerr == nil {
				cerr = err
			}
		}
	}
	da, sa := dst.Allocation().Addr(), src.Allocation().Addr()
	k, b, s := timeAlternating(cfg.reps,
		run(func() error { return kokkos.DeepCopy(dst, src) }),
		run(func() error { return peer.copy(da, sa, bytes) }))
	if cerr != nil {
		return cerr
	}
	gbs := func(sec float64) float64 { return float64(bytes) / sec / 1e9 }
	add(measure{Name: fmt.Sprintf("DeepCopy device 0→device 1 %d MiB", bytes>>20), Unit: "GB/s",
		Value: gbs(k), Baseline: gbs(b), samples: s, Goal: 0.95, GoalOp: ">=", Note: "baseline: cuMemcpyPeer + cuCtxSynchronize of both devices"})
	return nil
}

// stencilSpeedup times the stencil of examples/multigpu (package
// examples/multigpu/stencil) on an 8192×8192 grid (at -scale 1; the side
// scales with its square root), 100 steps, on 1 device and then on 2 and
// 4 where the machine has them: steps per second, with the one-device
// rate as the baseline, so that the ratio is the speed-up. The steps are
// replayed as CUDA graphs of stencil.DefaultGraphSteps steps of every
// device (stencil.Grid.Graph, on by default), on one device as on
// several; the notes say so, or why the graphs were turned off.
func stencilSpeedup(cfg config, ndev int, add func(measure)) error {
	n := max(64, int(8192*math.Sqrt(cfg.scale)))
	const steps = 100
	graphNote := fmt.Sprintf("graphs of %d steps", stencil.DefaultGraphSteps)
	// rate returns the steps per second on d devices (the median of the
	// repetitions) and the host's time to queue a step (their median).
	rate := func(d int) (float64, float64, error) {
		g, err := stencil.New(n, d)
		if err != nil {
			return 0, 0, err
		}
		defer g.Release()
		if _, err := g.Run(1); err != nil { // loads the kernels
			return 0, 0, err
		}
		g.Graph, g.GraphSteps = true, stencil.DefaultGraphSteps
		var ts, qs []float64
		for range cfg.reps {
			if err := g.Reset(); err != nil {
				return 0, 0, err
			}
			t, err := g.Run(steps)
			if err != nil {
				return 0, 0, err
			}
			ts = append(ts, t.Seconds())
			qs = append(qs, g.Queued().Seconds()/steps)
		}
		if err := g.GraphErr(); err != nil {
			graphNote = fmt.Sprintf("on the streams, no graph: %v", err)
		}
		return steps / median(ts), median(qs), nil
	}
	one, q1, err := rate(1)
	if err != nil {
		return err
	}
	name := func(d int) string { return fmt.Sprintf("heat stencil %d² on %d GPU(s)", n, d) }
	perStep := func(r, q float64) string {
		return fmt.Sprintf("%.4f ms/step, queued by the host in %.4f (%s)", 1e3/r, 1e3*q, graphNote)
	}
	add(measure{Name: name(1), Unit: "steps/s", Value: one, Note: perStep(one, q1) + "; examples/multigpu/stencil, 100 steps"})
	for _, c := range []struct {
		d    int
		goal float64
	}{{2, 1.8}, {4, 3.4}} {
		if c.d > ndev {
			fmt.Fprintf(multigpuLog, "suite multigpu: %d device(s): the stencil on %d GPUs is left out\n", ndev, c.d)
			continue
		}
		r, q, err := rate(c.d)
		if err != nil {
			return err
		}
		add(measure{Name: name(c.d), Unit: "steps/s", Value: r, Baseline: one, Goal: c.goal, GoalOp: ">=",
			Note: perStep(r, q) + "; baseline: the same stencil on 1 GPU, ratio: the speed-up"})
	}
	return nil
}

// rawPeer is the driver's peer copy between the primary contexts of
// devices 0 and 1, with nothing of package cuda on the way.
type rawPeer struct {
	r            *rawCUDA
	ctx1         uintptr // device 1's primary context
	cuMemcpyPeer uintptr
}

func openRawPeer() (*rawPeer, error) {
	r, err := openRawCUDA()
	if err != nil {
		return nil, err
	}
	path, err := cuda.DriverPath()
	if err != nil {
		return nil, err
	}
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
	if err != nil {
		return nil, fmt.Errorf("baseline: %s: %w", path, err)
	}
	p := &rawPeer{r: r}
	var cuDeviceGet, cuDevicePrimaryCtxRetain uintptr
	if err := bindSymbols(path, h, []symbol{
		{"cuMemcpyPeer", &p.cuMemcpyPeer}, {"cuDeviceGet", &cuDeviceGet},
		{"cuDevicePrimaryCtxRetain", &cuDevicePrimaryCtxRetain},
	}); err != nil {
		return nil, err
	}
	var dev int32
	if err := r.check("cuDeviceGet", cuDeviceGet, uintptr(unsafe.Pointer(&dev)), 1); err != nil {
		return nil, err
	}
	if err := r.check("cuDevicePrimaryCtxRetain", cuDevicePrimaryCtxRetain, uintptr(unsafe.Pointer(&p.ctx1)), uintptr(dev)); err != nil {
		return nil, err
	}
	return p, nil
}

// copy copies n bytes from src on device 0 to dst on device 1
// (cuMemcpyPeer) and waits for both devices (cuCtxSynchronize), as
// kokkos.DeepCopy's fences do.
func (p *rawPeer) copy(dst, src uintptr, n int) error {
	if err := p.r.do("cuMemcpyPeer", p.cuMemcpyPeer, dst, p.ctx1, src, p.r.ctx, uintptr(n)); err != nil {
		return err
	}
	if err := p.r.sync(); err != nil {
		return err
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := p.r.check("cuCtxSetCurrent", p.r.cuCtxSetCurrent, p.ctx1); err != nil {
		return err
	}
	return p.r.check("cuCtxSynchronize", p.r.cuCtxSynchronize)
}
