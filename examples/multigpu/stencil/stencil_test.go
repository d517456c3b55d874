package stencil

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
)

// initial is examples/heat's initial field at (i, j).
func initial(i, j, n int) float64 {
	r1, r2 := max(n/8, 1), max(n/10, 1)
	d1 := (i-n/3)*(i-n/3) + (j-n/3)*(j-n/3)
	d2 := (i-2*n/3)*(i-2*n/3) + (j-3*n/5)*(j-3*n/5)
	switch {
	case d1 <= r1*r1:
		return 1
	case d2 <= r2*r2:
		return 0.75
	}
	return 0
}

// update is examples/heat's Step at an interior point.
func update(c, north, south, west, east float64) float64 {
	s := north + south + west + east
	return c + float64(Alpha*(s-float64(4*c)))
}

// serial runs the stencil on the whole field with plain loops.
func serial(n, steps int) [][]float64 {
	u, v := make([][]float64, n), make([][]float64, n)
	for i := range n {
		u[i], v[i] = make([]float64, n), make([]float64, n)
		for j := range n {
			u[i][j] = initial(i, j, n)
		}
	}
	for range steps {
		for i := range n {
			for j := range n {
				if i == 0 || j == 0 || i == n-1 || j == n-1 {
					v[i][j] = u[i][j]
					continue
				}
				v[i][j] = update(u[i][j], u[i-1][j], u[i+1][j], u[i][j-1], u[i][j+1])
			}
		}
		u, v = v, u
	}
	return u
}

func sameBits(t *testing.T, what string, got *kokkos.View2[float64], want [][]float64) {
	t.Helper()
	for i := range want {
		for j := range want[i] {
			if math.Float64bits(got.At(i, j)) != math.Float64bits(want[i][j]) {
				t.Fatalf("%s: (%d, %d) = %v, want %v", what, i, j, got.At(i, j), want[i][j])
			}
		}
	}
}

// TestSimulateHost: every split of the field into bands, on the host,
// gives the whole-field stencil bit for bit.
func TestSimulateHost(t *testing.T) {
	for _, n := range []int{3, 8, 37} {
		const steps = 23
		want := serial(n, steps)
		for d := 1; d <= min(n, 5); d++ {
			got, err := SimulateHost(n, d, steps)
			if err != nil {
				t.Fatal(err)
			}
			sameBits(t, "SimulateHost", &got, want)
			got.Release()
		}
	}
}

// TestRows runs Rows on random bands against update, for boundary and
// interior row sets, and checks that it writes only its rows.
func TestRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 19
	for _, c := range []struct{ first, rows int }{{0, 7}, {7, 5}, {12, 7}, {5, 1}, {3, 2}} {
		b := Band{c.first, c.rows}
		cur := kokkos.Must(kokkos.NewView2[float64]("cur", b.Rows+2, n))
		next := kokkos.Must(kokkos.NewView2[float64]("next", b.Rows+2, n))
		for i := range b.Rows + 2 {
			for j := range n {
				cur.Set(i, j, rng.Float64()*2-1)
				next.Set(i, j, math.NaN())
			}
		}
		for _, rows := range [][3]int{pack(b.boundary()), pack(b.interior())} {
			if rows[0] > 0 {
				if err := forRows(next, cur, b, n, rows); err != nil {
					t.Fatal(err)
				}
			}
		}
		for i := range b.Rows + 2 {
			for j := range n {
				g := b.First + i - 1
				var want float64
				switch {
				case i == 0 || i == b.Rows+1:
					if !math.IsNaN(next.At(i, j)) {
						t.Fatalf("band %+v: halo (%d, %d) written", b, i, j)
					}
					continue
				case g == 0 || g == n-1 || j == 0 || j == n-1:
					want = cur.At(i, j)
				default:
					want = update(cur.At(i, j), cur.At(i-1, j), cur.At(i+1, j), cur.At(i, j-1), cur.At(i, j+1))
				}
				if math.Float64bits(next.At(i, j)) != math.Float64bits(want) {
					t.Fatalf("band %+v: (%d, %d) = %v, want %v", b, i, j, next.At(i, j), want)
				}
			}
		}
	}
}

func TestNewRefuses(t *testing.T) {
	for _, c := range [][2]int{{2, 1}, {8, 0}, {4, 5}} {
		if _, err := New(c[0], c[1]); !errors.Is(err, ErrSize) {
			t.Errorf("New(%d, %d): %v, want ErrSize", c[0], c[1], err)
		}
		if _, err := SimulateHost(c[0], c[1], 1); !errors.Is(err, ErrSize) {
			t.Errorf("SimulateHost(%d, %d): %v, want ErrSize", c[0], c[1], err)
		}
	}
}

// TestGrid runs the split on the GPUs, every device count the machine
// has, on the streams and as graphs of 4 steps (two launches and a step
// on the streams, then graphs of the other parity), twice in a row (Run
// continues where it stopped), against the whole-field stencil.
func TestGrid(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	ndev, err := cuda.DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	const n, steps = 67, 9
	want := serial(n, 2*steps)
	for d := 1; d <= ndev; d++ {
		for _, graph := range []bool{false, true} {
			g, err := New(n, d)
			if err != nil {
				t.Fatal(err)
			}
			g.Graph, g.GraphSteps = graph, 4
			for range 2 {
				if _, err := g.Run(steps); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.GraphErr(); err != nil {
				t.Errorf("%d devices: graph turned off: %v", d, err)
			}
			if want := map[bool]int{false: 0, true: 2}[graph]; len(g.graphs) != want {
				t.Errorf("%d devices, graph %v: %d graphs cached, want %d", d, graph, len(g.graphs), want)
			}
			f, err := g.Gather()
			if err != nil {
				t.Fatal(err)
			}
			sameBits(t, fmt.Sprintf("Grid on %d devices, graph %v", d, graph), &f, want)
			g.Release()
			if len(g.graphs) != 0 {
				t.Errorf("Release left %d graphs", len(g.graphs))
			}
		}
	}
}
