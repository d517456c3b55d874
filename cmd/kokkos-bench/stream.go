package main

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/gokkos/kokkos"
)

func init() {
	register(suite{name: "stream", desc: "BabelStream kernels over views with ParallelFor/ParallelReduce vs goroutine loops", run: runStream})
}

const streamScalar = 0.4

// streamArrays holds BabelStream's three arrays as views.
type streamArrays struct {
	a, b, c kokkos.View1[float64]
}

func newStreamArrays(n int) (*streamArrays, error) {
	var s streamArrays
	var err error
	for _, p := range []*kokkos.View1[float64]{&s.a, &s.b, &s.c} {
		if *p, err = kokkos.NewView1[float64]("stream", n); err != nil {
			return nil, err
		}
	}
	kokkos.ParallelForChunks("stream.init", kokkos.Range(0, n), func(lo, hi int) {
		a, b, c := s.a.Data(), s.b.Data(), s.c.Data()
		for i := lo; i < hi; i++ {
			a[i], b[i], c[i] = 0.1, 0.2, 0.0
		}
	})
	return &s, nil
}

// A streamKernel is one BabelStream kernel: its bytes moved per element, the
// view version and the plain-Go goroutine version.
type streamKernel struct {
	name     string
	bytes    int
	view     func(s *streamArrays)
	baseline func(a, b, c []float64)
}

var sinkDot float64

func streamKernels() []streamKernel {
	return []streamKernel{
		{"Copy", 16, func(s *streamArrays) {
			kokkos.ParallelForChunks("Copy", kokkos.Range(0, s.a.Extent(0)), func(lo, hi int) {
				a, c := s.a.Data()[lo:hi], s.c.Data()[lo:hi]
				copy(c, a)
			})
		}, func(a, b, c []float64) { goLoop(len(a), func(lo, hi int) { copy(c[lo:hi], a[lo:hi]) }) }},
		{"Mul", 16, func(s *streamArrays) {
			kokkos.ParallelForChunks("Mul", kokkos.Range(0, s.a.Extent(0)), func(lo, hi int) {
				b, c := s.b.Data()[lo:hi], s.c.Data()[lo:hi]
				for i := range b {
					b[i] = streamScalar * c[i]
				}
			})
		}, func(a, b, c []float64) {
			goLoop(len(a), func(lo, hi int) {
				b, c := b[lo:hi], c[lo:hi]
				for i := range b {
					b[i] = streamScalar * c[i]
				}
			})
		}},
		{"Add", 24, func(s *streamArrays) {
			kokkos.ParallelForChunks("Add", kokkos.Range(0, s.a.Extent(0)), func(lo, hi int) {
				a, b, c := s.a.Data()[lo:hi], s.b.Data()[lo:hi], s.c.Data()[lo:hi]
				for i := range c {
					c[i] = a[i] + b[i]
				}
			})
		}, func(a, b, c []float64) {
			goLoop(len(a), func(lo, hi int) {
				a, b, c := a[lo:hi], b[lo:hi], c[lo:hi]
				for i := range c {
					c[i] = a[i] + b[i]
				}
			})
		}},
		{"Triad", 24, func(s *streamArrays) {
			kokkos.ParallelForChunks("Triad", kokkos.Range(0, s.a.Extent(0)), func(lo, hi int) {
				a, b, c := s.a.Data()[lo:hi], s.b.Data()[lo:hi], s.c.Data()[lo:hi]
				for i := range a {
					a[i] = b[i] + streamScalar*c[i]
				}
			})
		}, triadBaseline},
		{"Triad (per-index body)", 24, func(s *streamArrays) {
			kokkos.ParallelFor("Triad", kokkos.Range(0, s.a.Extent(0)), func(i int) {
				s.a.Set(i, s.b.At(i)+streamScalar*s.c.At(i))
			})
		}, triadBaseline},
		{"Nstream", 32, func(s *streamArrays) {
			kokkos.ParallelForChunks("Nstream", kokkos.Range(0, s.a.Extent(0)), func(lo, hi int) {
				a, b, c := s.a.Data()[lo:hi], s.b.Data()[lo:hi], s.c.Data()[lo:hi]
				for i := range a {
					a[i] += b[i] + streamScalar*c[i]
				}
			})
		}, func(a, b, c []float64) {
			goLoop(len(a), func(lo, hi int) {
				a, b, c := a[lo:hi], b[lo:hi], c[lo:hi]
				for i := range a {
					a[i] += b[i] + streamScalar*c[i]
				}
			})
		}},
		{"Dot", 16, func(s *streamArrays) {
			sinkDot = kokkos.ParallelReduceChunks("Dot", kokkos.Range(0, s.a.Extent(0)), kokkos.Sum[float64](), func(lo, hi int, acc *float64) {
				a, b := s.a.Data()[lo:hi], s.b.Data()[lo:hi]
				sum := 0.0
				for i := range a {
					sum += a[i] * b[i]
				}
				*acc += sum
			})
		}, func(a, b, c []float64) {
			p := runtime.GOMAXPROCS(0)
			parts := make([]float64, p)
			goLoopIdx(len(a), func(k, lo, hi int) {
				a, b := a[lo:hi], b[lo:hi]
				sum := 0.0
				for i := range a {
					sum += a[i] * b[i]
				}
				parts[k] = sum
			})
			s := 0.0
			for _, x := range parts {
				s += x
			}
			sinkDot = s
		}},
	}
}

func triadBaseline(a, b, c []float64) {
	goLoop(len(a), func(lo, hi int) {
		a, b, c := a[lo:hi], b[lo:hi], c[lo:hi]
		for i := range a {
			a[i] = b[i] + streamScalar*c[i]
		}
	})
}

// goLoop is the hand-written baseline: GOMAXPROCS goroutines, one
// contiguous part each, joined by a WaitGroup.
func goLoop(n int, body func(lo, hi int)) { goLoopIdx(n, func(_, lo, hi int) { body(lo, hi) }) }

func goLoopIdx(n int, body func(k, lo, hi int)) {
	p := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for k := range p {
		lo, hi := n*k/p, n*(k+1)/p
		wg.Go(func() { body(k, lo, hi) })
	}
	wg.Wait()
}

func runStream(cfg config, add func(measure)) error {
	n := scaled(1<<25, cfg.scale)
	s, err := newStreamArrays(n)
	if err != nil {
		return err
	}
	for _, k := range streamKernels() {
		kt, bt, sm := timeAlternating(cfg.reps, func() { k.view(s) }, func() { k.baseline(s.a.Data(), s.b.Data(), s.c.Data()) })
		gbs := func(sec float64) float64 { return float64(k.bytes) * float64(n) / sec / 1e9 }
		m := measure{Name: k.name, Unit: "GB/s", Value: gbs(kt), Baseline: gbs(bt), samples: sm, Goal: 0.97, GoalOp: ">="}
		if k.name == "Triad (per-index body)" {
			m.GoalOp, m.Goal, m.Note = "", 0, "reported, no goal"
		}
		m.Name = fmt.Sprintf("%s, %d float64", m.Name, n)
		runtime.KeepAlive(sinkDot)
		add(m)
	}
	return nil
}
