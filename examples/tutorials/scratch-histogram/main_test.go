package main

import (
	"bytes"
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

// TestRunCUDA counts random bins with both forms on a GPU, for several
// block sizes, into a histogram holding random counts, and compares the
// counts with the same form's on the host and a plain loop's; then runs
// the program there.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	rng := rand.New(rand.NewPCG(23, 24))
	const n, m = 5003, 37
	v, _ := kokkos.NewView2[int32]("V", n, m)
	var add [bins]int32
	for i := range n {
		for j := range m {
			b := rng.IntN(bins)
			v.Set(i, j, int32(b))
			add[b]++
		}
	}
	dv, err := kokkos.CreateMirrorViewAndCopy(v, kokkos.InSpace(place.Mem))
	if err != nil {
		t.Fatal(err)
	}
	defer dv.Release()
	host := tut.Place{Mem: kokkos.HostSpace}
	for _, rows := range []int{1, 64, 1000, 6000} {
		for _, f := range []struct {
			name  string
			count func(tut.Place, kokkos.View2[int32], kokkos.View1[int32], int) error
		}{{"team-scratch", teamScratch}, {"local-array", localArray}} {
			hr, _ := kokkos.NewView1[int32]("R", bins)
			var want [bins]int32
			for b := range bins {
				c := int32(rng.IntN(9))
				hr.Set(b, c)
				want[b] = c + add[b]
			}
			dr, err := kokkos.CreateMirrorViewAndCopy(hr, kokkos.InSpace(place.Mem))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.count(place, dv, dr, rows); err != nil {
				t.Fatalf("%s on the GPU: %v", f.name, err)
			}
			got, err := kokkos.CreateMirrorViewAndCopy(dr)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.count(host, v, hr, rows); err != nil {
				t.Fatal(err)
			}
			for b := range bins {
				if got.At(b) != hr.At(b) || got.At(b) != want[b] {
					t.Errorf("%s, rows %d: bin %d counts %d on the GPU, %d on the host, want %d", f.name, rows, b, got.At(b), hr.At(b), want[b])
				}
			}
			dr.Release()
		}
	}
	var b bytes.Buffer
	if err := run(&b, place, 5000, 30, 64, 2); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"scratch-histogram.team-scratch"`, `"scratch-histogram.local-array"`} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("output lacks %s:\n%s", s, b.String())
		}
	}
}
