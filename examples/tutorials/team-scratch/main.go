// Command team-scratch is the Kokkos tutorial's team_scratch_memory
// exercise in Go: team-vector-yax's E products y_e^T*A_e*x_e, with each
// team first copying its x_e into a view of its scratch pad (level 0,
// kokkos.ScratchView1 over TeamScratch), then reading x from there. The
// team kernel YAxScratch (kernels_team.go) runs on the host and, with
// -cuda, on a GPU (its scratch in shared memory).
//
//	go run ./examples/tutorials/team-scratch -N 8 -M 10 -E 10 -nrepeat 100 [-cuda]
//
// The sizes are exponents of 2 as in the C++ program (-N rows, -M columns,
// -S = N*M, default 2^18 with M = 1024, -E matrices, default 2^10). It
// prints the result, the time and the bandwidth, then the JSON line
// {"name":"team-scratch","unit":"s",...} of the side-by-side harness.
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

// name is the program's name and that of its JSON figure.
const name = "team-scratch"

func main() {
	var n, m, sz, e int
	flag.IntVar(&n, "N", -1, "rows: 2^N")
	flag.IntVar(&m, "M", -1, "columns: 2^M")
	flag.IntVar(&sz, "S", -1, "rows times columns: 2^S (default 2^18)")
	flag.IntVar(&e, "E", -1, "matrices: 2^E (default 2^10)")
	nrepeat := flag.Int("nrepeat", 100, "repetitions")
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream, views in cuda.Space)")
	flag.Parse()
	s := tut.Sizes{N: tut.Pow2(n), M: tut.Pow2(m), S: tut.Pow2(sz), E: tut.Pow2(e)}
	if err := s.Fill(1<<18, 1<<10); err != nil {
		tut.Fatal(name, err)
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal(name, err)
	}
	defer place.Release()
	if err := run(os.Stdout, place, s.E, s.N, s.M, *nrepeat); err != nil {
		tut.Fatal(name, err)
	}
}

// run makes y (E×N), x (E×M) and A (E×N×M) in place's memory, all ones,
// and times nrepeat runs of yaxTeam, printing the figures of the C++
// program to w.
func run(w io.Writer, place tut.Place, e, n, m, nrepeat int) error {
	fmt.Fprintf(w, "  Total size S = %d N = %d M = %d E = %d (%s, %s)\n", n*m, n, m, e, place.Name(), teamForm)
	in := kokkos.InSpace(place.Mem)
	y, err := kokkos.NewView2[float64]("y", e, n, in)
	if err != nil {
		return err
	}
	defer y.Release()
	x, err := kokkos.NewView2[float64]("x", e, m, in)
	if err != nil {
		return err
	}
	defer x.Release()
	a, err := kokkos.NewView3[float64]("A", e, n, m, in)
	if err != nil {
		return err
	}
	defer a.Release()
	for _, err := range []error{tut.Ones2(y), tut.Ones2(x), tut.Ones3(a)} {
		if err != nil {
			return err
		}
	}
	solution := float64(n) * float64(m) * float64(e)
	start := time.Now()
	for r := range nrepeat {
		result, err := yaxTeam(place, y, a, x)
		if err != nil {
			return err
		}
		if r == nrepeat-1 {
			fmt.Fprintf(w, "  Computed result for %d x %d x %d is %f\n", n, m, e, result)
		}
		if result != solution {
			fmt.Fprintf(w, "  Error: result( %f ) != solution( %f )\n", result, solution)
		}
	}
	secs := time.Since(start).Seconds()
	gb := 1e-9 * float64(e) * 8 * float64(m+m*n+n)
	fmt.Fprintf(w, "  N( %d ) M( %d ) E( %d ) nrepeat ( %d ) problem( %.6g MB ) time( %.6g s ) bandwidth( %.6g GB/s )\n",
		n, m, e, nrepeat, gb*1000, secs, gb*float64(nrepeat)/secs)
	tut.Emit(w, name, "s", secs)
	return nil
}
