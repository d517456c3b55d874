//go:build kernels_pending

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

// TestYAxScratchTeams calls the team kernel as a Go function over teams
// of several threads on random data against plain loops.
func TestYAxScratchTeams(t *testing.T) {
	y, a, x, want := randomViews(rand.New(rand.NewPCG(11, 12)), 4, 9, 13)
	for _, ts := range []int{1, 2, 3} {
		got := kokkos.ParallelReduceTeam("yAx", kokkos.Teams(4, ts).SetScratchSize(0, kokkos.ScratchSize[float64](13), 0), kokkos.Sum[float64](), func(m *kokkos.TeamMember, acc *float64) {
			YAxScratch(kernel.TeamOf(m), y, a, x, acc)
		})
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("team size %d: %v, want %v", ts, got, want)
		}
	}
}
