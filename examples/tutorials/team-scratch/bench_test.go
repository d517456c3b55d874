package main

import (
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
)

// BenchmarkYAxTeam times one launch of the team kernel over run.sh's
// sizes (E = 2^6 matrices of 2^8×2^8), all ones.
func BenchmarkYAxTeam(b *testing.B) {
	const e, n, m = 1 << 6, 1 << 8, 1 << 8
	y, _ := kokkos.NewView2[float64]("y", e, n)
	x, _ := kokkos.NewView2[float64]("x", e, m)
	a, _ := kokkos.NewView3[float64]("A", e, n, m)
	for _, err := range []error{tut.Ones2(y), tut.Ones2(x), tut.Ones3(a)} {
		if err != nil {
			b.Fatal(err)
		}
	}
	place := tut.Place{Mem: kokkos.HostSpace}
	b.SetBytes(8 * e * (n*m + n + m))
	for b.Loop() {
		if got, err := yaxTeam(place, y, a, x); err != nil || got != e*n*m {
			b.Fatal(got, err)
		}
	}
}
