// Command dualview is the Kokkos tutorial's dualview exercise in Go:
// density and temperature are set on the host sides of DualViews
// (containers.DualView1), and three kernels compute pressure, internal
// energy and enthalpy where the views' device sides live, each first
// syncing its inputs there and marking its output modified there, as the
// exercise's functors do; the results are synced back to the host and
// checked against the exact values.
//
//	go run ./examples/tutorials/dualview [-cuda] [size [nsteps]]
//
// On the host the device space is HostSpace: the DualViews are single
// views and the syncs copy nothing, as with Kokkos's OpenMP build. With
// -cuda the device sides are in cuda.Space and the syncs copy: the inputs
// once, on the first step, and the three results at the end. It prints
// the errors (0), the time of the steps and the final syncs, and the JSON
// line {"name":"dualview","unit":"s",...} of the side-by-side harness.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

const (
	density0     = 1.0
	temperature0 = 300.0
)

type dualView = containers.DualView1[float64]

func main() {
	gpu := flag.Bool("cuda", false, "run on a GPU (a CUDA stream, the device sides in cuda.Space)")
	flag.Parse()
	size, nsteps := 1000000, 1
	var err error
	if flag.NArg() > 0 {
		if size, err = strconv.Atoi(flag.Arg(0)); err != nil {
			tut.Fatal("dualview", err)
		}
	}
	if flag.NArg() > 1 {
		if nsteps, err = strconv.Atoi(flag.Arg(1)); err != nil {
			tut.Fatal("dualview", err)
		}
	}
	place, err := tut.Open(*gpu)
	if err != nil {
		tut.Fatal("dualview", err)
	}
	defer place.Release()
	bad, err := run(os.Stdout, place, size, nsteps)
	if err != nil {
		tut.Fatal("dualview", err)
	}
	if bad {
		os.Exit(1)
	}
}

// run makes the five DualViews with their device sides in place's memory,
// runs nsteps steps and checks the results; bad reports errors above 0.
func run(w io.Writer, place tut.Place, size, nsteps int) (bad bool, err error) {
	var dvs [5]dualView
	for k, name := range []string{"pressure", "density", "temperature", "energy", "enthalpy"} {
		if dvs[k], err = containers.NewDualView1[float64](name, size, kokkos.InSpace(place.Mem)); err != nil {
			return false, err
		}
		defer dvs[k].Release()
	}
	pressure, density, temperature, energy, enthalpy := &dvs[0], &dvs[1], &dvs[2], &dvs[3], &dvs[4]

	start := time.Now()
	loadState(density, temperature)
	for range nsteps {
		if err := computePressure(place, pressure, temperature, density); err != nil {
			return false, err
		}
		if err := computeInternalEnergy(place, energy, temperature); err != nil {
			return false, err
		}
		if err := computeEnthalpy(place, enthalpy, energy, pressure, density); err != nil {
			return false, err
		}
	}
	for _, dv := range []*dualView{pressure, energy, enthalpy} {
		if err := dv.Sync(kokkos.HostSpace); err != nil {
			return false, err
		}
	}
	secs := time.Since(start).Seconds()

	ep, ee, eh := checkResults(pressure, energy, enthalpy)
	fmt.Fprintf(w, "pressure error = %g\nenergy error = %g\nenthalpy error = %g\n", ep, ee, eh)
	fmt.Fprintf(w, "size( %d ) nsteps( %d ) time( %g s )\n", size, nsteps, secs)
	tut.Emit(w, "dualview", "s", secs)
	return ep != 0 || ee != 0 || eh != 0, nil
}

// loadState sets density and temperature on their host sides and marks
// them modified there, so that a sync to the device copies them.
func loadState(density, temperature *dualView) {
	hd, ht := density.ViewHost(), temperature.ViewHost()
	for j := range hd.Extent(0) {
		hd.Set(j, density0)
		ht.Set(j, temperature0)
	}
	density.Modify(kokkos.HostSpace)
	temperature.Modify(kokkos.HostSpace)
}

// launch syncs the inputs to place's memory, marks out modified there and
// runs fn over out's extent with out's and the inputs' views there, as the
// exercise's functor constructors and parallel_for with a fence.
func launch(place tut.Place, label string, fn any, out *dualView, in ...*dualView) error {
	mem := place.Mem
	args := []any{out.View(mem)}
	for _, dv := range in {
		v := dv.View(mem)
		args = append(args, v.ReadOnly())
		if err := dv.Sync(mem); err != nil {
			return err
		}
	}
	if err := out.Sync(mem); err != nil {
		return err
	}
	out.Modify(mem)
	if err := kernel.For(label, kokkos.Range(0, out.Extent(0)).On(place.Space()), fn, args...); err != nil {
		return err
	}
	return place.Fence()
}

func computePressure(place tut.Place, pressure, temperature, density *dualView) error {
	return launch(place, "ComputePressure", ComputePressure, pressure, temperature, density)
}

func computeInternalEnergy(place tut.Place, energy, temperature *dualView) error {
	return launch(place, "ComputeInternalEnergy", ComputeInternalEnergy, energy, temperature)
}

func computeEnthalpy(place tut.Place, enthalpy, energy, pressure, density *dualView) error {
	return launch(place, "ComputeEnthalpy", ComputeEnthalpy, enthalpy, energy, pressure, density)
}

// checkResults returns the sums of the squared differences of the host
// sides from the exact pressure, energy and enthalpy.
func checkResults(pressure, energy, enthalpy *dualView) (ep, ee, eh float64) {
	thePressure := gasConstant * density0 * temperature0
	theEnergy := cV * temperature0
	theEnthalpy := theEnergy + thePressure/density0
	p, e, h := pressure.ViewHost(), energy.ViewHost(), enthalpy.ViewHost()
	for i := range p.Extent(0) {
		ep += (p.At(i) - thePressure) * (p.At(i) - thePressure)
		ee += (e.At(i) - theEnergy) * (e.At(i) - theEnergy)
		eh += (h.At(i) - theEnthalpy) * (h.At(i) - theEnthalpy)
	}
	return ep, ee, eh
}
