package kerneltest

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

// where is a place to run the kernels: an execution space, the memory
// its views live in, and the ScatterView options to make them with.
type where struct {
	name  string
	space kokkos.ExecutionSpace // nil for the host default
	mem   kokkos.MemorySpace
	opts  []containers.ScatterOption
	dup   bool // the ScatterViews are duplicated
}

// cudaSkipped holds the tests whose cuda subtest skipped.
var cudaSkipped sync.Map

// places returns the host pool (duplicated ScatterViews, and the
// non-duplicated atomic and duplicated atomic forms), kokkos.Serial
// (non-duplicated, non-atomic), the fake device of package backendtest,
// which runs the kernels' descriptions in kernelir's interpreter over
// memory the host may not touch, and a GPU when one is available; without
// one a subtest "cuda" skips saying "CUDA unavailable".
func places(t *testing.T) []where {
	fake := backendtest.FakeDevice(false)
	ws := []where{
		{name: "host", mem: kokkos.HostSpace, dup: kokkos.DefaultExecutionSpace().Concurrency() > 1},
		{name: "host-atomic", mem: kokkos.HostSpace, opts: []containers.ScatterOption{containers.ScatterNonDuplicated, containers.ScatterAtomic}},
		{name: "host-dup-atomic", mem: kokkos.HostSpace, opts: []containers.ScatterOption{containers.ScatterDuplicated, containers.ScatterAtomic}, dup: true},
		{name: "threads8", space: kokkos.NewThreads(8), mem: kokkos.HostSpace, dup: true},
		{name: "serial", space: kokkos.Serial{}, mem: kokkos.HostSpace},
		{name: "fake", space: fake.Executor(), mem: fake},
	}
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
	return append(ws, where{name: "cuda", space: st, mem: cuda.Space})
}

// opts returns the options of the ScatterViews at w.
func (w where) scatterOpts() []containers.ScatterOption {
	if w.space == nil {
		return w.opts
	}
	return append([]containers.ScatterOption{containers.ScatterOn(w.space)}, w.opts...)
}

// keep releases the view *v when the test ends.
func keep[V any](t *testing.T, v *V) {
	t.Cleanup(func() {
		if r, ok := any(v).(interface{ Release() error }); ok {
			r.Release()
		}
	})
}

// at returns a copy of host view v in w's memory.
func at[V interface{ kokkos.View[T] }, T any](t *testing.T, w where, v V, mirror func(V, ...kokkos.Option) (V, error)) V {
	t.Helper()
	d, err := mirror(v, kokkos.InSpace(w.mem))
	if err != nil {
		t.Fatal(err)
	}
	keep(t, &d)
	if err := kokkos.DeepCopy[T](d, v); err != nil {
		t.Fatal(err)
	}
	return d
}

// host returns a host copy of v.
func host[V interface{ kokkos.View[T] }, T any](t *testing.T, w where, v V, mirror func(V, ...kokkos.Option) (V, error)) V {
	t.Helper()
	if w.space != nil {
		if err := w.space.Fence(); err != nil {
			t.Fatal(err)
		}
	}
	d, err := mirror(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy[T](d, v); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

// TestScatterHist runs ScatterHist into a ScatterView of a view that
// holds values at every place, contributes it into the view and into a
// second view, and compares both with a serial reference.
func TestScatterHist(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, nb = 20000, 37
	for _, w := range places(t) {
		x := kokkos.Must(kokkos.NewView1[int64]("x", n))
		for i := range n {
			x.Set(i, rng.Int64N(2000)-400)
		}
		hv := kokkos.Must(kokkos.NewView1[int64]("hist", nb))
		ov := kokkos.Must(kokkos.NewView1[int64]("other", nb))
		var want, other [nb]int64
		for b := range nb {
			hv.Set(b, rng.Int64N(100))
			ov.Set(b, rng.Int64N(100))
			want[b], other[b] = hv.At(b), ov.At(b)
		}
		var added [nb]int64
		for i := range n {
			v := x.At(i)
			added[uint64(v)%nb]++
			added[i%nb] += v % 100
			if v >= 0 {
				added[uint64(v+1)%nb] -= 2
				added[0] += 3
			}
		}
		dh, do := at(t, w, hv, kokkos.CreateMirror), at(t, w, ov, kokkos.CreateMirror)
		sv, err := containers.NewScatterView1[containers.ScatterSum](dh, w.scatterOpts()...)
		if err != nil {
			t.Fatal(err)
		}
		if sv.Duplicated() != w.dup {
			t.Fatalf("%s: Duplicated = %v", w.name, sv.Duplicated())
		}
		if err := sv.ResetExcept(dh); err != nil {
			t.Fatal(err)
		}
		if err := kernel.For("scatterhist", kokkos.Range(0, n).On(w.space), ScatterHist, at(t, w, x, kokkos.CreateMirror), sv, nb); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		if w.space != nil {
			w.space.Fence()
		}
		if err := sv.ContributeInto(do); err != nil {
			t.Fatal(err)
		}
		if err := sv.ContributeInto(dh); err != nil {
			t.Fatal(err)
		}
		gh, gother := host(t, w, dh, kokkos.CreateMirror), host(t, w, do, kokkos.CreateMirror)
		for b := range nb {
			// A non-duplicated ScatterView's updates are in dh itself,
			// which other then receives whole.
			wantOther := other[b] + added[b]
			if !w.dup {
				wantOther += want[b]
			}
			if gh.At(b) != want[b]+added[b] || gother.At(b) != wantOther {
				t.Fatalf("%s: bin %d: %d and %d, want %d and %d", w.name, b, gh.At(b), gother.At(b), want[b]+added[b], wantOther)
			}
		}
		// Reset: the identity, in the view for a non-duplicated one.
		if err := sv.Reset(); err != nil {
			t.Fatal(err)
		}
		if !w.dup {
			g := host(t, w, dh, kokkos.CreateMirror)
			for b := range nb {
				if g.At(b) != 0 {
					t.Fatalf("%s: after Reset, bin %d = %d", w.name, b, g.At(b))
				}
			}
		}
		sv.Release()
	}
}

// TestScatterProd2 runs a kernel of two indices over several tilings and
// orders that multiplies and divides the cells of a ScatterProd.
func TestScatterProd2(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const m0, m1, n0, n1 = 40, 30, 3, 4
	for _, w := range places(t) {
		x := kokkos.Must(kokkos.NewView2[float64]("x", m0, m1))
		for i := range m0 {
			for j := range m1 {
				x.Set(i, j, 0.9+0.2*rng.Float64())
			}
		}
		dx := at(t, w, x, kokkos.CreateMirror)
		for _, p := range []kokkos.MDRangePolicy{
			kokkos.MDRange([]int{0, 0}, []int{m0, m1}),
			kokkos.MDRange([]int{0, 0}, []int{m0, m1}).Order(kokkos.IterateLeft, kokkos.IterateLeft).Tile(7, 5),
		} {
			pv := kokkos.Must(kokkos.NewView2[float64]("p", n0, n1, kokkos.LayoutLeft))
			var want [n0][n1]float64
			for a := range n0 {
				for b := range n1 {
					want[a][b] = 1 + rng.Float64()
					pv.Set(a, b, want[a][b])
				}
			}
			for i := range m0 {
				for j := range m1 {
					if v := x.At(i, j); v > 1.05 {
						want[i%n0][j%n1] /= v
					} else {
						want[i%n0][j%n1] *= v
					}
				}
			}
			dp := at(t, w, pv, kokkos.CreateMirror)
			sv := kokkos.Must(containers.NewScatterView2[containers.ScatterProd](dp, w.scatterOpts()...))
			if err := kernel.For("scatterprod", p.On(w.space), ScatterProd2, dx, sv, n0, n1); err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			if err := sv.ContributeInto(dp); err != nil {
				t.Fatal(err)
			}
			g := host(t, w, dp, kokkos.CreateMirror)
			for a := range n0 {
				for b := range n1 {
					if math.Abs(g.At(a, b)-want[a][b]) > 1e-12*math.Abs(want[a][b]) {
						t.Fatalf("%s: (%d, %d) = %v, want %v", w.name, a, b, g.At(a, b), want[a][b])
					}
				}
			}
			sv.Release()
		}
	}
}

// TestScatterMinMax3 keeps minima and maxima of rank-3 cells.
func TestScatterMinMax3(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const m0, m1, m2 = 9, 10, 11
	for _, w := range places(t) {
		x := kokkos.Must(kokkos.NewView3[float32]("x", m0, m1, m2))
		y := kokkos.Must(kokkos.NewView3[int32]("y", m0, m1, m2))
		var lo [2][3][4]float32
		var hi [2][3][4]int32
		lov := kokkos.Must(kokkos.NewView3[float32]("lo", 2, 3, 4))
		hiv := kokkos.Must(kokkos.NewView3[int32]("hi", 2, 3, 4))
		for a := range 2 {
			for b := range 3 {
				for c := range 4 {
					lo[a][b][c] = float32(rng.NormFloat64())
					hi[a][b][c] = rng.Int32N(2000) - 1000
					lov.Set(a, b, c, lo[a][b][c])
					hiv.Set(a, b, c, hi[a][b][c])
				}
			}
		}
		for i := range m0 {
			for j := range m1 {
				for k := range m2 {
					x.Set(i, j, k, float32(rng.NormFloat64()*3))
					y.Set(i, j, k, rng.Int32N(4000)-2000)
					for r := range 2 {
						a, b, c := (i+r)%2, j%3, k%4
						lo[a][b][c] = min(lo[a][b][c], x.At(i, j, k))
						hi[a][b][c] = max(hi[a][b][c], y.At(i, j, k))
					}
				}
			}
		}
		dlo, dhi := at(t, w, lov, kokkos.CreateMirror), at(t, w, hiv, kokkos.CreateMirror)
		slo := kokkos.Must(containers.NewScatterView3[containers.ScatterMin](dlo, w.scatterOpts()...))
		shi := kokkos.Must(containers.NewScatterView3[containers.ScatterMax](dhi, w.scatterOpts()...))
		p := kokkos.MDRange([]int{0, 0, 0}, []int{m0, m1, m2})
		if err := kernel.For("scatterminmax", p.On(w.space), ScatterMinMax3, at(t, w, x, kokkos.CreateMirror), at(t, w, y, kokkos.CreateMirror), slo, shi); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		if err := slo.ContributeInto(dlo); err != nil {
			t.Fatal(err)
		}
		if err := shi.ContributeInto(dhi); err != nil {
			t.Fatal(err)
		}
		glo, ghi := host(t, w, dlo, kokkos.CreateMirror), host(t, w, dhi, kokkos.CreateMirror)
		for a := range 2 {
			for b := range 3 {
				for c := range 4 {
					if glo.At(a, b, c) != lo[a][b][c] || ghi.At(a, b, c) != hi[a][b][c] {
						t.Fatalf("%s: (%d, %d, %d): %v, %v, want %v, %v", w.name, a, b, c, glo.At(a, b, c), ghi.At(a, b, c), lo[a][b][c], hi[a][b][c])
					}
				}
			}
		}
	}
}

// TestScatterReduce runs a reduction kernel that also updates a
// ScatterView.
func TestScatterReduce(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n, nb = 5000, 8
	for _, w := range places(t) {
		x := kokkos.Must(kokkos.NewView1[int64]("x", n))
		var want [nb]float64
		for i := range n {
			x.Set(i, rng.Int64N(1<<40))
			want[uint64(x.At(i))%nb] += float64(x.At(i)%1000) / 8
		}
		hv := at(t, w, kokkos.Must(kokkos.NewView1[float64]("h", nb)), kokkos.CreateMirror)
		sv := kokkos.Must(containers.NewScatterView1[containers.ScatterSum](hv, w.scatterOpts()...))
		got, err := kernel.Reduce("scattercount", kokkos.Range(0, n).On(w.space), kokkos.Sum[int64](), ScatterCount, at(t, w, x, kokkos.CreateMirror), sv, nb)
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		if got != n {
			t.Fatalf("%s: %d indices, want %d", w.name, got, n)
		}
		if err := sv.ContributeInto(hv); err != nil {
			t.Fatal(err)
		}
		g := host(t, w, hv, kokkos.CreateMirror)
		for b := range nb {
			if g.At(b) != want[b] { // sums of eighths: exact in any order
				t.Fatalf("%s: bin %d = %v, want %v", w.name, b, g.At(b), want[b])
			}
		}
	}
}

// TestScatterDeviceArgs refuses, on a device, a duplicated ScatterView
// and the zero one, with kernel.ErrArgs wrapping containers.ErrScatterView.
func TestScatterDeviceArgs(t *testing.T) {
	fake := backendtest.FakeDevice(false)
	x := kokkos.Must(kokkos.NewView1[int64]("x", 10, kokkos.InSpace(fake)))
	hv := kokkos.Must(kokkos.NewView1[int64]("hist", 4))
	dup := kokkos.Must(containers.NewScatterView1[containers.ScatterSum](hv, containers.ScatterOn(kokkos.NewThreads(4))))
	for _, c := range []struct {
		name string
		sv   containers.ScatterView1[containers.ScatterSum, int64]
		want string
	}{
		{"duplicated", dup, `ScatterView "hist" is duplicated`},
		{"zero", containers.ScatterView1[containers.ScatterSum, int64]{}, "the zero ScatterView1"},
	} {
		err := kernel.For("scatterhist", kokkos.Range(0, 10).On(fake.Executor()), ScatterHist, x, c.sv, 4)
		if !errors.Is(err, kernel.ErrArgs) || !errors.Is(err, containers.ErrScatterView) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "parameter sv") {
			t.Errorf("%s: %v, want ErrArgs and ErrScatterView saying %q", c.name, err, c.want)
		}
	}
	// On the host: a ScatterView of a view in device memory, the zero
	// one, a released one.
	hx := kokkos.Must(kokkos.NewView1[int64]("hx", 10))
	dev := kokkos.Must(containers.NewScatterView1[containers.ScatterSum](kokkos.Must(kokkos.NewView1[int64]("devhist", 4, kokkos.InSpace(fake)))))
	rel := kokkos.Must(containers.NewScatterView1[containers.ScatterSum](hv))
	rel.Release()
	for _, c := range []struct {
		name string
		sv   containers.ScatterView1[containers.ScatterSum, int64]
		want string
	}{
		{"device memory", dev, `ScatterView "devhist" is of a view the host cannot access`},
		{"zero", containers.ScatterView1[containers.ScatterSum, int64]{}, "the zero ScatterView1"},
		{"released", rel, `ScatterView "hist" was released`},
	} {
		err := kernel.For("scatterhist", kokkos.Range(0, 10), ScatterHist, hx, c.sv, 4)
		if !errors.Is(err, containers.ErrScatterView) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("host, %s: %v, want ErrScatterView saying %q", c.name, err, c.want)
		}
	}
	// A duplicated ScatterView of a view in device memory is refused
	// when it is made.
	if _, err := containers.NewScatterView1[containers.ScatterSum](x, containers.ScatterDuplicated); !errors.Is(err, containers.ErrScatterView) || !strings.Contains(err.Error(), "host cannot access") {
		t.Errorf("duplicated in device memory: %v", err)
	}
	if _, err := containers.NewScatterView1[containers.ScatterSum](hv, containers.ScatterOn(fake.Executor()), containers.ScatterDuplicated); !errors.Is(err, containers.ErrScatterView) || !strings.Contains(err.Error(), "work on FakeExec") {
		t.Errorf("duplicated for a device: %v", err)
	}
}

// TestScatterBounds checks that an update outside the extents panics in
// the host kernel, naming the ScatterView and the index, for plain and
// atomic accessors.
func TestScatterBounds(t *testing.T) {
	x := kokkos.Must(kokkos.NewView1[int64]("x", 100))
	for i := range 100 {
		x.Set(i, int64(i))
	}
	for _, opts := range [][]containers.ScatterOption{nil, {containers.ScatterNonDuplicated, containers.ScatterAtomic}, {containers.ScatterOn(kokkos.Serial{})}} {
		hv := kokkos.Must(kokkos.NewView1[int64]("small", 5))
		sv := kokkos.Must(containers.NewScatterView1[containers.ScatterSum](hv, opts...))
		func() {
			defer func() {
				r := recover()
				msg := ""
				if e, ok := r.(error); ok {
					msg = e.Error()
				} else if s, ok := r.(string); ok {
					msg = s
				}
				if r == nil || !strings.Contains(msg, `ScatterView "small": `) || !strings.Contains(msg, "out of bounds: extents (5)") {
					t.Errorf("%v: panic %v", opts, r)
				}
			}()
			kernel.For("scatterhist", kokkos.Range(0, 100).On(sv.Space()), ScatterHist, x, sv, 9)
		}()
		sv.Release()
	}
}

// TestScatterGrid runs a nocheck kernel that updates a rank-2 ScatterView
// of a LayoutLeft view (whose last stride is not 1: its non-duplicated
// updates go through the methods) and of a LayoutRight one.
func TestScatterGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n, n0, n1 = 3000, 5, 7
	for _, w := range places(t) {
		for _, layout := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
			x := kokkos.Must(kokkos.NewView1[float64]("x", n))
			gv := kokkos.Must(kokkos.NewView2[float64]("grid", n0, n1, layout))
			var want [n0][n1]float64
			for a := range n0 {
				for b := range n1 {
					want[a][b] = float64(rng.IntN(100))
					gv.Set(a, b, want[a][b])
				}
			}
			for i := range n {
				x.Set(i, float64(rng.IntN(1000))/8)
				want[i%n0][(i/n0)%n1] += x.At(i)
				want[i%n0][0] -= 0.25
			}
			dg := at(t, w, gv, kokkos.CreateMirror)
			sv := kokkos.Must(containers.NewScatterView2[containers.ScatterSum](dg, w.scatterOpts()...))
			if err := kernel.For("scattergrid", kokkos.Range(0, n).On(w.space), ScatterGrid, at(t, w, x, kokkos.CreateMirror), sv, n0, n1); err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			if err := sv.ContributeInto(dg); err != nil {
				t.Fatal(err)
			}
			g := host(t, w, dg, kokkos.CreateMirror)
			for a := range n0 {
				for b := range n1 {
					if g.At(a, b) != want[a][b] { // eighths: exact in any order
						t.Fatalf("%s, %v: (%d, %d) = %v, want %v", w.name, layout, a, b, g.At(a, b), want[a][b])
					}
				}
			}
			sv.Release()
		}
	}
}
