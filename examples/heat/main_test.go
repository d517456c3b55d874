package main

import (
	"bytes"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
)

// stepRef is one step over logical indices: the interior as Step, the
// boundary copied.
func stepRef(next, cur [][]float64, alpha float64) {
	n0, n1 := len(cur), len(cur[0])
	for i := range n0 {
		for j := range n1 {
			c := cur[i][j]
			if i == 0 || j == 0 || i == n0-1 || j == n1-1 {
				next[i][j] = c
				continue
			}
			s := cur[i-1][j] + cur[i+1][j] + cur[i][j-1] + cur[i][j+1]
			next[i][j] = c + float64(alpha*(s-float64(4*c)))
		}
	}
}

func grid(n0, n1 int) [][]float64 {
	g := make([][]float64, n0)
	for i := range g {
		g[i] = make([]float64, n1)
	}
	return g
}

// TestStep runs Step on random fields of both layouts, in both loop
// orders, against stepRef.
func TestStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n0, n1 = 13, 17
	alpha := 0.1 + 0.15*rng.Float64()
	cur := grid(n0, n1)
	for i := range n0 {
		for j := range n1 {
			cur[i][j] = rng.Float64()*2 - 1
		}
	}
	want := grid(n0, n1)
	stepRef(want, cur, alpha)
	for _, lay := range []kokkos.Option{kokkos.LayoutRight, kokkos.LayoutLeft} {
		for _, it := range []kokkos.Iterate{kokkos.IterateDefault, kokkos.IterateLeft, kokkos.IterateRight} {
			vc, _ := kokkos.NewView2[float64]("cur", n0, n1, lay)
			vn, _ := kokkos.NewView2[float64]("next", n0, n1, lay)
			for i := range n0 {
				for j := range n1 {
					vc.Set(i, j, cur[i][j])
					vn.Set(i, j, rng.Float64()) // overwritten everywhere
				}
			}
			p := kokkos.MDRange([]int{0, 0}, []int{n0, n1}).Tile(4, 5).Order(it, it)
			if err := kernel.For("step", p, Step, vn, vc.ReadOnly(), alpha); err != nil {
				t.Fatal(err)
			}
			for i := range n0 {
				for j := range n1 {
					if vn.At(i, j) != want[i][j] {
						t.Fatalf("%v %v: next(%d, %d) = %v, want %v", lay, it, i, j, vn.At(i, j), want[i][j])
					}
				}
			}
			r, err := kernel.Reduce("residual", p, kokkos.Max[float64](), Residual, vn, vc)
			if err != nil {
				t.Fatal(err)
			}
			wr := 0.0
			for i := range n0 {
				for j := range n1 {
					wr = max(wr, math.Abs(want[i][j]-cur[i][j]))
				}
			}
			if r != wr {
				t.Fatalf("%v %v: residual %v, want %v", lay, it, r, wr)
			}
		}
	}
}

// initRef is the initial field of Init over logical indices.
func initRef(n int) [][]float64 {
	u := grid(n, n)
	r1, r2 := max(n/8, 1), max(n/10, 1)
	for i := range n {
		for j := range n {
			switch {
			case (i-n/3)*(i-n/3)+(j-n/3)*(j-n/3) <= r1*r1:
				u[i][j] = 1
			case (i-2*n/3)*(i-2*n/3)+(j-3*n/5)*(j-3*n/5) <= r2*r2:
				u[i][j] = 0.75
			}
		}
	}
	return u
}

// TestSimulateHost checks the host simulation, residuals included, against
// stepRef from initRef.
func TestSimulateHost(t *testing.T) {
	const n, steps, every = 20, 7, 3
	u, res, err := simulate(n, steps, every, nil)
	if err != nil {
		t.Fatal(err)
	}
	cur, next := initRef(n), grid(n, n)
	var want []sample
	for s := 1; s <= steps; s++ {
		stepRef(next, cur, diffusion)
		if s%every == 0 || s == steps {
			r := 0.0
			for i := range n {
				for j := range n {
					r = max(r, math.Abs(next[i][j]-cur[i][j]))
				}
			}
			want = append(want, sample{s, r})
		}
		cur, next = next, cur
	}
	for i := range n {
		for j := range n {
			if u.At(i, j) != cur[i][j] {
				t.Fatalf("u(%d, %d) = %v, want %v", i, j, u.At(i, j), cur[i][j])
			}
		}
	}
	if len(res) != len(want) {
		t.Fatalf("residuals %v, want %v", res, want)
	}
	for k := range res {
		if res[k] != want[k] {
			t.Fatalf("residuals %v, want %v", res, want)
		}
	}
	if want[0].max == 0 {
		t.Fatal("the field does not change")
	}
}

// TestRun runs the command on a small grid and decodes its images.
func TestRun(t *testing.T) {
	const n = 24
	dir := t.TempDir()
	var out bytes.Buffer
	if err := run(&out, n, 10, 4, dir); err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	t.Log(out.String())
	names := []string{"heat-host.png"}
	if cuda.Available() == nil {
		names = append(names, "heat-cuda.png")
		if !strings.Contains(out.String(), "host and GPU agree exactly") {
			t.Errorf("output does not say the fields agree:\n%s", &out)
		}
	} else {
		if !strings.Contains(out.String(), "GPU skipped") {
			t.Errorf("output does not say the GPU was skipped:\n%s", &out)
		}
		// The GPU half did not run: say so where the test summary counts it.
		t.Run("cuda", func(t *testing.T) { t.Skipf("CUDA unavailable: %v (no GPU image made)", cuda.Available()) })
	}
	for _, name := range names {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if b := img.Bounds(); b.Dx() != n || b.Dy() != n {
			t.Fatalf("%s is %d×%d, want %d×%d", name, b.Dx(), b.Dy(), n, n)
		}
		// The hottest point is red, the boundary blue.
		if r, _, b, _ := img.At(n/3, n/3).RGBA(); r>>8 != 255 || b>>8 != 0 {
			t.Errorf("%s: hot spot has red %d, blue %d", name, r>>8, b>>8)
		}
		if r, _, b, _ := img.At(0, 0).RGBA(); r>>8 != 0 || b>>8 != 255 {
			t.Errorf("%s: corner has red %d, blue %d", name, r>>8, b>>8)
		}
	}
}

// TestCUDAAgrees runs the simulation on the GPU and on the host and
// compares the fields and residuals exactly; it skips without a device.
func TestCUDAAgrees(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	st, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	const n, steps, every = 37, 25, 5
	host, hres, err := simulate(n, steps, every, nil)
	if err != nil {
		t.Fatal(err)
	}
	dev, dres, err := simulate(n, steps, every, st)
	if err != nil {
		t.Fatal(err)
	}
	if d, i, j := maxDiff(host, dev); d != 0 {
		t.Fatalf("max |host - GPU| %g at (%d, %d)", d, i, j)
	}
	if len(hres) != len(dres) {
		t.Fatalf("residuals %v on the host, %v on the GPU", hres, dres)
	}
	for k := range hres {
		if hres[k] != dres[k] {
			t.Fatalf("residuals %v on the host, %v on the GPU", hres, dres)
		}
	}
}

// TestMaxDiff checks the comparison that decides the exit status.
func TestMaxDiff(t *testing.T) {
	a, _ := kokkos.NewView2[float64]("a", 5, 6)
	b, _ := kokkos.NewView2[float64]("b", 5, 6, kokkos.LayoutLeft)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 5 {
		for j := range 6 {
			x := rng.Float64()
			a.Set(i, j, x)
			b.Set(i, j, x)
		}
	}
	if d, _, _ := maxDiff(a, b); d != 0 {
		t.Fatalf("equal fields: max difference %g", d)
	}
	b.Set(3, 4, math.Nextafter(b.At(3, 4), 2))
	if d, i, j := maxDiff(a, b); d == 0 || i != 3 || j != 4 {
		t.Fatalf("one ulp at (3, 4): max difference %g at (%d, %d)", d, i, j)
	}
	b.Set(1, 2, math.NaN())
	if d, i, j := maxDiff(a, b); !math.IsNaN(d) || i != 1 || j != 2 {
		t.Fatalf("NaN at (1, 2): max difference %g at (%d, %d)", d, i, j)
	}
}
