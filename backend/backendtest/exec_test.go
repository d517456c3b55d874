package backendtest_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// The kernels of these tests, as kokkos-kernelgen describes them:
//
//	func Axpy(i int, y, x kokkos.View1[float64], a float64) { y.Set(i, a*x.At(i)+y.At(i)) }
//	func Dot(i int, x, y kokkos.View1[float64], acc *float64) { *acc += x.At(i) * y.At(i) }
//	func Count(i int, x kokkos.View1[int32], lim int32, acc *int64) { if x.At(i) < lim { *acc++ } }
//	func Prefix(i int, x, out kokkos.View1[int32], acc *int32, final bool) { *acc += x.At(i); if final { out.Set(i, *acc) } }
//	func Outer(i, j int, c kokkos.View2[float64], x, y kokkos.View1[float64]) { c.Set(i, j, x.At(i)*y.At(j)) }
var (
	axpy = &backend.Kernel{Name: "t.Axpy", Pattern: backend.PatternFor, Rank: 1,
		Params: []backend.Param{{Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64, Write: true}, {Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "a", Elem: backend.KindFloat64}},
		IR: `kernelir 1
(kernel Axpy for (index i) (view y float64 1 w) (view x float64 1 r) (scalar a float64)
  (body (assign ((at y i)) ((add float64 (mul float64 a (at x i)) (at y i))))))`}
	dot = &backend.Kernel{Name: "t.Dot", Pattern: backend.PatternReduce, Rank: 1, Acc: backend.KindFloat64,
		Params: []backend.Param{{Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64}},
		IR: `kernelir 1
(kernel Dot reduce (index i) (view x float64 1 r) (view y float64 1 r) (acc float64)
  (body (opassign add (acc) (mul float64 (at x i) (at y i)))))`}
	count = &backend.Kernel{Name: "t.Count", Pattern: backend.PatternReduce, Rank: 1, Acc: backend.KindInt64,
		Params: []backend.Param{{Name: "x", View: true, Rank: 1, Elem: backend.KindInt32}, {Name: "lim", Elem: backend.KindInt32}},
		IR: `kernelir 1
(kernel Count reduce (index i) (view x int32 1 r) (scalar lim int32) (acc int64)
  (body (if (lt int32 (at x i) lim) (then (inc (acc))))))`}
	prefix = &backend.Kernel{Name: "t.Prefix", Pattern: backend.PatternScan, Rank: 1, Acc: backend.KindInt32,
		Params: []backend.Param{{Name: "x", View: true, Rank: 1, Elem: backend.KindInt32}, {Name: "out", View: true, Rank: 1, Elem: backend.KindInt32, Write: true}},
		IR: `kernelir 1
(kernel Prefix scan (index i) (view x int32 1 r) (view out int32 1 w) (acc int32) (final f)
  (body (opassign add (acc) (at x i)) (if f (then (assign ((at out i)) ((acc)))))))`}
	outer = &backend.Kernel{Name: "t.Outer", Pattern: backend.PatternFor, Rank: 2,
		Params: []backend.Param{{Name: "c", View: true, Rank: 2, Elem: backend.KindFloat64, Write: true}, {Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64}},
		IR: `kernelir 1
(kernel Outer for (index i j) (view c float64 2 w) (view x float64 1 r) (view y float64 1 r)
  (body (assign ((at c i j)) ((mul float64 (at x i) (at y j))))))`}
)

// onFake returns a copy of host view h in f's memory.
func onFake[V kokkos.View[T], T any](t *testing.T, f *backendtest.Fake, h V, mirror func(V, ...kokkos.Option) (V, error)) V {
	t.Helper()
	d, err := mirror(h, kokkos.InSpace(f))
	if err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy[T](d, h); err != nil {
		t.Fatal(err)
	}
	return d
}

func arg[T any](v kokkos.View[T]) backend.Arg {
	d := kokkos.Describe(v)
	return backend.Arg{View: &d, Kind: d.Elem}
}

// TestFakeExecutor runs each pattern through the contract on the fake
// device and compares with a naive loop on random data.
func TestFakeExecutor(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 31))
	f := backendtest.FakeDevice(false)
	ex := f.Executor()
	const n = 257
	x := kokkos.Must(kokkos.NewView1[float64]("x", n))
	y := kokkos.Must(kokkos.NewView1[float64]("y", n))
	xi := kokkos.Must(kokkos.NewView1[int32]("xi", n))
	for i := range n {
		x.Set(i, rng.NormFloat64())
		y.Set(i, rng.NormFloat64())
		xi.Set(i, rng.Int32N(2001)-1000)
	}
	dx, dy, dxi := onFake(t, f, x, kokkos.CreateMirror), onFake(t, f, y, kokkos.CreateMirror), onFake(t, f, xi, kokkos.CreateMirror)

	// For: y = 1.5 x + y.
	l := &backend.Launch{Label: "axpy", Kernel: axpy, Shape: shape1(n), Args: []backend.Arg{arg(&dy), arg(&dx), {Kind: backend.KindFloat64, Bits: math.Float64bits(1.5)}}}
	if err := ex.For(l); err != nil {
		t.Fatal(err)
	}
	got := kokkos.Must(kokkos.CreateMirrorViewAndCopy(dy, kokkos.InSpace(kokkos.HostSpace)))
	for i := range n {
		if want := 1.5*x.At(i) + y.At(i); got.At(i) != want {
			t.Fatalf("axpy[%d] = %v, want %v", i, got.At(i), want)
		}
	}

	// Reduce: the dot product, summed in index order.
	bits, err := ex.Reduce(&backend.Launch{Label: "dot", Kernel: dot, Shape: shape1(n), Args: []backend.Arg{arg(&dx), arg(&dx)}}, backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindFloat64})
	want := 0.0
	for i := range n {
		want += x.At(i) * x.At(i)
	}
	if err != nil || math.Float64frombits(bits) != want {
		t.Fatalf("dot = %v, %v; want %v", math.Float64frombits(bits), err, want)
	}
	bits, err = ex.Reduce(&backend.Launch{Label: "count", Kernel: count, Shape: shape1(n), Args: []backend.Arg{arg(&dxi), {Kind: backend.KindInt32, Bits: bitsOf(-17)}}}, backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindInt64})
	wantN := int64(0)
	for i := range n {
		if xi.At(i) < -17 {
			wantN++
		}
	}
	if err != nil || int64(bits) != wantN {
		t.Fatalf("count = %d, %v; want %d", int64(bits), err, wantN)
	}

	// Scan: inclusive prefix sums and their total.
	out := kokkos.Must(kokkos.NewView1[int32]("out", n, kokkos.InSpace(f)))
	bits, err = ex.Scan(&backend.Launch{Label: "prefix", Kernel: prefix, Shape: shape1(n), Args: []backend.Arg{arg(&dxi), arg(&out)}}, backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindInt32})
	if err != nil {
		t.Fatal(err)
	}
	gotOut := kokkos.Must(kokkos.CreateMirrorViewAndCopy(out, kokkos.InSpace(kokkos.HostSpace)))
	sum := int32(0)
	for i := range n {
		sum += xi.At(i)
		if gotOut.At(i) != sum {
			t.Fatalf("prefix[%d] = %d, want %d", i, gotOut.At(i), sum)
		}
	}
	if int32(bits) != sum {
		t.Fatalf("scan total %d, want %d", int32(bits), sum)
	}

	// MDRange: an outer product over a box that starts past 0, LayoutLeft.
	c := kokkos.Must(kokkos.NewView2[float64]("c", n, 9, kokkos.InSpace(f), kokkos.LayoutLeft))
	sh := backend.Shape{Rank: 2}
	sh.Lower, sh.Upper = [6]int{3, 2}, [6]int{n, 9}
	if err := ex.For(&backend.Launch{Label: "outer", Kernel: outer, Shape: sh, Args: []backend.Arg{arg(&c), arg(&dx), arg(&dy)}}); err != nil {
		t.Fatal(err)
	}
	gotC := kokkos.Must(kokkos.CreateMirrorViewAndCopy(c, kokkos.InSpace(kokkos.HostSpace)))
	yNow := got
	for i := range n {
		for j := range 9 {
			want := 0.0
			if i >= 3 && j >= 2 {
				want = x.At(i) * yNow.At(j)
			}
			if gotC.At(i, j) != want {
				t.Fatalf("outer[%d,%d] = %v, want %v", i, j, gotC.At(i, j), want)
			}
		}
	}
	if ex.Launches() != 5 {
		t.Errorf("Launches() = %d, want 5", ex.Launches())
	}
}

func bitsOf(x int64) uint64 { return uint64(x) }

func shape1(n int) backend.Shape {
	s := backend.Shape{Rank: 1}
	s.Upper[0] = n
	return s
}

// TestFakeExecutorRefuses checks what the contract says a Launcher must
// refuse: memory of another space, a released view, a read-only view the
// kernel writes, a kernel without a description.
func TestFakeExecutorRefuses(t *testing.T) {
	f := backendtest.FakeDevice(false)
	ex := f.Executor()
	host := kokkos.Must(kokkos.NewView1[float64]("host", 4))
	dev := kokkos.Must(kokkos.NewView1[float64]("dev", 4, kokkos.InSpace(f)))
	gone := kokkos.Must(kokkos.NewView1[float64]("gone", 4, kokkos.InSpace(f)))
	goneArg := arg(&gone)
	if err := gone.Release(); err != nil {
		t.Fatal(err)
	}
	ro := dev.ReadOnly()
	a := backend.Arg{Kind: backend.KindFloat64, Bits: math.Float64bits(2)}
	for _, c := range []struct {
		name string
		l    *backend.Launch
		is   error
		says string
	}{
		{"host view", &backend.Launch{Label: "h", Kernel: axpy, Shape: shape1(4), Args: []backend.Arg{arg(&host), arg(&dev), a}}, backendtest.ErrNotFake, `"host"`},
		{"released", &backend.Launch{Label: "r", Kernel: axpy, Shape: shape1(4), Args: []backend.Arg{goneArg, arg(&dev), a}}, backend.ErrReleased, `"gone"`},
		{"read-only", &backend.Launch{Label: "w", Kernel: axpy, Shape: shape1(4), Args: []backend.Arg{arg(&ro), arg(&dev), a}}, nil, "read-only"},
		{"no description", &backend.Launch{Label: "n", Kernel: &backend.Kernel{Name: "t.None", Rank: 1, NoDevice: "view a has elements of type complex128"}, Shape: shape1(4)}, backend.ErrUnsupported, "complex128"},
	} {
		err := ex.For(c.l)
		if err == nil || c.is != nil && !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: error %v, want one wrapping %v saying %q", c.name, err, c.is, c.says)
		}
	}
}
