package kerneltest

import (
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

// The references below convert each floating-point product explicitly, as
// the host kernels do, so that Go does not fuse it with an addition (on
// arm64, or amd64 with GOAMD64=v3).

// where is one place the kernels run: the host pool, or a GPU stream.
type where struct {
	name  string
	space kokkos.ExecutionSpace // nil for the host default
	mem   kokkos.MemorySpace    // where the views live
}

// places returns the host places, the fake device of package backendtest
// (a backend.Launcher that runs each kernel's description in kernelir's
// interpreter over memory the host may not touch, so that every launch
// goes through the device path of package kernel and the backend
// contract) and, when a GPU is available, a cuda stream. Without one it
// runs, once per test, a subtest "cuda" that skips saying "CUDA
// unavailable" and why, so that a run's summary counts the part of the
// test that did not run.
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

// gpu reports whether w computes with a GPU's arithmetic (CUDA's math
// functions, within a few ulps of Go's): the fake device runs each
// kernel's description with Go's own, so its element-wise results are
// compared bit for bit as the host's are. Its reductions join in index
// order, another order than the host pool's, and are compared as a
// device's.
func (w where) gpu() bool { return w.mem != kokkos.HostSpace && w.name != "fake" }

// cudaSkipped holds the tests (*testing.T) whose cuda subtest skipped.
var cudaSkipped sync.Map

// keep releases the view *v when the test ends: device memory is outside
// the Go heap.
func keep[V any](t *testing.T, v *V) {
	t.Cleanup(func() {
		if r, ok := any(v).(interface{ Release() error }); ok {
			r.Release()
		}
	})
}

// fence waits for w's queued work.
func fence(t *testing.T, w where) {
	t.Helper()
	if w.space != nil {
		if err := w.space.Fence(); err != nil {
			t.Fatal(err)
		}
	}
}

func randView1(t *testing.T, rng *rand.Rand, label string, n int) kokkos.View1[float64] {
	v, err := kokkos.NewView1[float64](label, n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		v.Set(i, rng.Float64()*2-1)
	}
	return v
}

// TestKernelsGenerated checks that the generated kernels of the package
// are those of its source, as every package with kernels can.
func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }

func TestTriad(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 10007
	b, c := randView1(t, rng, "b", n), randView1(t, rng, "c", n)
	const s = 1.7
	for _, w := range places(t) {
		a, _ := kokkos.NewView1[float64]("a", n, kokkos.InSpace(w.mem))
		keep(t, &a)
		db, dc := at(t, w, b, kokkos.CreateMirror), at(t, w, c, kokkos.CreateMirror)
		if err := kernel.For("triad", kokkos.Range(0, n).On(w.space), Triad, a, db, dc, s); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		fence(t, w)
		got, _ := kokkos.CreateMirrorViewAndCopy(a)
		for i := range n {
			if want := b.At(i) + float64(s*c.At(i)); got.At(i) != want {
				t.Fatalf("%s: a(%d) = %v, want %v", w.name, i, got.At(i), want)
			}
		}
	}
}

func TestDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 100, 100003} {
		a, b := randView1(t, rng, "a", n), randView1(t, rng, "b", n)
		want := kokkos.ParallelReduce("dot", kokkos.Range(0, n), kokkos.Sum[float64](), func(i int, acc *float64) { *acc += float64(a.At(i) * b.At(i)) })
		for _, w := range places(t) {
			got, err := kernel.Reduce("dot", kokkos.Range(0, n).On(w.space), kokkos.Sum[float64](), Dot, at(t, w, a, kokkos.CreateMirror), at(t, w, b, kokkos.CreateMirror))
			if err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			if w.mem == kokkos.HostSpace && got != want || math.Abs(got-want) > 1e-9*float64(n+1) {
				t.Fatalf("%s n %d: dot %v, want %v", w.name, n, got, want)
			}
		}
	}
}

func TestSetCLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n0, n1 = 37, 53
	a, b := randView1(t, rng, "a", n0), randView1(t, rng, "b", n1)
	for _, w := range places(t) {
		for _, lay := range []kokkos.Option{kokkos.LayoutRight, kokkos.LayoutLeft} {
			for _, it := range []kokkos.Iterate{kokkos.IterateDefault, kokkos.IterateLeft, kokkos.IterateRight} {
				c, _ := kokkos.NewView2[float64]("c", n0, n1, lay, kokkos.InSpace(w.mem))
				keep(t, &c)
				p := kokkos.MDRange([]int{0, 0}, []int{n0, n1}).Tile(4, 8).Order(it, it).On(w.space)
				if err := kernel.For("setc", p, SetC, c, at(t, w, a, kokkos.CreateMirror), at(t, w, b, kokkos.CreateMirror)); err != nil {
					t.Fatalf("%s: %v", w.name, err)
				}
				fence(t, w)
				got, _ := kokkos.CreateMirrorViewAndCopy(c)
				for i := range n0 {
					for j := range n1 {
						if want := a.At(i) * b.At(j); got.At(i, j) != want {
							t.Fatalf("%s %v %v: c(%d, %d) = %v, want %v", w.name, lay, it, i, j, got.At(i, j), want)
						}
					}
				}
			}
		}
	}
}

func TestPrefixSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, 5000, 70001} {
		in, _ := kokkos.NewView1[int64]("in", n)
		for i := range n {
			in.Set(i, rng.Int64N(2001)-1000)
		}
		for _, w := range places(t) {
			out, _ := kokkos.NewView1[int64]("out", n, kokkos.InSpace(w.mem))
			keep(t, &out)
			total, err := kernel.Scan("scan", kokkos.Range(0, n).On(w.space), kokkos.Sum[int64](), PrefixSum, at(t, w, in, kokkos.CreateMirror), out)
			if err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			got, _ := kokkos.CreateMirrorViewAndCopy(out)
			var s int64
			for i := range n {
				s += in.At(i)
				if got.At(i) != s {
					t.Fatalf("%s n %d: out(%d) = %d, want %d", w.name, n, i, got.At(i), s)
				}
			}
			if total != s {
				t.Fatalf("%s n %d: total %d, want %d", w.name, n, total, s)
			}
		}
	}
}

func TestStencil7(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const n0, n1, n2 = 13, 17, 19
	h := 0.1 // a variable: h*h rounds at run time, as in the kernel
	in, _ := kokkos.NewView3[float64]("in", n0, n1, n2)
	for i := range n0 {
		for j := range n1 {
			for k := range n2 {
				in.Set(i, j, k, rng.Float64())
			}
		}
	}
	for _, w := range places(t) {
		out, _ := kokkos.NewView3[float64]("out", n0, n1, n2, kokkos.InSpace(w.mem))
		keep(t, &out)
		p := kokkos.MDRange([]int{0, 0, 0}, []int{n0, n1, n2}).On(w.space)
		din := at(t, w, in, kokkos.CreateMirror)
		if err := kernel.For("stencil", p, Stencil7, out, din, h); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		// Lap7 over the interior gives the same bits as the guarded kernel.
		out2, _ := kokkos.NewView3[float64]("out2", n0, n1, n2, kokkos.InSpace(w.mem))
		keep(t, &out2)
		interior := kokkos.MDRange([]int{1, 1, 1}, []int{n0 - 1, n1 - 1, n2 - 1}).Tile(2, 4, 8).On(w.space)
		if err := kernel.For("lap7", interior, Lap7, out2, din, h*h); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		fence(t, w)
		got2, _ := kokkos.CreateMirrorViewAndCopy(out2)
		fence(t, w)
		got, _ := kokkos.CreateMirrorViewAndCopy(out)
		for i := range n0 {
			for j := range n1 {
				for k := range n2 {
					want := 0.0
					if i > 0 && j > 0 && k > 0 && i < n0-1 && j < n1-1 && k < n2-1 {
						s := in.At(i-1, j, k) + in.At(i+1, j, k) + in.At(i, j-1, k) + in.At(i, j+1, k) + in.At(i, j, k-1) + in.At(i, j, k+1)
						want = (s - float64(6*in.At(i, j, k))) / float64(h*h)
					}
					if got.At(i, j, k) != want {
						t.Fatalf("%s: out(%d, %d, %d) = %v, want %v", w.name, i, j, k, got.At(i, j, k), want)
					}
					if got2.At(i, j, k) != want {
						t.Fatalf("%s: Lap7: out(%d, %d, %d) = %v, want %v", w.name, i, j, k, got2.At(i, j, k), want)
					}
				}
			}
		}
	}
}

func TestSoftAndHistogram(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const n, nb = 20000, 17
	x := randView1(t, rng, "x", n)
	for i := range n {
		x.Set(i, math.Abs(x.At(i)))
	}
	for _, w := range places(t) {
		dx := at(t, w, x, kokkos.CreateMirror)
		y, _ := kokkos.NewView1[float32]("y", n, kokkos.InSpace(w.mem))
		keep(t, &y)
		bins, _ := kokkos.NewView1[int64]("bins", nb, kokkos.InSpace(w.mem))
		keep(t, &bins)
		const th = 0.25
		if err := kernel.For("soft", kokkos.Range(0, n).On(w.space), Soft, y, dx, th); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		if err := kernel.For("hist", kokkos.Range(0, n).On(w.space), Histogram, dx, bins, nb); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		fence(t, w)
		gy, _ := kokkos.CreateMirrorViewAndCopy(y)
		gb, _ := kokkos.CreateMirrorViewAndCopy(bins)
		want := make([]int64, nb)
		for i := range n {
			v := x.At(i)
			switch {
			case v > th:
				v -= th
			case v < -th:
				v += th
			default:
				v = 0
			}
			if wy := float32(math.Sqrt(math.Abs(v)) + math.Floor(v)); gy.At(i) != wy {
				t.Fatalf("%s: y(%d) = %v, want %v", w.name, i, gy.At(i), wy)
			}
			want[min(max(int(x.At(i)*nb), 0), nb-1)]++
		}
		for b := range nb {
			if gb.At(b) != want[b] {
				t.Fatalf("%s: bin %d = %d, want %d", w.name, b, gb.At(b), want[b])
			}
		}
	}
}

func TestMaxAbs2(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	const n0, n1 = 61, 47
	a, _ := kokkos.NewView2[float64]("a", n0, n1, kokkos.LayoutLeft)
	want := 0.0
	for i := range n0 {
		for j := range n1 {
			v := rng.NormFloat64()
			a.Set(i, j, v)
			want = max(want, math.Abs(v))
		}
	}
	for _, w := range places(t) {
		got, err := kernel.Reduce("maxabs", kokkos.MDRange([]int{0, 0}, []int{n0, n1}).On(w.space), kokkos.Max[float64](), MaxAbs2, at(t, w, a, kokkos.CreateMirror))
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		if got != want {
			t.Fatalf("%s: max |a| = %v, want %v", w.name, got, want)
		}
	}
}

func TestErrors(t *testing.T) {
	a, _ := kokkos.NewView1[float64]("a", 10)
	b, _ := kokkos.NewView1[float64]("b", 10)
	c, _ := kokkos.NewView1[int32]("c", 10)
	plain := func(i int, a kokkos.View1[float64]) {}
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"not generated", kernel.For("x", kokkos.Range(0, 10), plain, a), kernel.ErrNotGenerated},
		{"too few", kernel.For("x", kokkos.Range(0, 10), Triad, a, b), kernel.ErrArgs},
		{"wrong view type", kernel.For("x", kokkos.Range(0, 10), Triad, a, b, c, 1.0), kernel.ErrArgs},
		{"pointer to view", kernel.For("x", kokkos.Range(0, 10), Triad, a, b, &b, 1.0), kernel.ErrArgs},
		{"inexact scalar", kernel.For("x", kokkos.Range(0, 10), Histogram, a, c, 2.5), kernel.ErrArgs},
		{"rank", kernel.For("x", kokkos.MDRange([]int{0, 0}, []int{2, 2}), Triad, a, b, b, 1.0), kernel.ErrArgs},
		{"pattern", kernel.For("x", kokkos.Range(0, 10), Dot, a, b), kernel.ErrArgs},
		{"read-only written", kernel.For("x", kokkos.Range(0, 10), Triad, a.ReadOnly(), b, b, 1.0), kernel.ErrArgs},
	} {
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, tc.err, tc.want)
		}
	}
	if _, err := kernel.Reduce("x", kokkos.Range(0, 10), kokkos.Sum[float32](), Dot, a, b); !errors.Is(err, kernel.ErrArgs) {
		t.Errorf("reducer of another type: %v", err)
	}
	// A scalar converts when its value survives.
	if err := kernel.For("x", kokkos.Range(0, 10), Triad, a, b, b, 2); err != nil {
		t.Errorf("int constant for a float64: %v", err)
	}
}

func TestOutOfBoundsPanics(t *testing.T) {
	x, _ := kokkos.NewView1[float64]("xs", 10)
	bins, _ := kokkos.NewView1[int64]("bins", 4)
	x.Set(3, -5) // bin index clamped: no panic
	if err := kernel.For("hist", kokkos.Range(0, 10), Histogram, x, bins, 4); err != nil {
		t.Fatal(err)
	}
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("no panic for an index past the extent")
		}
		t.Log(r)
	}()
	// nb past the bins' extent: values near 1 land in bin nb-1 = 7 of 4.
	for i := range 10 {
		x.Set(i, 0.99)
	}
	_ = kernel.For("hist", kokkos.Range(0, 10), Histogram, x, bins, 8)
}

// TestEmptyRanges launches each pattern over empty ranges: nothing runs,
// and reductions and scans return the identity.
func TestEmptyRanges(t *testing.T) {
	for _, w := range places(t) {
		a, _ := kokkos.NewView2[float64]("a", 4, 4, kokkos.InSpace(w.mem))
		keep(t, &a)
		v, _ := kokkos.NewView1[float64]("v", 4, kokkos.InSpace(w.mem))
		keep(t, &v)
		iv, _ := kokkos.NewView1[int64]("iv", 4, kokkos.InSpace(w.mem))
		keep(t, &iv)
		for _, p := range []kokkos.MDRangePolicy{
			kokkos.MDRange([]int{0, 0}, []int{0, 4}), kokkos.MDRange([]int{2, 1}, []int{2, 3}), kokkos.MDRange([]int{0, 0}, []int{0, 0}),
		} {
			got, err := kernel.Reduce("empty", p.On(w.space), kokkos.Max[float64](), MaxAbs2, a)
			if err != nil || got != math.Inf(-1) {
				t.Errorf("%s: Reduce over %v: %v, %v; want -Inf", w.name, p, got, err)
			}
			if err := kernel.For("empty", p.On(w.space), SetC, a, v, v); err != nil {
				t.Errorf("%s: For over %v: %v", w.name, p, err)
			}
		}
		r := kokkos.Range(3, 3).On(w.space)
		if got, err := kernel.Reduce("empty", r, kokkos.Sum[float64](), Dot, v, v); err != nil || got != 0 {
			t.Errorf("%s: Reduce over an empty range: %v, %v", w.name, got, err)
		}
		if got, err := kernel.Scan("empty", r, kokkos.Sum[int64](), PrefixSum, iv, iv); err != nil || got != 0 {
			t.Errorf("%s: Scan over an empty range: %v, %v", w.name, got, err)
		}
		fence(t, w)
	}
}

// TestDeviceBounds checks that CheckDeviceBounds makes a device launch
// report an access outside a view.
func TestDeviceBounds(t *testing.T) {
	if err := cuda.Available(); err != nil {
		t.Skipf("CUDA unavailable: %v", err)
	}
	st, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Release()
	x, _ := kokkos.NewView1[float64]("xs", 10, kokkos.InSpace(cuda.Space))
	keep(t, &x)
	bins, _ := kokkos.NewView1[int64]("bins", 4, kokkos.InSpace(cuda.Space))
	keep(t, &bins)
	if err := kokkos.Fill(x, 0.99); err != nil {
		t.Fatal(err)
	}
	kernel.CheckDeviceBounds(true)
	defer kernel.CheckDeviceBounds(false)
	err = kernel.For("hist", kokkos.Range(0, 10).On(st), Histogram, x, bins, 8)
	var be *cuda.BoundsError
	if !errors.As(err, &be) || be.Label != "bins" || be.Extents[0] != 4 {
		t.Fatalf("error %v, want a *cuda.BoundsError for bins", err)
	}
	if err := kernel.For("hist", kokkos.Range(0, 10).On(st), Histogram, x, bins, 4); err != nil {
		t.Fatalf("in bounds: %v", err)
	}
}
