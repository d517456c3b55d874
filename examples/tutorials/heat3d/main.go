// Command heat3d is the Kokkos tutorial's 3-D heat conduction exercise
// (without MPI) in Go: a body of X×Y×Z cells starting at temperature T0,
// heated with power P through its x = 0 face for the first half of the N
// time steps, conducting heat inside (coefficient q) and radiating it from
// its surface (sigma*T^4). Each step runs the kernels of kernels.go,
// InnerDT over a 3-D MDRange of the inner cells, SurfaceDT over a 2-D
// MDRange per surface, and the reduction ComputeT, which sums T and
// advances it by dt*dT.
//
//	go run ./examples/tutorials/heat3d -X 200 -Y 200 -Z 200 -N 10000 -I 100 [-cuda]
//
// Every I steps and after the last it prints "step T=average Time (seconds
// seconds-per-step)" as the C++ program does (the "average" being its
// sum of T divided by 1e-9 times the cell count), then the JSON line
// {"name":"heat3d","unit":"s",...} of the side-by-side harness.
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

// A system is the body, its parameters and its fields.
type system struct {
	X, Y, Z int     // cells in each direction
	N       int     // time steps
	I       int     // print interval
	T0      float64 // initial temperature
	dt      float64 // time step
	q       float64 // thermal conductivity
	sigma   float64 // thermal radiation
	P       float64 // incoming power
	T, dT   kokkos.View3[float64]
}

func main() {
	s := system{}
	flag.IntVar(&s.X, "X", 200, "cells in the x direction")
	flag.IntVar(&s.Y, "Y", 200, "cells in the y direction")
	flag.IntVar(&s.Z, "Z", 200, "cells in the z direction")
	flag.IntVar(&s.N, "N", 10000, "time steps")
	flag.IntVar(&s.I, "I", 100, "print interval")
	flag.Float64Var(&s.T0, "T0", 0, "initial temperature")
	flag.Float64Var(&s.dt, "dt", 0.1, "time step")
	flag.Float64Var(&s.q, "q", 1, "thermal conductivity")
	flag.Float64Var(&s.sigma, "sigma", 1, "thermal radiation")
	flag.Float64Var(&s.P, "P", 1, "incoming power")
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream, views in cuda.Space)")
	flag.Parse()
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("heat3d", err)
	}
	defer place.Release()
	if _, err := s.run(os.Stdout, place); err != nil {
		tut.Fatal("heat3d", err)
	}
}

// run makes the fields in place's memory, runs the N+1 steps of the C++
// program (0 to N), prints its lines to w and returns the last step's sum
// of T.
func (s *system) run(w io.Writer, place tut.Place) (float64, error) {
	if s.X < 3 || s.Y < 3 || s.Z < 3 || s.N < 0 || s.I < 1 {
		return 0, fmt.Errorf("want -X, -Y and -Z of 3 or more, -N of 0 or more and -I of 1 or more")
	}
	in := kokkos.InSpace(place.Mem)
	var err error
	if s.T, err = kokkos.NewView3[float64]("System::T", s.X, s.Y, s.Z, in); err != nil {
		return 0, err
	}
	defer s.T.Release()
	if s.dT, err = kokkos.NewView3[float64]("System::dT", s.X, s.Y, s.Z, in); err != nil {
		return 0, err
	}
	defer s.dT.Release()
	if err := kokkos.Fill(s.T, s.T0); err != nil {
		return 0, err
	}
	sp := place.Space()
	inner := kokkos.MDRange([]int{1, 1, 1}, []int{s.X - 1, s.Y - 1, s.Z - 1}).On(sp)
	all := kokkos.MDRange([]int{0, 0, 0}, []int{s.X, s.Y, s.Z}).On(sp)
	surfaces := []struct {
		side   int
		lo, hi []int
	}{
		{left, []int{0, 0}, []int{s.Y, s.Z}},
		{right, []int{0, 0}, []int{s.Y, s.Z}},
		{down, []int{1, 0}, []int{s.X - 1, s.Z}},
		{up, []int{1, 0}, []int{s.X - 1, s.Z}},
		{front, []int{1, 1}, []int{s.X - 1, s.Y - 1}},
		{back, []int{1, 1}, []int{s.X - 1, s.Y - 1}},
	}
	var sum float64
	P := s.P
	start := time.Now()
	for t := 0; t <= s.N; t++ {
		if t > s.N/2 {
			P = 0
		}
		if err := kernel.For("ComputeInnerDT", inner, InnerDT, s.T.ReadOnly(), s.dT, s.q); err != nil {
			return 0, err
		}
		for _, f := range surfaces {
			p := kokkos.MDRange(f.lo, f.hi).On(sp)
			if err := kernel.For("ComputeSurfaceDT", p, SurfaceDT, s.T.ReadOnly(), s.dT, f.side, s.q, s.sigma, P); err != nil {
				return 0, err
			}
		}
		if sum, err = kernel.Reduce("ComputeT", all, kokkos.Sum[float64](), ComputeT, s.T, s.dT.ReadOnly(), s.dt); err != nil {
			return 0, err
		}
		ave := sum / (1e-9 * float64(s.X*s.Y*s.Z))
		if t%s.I == 0 || t == s.N {
			secs := time.Since(start).Seconds()
			fmt.Fprintf(w, "%d T=%f Time (%f %f)\n", t, ave, secs, secs/float64(t))
		}
	}
	tut.Emit(w, "heat3d", "s", time.Since(start).Seconds())
	return sum, nil
}
