package main

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// randomBins returns an n×m view of random bins below nb, and their
// histogram counted by a plain loop.
func randomBins(rng *rand.Rand, n, m, nb int) (kokkos.View2[int32], []int32) {
	v, _ := kokkos.NewView2[int32]("V", n, m)
	want := make([]int32, nb)
	for i := range n {
		for j := range m {
			b := rng.IntN(nb)
			v.Set(i, j, int32(b))
			want[b]++
		}
	}
	return v, want
}

func checkHist(t *testing.T, form string, r kokkos.View1[int32], want []int32) {
	t.Helper()
	for i, w := range want {
		if r.At(i) != w {
			t.Errorf("%s: bin %d counts %d, want %d", form, i, r.At(i), w)
		}
	}
}

// TestForms counts random bins with the atomic and the duplicated forms,
// into a histogram that holds random counts already, against plain loops.
func TestForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const n, m, nb = 57, 13, 17
	v, add := randomBins(rng, n, m, nb)
	r, _ := kokkos.NewView1[int32]("R", nb)
	want := make([]int32, nb)
	for i := range nb {
		c := int32(rng.IntN(5))
		r.Set(i, c)
		want[i] = c + add[i]
	}
	if err := kernel.For("atomic", kokkos.Range(0, n), HistAtomic, v, r); err != nil {
		t.Fatal(err)
	}
	checkHist(t, "atomic", r, want)
	host := kokkos.DefaultHostExecutionSpace()
	for _, tok := range []kokkos.UniqueToken{
		kokkos.NewUniqueTokenSize(host, 1), // every row waits for the one id
		kokkos.NewUniqueTokenSize(host, 3),
		kokkos.NewUniqueToken(host),
	} {
		nw := tok.Size()
		dup, _ := kokkos.NewView2[int32]("Rdup", nw, nb)
		for i := range nw {
			for j := range nb {
				dup.Set(i, j, int32(rng.IntN(9))) // zeroed by duplicated
			}
		}
		if err := duplicated(tut.Place{Mem: kokkos.HostSpace}, tok, v, r, dup); err != nil {
			t.Fatal(err)
		}
		for i := range nb {
			want[i] += add[i]
		}
		checkHist(t, dupForm, r, want)
	}
}

// TestValues checks the bins against Value and their range.
func TestValues(t *testing.T) {
	const n, m = 31, 7
	v, _ := kokkos.NewView2[int32]("V", n, m)
	if err := kernel.For("values", kokkos.MDRange([]int{0, 0}, []int{n, m}), Values, v); err != nil {
		t.Fatal(err)
	}
	seen := map[int32]bool{}
	for i := range n {
		for j := range m {
			b := v.At(i, j)
			if b != Value(i, j, m, n) || b < 0 || b >= n {
				t.Fatalf("v(%d, %d) = %d, Value gives %d, want a bin below %d", i, j, b, Value(i, j, m, n), n)
			}
			seen[b] = true
		}
	}
	if len(seen) < n/2 {
		t.Errorf("only %d of %d bins used", len(seen), n)
	}
	// The first bins, as the C++ program computes them.
	if got := [3]int32{Value(0, 0, 100, 100000), Value(0, 1, 100, 100000), Value(7, 3, 100, 100000)}; got != goldenBins {
		t.Errorf("bins %v, the C++ program's %v", got, goldenBins)
	}
}

// TestRun checks the printed figures and the counts.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	if err := run(&b, tut.Place{Mem: kokkos.HostSpace}, 500, 9, 3); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, s := range []string{"Time Atomic: 500 9 ", `{"name":"histogram.atomic","unit":"s","value":`, `{"name":"histogram.duplicated","unit":"s","value":`,
		"Time ScatterView: 500 9 ", `{"name":"histogram.scatter-view","unit":"s","value":`, "Time ScatterView (closure): 500 9 ", `{"name":"histogram.scatter-view-closure","unit":"s","value":`} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// TestRunCUDA counts random bins on a GPU with the atomic form and with
// the duplicated one (HistToken, with tokens of the stream of a few ids
// and of the device's), into a histogram holding random counts, and
// compares the counts with the host's forms and plain loops'; then runs
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
	rng := rand.New(rand.NewPCG(57, 58))
	const n, m, nb = 3001, 29, 17
	v, add := randomBins(rng, n, m, nb)
	in := kokkos.InSpace(place.Mem)
	dv, err := kokkos.CreateMirrorViewAndCopy(v, in)
	if err != nil {
		t.Fatal(err)
	}
	defer dv.Release()
	hostTok := kokkos.NewUniqueToken(kokkos.DefaultHostExecutionSpace())
	for _, f := range []struct {
		name string
		tok  kokkos.UniqueToken // of the stream; none for the atomic form
	}{
		{"atomic", kokkos.UniqueToken{}},
		{dupForm + ", 5 ids", kokkos.NewUniqueTokenSize(place.Space(), 5)},
		{dupForm + ", the device's ids", kokkos.NewUniqueToken(place.Space())},
	} {
		hr, _ := kokkos.NewView1[int32]("R", nb)
		want := make([]int32, nb)
		for i := range nb {
			c := int32(rng.IntN(5))
			hr.Set(i, c)
			want[i] = c + add[i]
		}
		dr, err := kokkos.CreateMirrorViewAndCopy(hr, in)
		if err != nil {
			t.Fatal(err)
		}
		if f.name == "atomic" {
			err = kernel.For("atomic", kokkos.Range(0, n).On(place.Space()), HistAtomic, dv, dr)
			if err == nil {
				err = kernel.For("atomic", kokkos.Range(0, n), HistAtomic, v, hr)
			}
		} else {
			dup := kokkos.Must(kokkos.NewView2[int32]("Rdup", f.tok.Size(), nb, in))
			err = duplicated(place, f.tok, dv, dr, dup)
			dup.Release()
			if err == nil {
				hdup := kokkos.Must(kokkos.NewView2[int32]("Rdup", hostTok.Size(), nb))
				err = duplicated(tut.Place{Mem: kokkos.HostSpace}, hostTok, v, hr, hdup)
			}
		}
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		got, err := kokkos.CreateMirrorViewAndCopy(dr)
		dr.Release()
		if err != nil {
			t.Fatal(err)
		}
		for i := range nb {
			if got.At(i) != hr.At(i) || got.At(i) != want[i] {
				t.Errorf("%s: bin %d counts %d on the GPU, %d on the host, want %d", f.name, i, got.At(i), hr.At(i), want[i])
			}
		}
	}
	var b bytes.Buffer
	if err := run(&b, place, 1000, 20, 2); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"histogram.atomic"`) || !strings.Contains(b.String(), `"histogram.scatter-view"`) {
		t.Errorf("output:\n%s", b.String())
	}
}

// goldenBins are the bins (0, 0), (0, 1) and (7, 3) of the 100000×100
// matrix, as splitmix64 in C gives them.
var goldenBins = [3]int32{7535, 22465, 55822}

// TestScatterForms counts random bins with the ScatterView forms (the
// kernel and the closure, both on the default pool), duplicated with
// copies for the pool or for another pool, and non-duplicated and atomic,
// into a histogram that holds random counts already, against plain loops.
func TestScatterForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	const n, m, nb = 301, 13, 17
	v, add := randomBins(rng, n, m, nb)
	for _, opts := range [][]containers.ScatterOption{
		nil,
		{containers.ScatterOn(kokkos.NewThreads(5))},
		{containers.ScatterNonDuplicated, containers.ScatterAtomic},
	} {
		r, _ := kokkos.NewView1[int32]("R", nb)
		want := make([]int32, nb)
		for i := range nb {
			c := int32(rng.IntN(5))
			r.Set(i, c)
			want[i] = c + 2*add[i]
		}
		sv, err := containers.NewScatterView1[containers.ScatterSum](r, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := scatterView(tut.Place{Mem: kokkos.HostSpace}, sv, v, r); err != nil {
			t.Fatal(err)
		}
		if err := scatterViewClosure(sv, v, r); err != nil {
			t.Fatal(err)
		}
		checkHist(t, "scatter view", r, want)
		sv.Release()
	}
}
