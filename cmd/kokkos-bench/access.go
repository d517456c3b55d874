package main

import (
	"github.com/gokkos/kokkos"
)

func init() {
	register(suite{name: "access", desc: "At-loop sums over views of rank 1-3 in each layout vs slice loops", run: runAccess})
}

var sinkF float64

func runAccess(cfg config, add func(measure)) error {
	n := scaled(4096, cfg.scale)
	n3 := scaled(256, cfg.scale)
	perElem := func(sec float64, count int) float64 { return sec / float64(count) * 1e9 }

	// rank 1
	v1, err := kokkos.NewView1[float64]("a1", n*n)
	if err != nil {
		return err
	}
	fillPattern(v1.Data())
	d1 := v1.Data()
	k, b, s := timeAlternating(cfg.reps, func() { sinkF = sum1(&v1) }, func() { sinkF = sliceSum1(d1) })
	add(measure{Name: "rank-1 At sum", Unit: "ns/elem", Value: perElem(k, n*n), Baseline: perElem(b, n*n), samples: s, Goal: 1.10, GoalOp: "<="})

	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		v, err := kokkos.NewView2[float64]("a2", n, n, l)
		if err != nil {
			return err
		}
		d := v.Data()
		fillPattern(d)
		kernel := func() { sinkF = sumRight2(&v) }
		if l == kokkos.LayoutLeft {
			kernel = func() { sinkF = sumLeft2(&v) }
		}
		k, b, s := timeAlternating(cfg.reps, kernel, func() { sinkF = sliceSum2(d, n, n) })
		add(measure{Name: "rank-2 " + l.String() + " At sum", Unit: "ns/elem", Value: perElem(k, n*n), Baseline: perElem(b, n*n), samples: s, Goal: 1.10, GoalOp: "<="})
	}

	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		v, err := kokkos.NewView3[float64]("a3", n3, n3, n3, l)
		if err != nil {
			return err
		}
		d := v.Data()
		fillPattern(d)
		kernel := func() { sinkF = sumRight3(&v) }
		if l == kokkos.LayoutLeft {
			kernel = func() { sinkF = sumLeft3(&v) }
		}
		k, b, s := timeAlternating(cfg.reps, kernel, func() { sinkF = sliceSum3(d, n3, n3, n3) })
		add(measure{Name: "rank-3 " + l.String() + " At sum", Unit: "ns/elem", Value: perElem(k, n3*n3*n3), Baseline: perElem(b, n3*n3*n3), samples: s, Goal: 1.10, GoalOp: "<="})
	}

	// DynRankView and OffsetView against the rank-typed view
	{
		v := kokkos.Must(kokkos.NewView2[float64]("v2", n, n))
		fillPattern(v.Data())
		d := kokkos.DynRankFrom[float64](v)
		k, b, s := timeAlternating(cfg.reps, func() { sinkF = sumDyn2(&d) }, func() { sinkF = sumRight2(&v) })
		add(measure{Name: "DynRankView rank-2 At2 sum", Unit: "ns/elem", Value: perElem(k, n*n), Baseline: perElem(b, n*n), samples: s, Goal: 1.3, GoalOp: "<=",
			Note: "baseline: View2 At"})
		o := kokkos.Must(kokkos.OffsetView2Of(v, [2]int{-1, 5}))
		k, b, s = timeAlternating(cfg.reps, func() { sinkF = sumOffset2(&o) }, func() { sinkF = sumRight2(&v) })
		add(measure{Name: "OffsetView2 At sum", Unit: "ns/elem", Value: perElem(k, n*n), Baseline: perElem(b, n*n), samples: s, Goal: 1.1, GoalOp: "<=",
			Note: "baseline: View2 At"})
		v3 := kokkos.Must(kokkos.NewView3[float64]("v3", n3, n3, n3))
		fillPattern(v3.Data())
		d3 := kokkos.DynRankFrom[float64](v3)
		k, b, s = timeAlternating(cfg.reps, func() { sinkF = sumDyn3(&d3) }, func() { sinkF = sumRight3(&v3) })
		add(measure{Name: "DynRankView rank-3 At3 sum", Unit: "ns/elem", Value: perElem(k, n3*n3*n3), Baseline: perElem(b, n3*n3*n3), samples: s, Goal: 1.3, GoalOp: "<=",
			Note: "baseline: View3 At"})
		o3 := kokkos.Must(kokkos.OffsetView3Of(v3, [3]int{-2, 0, 3}))
		k, b, s = timeAlternating(cfg.reps, func() { sinkF = sumOffset3(&o3) }, func() { sinkF = sumRight3(&v3) })
		add(measure{Name: "OffsetView3 At sum", Unit: "ns/elem", Value: perElem(k, n3*n3*n3), Baseline: perElem(b, n3*n3*n3), samples: s, Goal: 1.1, GoalOp: "<=",
			Note: "baseline: View3 At"})
	}

	// rows as slices
	v, err := kokkos.NewView2[float64]("rows", n, n)
	if err != nil {
		return err
	}
	d := v.Data()
	fillPattern(d)
	k, b, s = timeAlternating(cfg.reps, func() { sinkF = sumRows(&v) }, func() { sinkF = sliceSumRows(d, n, n) })
	add(measure{Name: "rank-2 Row-slice sum", Unit: "ns/elem", Value: perElem(k, n*n), Baseline: perElem(b, n*n), samples: s, Goal: 1.02, GoalOp: "<="})

	return nil
}

func sliceSum2(d []float64, n0, n1 int) float64 {
	s := 0.0
	for i := range n0 {
		for j := range n1 {
			s += d[i*n1+j]
		}
	}
	return s
}

func fillPattern(d []float64) {
	for i := range d {
		d[i] = float64(i%17) * 0.25
	}
}

// The kernels are functions taking the view by pointer, as user code would;
// each baseline is the same loop over a plain slice.

func sum1(v *kokkos.View1[float64]) float64 {
	s := 0.0
	for i := range v.Extent(0) {
		s += v.At(i)
	}
	return s
}

func sliceSum1(d []float64) float64 {
	s := 0.0
	for i := range d {
		s += d[i]
	}
	return s
}

func sumRight2(v *kokkos.View2[float64]) float64 {
	s := 0.0
	for i := range v.Extent(0) {
		for j := range v.Extent(1) {
			s += v.At(i, j)
		}
	}
	return s
}

func sumLeft2(v *kokkos.View2[float64]) float64 {
	s := 0.0
	for j := range v.Extent(1) {
		for i := range v.Extent(0) {
			s += v.At(i, j)
		}
	}
	return s
}

func sumRight3(v *kokkos.View3[float64]) float64 {
	s := 0.0
	for i := range v.Extent(0) {
		for j := range v.Extent(1) {
			for k := range v.Extent(2) {
				s += v.At(i, j, k)
			}
		}
	}
	return s
}

func sumLeft3(v *kokkos.View3[float64]) float64 {
	s := 0.0
	for k := range v.Extent(2) {
		for j := range v.Extent(1) {
			for i := range v.Extent(0) {
				s += v.At(i, j, k)
			}
		}
	}
	return s
}

func sliceSum3(d []float64, n0, n1, n2 int) float64 {
	s := 0.0
	for i := range n0 {
		for j := range n1 {
			for k := range n2 {
				s += d[(i*n1+j)*n2+k]
			}
		}
	}
	return s
}

func sumRows(v *kokkos.View2[float64]) float64 {
	s := 0.0
	for i := range v.Extent(0) {
		for _, x := range v.Row(i) {
			s += x
		}
	}
	return s
}

func sliceSumRows(d []float64, n0, n1 int) float64 {
	s := 0.0
	for i := range n0 {
		for _, x := range d[i*n1 : (i+1)*n1] {
			s += x
		}
	}
	return s
}

// sliceSumRowsCopy is sliceSumRows, repeated for the control measure
// (runControl).
//
//go:noinline
func sliceSumRowsCopy(d []float64, n0, n1 int) float64 {
	s := 0.0
	for i := range n0 {
		for _, x := range d[i*n1 : (i+1)*n1] {
			s += x
		}
	}
	return s
}

func sumDyn2(d *kokkos.DynRankView[float64]) float64 {
	s := 0.0
	for i := range d.Extent(0) {
		for j := range d.Extent(1) {
			s += d.At2(i, j)
		}
	}
	return s
}

func sumDyn3(d *kokkos.DynRankView[float64]) float64 {
	s := 0.0
	for i := range d.Extent(0) {
		for j := range d.Extent(1) {
			for k := range d.Extent(2) {
				s += d.At3(i, j, k)
			}
		}
	}
	return s
}

func sumOffset2(o *kokkos.OffsetView2[float64]) float64 {
	s := 0.0
	for i, e0 := o.Begin(0), o.End(0); i < e0; i++ {
		for j, e1 := o.Begin(1), o.End(1); j < e1; j++ {
			s += o.At(i, j)
		}
	}
	return s
}

func sumOffset3(o *kokkos.OffsetView3[float64]) float64 {
	s := 0.0
	for i, e0 := o.Begin(0), o.End(0); i < e0; i++ {
		for j, e1 := o.Begin(1), o.End(1); j < e1; j++ {
			for k, e2 := o.Begin(2), o.End(2); k < e2; k++ {
				s += o.At(i, j, k)
			}
		}
	}
	return s
}
