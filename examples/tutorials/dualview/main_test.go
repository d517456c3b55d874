package main

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// checkKernels runs the three steps on DualViews in place's memory holding
// random density and temperature, and compares the host sides after a
// sync with a plain loop's values.
func checkKernels(t *testing.T, place tut.Place) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 17, 1000} {
		var dvs [5]dualView
		for k := range dvs {
			dvs[k] = kokkos.Must(containers.NewDualView1[float64]("v", n, kokkos.InSpace(place.Mem)))
			defer dvs[k].Release()
		}
		pressure, density, temperature, energy, enthalpy := &dvs[0], &dvs[1], &dvs[2], &dvs[3], &dvs[4]
		hd, ht := density.ViewHost(), temperature.ViewHost()
		for i := range n {
			hd.Set(i, 0.5+rng.Float64())
			ht.Set(i, 200+100*rng.Float64())
		}
		density.ModifyHost()
		temperature.ModifyHost()
		for range 2 {
			if err := computePressure(place, pressure, temperature, density); err != nil {
				t.Fatal(err)
			}
			if err := computeInternalEnergy(place, energy, temperature); err != nil {
				t.Fatal(err)
			}
			if err := computeEnthalpy(place, enthalpy, energy, pressure, density); err != nil {
				t.Fatal(err)
			}
		}
		if density.NeedSyncDevice() || !pressure.NeedSyncHost() && place.Mem != kokkos.HostSpace {
			t.Fatalf("n %d: density needs a sync to the device %v, pressure to the host %v", n, density.NeedSyncDevice(), pressure.NeedSyncHost())
		}
		for _, dv := range []*dualView{pressure, energy, enthalpy} {
			if err := dv.SyncHost(); err != nil {
				t.Fatal(err)
			}
		}
		p, e, h := pressure.ViewHost(), energy.ViewHost(), enthalpy.ViewHost()
		for i := range n {
			wp := hd.At(i) * gasConstant * ht.At(i)
			we := cV * ht.At(i)
			wh := we + wp/hd.At(i)
			if p.At(i) != wp || e.At(i) != we || h.At(i) != wh {
				t.Fatalf("n %d, %d: pressure %v energy %v enthalpy %v, want %v %v %v", n, i, p.At(i), e.At(i), h.At(i), wp, we, wh)
			}
		}
	}
}

// TestKernels runs the steps with the device sides in HostSpace (one view,
// no marks) and in host-accessible device memory (one view, marks kept).
func TestKernels(t *testing.T) {
	checkKernels(t, tut.Place{Mem: kokkos.HostSpace})
	checkKernels(t, tut.Place{Mem: backendtest.FakeDevice(true)})
}

// TestRun checks the printed errors and the JSON line.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	bad, err := run(&b, tut.Place{Mem: kokkos.HostSpace}, 1000, 2)
	if err != nil || bad {
		t.Fatal(bad, err)
	}
	out := b.String()
	for _, s := range []string{"pressure error = 0\nenergy error = 0\nenthalpy error = 0\n", "size( 1000 ) nsteps( 2 )", `{"name":"dualview","unit":"s","value":`} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// TestRunCUDA runs the steps on a GPU on random data against a plain
// loop, then the program there.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	checkKernels(t, place)
	var b bytes.Buffer
	if bad, err := run(&b, place, 100000, 2); err != nil || bad {
		t.Fatal(bad, err, b.String())
	}
}
