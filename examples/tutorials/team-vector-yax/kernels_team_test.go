package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// TestYAxTeamVectorTeams launches the team kernel over teams of several
// threads and vector lengths (its generated host code), and calls it as a
// Go function, on random data against plain loops.
func TestYAxTeamVectorTeams(t *testing.T) {
	y, a, x, want := randomViews(rand.New(rand.NewPCG(11, 12)), 4, 9, 13)
	for _, ts := range []int{1, 2, 3, 5} {
		for _, vl := range []int{1, 4, 32} {
			p := kokkos.Teams(4, ts).WithVectorLength(vl)
			got, err := kernel.Reduce("yAx", p, kokkos.Sum[float64](), YAxTeamVector, y, a, x)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("kernel, team size %d, vector length %d: %v, want %v", ts, vl, got, want)
			}
		}
		got := kokkos.ParallelReduceTeam("yAx", kokkos.Teams(4, ts), kokkos.Sum[float64](), func(m *kokkos.TeamMember, acc *float64) {
			YAxTeamVector(kernel.TeamOf(m), y, a, x, acc)
		})
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("Go function, team size %d: %v, want %v", ts, got, want)
		}
	}
}
