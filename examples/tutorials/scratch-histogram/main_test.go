package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// TestForms counts random bins with both forms, for several block sizes,
// into a histogram holding random counts, against a plain loop.
func TestForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	const n, m = 203, 11
	v, _ := kokkos.NewView2[int32]("V", n, m)
	var add [bins]int32
	for i := range n {
		for j := range m {
			b := rng.IntN(bins)
			v.Set(i, j, int32(b))
			add[b]++
		}
	}
	host := tut.Place{Mem: kokkos.HostSpace}
	for _, rows := range []int{1, 7, 64, 500} {
		for name, count := range map[string]func(tut.Place, kokkos.View2[int32], kokkos.View1[int32], int) error{
			"team-scratch": teamScratch, "local-array": localArray,
		} {
			r, _ := kokkos.NewView1[int32]("R", bins)
			var want [bins]int32
			for b := range bins {
				c := int32(rng.IntN(9))
				r.Set(b, c)
				want[b] = c + add[b]
			}
			if err := count(host, v, r, rows); err != nil {
				t.Fatal(err)
			}
			for b := range bins {
				if r.At(b) != want[b] {
					t.Errorf("%s, rows %d: bin %d counts %d, want %d", name, rows, b, r.At(b), want[b])
				}
			}
		}
	}
}

// TestHistScratchTeams launches the team kernel over teams of several
// threads, each counting a block of rows of random bins into its scratch
// pad, against a plain loop.
func TestHistScratchTeams(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	const n, m = 97, 13
	v, _ := kokkos.NewView2[int32]("V", n, m)
	var want [bins]int32
	for i := range n {
		for j := range m {
			b := rng.IntN(bins)
			v.Set(i, j, int32(b))
			want[b]++
		}
	}
	for _, ts := range []int{1, 2, 3, 5} {
		for _, rows := range []int{1, 10, 200} {
			r, _ := kokkos.NewView1[int32]("R", bins)
			p := kokkos.Teams((n+rows-1)/rows, ts).SetScratchSize(0, kokkos.ScratchSize[int32](bins), 0)
			if err := kernel.For("team-scratch histogram", p, HistScratch, v, r, rows); err != nil {
				t.Fatal(err)
			}
			for b := range bins {
				if r.At(b) != want[b] {
					t.Errorf("team size %d, rows %d: bin %d counts %d, want %d", ts, rows, b, r.At(b), want[b])
				}
			}
		}
	}
}

// TestValues checks that Values spreads the bins over all 16.
func TestValues(t *testing.T) {
	v, _ := kokkos.NewView2[int32]("V", 50, 9)
	if err := kernel.For("values", kokkos.MDRange([]int{0, 0}, []int{50, 9}), Values, v); err != nil {
		t.Fatal(err)
	}
	var seen [bins]int
	for i := range 50 {
		for j := range 9 {
			seen[v.At(i, j)]++
		}
	}
	for b, c := range seen {
		if c == 0 {
			t.Errorf("bin %d never used", b)
		}
	}
	// The first bins, as the C++ program computes them.
	if got := [3]int32{v.At(0, 0), v.At(0, 1), v.At(7, 3)}; got != [3]int32{15, 1, 9} {
		t.Errorf("bins %v, the C++ program's [15 1 9]", got)
	}
}

// TestRun checks the printed figures (run checks the counts itself).
func TestRun(t *testing.T) {
	var b bytes.Buffer
	if err := run(&b, tut.Place{Mem: kokkos.HostSpace}, 1000, 7, 30, 3); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Time TeamScratch (", "Time LocalArray (", `{"name":"scratch-histogram.team-scratch","unit":"s","value":`, `{"name":"scratch-histogram.local-array","unit":"s","value":`} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, b.String())
		}
	}
}

// TestRunCUDA runs both kernels on a GPU.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	var b bytes.Buffer
	if err := run(&b, place, 5000, 30, 64, 2); errors.Is(err, kernel.ErrNoDevice) {
		// The team kernel's CUDA form is not in this build.
		t.Skip("no device form of the team kernel:", err)
	} else if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"scratch-histogram.team-scratch"`) {
		t.Errorf("output:\n%s", b.String())
	}
}
