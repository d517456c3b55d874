package main

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
	"github.com/gokkos/kokkos/random"
)

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// replay recounts the hits of a launch of DartsPool over n indices from
// the pool's states before (init) and after (final) it: each index draws
// 2*groups outputs from the generator of the state it takes, so state k
// served u_k indices, the first u_k chunks of 2*groups draws of its
// generator, u_k the chunks that take init[k] to final[k]. The hits are
// those of these chunks, whatever the order in which the indices took the
// states. It fails t unless the states served n indices in all.
func replay(t *testing.T, init, final []uint64, n, groups int, rad float64) int64 {
	t.Helper()
	var hits int64
	served := 0
	for k := range init {
		g := random.NewXorShift64(init[k])
		for g.State() != final[k] {
			if served == n {
				t.Fatalf("state %d (%d) is not %d reached by whole chunks of %d draws within %d indices", k, final[k], init[k], 2*groups, n)
			}
			for range groups {
				x := g.Drand()
				y := g.Drand()
				if x*x+y*y <= rad*rad {
					hits++
				}
			}
			served++
		}
	}
	if served != n {
		t.Fatalf("the pool's states served %d indices, want %d", served, n)
	}
	return hits
}

// states returns the pool's states, column 0 of its States view.
func states(t *testing.T, pool random.XorShift64Pool) []uint64 {
	t.Helper()
	h, err := kokkos.CreateMirrorViewAndCopy(pool.States())
	if err != nil {
		t.Fatal(err)
	}
	s := make([]uint64, h.Extent(0))
	for i := range s {
		s[i] = h.At(i, 0)
	}
	return s
}

// poolRun makes a pool of size states seeded from seed at place, throws
// groups darts from each of n indices, and returns the hits, the states
// before and after.
func poolRun(t *testing.T, place tut.Place, size int, seed uint64, n, groups int, rad float64) (hits int64, init, final []uint64) {
	t.Helper()
	pool, err := random.NewXorShift64PoolSize(place.Space(), seed, size)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Release()
	init = states(t, pool)
	if hits, err = poolHits(place, pool, n, groups, rad); err != nil {
		t.Fatal(err)
	}
	return hits, init, states(t, pool)
}

// TestDartsPool launches DartsPool on the host with pools of one state,
// a few and the host's concurrency, and checks its hits against a replay
// of the states it leaves.
func TestDartsPool(t *testing.T) {
	host := kokkos.DefaultHostExecutionSpace()
	for _, size := range []int{1, 3, host.Concurrency()} {
		for _, c := range []struct {
			n, groups int
			rad       float64
		}{{1000, 7, 0.8}, {4096, 1, 1}, {33, 40, 0.5}} {
			hits, init, final := poolRun(t, tut.Place{Mem: kokkos.HostSpace}, size, 977, c.n, c.groups, c.rad)
			if want := replay(t, init, final, c.n, c.groups, c.rad); hits != want {
				t.Errorf("%d states, %d×%d darts within %v: %d hits, the replay %d", size, c.n, c.groups, c.rad, hits, want)
			}
		}
	}
}

// TestKokkosHits checks the hits with one generator against those of the
// C++ program with Kokkos 4.6.1 on one OpenMP thread (a pool of one
// state): mc-pi 16 1 and mc-pi 16 5.
func TestKokkosHits(t *testing.T) {
	for _, c := range []struct {
		groups int
		want   int64
	}{{1, kokkosHits16x1}, {5, kokkosHits16x5}} {
		hits, _, _ := poolRun(t, tut.Place{Mem: kokkos.HostSpace}, 1, seed, 1<<16/c.groups, c.groups, 1)
		if hits != c.want {
			t.Errorf("2^16 darts in groups of %d: %d hits, Kokkos %d", c.groups, hits, c.want)
		}
	}
}

// TestRun checks the estimate and the JSON line.
func TestRun(t *testing.T) {
	var b bytes.Buffer
	pi, err := run(&b, tut.Place{Mem: kokkos.HostSpace}, 1<<18, 4)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pi-math.Pi) > 0.01 {
		t.Errorf("pi estimate %v", pi)
	}
	for _, s := range []string{"darts = 262144  hits = ", `{"name":"mc-pi","unit":"s","value":`} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, b.String())
		}
	}
}

// TestRunCUDA launches DartsPool on a GPU with a pool of a generator per
// unit of the stream's concurrency, and checks its hits against the host's replay
// of the states it leaves; then the program's estimate.
func TestRunCUDA(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skip("CUDA unavailable:", err)
	}
	place, err := tut.Open(true)
	if err != nil {
		t.Fatal(err)
	}
	defer place.Release()
	size := place.Space().Concurrency()
	for _, c := range []struct {
		n, groups int
		rad       float64
	}{{1 << 16, 3, 1}, {1 << 20, 1, 0.9}, {5000, 64, 0.7}} {
		hits, init, final := poolRun(t, place, size, seed, c.n, c.groups, c.rad)
		if want := replay(t, init, final, c.n, c.groups, c.rad); hits != want {
			t.Errorf("GPU, %d×%d darts within %v: %d hits, the host's replay %d", c.n, c.groups, c.rad, hits, want)
		}
	}
	var b bytes.Buffer
	pi, err := run(&b, place, 1<<22, 4)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pi-math.Pi) > 0.005 {
		t.Errorf("GPU pi estimate %v:\n%s", pi, b.String())
	}
}

// The hits of the C++ program (mc-pi 16 1 and mc-pi 16 5) with Kokkos
// 4.6.1 built with OpenMP, run with OMP_NUM_THREADS=1.
const (
	kokkosHits16x1 = 51162
	kokkosHits16x5 = 51161
)
