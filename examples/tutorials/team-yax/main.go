// Command team-yax is the Kokkos tutorial's team_policy exercise in Go:
// y^T*A*x as in yax, with one team per row of A whose threads split the
// row's dot product (TeamPolicy, TeamThreadRange, a team reduction). The
// team kernel YAxTeam (kernels_team.go) runs on the host and, with -cuda,
// on a GPU.
//
//	go run ./examples/tutorials/team-yax -N 12 -M 10 -nrepeat 100 [-cuda]
//
// The sizes are exponents of 2 as in the C++ program (-N rows, -M columns,
// -S total size, default 2^22 with M = 1024). It prints the result, the
// time and the bandwidth, then the JSON line {"name":"team-yax","unit":"s",...}
// of the side-by-side harness.
package main

//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
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
		tut.Fatal("team-yax", err)
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("team-yax", err)
	}
	defer place.Release()
	if err := run(os.Stdout, place, s.N, s.M, *nrepeat); err != nil {
		tut.Fatal("team-yax", err)
	}
}

// run makes y, x and A in place's memory, all ones, and times nrepeat
// launches of YAx, printing the figures of the C++ program to w.
func run(w io.Writer, place tut.Place, n, m, nrepeat int) error {
	fmt.Fprintf(w, "  Total size S = %d N = %d M = %d (%s, %s)\n", n*m, n, m, place.Name(), teamForm)
	y, x, a, err := newOnes(place, n, m)
	if err != nil {
		return err
	}
	defer y.Release()
	defer x.Release()
	defer a.Release()
	solution := float64(n) * float64(m)
	start := time.Now()
	for r := range nrepeat {
		result, err := yaxTeam(place, y, a, x)
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
	tut.Emit(w, "team-yax", "s", secs)
	return nil
}

// newOnes returns y (n), x (m) and A (n×m) in place's memory, set to ones
// on host mirrors and deep-copied.
func newOnes(place tut.Place, n, m int) (y, x kokkos.View1[float64], a kokkos.View2[float64], err error) {
	in := kokkos.InSpace(place.Mem)
	if y, err = kokkos.NewView1[float64]("y", n, in); err != nil {
		return
	}
	if x, err = kokkos.NewView1[float64]("x", m, in); err != nil {
		return
	}
	if a, err = kokkos.NewView2[float64]("A", n, m, in); err != nil {
		return
	}
	if err = tut.Ones1(y); err != nil {
		return
	}
	if err = tut.Ones1(x); err != nil {
		return
	}
	err = tut.Ones2(a)
	return
}
