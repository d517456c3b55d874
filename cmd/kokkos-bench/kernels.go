package main

import (
	"fmt"
	"math"
	"runtime"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
)

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

func init() {
	register(suite{name: "kernels", desc: "Go kernels (kernel.For, kernel.Reduce): BabelStream, SetC in both layouts, 3-D stencil vs chunked plain Go", run: runKernels})
}

// The BabelStream kernels, the outer product of viewouter and the 7-point
// stencil, each written per index as Kokkos code is.

//kokkos:kernel
func kCopy(i int, c, a kokkos.View1[float64]) { c.Set(i, a.At(i)) }

//kokkos:kernel
func kMul(i int, b, c kokkos.View1[float64], s float64) { b.Set(i, s*c.At(i)) }

//kokkos:kernel
func kAdd(i int, c, a, b kokkos.View1[float64]) { c.Set(i, a.At(i)+b.At(i)) }

//kokkos:kernel
func kTriad(i int, a, b, c kokkos.View1[float64], s float64) { a.Set(i, b.At(i)+s*c.At(i)) }

//kokkos:kernel
func kDot(i int, a, b kokkos.View1[float64], acc *float64) { *acc += a.At(i) * b.At(i) }

//kokkos:kernel
func kSetC(i, j int, c kokkos.View2[float64], a, b kokkos.View1[float64]) {
	c.Set(i, j, a.At(i)*b.At(j))
}

//kokkos:kernel
func kLap7(i, j, k int, out, in kokkos.View3[float64], h2 float64) {
	s := in.At(i-1, j, k) + in.At(i+1, j, k) + in.At(i, j-1, k) + in.At(i, j+1, k) + in.At(i, j, k-1) + in.At(i, j, k+1)
	out.Set(i, j, k, (s-6*in.At(i, j, k))/h2)
}

// kWrite2 and kHeat2 are the per-index bodies of the mdrange suite.
//
//kokkos:kernel
func kWrite2(i, j int, b kokkos.View2[float64]) { b.Set(i, j, float64(i+j)) }

//kokkos:kernel
func kHeat2(i, j int, b, a kokkos.View2[float64]) {
	c := a.At(i, j)
	b.Set(i, j, c+0.1*(a.At(i-1, j)+a.At(i+1, j)+a.At(i, j-1)+a.At(i, j+1)-4*c))
}

// kEmptyGo is the Go kernel of cudalaunch's launch row: one view, one
// scalar, and a store that never runs when n is 0, so that the launch is
// all that is timed.
//
//kokkos:kernel
func kEmptyGo(i int, x kokkos.View1[float64], n int) {
	if i < n {
		x.Set(i, 0)
	}
}

func runKernels(cfg config, add func(measure)) error {
	n := scaled(1<<24, cfg.scale)
	var vs [3]kokkos.View1[float64]
	for k := range vs {
		v, err := kokkos.NewView1[float64](fmt.Sprint("kernels.", k), n)
		if err != nil {
			return err
		}
		d := v.Data()
		for i := range d {
			d[i] = float64(i%13+k) * 0.5
		}
		vs[k] = v
	}
	a, b, c := vs[0], vs[1], vs[2]
	ad, bd, cd := a.Data(), b.Data(), c.Data()
	r := kokkos.Range(0, n)
	var kerr error
	try := func(err error) {
		if err != nil && kerr == nil {
			kerr = err
		}
	}
	gbs := func(bytes int) func(float64) float64 {
		return func(sec float64) float64 { return float64(bytes) / sec / 1e9 }
	}
	report := func(name, unit string, kt, bt float64, sm samples, rate func(float64) float64) {
		add(measure{Name: name, Unit: unit, Value: rate(kt), Baseline: rate(bt), samples: sm, Goal: 0.95, GoalOp: ">=",
			Note: "baseline: the same loop by hand over slices, split over GOMAXPROCS goroutines"})
	}
	const s = 0.4
	for _, k := range []struct {
		name  string
		bytes int
		kern  func()
		plain func(lo, hi int)
	}{
		{"Copy", 2, func() { try(kernel.For("copy", r, kCopy, c, a)) }, func(lo, hi int) { copy(cd[lo:hi], ad[lo:hi]) }},
		{"Mul", 2, func() { try(kernel.For("mul", r, kMul, b, c, s)) }, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				bd[i] = s * cd[i]
			}
		}},
		{"Add", 3, func() { try(kernel.For("add", r, kAdd, c, a, b)) }, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				cd[i] = ad[i] + bd[i]
			}
		}},
		{"Triad", 3, func() { try(kernel.For("triad", r, kTriad, a, b, c, s)) }, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				ad[i] = bd[i] + float64(s*cd[i])
			}
		}},
	} {
		kt, bt, sm := timeAlternating(cfg.reps, k.kern, func() { goLoop(n, k.plain) })
		report(fmt.Sprintf("%s, %d float64", k.name, n), "GB/s", kt, bt, sm, gbs(8*k.bytes*n))
	}
	partial := make([]float64, 256)
	var dot, plainDot float64
	kt, bt, sm := timeAlternating(cfg.reps, func() {
		d, err := kernel.Reduce("dot", r, kokkos.Sum[float64](), kDot, a, b)
		try(err)
		dot = d
	}, func() {
		goLoopIdx(n, func(w, lo, hi int) {
			var acc float64
			for i := lo; i < hi; i++ {
				acc += float64(ad[i] * bd[i])
			}
			partial[w] = acc
		})
		plainDot = 0
		for _, p := range partial[:runtime.GOMAXPROCS(0)] {
			plainDot += p
		}
	})
	if math.Abs(dot-plainDot) > 1e-9*math.Abs(plainDot) {
		return fmt.Errorf("dot: kernel %v, plain loop %v", dot, plainDot)
	}
	report(fmt.Sprintf("Dot, %d float64", n), "GB/s", kt, bt, sm, gbs(16*n))

	// SetC, the outer product, into each layout.
	m := scaled(4096, cfg.scale)
	x, y := a.Subview1(kokkos.Pair(0, m)), b.Subview1(kokkos.Pair(0, m))
	xd, yd := ad[:m], bd[:m]
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		cm, err := kokkos.NewView2[float64]("kernels.c", m, m, lay)
		if err != nil {
			return err
		}
		cmd := cm.Data()
		md := kokkos.MDRange([]int{0, 0}, []int{m, m})
		plain := func(lo, hi int) { // rows (LayoutRight) or columns (LayoutLeft) lo..hi
			for i := lo; i < hi; i++ {
				row := cmd[i*m : i*m+m]
				for j := range row {
					if lay == kokkos.LayoutRight {
						row[j] = xd[i] * yd[j]
					} else {
						row[j] = xd[j] * yd[i]
					}
				}
			}
		}
		if lay == kokkos.LayoutLeft {
			md = md.Order(kokkos.IterateLeft, kokkos.IterateLeft)
		}
		kt, bt, sm := timeAlternating(cfg.reps, func() { try(kernel.For("setc", md, kSetC, cm, x, y)) }, func() { goLoop(m, plain) })
		report(fmt.Sprintf("SetC %v, %dx%d", lay, m, m), "GB/s", kt, bt, sm, gbs(8*m*m))
	}

	// The 7-point stencil over the interior of an n3³ grid.
	n3 := scaled(256, cfg.scale)
	in, err := kokkos.NewView3[float64]("kernels.in", n3, n3, n3)
	if err != nil {
		return err
	}
	out, err := kokkos.NewView3[float64]("kernels.out", n3, n3, n3)
	if err != nil {
		return err
	}
	ind, outd := in.Data(), out.Data()
	for i := range ind {
		ind[i] = float64(i%29) * 0.125
	}
	const h2 = 0.25
	interior := kokkos.MDRange([]int{1, 1, 1}, []int{n3 - 1, n3 - 1, n3 - 1})
	kt, bt, sm = timeAlternating(cfg.reps, func() { try(kernel.For("lap7", interior, kLap7, out, in, h2)) }, func() {
		goLoop(n3-2, func(lo, hi int) {
			for i := lo + 1; i < hi+1; i++ {
				for j := 1; j < n3-1; j++ {
					for k := 1; k < n3-1; k++ {
						c := (i*n3+j)*n3 + k
						s := ind[c-n3*n3] + ind[c+n3*n3] + ind[c-n3] + ind[c+n3] + ind[c-1] + ind[c+1]
						outd[c] = (s - float64(6*ind[c])) / h2
					}
				}
			}
		})
	})
	pts := (n3 - 2) * (n3 - 2) * (n3 - 2)
	report(fmt.Sprintf("7-point stencil, %d^3", n3), "Gpts/s", kt, bt, sm, func(sec float64) float64 { return float64(pts) / sec / 1e9 })
	return kerr
}

func init() {
	register(suite{name: "kernelscuda", space: "cuda", run: runKernelsCUDA,
		desc: "Go kernels on the GPU (Triad, SetC in both layouts) vs the same bodies written in CUDA C through cuda.ParallelFor"})
}

func runKernelsCUDA(cfg config, add func(measure)) error {
	if err := cuda.Available(); err != nil {
		return err
	}
	st, err := cuda.NewStream()
	if err != nil {
		return err
	}
	defer st.Release()
	n := scaled(1<<25, cfg.scale)
	var vs [3]kokkos.View1[float64]
	for k := range vs {
		if vs[k], err = kokkos.NewView1[float64]("kernels.d", n, kokkos.InSpace(cuda.Space)); err != nil {
			return err
		}
		defer vs[k].Release()
		if err := kokkos.Fill(vs[k], float64(k)+0.5); err != nil {
			return err
		}
	}
	a, b, c := vs[0], vs[1], vs[2]
	var ce catcher
	fenced := func(f func() error) func() {
		return ce.run(repeat(streamLaunches, func() error {
			if err := f(); err != nil {
				return err
			}
			return st.Fence()
		}))
	}
	r := kokkos.Range(0, n).On(st)
	const s = 0.4
	kt, bt, sm := timeAlternating(cfg.reps, fenced(func() error { return kernel.For("triad", r, kTriad, a, b, c, s) }),
		fenced(func() error {
			return cuda.ParallelFor("triad", r, "a(i) = b(i) + s * c(i);", cuda.Bind("a", a), cuda.Bind("b", b), cuda.Bind("c", c), cuda.Scalar("s", s), cuda.FMAD(false))
		}))
	if ce.err != nil {
		return ce.err
	}
	bytes := float64(3*8*n) * streamLaunches
	add(measure{Name: fmt.Sprintf("Triad, %d float64", n), Unit: "GB/s", Value: bytes / kt / 1e9, Baseline: bytes / bt / 1e9, samples: sm,
		Goal: 0.97, GoalOp: ">=", Note: "baseline: the body in CUDA C through cuda.ParallelFor"})
	m := max(32, scaled(8192, cfg.scale))
	x, y := a.Subview1(kokkos.Pair(0, m)), b.Subview1(kokkos.Pair(0, m))
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		cm, err := kokkos.NewView2[float64]("kernels.c", m, m, lay, kokkos.InSpace(cuda.Space))
		if err != nil {
			return err
		}
		md := kokkos.MDRange([]int{0, 0}, []int{m, m}).On(st)
		kt, bt, sm := timeAlternating(cfg.reps, fenced(func() error { return kernel.For("setc", md, kSetC, cm, x, y) }),
			fenced(func() error {
				return cuda.ParallelFor("setc", md, "c(i0, i1) = a(i0) * b(i1);", cuda.Bind("c", cm), cuda.Bind("a", x), cuda.Bind("b", y), cuda.FMAD(false))
			}))
		cm.Release()
		if ce.err != nil {
			return ce.err
		}
		bytes := float64(8*m*m) * streamLaunches
		add(measure{Name: fmt.Sprintf("SetC %v, %dx%d", lay, m, m), Unit: "GB/s", Value: bytes / kt / 1e9, Baseline: bytes / bt / 1e9, samples: sm,
			Goal: 0.97, GoalOp: ">=", Note: "baseline: the body in CUDA C through cuda.ParallelFor"})
	}
	return nil
}
