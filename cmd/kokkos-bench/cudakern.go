package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
)

func init() {
	register(suite{name: "cudastream", space: "cuda", run: runCUDAStream,
		desc: "BabelStream as device loop bodies (cuda.ParallelFor/ParallelReduce) vs hand-written kernels (-space cuda only)"})
	register(suite{name: "cudaouter", space: "cuda", run: runCUDAOuter,
		desc: "the View example's SetC over an MDRange vs a hand-written 2-D kernel (-space cuda only)"})
	register(suite{name: "cudalaunch", space: "cuda", run: runCUDALaunch,
		desc: "launch latency of an empty body and of an empty Go kernel vs a bare cuLaunchKernel; compile and cached load times (-space cuda only)"})
}

// streamLaunches is the number of launches, each followed by a wait for
// the device, that one repetition of a device BabelStream kernel times.
const streamLaunches = 10

// catcher keeps the first error of closures timed by timeAlternating.
type catcher struct{ err error }

func (c *catcher) run(f func() error) func() {
	return func() {
		if err := f(); err != nil && c.err == nil {
			c.err = err
		}
	}
}

// repeat runs f k times, stopping at the first error.
func repeat(k int, f func() error) func() error {
	return func() error {
		for range k {
			if err := f(); err != nil {
				return err
			}
		}
		return nil
	}
}

// heapArgs holds kernel arguments in heap memory and their addresses, the
// params of rawKernels.launch.
type heapArgs struct {
	vals   []uint64
	params []uintptr
}

// newHeapArgs stores each argument in 8 bytes (the driver reads only the
// parameter's own size: an int reads the low 4 bytes, little-endian).
func newHeapArgs(args ...uint64) *heapArgs {
	h := &heapArgs{vals: append([]uint64(nil), args...)}
	for k := range h.vals {
		h.params = append(h.params, uintptr(unsafe.Pointer(&h.vals[k])))
	}
	return h
}

func runCUDAStream(cfg config, add func(measure)) error {
	if err := cuda.Available(); err != nil {
		return err
	}
	dev, err := cuda.GetDevice(0)
	if err != nil {
		return err
	}
	drv, err := openRawCUDA()
	if err != nil {
		return err
	}
	hand, err := drv.kernels(streamSource, streamNames)
	if err != nil {
		return err
	}
	launch, sync := hand.launch, drv.sync
	n := scaled(1<<25, cfg.scale)
	if n >= 1<<31 {
		return fmt.Errorf("%d elements: the hand-written kernels index with int", n)
	}
	var a, b, c kokkos.View1[float64]
	for _, p := range []*kokkos.View1[float64]{&a, &b, &c} {
		if *p, err = kokkos.NewView1[float64]("stream", n, kokkos.InSpace(cuda.Space)); err != nil {
			return err
		}
		defer p.Release()
	}
	for _, x := range []struct {
		v kokkos.View1[float64]
		x float64
	}{{a, 0.1}, {b, 0.2}, {c, 0.0}} {
		if err := kokkos.Fill(x.v, x.x); err != nil {
			return err
		}
	}
	dotBlocks := 8 * dev.Multiprocessors()
	partial, err := kokkos.NewView1[float64]("dot partials", dotBlocks+1, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer partial.Release()
	pa, pb, pc, pp := uint64(a.Allocation().Addr()), uint64(b.Allocation().Addr()), uint64(c.Allocation().Addr()), uint64(partial.Allocation().Addr())
	scalar := math.Float64bits(streamScalar)
	un := uint64(n)
	range1 := kokkos.Range(0, n)
	grid, block := [3]int{(n + 255) / 256, 1, 1}, [3]int{256, 1, 1}

	bytesOut := make([]byte, 8)
	dotArgs1 := newHeapArgs(pa, pb, pp, un)
	dotArgs2 := newHeapArgs(pp, uint64(dotBlocks), pp+uint64(8*dotBlocks))
	var sink float64
	type kern struct {
		name  string
		bytes int
		body  func() error
		raw   func() error
	}
	rawFor := func(k int, args *heapArgs) func() error {
		return func() error {
			if err := launch(k, grid, block, args.params...); err != nil {
				return err
			}
			return sync()
		}
	}
	bodyFor := func(label, body string, args ...cuda.Arg) func() error {
		return func() error {
			if err := cuda.ParallelFor(label, range1, body, args...); err != nil {
				return err
			}
			return dev.Synchronize()
		}
	}
	kerns := []kern{
		{"Copy", 16, bodyFor("Copy", "c(i) = a(i);", cuda.Bind("a", a), cuda.Bind("c", c)),
			rawFor(streamCopy, newHeapArgs(pa, pc, un))},
		{"Mul", 16, bodyFor("Mul", "b(i) = scalar * c(i);", cuda.Bind("b", b), cuda.Bind("c", c), cuda.Scalar("scalar", streamScalar)),
			rawFor(streamMul, newHeapArgs(pb, pc, scalar, un))},
		{"Add", 24, bodyFor("Add", "c(i) = a(i) + b(i);", cuda.Bind("a", a), cuda.Bind("b", b), cuda.Bind("c", c)),
			rawFor(streamAdd, newHeapArgs(pa, pb, pc, un))},
		{"Triad", 24, bodyFor("Triad", "a(i) = b(i) + scalar * c(i);", cuda.Bind("a", a), cuda.Bind("b", b), cuda.Bind("c", c), cuda.Scalar("scalar", streamScalar)),
			rawFor(streamTriad, newHeapArgs(pa, pb, pc, scalar, un))},
		{"Dot", 16, func() error {
			s, err := cuda.ParallelReduce("Dot", range1, cuda.Sum[float64](), "acc += a(i) * b(i);", cuda.Bind("a", a), cuda.Bind("b", b))
			sink += s
			return err
		}, func() error {
			if err := launch(dotPartial, [3]int{dotBlocks, 1, 1}, block, dotArgs1.params...); err != nil {
				return err
			}
			if err := launch(dotFinal, [3]int{1, 1, 1}, block, dotArgs2.params...); err != nil {
				return err
			}
			if err := drv.copyToHost(bytesOut, uintptr(pp)+uintptr(8*dotBlocks)); err != nil {
				return err
			}
			sink += math.Float64frombits(*(*uint64)(unsafe.Pointer(&bytesOut[0])))
			return nil
		}},
	}
	var ce catcher
	for _, k := range kerns {
		kt, bt, s := timeAlternating(cfg.reps, ce.run(repeat(streamLaunches, k.body)), ce.run(repeat(streamLaunches, k.raw)))
		if ce.err != nil {
			return fmt.Errorf("%s: %w", k.name, ce.err)
		}
		gbs := func(sec float64) float64 { return float64(k.bytes) * float64(n) * streamLaunches / sec / 1e9 }
		note := "baseline: hand-written kernel, one thread per element, bare cuLaunchKernel"
		if k.name == "Dot" {
			note = fmt.Sprintf("baseline: hand-written two-pass reduction, %d×256 then 1×256, result read back", dotBlocks)
		}
		add(measure{Name: fmt.Sprintf("%s, %d float64 (device body)", k.name, n), Unit: "GB/s",
			Value: gbs(kt), Baseline: gbs(bt), samples: s, Goal: 0.95, GoalOp: ">=", Note: note})
	}
	// The device body's and the hand-written kernels' dot products of the
	// arrays as the timed kernels left them agree.
	dot, err := cuda.ParallelReduce("Dot", range1, cuda.Sum[float64](), "acc += a(i) * b(i);", cuda.Bind("a", a), cuda.Bind("b", b))
	if err != nil {
		return err
	}
	if err := launch(dotPartial, [3]int{dotBlocks, 1, 1}, block, dotArgs1.params...); err != nil {
		return err
	}
	if err := launch(dotFinal, [3]int{1, 1, 1}, block, dotArgs2.params...); err != nil {
		return err
	}
	if err := drv.copyToHost(bytesOut, uintptr(pp)+uintptr(8*dotBlocks)); err != nil {
		return err
	}
	raw := math.Float64frombits(*(*uint64)(unsafe.Pointer(&bytesOut[0])))
	if d := math.Abs(dot - raw); d > 1e-9*math.Abs(raw) {
		return fmt.Errorf("dot: device body %v, hand-written kernel %v", dot, raw)
	}
	return nil
}

func runCUDAOuter(cfg config, add func(measure)) error {
	if err := cuda.Available(); err != nil {
		return err
	}
	dev, err := cuda.GetDevice(0)
	if err != nil {
		return err
	}
	drv, err := openRawCUDA()
	if err != nil {
		return err
	}
	hand, err := drv.kernels(outerSource, outerNames)
	if err != nil {
		return err
	}
	launch, sync := hand.launch, drv.sync
	n0 := max(32, scaled(16384, math.Sqrt(cfg.scale)))
	n1 := n0
	a, err := kokkos.NewView1[float64]("A", n0, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer a.Release()
	b, err := kokkos.NewView1[float64]("B", n1, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer b.Release()
	c, err := kokkos.NewView2[float64]("C", n0, n1, kokkos.LayoutLeft, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer c.Release()
	if err := cuda.ParallelFor("InitA", kokkos.Range(0, n0), "a(i) = i;", cuda.Bind("a", a)); err != nil {
		return err
	}
	if err := cuda.ParallelFor("InitB", kokkos.Range(0, n1), "b(i) = i;", cuda.Bind("b", b)); err != nil {
		return err
	}
	policy := kokkos.MDRange([]int{0, 0}, []int{n0, n1})
	args := newHeapArgs(uint64(a.Allocation().Addr()), uint64(b.Allocation().Addr()), uint64(c.Allocation().Addr()), uint64(n0), uint64(n1))
	grid, block := [3]int{(n0 + 31) / 32, (n1 + 7) / 8, 1}, [3]int{32, 8, 1}
	var ce catcher
	kt, bt, s := timeAlternating(cfg.reps, ce.run(repeat(streamLaunches, func() error {
		if err := cuda.ParallelFor("SetC", policy, "c(i0, i1) = a(i0) * b(i1);", cuda.Bind("a", a.ReadOnly()), cuda.Bind("b", b.ReadOnly()), cuda.Bind("c", c)); err != nil {
			return err
		}
		return dev.Synchronize()
	})), ce.run(repeat(streamLaunches, func() error {
		if err := launch(outerSetC, grid, block, args.params...); err != nil {
			return err
		}
		return sync()
	})))
	if ce.err != nil {
		return ce.err
	}
	bytes := float64(n0*n1*8) * streamLaunches
	add(measure{Name: fmt.Sprintf("SetC LayoutLeft %d×%d float64 (MDRange body)", n0, n1), Unit: "GB/s",
		Value: bytes / kt / 1e9, Baseline: bytes / bt / 1e9, samples: s, Goal: 0.95, GoalOp: ">=",
		Note: "baseline: hand-written kernel c[i0 + i1*n0] = a[i0]*b[i1], blocks of (32, 8)"})
	return nil
}

// Launch latency: launches per repetition, and per batch of asynchronous
// launches.
const (
	latencyLaunches = 10000
	latencyBatch    = 100
)

// envLoadProbe, when set, makes kokkos-bench time the first launch of
// probeBody in a new process (loaded from the disk cache the parent
// filled) and print the times instead of running suites.
const envLoadProbe = "GOKKOS_BENCH_CUDA_LOAD_PROBE"

const probeBody = "x(i) = 2.0 * x(i) + 1.0;"

func runCUDALaunch(cfg config, add func(measure)) error {
	if err := cuda.Available(); err != nil {
		return err
	}
	dev, err := cuda.GetDevice(0)
	if err != nil {
		return err
	}
	one := kokkos.Range(0, 1)
	sync := dev.Synchronize
	body := func() error { return cuda.ParallelFor("empty", one, "") }
	// The baseline is a bare cuLaunchKernel of emptySource's kernel, the
	// equivalent of the empty body's (the same two int arguments and
	// grid-strided loop), with the grid and block cuda.ParallelFor gives a
	// Range of one index, on the same stream (the legacy default stream).
	drv, err := openRawCUDA()
	if err != nil {
		return err
	}
	empty, err := drv.kernels(emptySource, emptyNames)
	if err != nil {
		return err
	}
	rawArgs := newHeapArgs(uint64(one.Begin), uint64(one.End))
	rawGrid := [3]int{min((one.End-one.Begin+255)/256, 1<<20), 1, 1}
	raw := func() error { return empty.launch(0, rawGrid, [3]int{256, 1, 1}, rawArgs.params...) }
	// Asynchronous: batches of latencyBatch launches, short enough that
	// the device's queue never fills and blocks a launch; the wait for
	// the device after each batch is not timed.
	batches := func(f func() error, sync func() error) (float64, error) {
		var sec float64
		for range latencyLaunches / latencyBatch {
			t := time.Now()
			if err := repeat(latencyBatch, f)(); err != nil {
				return 0, err
			}
			sec += time.Since(t).Seconds()
			if err := sync(); err != nil {
				return 0, err
			}
		}
		return sec, nil
	}
	var ks, bs []float64
	for r := range cfg.reps + 1 {
		// Alternate which side runs first, so neither always follows the
		// other's wait.
		var k, b float64
		var kerr, berr error
		if r%2 == 0 {
			k, kerr = batches(body, dev.Synchronize)
			b, berr = batches(raw, sync)
		} else {
			b, berr = batches(raw, sync)
			k, kerr = batches(body, dev.Synchronize)
		}
		if err := errors.Join(kerr, berr); err != nil {
			return err
		}
		if r > 0 { // the first is a warm-up
			ks, bs = append(ks, k), append(bs, b)
		}
	}
	us := func(sec float64) float64 { return sec / latencyLaunches * 1e6 }
	add(measure{Name: "launch, empty body, asynchronous", Unit: "µs", Value: us(median(ks)), Baseline: us(median(bs)), samples: samples{ks, bs}, Goal: 1.10, GoalOp: "<=",
		Note: fmt.Sprintf("per launch, %d launches in batches of %d, the wait after each batch not timed; baseline: bare cuLaunchKernel of an equivalent hand-written kernel, same grid, block, 2 int arguments, legacy default stream", latencyLaunches, latencyBatch)})
	if err := goKernelLaunch(cfg, add, empty, rawGrid, batches); err != nil {
		return err
	}
	var ce catcher
	bodySync := func() error {
		if err := body(); err != nil {
			return err
		}
		return dev.Synchronize()
	}
	rawSync := func() error {
		if err := raw(); err != nil {
			return err
		}
		return sync()
	}
	kt, bt, s := timeAlternating(cfg.reps, ce.run(repeat(latencyLaunches/10, bodySync)), ce.run(repeat(latencyLaunches/10, rawSync)))
	if ce.err != nil {
		return ce.err
	}
	us = func(sec float64) float64 { return sec / (latencyLaunches / 10) * 1e6 }
	add(measure{Name: "launch + synchronize, empty body", Unit: "µs", Value: us(kt), Baseline: us(bt), samples: s, Goal: 1.10, GoalOp: "<=",
		Note: "baseline: bare cuLaunchKernel of the equivalent hand-written kernel + the same Device.Synchronize (cuCtxSynchronize)"})

	// A graph of graphKernels empty bodies, replayed, against the same
	// bodies launched one by one; per kernel, each with a synchronize.
	if err := graphMeasure(cfg, add); err != nil {
		return err
	}

	// First compile, disk cache off: a new body each repetition.
	x, err := kokkos.NewView1[float64]("x", 1024, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer x.Release()
	old, had := os.LookupEnv(cuda.EnvCache)
	restore := func() {
		if had {
			os.Setenv(cuda.EnvCache, old)
		} else {
			os.Unsetenv(cuda.EnvCache)
		}
	}
	os.Setenv(cuda.EnvCache, "off")
	var compiles []float64
	nonce := time.Now().UnixNano()
	for r := range cfg.reps {
		body := fmt.Sprintf("x(i) = %d.0 * x(i) + 1.0; // %d", r+3, nonce)
		t := time.Now()
		err := cuda.ParallelFor("compile", kokkos.Range(0, 1024), body, cuda.Bind("x", x))
		if err == nil {
			err = dev.Synchronize()
		}
		if err != nil {
			restore()
			return err
		}
		compiles = append(compiles, time.Since(t).Seconds())
	}
	restore()
	add(measure{Name: "first compile of a body (NVRTC, disk cache off)", Unit: "ms", Value: median(compiles) * 1e3,
		Note: "first launch of a new body: compile, load, launch, wait"})

	// Cached load in a new process.
	dir, err := os.MkdirTemp("", "gokkos-bench-cache")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var opens, firsts, warms []float64
	for r := range cfg.reps + 1 {
		t, err := loadProbe(dir)
		if err != nil {
			return err
		}
		if r == 0 {
			continue // this one compiled and filled the cache
		}
		opens, firsts, warms = append(opens, t[0]), append(firsts, t[1]), append(warms, t[2])
	}
	add(measure{Name: "cached kernel load, new process", Unit: "ms", Value: (median(firsts) - median(warms)) * 1e3, Goal: 1, GoalOp: "<=",
		Note: fmt.Sprintf("first launch + wait %.3g ms less a warm one %.3g ms; NVRTC opened beforehand", median(firsts)*1e3, median(warms)*1e3)})
	add(measure{Name: "NVRTC library open, new process", Unit: "ms", Value: median(opens) * 1e3,
		Note: "once per process, before the first compile or cached load"})
	return nil
}

// goKernelLaunch adds the launch latency of kEmptyGo, a Go kernel of one
// view and one scalar whose store never runs, through kernel.For on a
// *cuda.Stream, against the same bare cuLaunchKernel of emptySource's
// kernel, with the same grid and block, on the same stream. Both are timed
// by batches, as the empty body's row is, the wait after each batch (the
// stream's Fence) not timed.
func goKernelLaunch(cfg config, add func(measure), empty *rawKernels, grid [3]int, batches func(f, sync func() error) (float64, error)) error {
	st, err := cuda.NewStream()
	if err != nil {
		return err
	}
	defer st.Release()
	x, err := kokkos.NewView1[float64]("x", 1, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer x.Release()
	one := kokkos.Range(0, 1).On(st)
	kern := func() error { return kernel.For("empty go", one, kEmptyGo, x, 0) }
	rawArgs := newHeapArgs(uint64(one.Begin), uint64(one.End))
	h := st.Handle()
	raw := func() error { return empty.launchOn(h, 0, grid, [3]int{256, 1, 1}, rawArgs.params...) }
	var ks, bs []float64
	for r := range cfg.reps + 1 {
		var k, b float64
		var kerr, berr error
		if r%2 == 0 {
			k, kerr = batches(kern, st.Fence)
			b, berr = batches(raw, st.Fence)
		} else {
			b, berr = batches(raw, st.Fence)
			k, kerr = batches(kern, st.Fence)
		}
		if err := errors.Join(kerr, berr); err != nil {
			return err
		}
		if r > 0 { // the first is a warm-up, and compiles the kernel
			ks, bs = append(ks, k), append(bs, b)
		}
	}
	us := func(sec float64) float64 { return sec / latencyLaunches * 1e6 }
	add(measure{Name: "launch, empty Go kernel, asynchronous", Unit: "µs", Value: us(median(ks)), Baseline: us(median(bs)), samples: samples{ks, bs}, Goal: 1.10, GoalOp: "<=",
		Note: fmt.Sprintf("kernel.For of a Go kernel (a View1[float64] and an int; its one store guarded off), per launch, %d launches in batches of %d, the wait after each batch not timed; "+
			"baseline: the empty body row's bare cuLaunchKernel, same grid and block, on the same cuda.Stream; the Go kernel passes 4 kernel arguments (begin, end, the view's pointer, extent and stride, n) to its 2", latencyLaunches, latencyBatch)})
	return nil
}

// loadProbe runs kokkos-bench again with envLoadProbe and the disk cache
// in dir, and returns the seconds it measured: NVRTC open, first launch
// (and wait) of probeBody, and a warm launch.
func loadProbe(dir string) ([3]float64, error) {
	var t [3]float64
	exe, err := os.Executable()
	if err != nil {
		return t, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envLoadProbe+"=1", cuda.EnvCache+"="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return t, fmt.Errorf("load probe: %w: %s", err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 4 && f[0] == "probe" {
			for k := range t {
				if t[k], err = strconv.ParseFloat(f[k+1], 64); err != nil {
					return t, fmt.Errorf("load probe: %q: %w", sc.Text(), err)
				}
			}
			return t, nil
		}
	}
	return t, fmt.Errorf("load probe: no result in %q", out)
}

// cudaLoadProbe is the new process of loadProbe: it readies the device,
// opens NVRTC, then times the first and a second launch of probeBody, and
// prints "probe open first warm" in seconds.
func cudaLoadProbe() int {
	fail := func(err error) int { fmt.Fprintln(os.Stderr, "kokkos-bench load probe:", err); return 1 }
	dev, err := cuda.GetDevice(0)
	if err != nil {
		return fail(err)
	}
	x, err := kokkos.NewView1[float64]("x", 1024, kokkos.InSpace(cuda.Space))
	if err != nil {
		return fail(err)
	}
	defer x.Release()
	if err := kokkos.Fill(x, 1); err != nil {
		return fail(err)
	}
	if err := dev.Synchronize(); err != nil {
		return fail(err)
	}
	t := time.Now()
	if _, _, err := cuda.NVRTC(); err != nil {
		return fail(err)
	}
	open := time.Since(t).Seconds()
	var ts [2]float64
	for k := range ts {
		t := time.Now()
		if err := cuda.ParallelFor("probe", kokkos.Range(0, 1024), probeBody, cuda.Bind("x", x)); err != nil {
			return fail(err)
		}
		if err := dev.Synchronize(); err != nil {
			return fail(err)
		}
		ts[k] = time.Since(t).Seconds()
	}
	fmt.Printf("probe %g %g %g\n", open, ts[0], ts[1])
	return 0
}

// graphKernels is the number of kernels in the measured graph.
const graphKernels = 10

func graphMeasure(cfg config, add func(measure)) error {
	st, err := cuda.NewStream()
	if err != nil {
		return err
	}
	defer st.Release()
	pol := kokkos.Range(0, 1).On(st)
	seq := func() error {
		for range graphKernels {
			if err := cuda.ParallelFor("empty", pol, ""); err != nil {
				return err
			}
		}
		return nil
	}
	g, err := cuda.Capture(st, seq)
	if err != nil {
		return err
	}
	defer g.Release()
	var ce catcher
	const rounds = 200
	replay := func() error {
		if err := g.Launch(); err != nil {
			return err
		}
		return st.Fence()
	}
	launches := func() error {
		if err := seq(); err != nil {
			return err
		}
		return st.Fence()
	}
	kt, bt, s := timeAlternating(cfg.reps, ce.run(repeat(rounds, replay)), ce.run(repeat(rounds, launches)))
	if ce.err != nil {
		return ce.err
	}
	us := func(sec float64) float64 { return sec / (rounds * graphKernels) * 1e6 }
	add(measure{Name: fmt.Sprintf("graph of %d empty bodies, per kernel", graphKernels), Unit: "µs", Value: us(kt), Baseline: us(bt), samples: s,
		Note: fmt.Sprintf("cuda.Capture then Graph.Launch + Fence, against the %d launches + Fence", graphKernels)})
	return nil
}
