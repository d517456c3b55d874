package main

import (
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

func init() {
	register(suite{name: "fillscan", desc: "host Fill, same-layout DeepCopy and scans vs hand-written parallel fills, copies and copy bandwidth", run: runFillScan})
}

// kScanI32 is the body of the ParallelScan measure, as a Go kernel.
//
//kokkos:kernel
func kScanI32(i int, y, x kokkos.View1[int32], acc *int32, final bool) {
	*acc += x.At(i)
	if final {
		y.Set(i, *acc)
	}
}

// goPages splits n elements of size bytes over GOMAXPROCS goroutines in
// pieces that start on 4 KiB boundaries (of the slice's start) and runs
// body on each.
func goPages(n, size int, body func(lo, hi int)) {
	p := runtime.GOMAXPROCS(0)
	page := max(1, 4096/size)
	var wg sync.WaitGroup
	for k := range p {
		lo, hi := n*k/p/page*page, n*(k+1)/p/page*page
		if k == p-1 {
			hi = n
		}
		if lo < hi {
			wg.Go(func() { body(lo, hi) })
		}
	}
	wg.Wait()
}

// loopFill is the plain store loop.
func loopFill[T any](d []T, x T) {
	for i := range d {
		d[i] = x
	}
}

// blockFill stores 256 bytes with a loop, doubles them by copies up to
// a little more than a megabyte and copies that block over the rest, so
// that the copies take memmove's non-temporal path.
func blockFill[T any](d []T, x T) {
	size := int(unsafe.Sizeof(x))
	k := min(len(d), (1280<<10)/size)
	m := min(k, max(1, 256/size))
	loopFill(d[:m], x)
	for m < k {
		m += copy(d[m:k], d[:m])
	}
	for i := k; i < len(d); i += k {
		copy(d[i:], d[:k])
	}
}

// parFill fills d on goroutines with f.
func parFill[T any](d []T, x T, f func([]T, T)) {
	goPages(len(d), int(unsafe.Sizeof(x)), func(lo, hi int) { f(d[lo:hi], x) })
}

// parCopy is copy split over goroutines.
func parCopy[T any](d, s []T) {
	var z T
	goPages(len(d), int(unsafe.Sizeof(z)), func(lo, hi int) { copy(d[lo:hi], s[lo:hi]) })
}

// timeAll runs the functions in turn reps times after a warm-up of each
// and returns the median seconds of each, and pair, which gives the
// seconds of each repetition of the first function, the kernel, and of the
// i-th, its baseline, for the measure made of their medians.
func timeAll(reps int, fs ...func()) (med []float64, pair func(i int) samples) {
	for _, f := range fs {
		f()
	}
	ts := make([][]float64, len(fs))
	for range reps {
		for i, f := range fs {
			t := time.Now()
			f()
			ts[i] = append(ts[i], time.Since(t).Seconds())
		}
	}
	med = make([]float64, len(fs))
	for i := range ts {
		med[i] = median(ts[i])
	}
	return med, func(i int) samples { return samples{ts[0], ts[i]} }
}

// fillMeasures measures kokkos.Fill of a view of n elements of T against
// the parallel store loop and the parallel block fill, the goal against
// the faster of the two.
func fillMeasures[T comparable](cfg config, add func(measure), name string, n int, x T) error {
	v, err := kokkos.NewView1[T]("fill", n)
	if err != nil {
		return err
	}
	d := v.Data()
	size := int(unsafe.Sizeof(x))
	fs := []func(){
		func() { must(kokkos.Fill(v, x)) },
		func() { parFill(d, x, loopFill) },
		func() { parFill(d, x, blockFill) },
	}
	names := []string{"", "store loop", "block copy"}
	var z T
	if x == z {
		fs = append(fs, func() { goPages(n, size, func(lo, hi int) { clear(d[lo:hi]) }) })
		names = append(names, "clear")
	}
	t, pair := timeAll(cfg.reps, fs...)
	gb := func(s float64) float64 { return float64(n*size) / s / 1e9 }
	best := 1
	note := ""
	for i := 1; i < len(t); i++ {
		if t[i] < t[best] {
			best = i
		}
		note += fmt.Sprintf(", %s %.3g", names[i], gb(t[i]))
	}
	add(measure{Name: name, Unit: "GB/s", Value: gb(t[0]), Baseline: gb(t[best]), Goal: 0.95, GoalOp: ">=", samples: pair(best),
		Note: fmt.Sprintf("baseline: the fastest parallel fill (GB/s%s)", note)})
	return nil
}

func runFillScan(cfg config, add func(measure)) error {
	gb := func(bytes int, sec float64) float64 { return float64(bytes) / sec / 1e9 }
	m := scaled(4096, cfg.scale)

	// Contiguous fills, per element size.
	if err := fillMeasures(cfg, add, fmt.Sprintf("Fill %d×%d float64", m, m), m*m, 1.5); err != nil {
		return err
	}
	if err := fillMeasures(cfg, add, fmt.Sprintf("Fill %d×%d float64, zero", m, m), m*m, 0.0); err != nil {
		return err
	}
	if err := fillMeasures[float32](cfg, add, fmt.Sprintf("Fill %d×%d float32", m, m), m*m, 1.5); err != nil {
		return err
	}
	if err := fillMeasures[int8](cfg, add, fmt.Sprintf("Fill %d×%d int8", m, m), 8*m*m, 3); err != nil {
		return err
	}

	// Strided fills against kokkos.Fill of as many contiguous bytes.
	big := kokkos.Must(kokkos.NewView2[float64]("big", m, m))
	half := kokkos.Must(kokkos.NewView1[float64]("half", m*m/2))
	left := big.Subview2(kokkos.All, kokkos.Pair(0, m/2))
	t, pair := timeAll(cfg.reps, func() { must(kokkos.Fill(left, 2.5)) }, func() { must(kokkos.Fill(half, 2.5)) })
	add(measure{Name: fmt.Sprintf("Fill Subview2(All, Pair(0, %d)) of %d×%d", m/2, m, m), Unit: "GB/s", Value: gb(4*m*m, t[0]), Baseline: gb(4*m*m, t[1]), samples: pair(1), Goal: 0.9, GoalOp: ">=",
		Note: "baseline: Fill of as many contiguous bytes"})
	cols, err := kokkos.WrapView2(big.Data(), m, m/2, kokkos.WithStrides(m, 2), kokkos.WithLabel("every other column"))
	if err != nil {
		return err
	}
	t, pair = timeAll(cfg.reps, func() { must(kokkos.Fill(cols, 2.5)) }, func() { must(kokkos.Fill(half, 2.5)) })
	add(measure{Name: fmt.Sprintf("Fill every other column of %d×%d", m, m), Unit: "GB/s", Value: gb(4*m*m, t[0]), Baseline: gb(4*m*m, t[1]), samples: pair(1), Goal: 0.9, GoalOp: ">=",
		Note: "baseline: Fill of as many contiguous bytes; the columns' lines are all written"})

	// Same-layout DeepCopy.
	a := kokkos.Must(kokkos.NewView2[float64]("a", m, m))
	b := kokkos.Must(kokkos.NewView2[float64]("b", m, m))
	fillPattern(a.Data())
	t, pair = timeAll(cfg.reps, func() { must(kokkos.DeepCopy(b, a)) }, func() { parCopy(b.Data(), a.Data()) })
	add(measure{Name: fmt.Sprintf("DeepCopy %d×%d float64, same layout", m, m), Unit: "GB/s", Value: gb(16*m*m, t[0]), Baseline: gb(16*m*m, t[1]), samples: pair(1), Goal: 0.95, GoalOp: ">=",
		Note: "baseline: copy() split over goroutines"})

	// Scans against a parallel copy of the same bytes (read + write).
	n := scaled(16<<20, cfg.scale)
	xi := make([]int32, n)
	yi := make([]int32, n)
	for i := range xi {
		xi[i] = int32(i%7) - 3
	}
	var sink int32
	t, pair = timeAll(cfg.reps, func() { sink += kokkos.InclusiveScan("in", kokkos.Range(0, n), yi, xi) }, func() { parCopy(yi, xi) })
	add(measure{Name: fmt.Sprintf("InclusiveScan %d int32", n), Unit: "GB/s", Value: gb(8*n, t[0]), Baseline: gb(8*n, t[1]), samples: pair(1), Goal: 0.8, GoalOp: ">=",
		Note: "baseline: parallel copy of the same bytes"})
	t, pair = timeAll(cfg.reps, func() { sink += kokkos.ExclusiveScan("ex", kokkos.Range(0, n), yi, xi) }, func() { parCopy(yi, xi) })
	add(measure{Name: fmt.Sprintf("ExclusiveScan %d int32", n), Unit: "GB/s", Value: gb(8*n, t[0]), Baseline: gb(8*n, t[1]), samples: pair(1), Goal: 0.8, GoalOp: ">=",
		Note: "baseline: parallel copy of the same bytes"})
	t, pair = timeAll(cfg.reps, func() {
		sink += kokkos.ParallelScan("body", kokkos.Range(0, n), kokkos.Sum[int32](), func(i int, acc *int32, final bool) {
			*acc += xi[i]
			if final {
				yi[i] = *acc
			}
		})
	}, func() { parCopy(yi, xi) })
	add(measure{Name: fmt.Sprintf("ParallelScan body, %d int32", n), Unit: "GB/s", Value: gb(8*n, t[0]), Baseline: gb(8*n, t[1]), samples: pair(1), Goal: 0.8, GoalOp: ">=",
		Note: "baseline: parallel copy of the same bytes; two calls of the body per index"})
	xv, yv := kokkos.Must(kokkos.WrapView1(xi, n)), kokkos.Must(kokkos.WrapView1(yi, n))
	var kerr error
	t, pair = timeAll(cfg.reps, func() {
		total, err := kernel.Scan("body", kokkos.Range(0, n), kokkos.Sum[int32](), kScanI32, yv, xv)
		if err != nil && kerr == nil {
			kerr = err
		}
		sink += total
	}, func() { parCopy(yi, xi) })
	if kerr != nil {
		return kerr
	}
	add(measure{Name: fmt.Sprintf("the same body as a Go kernel (kernel.Scan), %d int32", n), Unit: "GB/s", Value: gb(8*n, t[0]), Baseline: gb(8*n, t[1]), samples: pair(1), Goal: 0.8, GoalOp: ">=",
		Note: "baseline: parallel copy of the same bytes"})
	xf := make([]float64, n)
	yf := make([]float64, n)
	fillPattern(xf)
	var sinkF float64
	t, pair = timeAll(cfg.reps, func() { sinkF += kokkos.InclusiveScan("inf", kokkos.Range(0, n), yf, xf) }, func() { parCopy(yf, xf) })
	add(measure{Name: fmt.Sprintf("InclusiveScan %d float64", n), Unit: "GB/s", Value: gb(16*n, t[0]), Baseline: gb(16*n, t[1]), samples: pair(1),
		Note: "reported, no goal: a float64 scan is bound by the latency of its additions, in index order for reproducibility"})
	runtime.KeepAlive(sink)
	runtime.KeepAlive(sinkF)
	return nil
}
