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

// TestYAxTeamTeams launches the team kernel over teams of several threads
// (its generated host code), and calls it as a Go function, on random
// data against a plain loop.
func TestYAxTeamTeams(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n, m = 9, 23
	y, _ := kokkos.NewView1[float64]("y", n)
	x, _ := kokkos.NewView1[float64]("x", m)
	a, _ := kokkos.NewView2[float64]("A", n, m)
	want := 0.0
	for i := range m {
		x.Set(i, rng.Float64()-0.5)
	}
	for j := range n {
		y.Set(j, rng.Float64()-0.5)
		s := 0.0
		for i := range m {
			a.Set(j, i, rng.Float64()-0.5)
			s += a.At(j, i) * x.At(i)
		}
		want += y.At(j) * s
	}
	for _, ts := range []int{1, 2, 3, 5} {
		got, err := kernel.Reduce("yAx", kokkos.Teams(n, ts), kokkos.Sum[float64](), YAxTeam, y, a, x)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("kernel, team size %d: %v, want %v", ts, got, want)
		}
		got = kokkos.ParallelReduceTeam("yAx", kokkos.Teams(n, ts), kokkos.Sum[float64](), func(m *kokkos.TeamMember, acc *float64) {
			YAxTeam(kernel.TeamOf(m), y, a, x, acc)
		})
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("Go function, team size %d: %v, want %v", ts, got, want)
		}
	}
}
