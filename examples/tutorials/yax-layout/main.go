// Command yax-layout is the Kokkos tutorial's exercise 4 in Go: y^T*A*x
// as in yax, with the views made in LayoutRight (row-major) and then in
// LayoutLeft (column-major), the same kernel (YAx, in kernels.go) timed
// over each. On the host LayoutRight is the fast one, on a GPU LayoutLeft.
//
//	go run ./examples/tutorials/yax-layout -N 12 -M 10 -nrepeat 100 [-cuda]
//
// The sizes are exponents of 2 as in the C++ program (-N rows, -M columns,
// -S total size, default 2^22 with M = 1024). It prints the result, the
// time and the bandwidth, then one JSON line per layout,
// {"name":"yax-layout.right","unit":"s",...} and "yax-layout.left", for
// the side-by-side harness.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

func main() {
	var s tut.Sizes
	var n, m, sz int
	flag.IntVar(&n, "N", -1, "rows: 2^N")
	flag.IntVar(&m, "M", -1, "columns: 2^M")
	flag.IntVar(&sz, "S", -1, "total size: 2^S (default 2^22)")
	nrepeat := flag.Int("nrepeat", 100, "repetitions")
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream, views in cuda.Space)")
	flag.Parse()
	s = tut.Sizes{N: tut.Pow2(n), M: tut.Pow2(m), S: tut.Pow2(sz), E: -1}
	if err := s.Fill(1<<22, 0); err != nil {
		tut.Fatal("yax-layout", err)
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("yax-layout", err)
	}
	defer place.Release()
	for _, l := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		if err := run(os.Stdout, place, l, s.N, s.M, *nrepeat); err != nil {
			tut.Fatal("yax-layout", err)
		}
	}
}

// run makes y, x and A in place's memory with layout l, all ones, and
// times nrepeat launches of YAx, printing the figures of the C++ program
// to w.
func run(w io.Writer, place tut.Place, l kokkos.Layout, n, m, nrepeat int) error {
	fmt.Fprintf(w, "  Total size S = %d N = %d M = %d (%s, %s)\n", n*m, n, m, place.Name(), l)
	y, x, a, err := newOnes(place, l, n, m)
	if err != nil {
		return err
	}
	defer y.Release()
	defer x.Release()
	defer a.Release()
	p := kokkos.Range(0, n).On(place.Space())
	solution := float64(n) * float64(m)
	start := time.Now()
	for r := range nrepeat {
		result, err := kernel.Reduce("yAx", p, kokkos.Sum[float64](), YAx, y.ReadOnly(), a.ReadOnly(), x.ReadOnly())
		if err != nil {
			return err
		}
		if r == nrepeat-1 {
			fmt.Fprintf(w, "  Computed result for %d x %d is %f\n", n, m, result)
		}
		if result != solution {
			fmt.Fprintf(w, "  Error: result( %f ) != solution( %f )\n", result, solution)
		}
	}
	secs := time.Since(start).Seconds()
	gb := 1e-9 * 8 * float64(m+m*n+n)
	fmt.Fprintf(w, "  N( %d ) M( %d ) nrepeat ( %d ) problem( %.6g MB ) time( %.6g s ) bandwidth( %.6g GB/s )\n",
		n, m, nrepeat, gb*1000, secs, gb*float64(nrepeat)/secs)
	name := "yax-layout.right"
	if l == kokkos.LayoutLeft {
		name = "yax-layout.left"
	}
	tut.Emit(w, name, "s", secs)
	return nil
}

// newOnes returns y (n), x (m) and A (n×m) in place's memory and layout
// l, set to ones on host mirrors and deep-copied.
func newOnes(place tut.Place, l kokkos.Layout, n, m int) (y, x kokkos.View1[float64], a kokkos.View2[float64], err error) {
	in := kokkos.InSpace(place.Mem)
	if y, err = kokkos.NewView1[float64]("y", n, in, l); err != nil {
		return
	}
	if x, err = kokkos.NewView1[float64]("x", m, in, l); err != nil {
		return
	}
	if a, err = kokkos.NewView2[float64]("A", n, m, in, l); err != nil {
		return
	}
	return y, x, a, fillOnes(y, x, a)
}

// fillOnes sets y, x and A to ones through host mirrors (the views
// themselves when they are in host memory).
func fillOnes(y, x kokkos.View1[float64], a kokkos.View2[float64]) error {
	hy, err := kokkos.CreateMirrorView(y)
	if err != nil {
		return err
	}
	hx, err := kokkos.CreateMirrorView(x)
	if err != nil {
		return err
	}
	ha, err := kokkos.CreateMirrorView(a)
	if err != nil {
		return err
	}
	for i := range hy.Extent(0) {
		hy.Set(i, 1)
	}
	for i := range hx.Extent(0) {
		hx.Set(i, 1)
	}
	for j := range ha.Extent(0) {
		for i := range ha.Extent(1) {
			ha.Set(j, i, 1)
		}
	}
	if err := kokkos.DeepCopy[float64](y, hy); err != nil {
		return err
	}
	if err := kokkos.DeepCopy[float64](x, hx); err != nil {
		return err
	}
	return kokkos.DeepCopy[float64](a, ha)
}
