package kerneltest

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
	"github.com/gokkos/kokkos/random"
)

// TestKernelsGenerated checks that the generated kernels are those of the
// source.
func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// where is one place the kernels run.
type where struct {
	name  string
	space kokkos.ExecutionSpace // nil for the default host space
	mem   kokkos.MemorySpace
}

func (w where) gpu() bool { return w.name == "cuda" }

var cudaSkipped sync.Map

// places returns the host pool, Serial, the fake device of package
// backendtest (which runs each kernel's description in kernelir's
// interpreter, over memory the host may not touch) and, when a GPU is
// present, a CUDA stream; without one, a subtest "cuda" skips saying
// "CUDA unavailable".
func places(t *testing.T) []where {
	fake := backendtest.FakeDevice(false)
	ws := []where{{"host", nil, kokkos.HostSpace}, {"serial", kokkos.Serial{}, kokkos.HostSpace}, {"fake", fake.Executor(), fake}}
	if err := cuda.Available(); err != nil {
		if _, told := cudaSkipped.LoadOrStore(t, true); !told {
			t.Run("cuda", func(t *testing.T) { t.Skipf("CUDA unavailable: %v", err) })
		}
		return ws
	}
	st, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Release() })
	return append(ws, where{"cuda", st, cuda.Space})
}

// gen is what both generators draw.
type gen interface {
	Urand() uint32
	Urand64() uint64
	UrandN(uint32) uint32
	UrandRange(uint32, uint32) uint32
	Urand64N(uint64) uint64
	Urand64Range(uint64, uint64) uint64
	Rand() int32
	RandN(int32) int32
	RandRange(int32, int32) int32
	Rand64() int64
	Rand64N(int64) int64
	Rand64Range(int64, int64) int64
	Frand() float32
	FrandN(float32) float32
	FrandRange(float32, float32) float32
	Drand() float64
	DrandN(float64) float64
	DrandRange(float64, float64) float64
	Normal() float64
	NormalMeanStd(float64, float64) float64
}

// row is what Draws64 and Draws1024 store for one index: the reference.
func row(g gen) (u [12]uint64, f [8]float64) {
	u[0] = g.Urand64()
	u[1] = uint64(g.Urand())
	u[2] = uint64(g.UrandN(1000))
	u[3] = uint64(g.UrandRange(7, 100))
	u[4] = g.Urand64N(1000000000000)
	u[5] = g.Urand64Range(5, 1000000000000000)
	u[6] = uint64(g.Rand())
	u[7] = uint64(g.RandN(999))
	u[8] = uint64(g.RandRange(-50, 50))
	u[9] = uint64(g.Rand64())
	u[10] = uint64(g.Rand64N(1000000000000000))
	u[11] = uint64(g.Rand64Range(-1000000000000, 1000000000000))
	f[0] = float64(g.Frand())
	f[1] = float64(g.FrandN(2.5))
	f[2] = float64(g.FrandRange(-1, 3))
	f[3] = g.Drand()
	f[4] = g.DrandN(2.5)
	f[5] = g.DrandRange(-1, 3)
	f[6] = g.Normal()
	f[7] = g.NormalMeanStd(1.5, 2)
	return u, f
}

// refRows are the rows that each state of a pool draws in turn, and the
// state words (a row of the pool's States) after each row.
type refRows struct {
	u     [][][12]uint64
	f     [][][8]float64
	after [][][]uint64
}

// TestDraws launches Draws64 and Draws1024 at every place, with pools of
// one and of several states: every index's row is a row of the serial
// reference (random's own methods) of one state, bit for bit (the
// normals within 1e-14 on a GPU, whose log and cos are not Go's); the
// rows of a state are its first rows, each drawn once; and the pool's
// states end where the reference's do after them.
func TestDraws(t *testing.T) {
	for _, w := range places(t) {
		for _, kind := range []string{"XorShift64", "XorShift1024"} {
			for _, states := range []int{1, 3} {
				n := 300
				switch {
				case w.gpu():
					n = 2000 * states // the threads wait for few states
				case w.name == "fake":
					n = 40
				}
				seed := uint64(77 + states)
				u := kokkos.Must(kokkos.NewView2[uint64]("u", n, 12, kokkos.InSpace(w.mem)))
				f := kokkos.Must(kokkos.NewView2[float64]("f", n, 8, kokkos.InSpace(w.mem)))
				var statesView kokkos.View2[uint64]
				var ref refRows
				var err error
				if kind == "XorShift64" {
					pool := kokkos.Must(random.NewXorShift64PoolSize(w.space, seed, states))
					defer pool.Release()
					ref = reference(states, n, func(s int) (gen, func() []uint64) {
						g := random.NewXorShift64(kokkos.Must(random.NewXorShift64PoolSize(kokkos.Serial{}, seed, states)).GetStateAt(s).State())
						return &g, func() []uint64 { return []uint64{g.State()} }
					})
					err = kernel.For("draws", kokkos.Range(0, n).On(w.space), Draws64, pool, u, f)
					statesView = pool.States()
				} else {
					pool := kokkos.Must(random.NewXorShift1024PoolSize(w.space, seed, states))
					defer pool.Release()
					ref = reference(states, n, func(s int) (gen, func() []uint64) {
						words, p := kokkos.Must(random.NewXorShift1024PoolSize(kokkos.Serial{}, seed, states)).GetStateAt(s).State()
						g := random.NewXorShift1024(words, p)
						return &g, func() []uint64 { w, p := g.State(); return append(w[:], uint64(p)) }
					})
					err = kernel.For("draws", kokkos.Range(0, n).On(w.space), Draws1024, pool, u, f)
					statesView = pool.States()
				}
				if err != nil {
					t.Fatalf("%s %s: %v", w.name, kind, err)
				}
				if w.space != nil {
					if err := w.space.Fence(); err != nil {
						t.Fatal(err)
					}
				}
				hu := kokkos.Must(kokkos.CreateMirrorViewAndCopy(u))
				hf := kokkos.Must(kokkos.CreateMirrorViewAndCopy(f))
				hs := kokkos.Must(kokkos.CreateMirrorViewAndCopy(statesView))
				u.Release()
				f.Release()
				checkRows(t, w, kind, states, n, ref, hu, hf, hs)
			}
		}
	}
}

// reference returns the first n rows of each of the states, and the
// state after each, from the generators start gives.
func reference(states, n int, start func(s int) (gen, func() []uint64)) refRows {
	var r refRows
	for s := range states {
		g, words := start(s)
		var us [][12]uint64
		var fs [][8]float64
		after := [][]uint64{words()}
		for range n {
			u, f := row(g)
			us, fs = append(us, u), append(fs, f)
			after = append(after, words())
		}
		r.u, r.f, r.after = append(r.u, us), append(r.f, fs), append(r.after, after)
	}
	return r
}

func checkRows(t *testing.T, w where, kind string, states, n int, ref refRows, u kokkos.View2[uint64], f kokkos.View2[float64], st kokkos.View2[uint64]) {
	t.Helper()
	type at struct{ s, r int }
	first := map[uint64]at{}
	for s := range states {
		for r := range n {
			first[ref.u[s][r][0]] = at{s, r}
		}
	}
	used := make([][]bool, states)
	for s := range used {
		used[s] = make([]bool, n)
	}
	name := w.name + " " + kind
	for i := range n {
		a, ok := first[u.At(i, 0)]
		if !ok {
			t.Fatalf("%s, %d states: index %d drew %d first, which no state's row starts with", name, states, i, u.At(i, 0))
		}
		if used[a.s][a.r] {
			t.Fatalf("%s, %d states: row %d of state %d drawn twice (index %d)", name, states, a.r, a.s, i)
		}
		used[a.s][a.r] = true
		for k := range 12 {
			if got, want := u.At(i, k), ref.u[a.s][a.r][k]; got != want {
				t.Fatalf("%s, %d states: index %d (row %d of state %d) draw u%d: %d, want %d", name, states, i, a.r, a.s, k, got, want)
			}
		}
		for k := range 8 {
			got, want := f.At(i, k), ref.f[a.s][a.r][k]
			if k >= 6 && w.gpu() {
				if math.Abs(got-want) > 1e-14*max(1, math.Abs(want)) {
					t.Fatalf("%s, %d states: index %d normal f%d: %v, want %v", name, states, i, k, got, want)
				}
				continue
			}
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s, %d states: index %d (row %d of state %d) draw f%d: %v, want %v", name, states, i, a.r, a.s, k, got, want)
			}
		}
	}
	for s := range states {
		m := 0
		for m < n && used[s][m] {
			m++
		}
		for r := m; r < n; r++ {
			if used[s][r] {
				t.Fatalf("%s, %d states: state %d drew row %d but not row %d", name, states, s, r, m)
			}
		}
		want := ref.after[s][m]
		for k, x := range want {
			if got := st.At(s, k); got != x {
				t.Errorf("%s, %d states: state %d word %d ends %#x, want %#x after %d rows", name, states, s, k, got, x, m)
			}
		}
	}
}

// TestDarts counts darts within the unit circle with a pool of the
// place's concurrency: each dart is two Drand draws, so that the count
// is that of the reference, draw for draw, when one state draws them all
// (Serial and the fake device, in index order), and near pi/4 of the
// darts anywhere.
func TestDarts(t *testing.T) {
	for _, w := range places(t) {
		n, groups := 4000, 5
		if w.name == "fake" {
			n = 200
		}
		pool := kokkos.Must(random.NewXorShift64Pool(w.space, 5374857))
		hits, err := kernel.Reduce("darts", kokkos.Range(0, n).On(w.space), kokkos.Sum[int64](), Darts, pool, groups)
		pool.Release()
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		darts := n * groups
		if pi := 4 * float64(hits) / float64(darts); math.Abs(pi-math.Pi) > 0.1 {
			t.Errorf("%s: pi estimated %v from %d darts", w.name, pi, darts)
		}
		if pool.UseCount() != 0 {
			t.Errorf("%s: pool still held %d times", w.name, pool.UseCount())
		}
		if w.name == "serial" || w.name == "fake" {
			g := random.NewXorShift64(kokkos.Must(random.NewXorShift64PoolSize(kokkos.Serial{}, 5374857, 1)).GetStateAt(0).State())
			var want int64
			for range darts {
				x, y := g.Drand(), g.Drand()
				if x*x+y*y <= 1 {
					want++
				}
			}
			if hits != want {
				t.Errorf("%s: %d hits, the serial reference %d", w.name, hits, want)
			}
		}
	}
}

// TestDartsSkip launches DartsSkip, whose chunks take a generator per
// index, at every place: on Serial and the fake device (one state) its
// hits are those of the state's draws in order, elsewhere the estimate is
// near pi, and the pool is given back whole.
func TestDartsSkip(t *testing.T) {
	for _, w := range places(t) {
		n, groups, skip := 4000, 5, 3
		if w.name == "fake" {
			n = 200
		}
		states := 1
		if w.name == "host" || w.gpu() {
			states = 4
		}
		pool := kokkos.Must(random.NewXorShift64PoolSize(w.space, 917, states))
		hits, err := kernel.Reduce("darts-skip", kokkos.Range(0, n).On(w.space), kokkos.Sum[int64](), DartsSkip, pool, groups, skip)
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		darts := (n - (n+skip-1)/skip) * groups
		if pi := 4 * float64(hits) / float64(darts); math.Abs(pi-math.Pi) > 0.1 {
			t.Errorf("%s: pi estimated %v from %d darts", w.name, pi, darts)
		}
		if states == 1 {
			g := random.NewXorShift64(kokkos.Must(random.NewXorShift64PoolSize(kokkos.Serial{}, 917, 1)).GetStateAt(0).State())
			var want int64
			for range darts {
				x, y := g.Drand(), g.Drand()
				if x*x+y*y <= 1 {
					want++
				}
			}
			if hits != want {
				t.Errorf("%s: %d hits, the serial reference %d", w.name, hits, want)
			}
		}
		if w.space == nil || w.space == (kokkos.Serial{}) {
			// Every state given back: each can be taken at once.
			var gs []random.XorShift64
			for range states {
				gs = append(gs, pool.GetState())
			}
			for _, g := range gs {
				pool.FreeState(g)
			}
		}
		pool.Release()
	}
}

// TestGrid launches Grid over a rank-2 range at every place with a pool
// of one state: the values are the state's first draws, each once,
// whatever order the tiles take.
func TestGrid(t *testing.T) {
	for _, w := range places(t) {
		n, m := 70, 9
		if w.name == "fake" {
			n = 12
		}
		pool := kokkos.Must(random.NewXorShift1024PoolSize(w.space, 31, 1))
		a := kokkos.Must(kokkos.NewView2[float64]("a", n, m, kokkos.InSpace(w.mem)))
		err := kernel.For("grid", kokkos.MDRange([]int{0, 0}, []int{n, m}).On(w.space), Grid, pool, a)
		if err == nil && w.space != nil {
			err = w.space.Fence()
		}
		pool.Release()
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(a))
		a.Release()
		g := kokkos.Must(random.NewXorShift1024PoolSize(kokkos.Serial{}, 31, 1)).GetStateAt(0)
		want := map[float64]bool{}
		for range n * m {
			want[g.Drand()] = true
		}
		for i := range n {
			for j := range m {
				if !want[h.At(i, j)] {
					t.Fatalf("%s: a(%d, %d) = %v is not among the state's first %d draws, or drawn twice", w.name, i, j, h.At(i, j), n*m)
				}
				delete(want, h.At(i, j))
			}
		}
	}
}

// TestPoolArgs: the zero pool, a host pool launched on a device and a
// device pool launched on the host are errors wrapping kernel.ErrArgs
// that name the pool.
func TestPoolArgs(t *testing.T) {
	fake := backendtest.FakeDevice(false).Executor()
	hostPool := kokkos.Must(random.NewXorShift64PoolSize(nil, 1, 2))
	devPool := kokkos.Must(random.NewXorShift64PoolSize(fake, 1, 2))
	defer devPool.Release()
	for _, c := range []struct {
		name  string
		space kokkos.ExecutionSpace
		pool  random.XorShift64Pool
		want  string
	}{
		{"zero pool", nil, random.XorShift64Pool{}, "pool pool is the zero random.XorShift64Pool"},
		{"host pool on a device", fake, hostPool, "pool pool was made for another instance (Threads) than the launch's (FakeExec)"},
		{"device pool on the host", nil, devPool, "pool pool was made for FakeExec, whose states the host cannot reach"},
	} {
		_, err := kernel.Reduce("darts", kokkos.Range(0, 10).On(c.space), kokkos.Sum[int64](), Darts, c.pool, 1)
		if !errors.Is(err, kernel.ErrArgs) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrArgs saying %q", c.name, err, c.want)
		}
	}
}

// TestTwoPools launches TwoPools with pools of one state each at every
// place: each column holds the first n draws of its pool's state, in some
// order, each once.
func TestTwoPools(t *testing.T) {
	for _, w := range places(t) {
		n := 500
		if w.name == "fake" {
			n = 50
		}
		a := kokkos.Must(random.NewXorShift64PoolSize(w.space, 3, 1))
		b := kokkos.Must(random.NewXorShift1024PoolSize(w.space, 4, 1))
		out := kokkos.Must(kokkos.NewView2[uint64]("out", n, 2, kokkos.InSpace(w.mem)))
		err := kernel.For("two", kokkos.Range(0, n).On(w.space), TwoPools, a, b, out)
		if err == nil && w.space != nil {
			err = w.space.Fence()
		}
		a.Release()
		b.Release()
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(out))
		out.Release()
		g := kokkos.Must(random.NewXorShift64PoolSize(kokkos.Serial{}, 3, 1)).GetStateAt(0)
		k := kokkos.Must(random.NewXorShift1024PoolSize(kokkos.Serial{}, 4, 1)).GetStateAt(0)
		want := [2]map[uint64]bool{{}, {}}
		for range n {
			want[0][g.Urand64()] = true
			want[1][k.Urand64()] = true
		}
		for i := range n {
			for c := range 2 {
				if !want[c][h.At(i, c)] {
					t.Fatalf("%s: out(%d, %d) = %d is not among the state's first %d draws, or drawn twice", w.name, i, c, h.At(i, c), n)
				}
				delete(want[c], h.At(i, c))
			}
		}
	}
}
