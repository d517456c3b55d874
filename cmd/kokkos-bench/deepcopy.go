package main

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

func init() {
	register(suite{name: "deepcopy", desc: "DeepCopy and Fill: contiguous, transposition, strided fill, subview copy vs copy and plain loops", run: runDeepCopy})
}

func runDeepCopy(cfg config, add func(measure)) error {
	gb := func(bytes int, sec float64) float64 { return float64(bytes) / sec / 1e9 }

	// contiguous, same layout, 128 MiB
	n := scaled(16<<20, cfg.scale)
	src := kokkos.Must(kokkos.NewView1[float64]("src", n))
	dst := kokkos.Must(kokkos.NewView1[float64]("dst", n))
	fillPattern(src.Data())
	k, b, s := timeAlternating(cfg.reps, func() { must(kokkos.DeepCopy(dst, src)) }, func() { copy(dst.Data(), src.Data()) })
	add(measure{Name: fmt.Sprintf("contiguous copy, %d MiB", n*8>>20), Unit: "GB/s", Value: gb(16*n, k), Baseline: gb(16*n, b), samples: s, Goal: 0.95, GoalOp: ">=",
		Note: "baseline: copy()"})

	// LayoutLeft ← LayoutRight, 4096×4096
	m := scaled(4096, cfg.scale)
	r := kokkos.Must(kokkos.NewView2[float64]("right", m, m))
	l := kokkos.Must(kokkos.NewView2[float64]("left", m, m, kokkos.LayoutLeft))
	fillPattern(r.Data())
	flat := kokkos.Must(kokkos.NewView1[float64]("flat", m*m))
	k, b, s = timeAlternating(cfg.reps, func() { must(kokkos.DeepCopy(l, r)) }, func() { copy(flat.Data(), r.Data()) })
	add(measure{Name: fmt.Sprintf("LayoutLeft ← LayoutRight, %d×%d", m, m), Unit: "GB/s", Value: gb(16*m*m, k), Baseline: gb(16*m*m, b), samples: s, Goal: 0.5, GoalOp: ">=",
		Note: "baseline: copy() of the same bytes"})
	naive := func() {
		rd, ld := r.Data(), l.Data()
		for i := range m {
			for j := range m {
				ld[i+j*m] = rd[i*m+j]
			}
		}
	}
	k, b, s = timeAlternating(max(3, cfg.reps/2), naive, func() { copy(flat.Data(), r.Data()) })
	add(measure{Name: "naive double-loop transposition (for reference)", Unit: "GB/s", Value: gb(16*m*m, k), Baseline: gb(16*m*m, b), samples: s})

	// fill of every other column vs contiguous fill of as many elements
	big := kokkos.Must(kokkos.NewView2[float64]("big", m, m))
	cols, err := kokkos.WrapView2(big.Data(), m, m/2, kokkos.WithStrides(m, 2), kokkos.WithLabel("every other column"))
	if err != nil {
		return err
	}
	half := kokkos.Must(kokkos.NewView1[float64]("half", m*m/2))
	k, b, s = timeAlternating(cfg.reps, func() { must(kokkos.Fill(cols, 1.5)) }, func() {
		d := half.Data()
		for i := range d {
			d[i] = 1.5
		}
	})
	add(measure{Name: "Fill of every other column", Unit: "GB/s", Value: gb(8*m*m/2, k), Baseline: gb(8*m*m/2, b), samples: s, Goal: 0.9, GoalOp: ">=",
		Note: "baseline: contiguous loop over as many elements"})

	// non-contiguous subview copy: the interior of a 3-D view
	q := scaled(256, cfg.scale)
	a3 := kokkos.Must(kokkos.NewView3[float64]("a3", q, q, q))
	b3 := kokkos.Must(kokkos.NewView3[float64]("b3", q, q, q))
	fillPattern(a3.Data())
	sa := a3.Subview3(kokkos.Pair(1, q-1), kokkos.Pair(1, q-1), kokkos.Pair(1, q-1))
	sb := b3.Subview3(kokkos.Pair(1, q-1), kokkos.Pair(1, q-1), kokkos.Pair(1, q-1))
	inner := (q - 2) * (q - 2) * (q - 2)
	k, b, s = timeAlternating(cfg.reps, func() { must(kokkos.DeepCopy(sb, sa)) }, func() {
		ad, bd := a3.Data(), b3.Data()
		for i := 1; i < q-1; i++ {
			for j := 1; j < q-1; j++ {
				o := (i*q + j) * q
				copy(bd[o+1:o+q-1], ad[o+1:o+q-1])
			}
		}
	})
	add(measure{Name: fmt.Sprintf("interior subview copy, %d³", q), Unit: "GB/s", Value: gb(16*inner, k), Baseline: gb(16*inner, b), samples: s, Goal: 0.95, GoalOp: ">=",
		Note: "baseline: serial loop of row copy()"})
	return nil
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
