package main

import (
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
)

// BenchmarkYAxTeam times one launch of the team kernel over the C++
// program's default sizes (2^12 rows, 2^10 columns), all ones.
func BenchmarkYAxTeam(b *testing.B) {
	const n, m = 1 << 12, 1 << 10
	place := tut.Place{Mem: kokkos.HostSpace}
	y, x, a, err := newOnes(place, n, m)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(8 * (n*m + n + m))
	for b.Loop() {
		if got, err := yaxTeam(place, y, a, x); err != nil || got != n*m {
			b.Fatal(got, err)
		}
	}
}
