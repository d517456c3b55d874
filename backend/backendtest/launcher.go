package backendtest

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// The kernels of TestLauncher, as kokkos-kernelgen describes them:
//
//	func Axpy(i int, y, x kokkos.View1[float64], a float64) { y.Set(i, a*x.At(i)+y.At(i)) }
//	func Dot(i int, x, y kokkos.View1[float64], acc *float64) { *acc += x.At(i) * y.At(i) }
//	func Largest(i int, x kokkos.View1[float64], acc *float64) { *acc = max(*acc, x.At(i)) }
//	func Count(i int, x kokkos.View1[int32], lim int32, acc *int64) { if x.At(i) < lim { *acc++ } }
//	func Prefix(i int, x, out kokkos.View1[int32], acc *int32, final bool) { *acc += x.At(i); if final { out.Set(i, *acc) } }
//	func Outer(i, j int, c kokkos.View2[float64], x, y kokkos.View1[float64]) { c.Set(i, j, x.At(i)*y.At(j)) }
var (
	kAxpy = &backend.Kernel{Name: "backendtest.Axpy", Pattern: backend.PatternFor, Rank: 1,
		Params: []backend.Param{{Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64, Write: true}, {Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "a", Elem: backend.KindFloat64}},
		IR: `kernelir 1
(kernel Axpy for (index i) (view y float64 1 w) (view x float64 1 r) (scalar a float64)
  (body (assign ((at y i)) ((add float64 (mul float64 a (at x i)) (at y i))))))`}
	kDot = &backend.Kernel{Name: "backendtest.Dot", Pattern: backend.PatternReduce, Rank: 1, Acc: backend.KindFloat64,
		Params: []backend.Param{{Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64}},
		IR: `kernelir 1
(kernel Dot reduce (index i) (view x float64 1 r) (view y float64 1 r) (acc float64)
  (body (opassign add (acc) (mul float64 (at x i) (at y i)))))`}
	kLargest = &backend.Kernel{Name: "backendtest.Largest", Pattern: backend.PatternReduce, Rank: 1, Acc: backend.KindFloat64,
		Params: []backend.Param{{Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}},
		IR: `kernelir 1
(kernel Largest reduce (index i) (view x float64 1 r) (acc float64)
  (body (assign ((acc)) ((max float64 (acc) (at x i))))))`}
	kCount = &backend.Kernel{Name: "backendtest.Count", Pattern: backend.PatternReduce, Rank: 1, Acc: backend.KindInt64,
		Params: []backend.Param{{Name: "x", View: true, Rank: 1, Elem: backend.KindInt32}, {Name: "lim", Elem: backend.KindInt32}},
		IR: `kernelir 1
(kernel Count reduce (index i) (view x int32 1 r) (scalar lim int32) (acc int64)
  (body (if (lt int32 (at x i) lim) (then (inc (acc))))))`}
	kPrefix = &backend.Kernel{Name: "backendtest.Prefix", Pattern: backend.PatternScan, Rank: 1, Acc: backend.KindInt32,
		Params: []backend.Param{{Name: "x", View: true, Rank: 1, Elem: backend.KindInt32}, {Name: "out", View: true, Rank: 1, Elem: backend.KindInt32, Write: true}},
		IR: `kernelir 1
(kernel Prefix scan (index i) (view x int32 1 r) (view out int32 1 w) (acc int32) (final f)
  (body (opassign add (acc) (at x i)) (if f (then (assign ((at out i)) ((acc)))))))`}
	kOuter = &backend.Kernel{Name: "backendtest.Outer", Pattern: backend.PatternFor, Rank: 2,
		Params: []backend.Param{{Name: "c", View: true, Rank: 2, Elem: backend.KindFloat64, Write: true}, {Name: "x", View: true, Rank: 1, Elem: backend.KindFloat64}, {Name: "y", View: true, Rank: 1, Elem: backend.KindFloat64}},
		IR: `kernelir 1
(kernel Outer for (index i j) (view c float64 2 w) (view x float64 1 r) (view y float64 1 r)
  (body (assign ((at c i j)) ((mul float64 (at x i) (at y j))))))`}
)

// TestLauncher checks that l, an execution-space instance, runs kernels as
// the contract says over memory of space, which must be a CopySpace or
// host-accessible (l's own memory: a Fake for a FakeExecutor, device
// memory for a stream): For over a range and over a rank-2 box that does
// not start at 0, with a view of the first index fastest; Reduce with Sum
// (within a relative 1e-12, as the order of joins is the backend's), Max
// and an integer count (exactly); Scan's values and total (exactly); a
// kernel with a unique token (each index holds an id in range that no
// other holds at the same time); and the refusals: a released view, a read-only view the kernel writes, a
// view of another space, a kernel without a description. Each run draws
// fresh random data.
func TestLauncher(t *testing.T, l backend.Launcher, space backend.BlockSpace) {
	t.Helper()
	m := &lmem{space: space, cs: nil}
	m.cs, _ = space.(backend.CopySpace)
	if m.cs == nil && !space.HostAccessible() {
		t.Fatalf("space %s is neither host-accessible nor a CopySpace", space.Name())
	}
	rng := rand.New(rand.NewPCG(rand.Uint64(), 17))
	const n = 1031
	x, y := make([]float64, n), make([]float64, n)
	xi := make([]int32, n)
	for i := range n {
		x[i], y[i], xi[i] = rng.NormFloat64(), rng.NormFloat64(), rng.Int32N(2001)-1000
	}
	dx, dy, dxi := upload(t, m, "x", x), upload(t, m, "y", y), upload(t, m, "xi", xi)
	fence := func() {
		t.Helper()
		if err := l.Fence(); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("For", func(t *testing.T) {
		out := upload(t, m, "axpy", y)
		a := rng.NormFloat64()
		if err := l.For(&backend.Launch{Label: "axpy", Kernel: kAxpy, Shape: rangeShape(n), Args: []backend.Arg{out.arg(), dx.arg(), f64(a)}}); err != nil {
			t.Fatal(err)
		}
		fence()
		got := download[float64](t, m, out)
		for i := range n {
			if want := a*x[i] + y[i]; got[i] != want {
				t.Fatalf("axpy[%d] = %v, want %v", i, got[i], want)
			}
		}
	})
	t.Run("MDRange", func(t *testing.T) {
		const n1 = 9
		c := upload(t, m, "c", make([]float64, n*n1))
		c.v.Rank, c.v.Extents, c.v.Strides = 2, [backend.MaxRank]int{n, n1}, [backend.MaxRank]int{1, n}
		s := backend.Shape{Rank: 2, Lower: [6]int{3, 2}, Upper: [6]int{n, n1}}
		if err := l.For(&backend.Launch{Label: "outer", Kernel: kOuter, Shape: s, Args: []backend.Arg{c.arg(), dx.arg(), dy.arg()}}); err != nil {
			t.Fatal(err)
		}
		fence()
		got := download[float64](t, m, c)
		for j := range n1 {
			for i := range n {
				want := 0.0
				if i >= 3 && j >= 2 {
					want = x[i] * y[j]
				}
				if got[i+j*n] != want {
					t.Fatalf("outer[%d,%d] = %v, want %v", i, j, got[i+j*n], want)
				}
			}
		}
	})
	t.Run("Reduce", func(t *testing.T) {
		bits, err := l.Reduce(&backend.Launch{Label: "dot", Kernel: kDot, Shape: rangeShape(n), Args: []backend.Arg{dx.arg(), dy.arg()}}, backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindFloat64})
		want, mag := 0.0, 0.0
		for i := range n {
			want += x[i] * y[i]
			mag += math.Abs(x[i] * y[i])
		}
		if got := math.Float64frombits(bits); err != nil || math.Abs(got-want) > 1e-12*mag {
			t.Errorf("dot = %v, %v; want %v", got, err, want)
		}
		bits, err = l.Reduce(&backend.Launch{Label: "largest", Kernel: kLargest, Shape: rangeShape(n), Args: []backend.Arg{dx.arg()}}, backend.Reduction{Op: backend.ReduceMax, Kind: backend.KindFloat64})
		big := math.Inf(-1)
		for _, v := range x {
			big = max(big, v)
		}
		if got := math.Float64frombits(bits); err != nil || got != big {
			t.Errorf("largest = %v, %v; want %v", got, err, big)
		}
		lim := rng.Int32N(2001) - 1000
		bits, err = l.Reduce(&backend.Launch{Label: "count", Kernel: kCount, Shape: rangeShape(n), Args: []backend.Arg{dxi.arg(), {Kind: backend.KindInt32, Bits: uint64(int64(lim))}}}, backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindInt64})
		wantN := int64(0)
		for _, v := range xi {
			if v < lim {
				wantN++
			}
		}
		if err != nil || int64(bits) != wantN {
			t.Errorf("count below %d = %d, %v; want %d", lim, int64(bits), err, wantN)
		}
	})
	t.Run("Scan", func(t *testing.T) {
		out := upload(t, m, "prefix", make([]int32, n))
		bits, err := l.Scan(&backend.Launch{Label: "prefix", Kernel: kPrefix, Shape: rangeShape(n), Args: []backend.Arg{dxi.arg(), out.arg()}}, backend.Reduction{Op: backend.ReduceSum, Kind: backend.KindInt32})
		if err != nil {
			t.Fatal(err)
		}
		fence()
		got := download[int32](t, m, out)
		sum := int32(0)
		for i := range n {
			sum += xi[i]
			if got[i] != sum {
				t.Fatalf("prefix[%d] = %d, want %d", i, got[i], sum)
			}
		}
		if int32(bits) != sum {
			t.Errorf("scan total %d, want %d", int32(bits), sum)
		}
	})
	t.Run("Token", func(t *testing.T) { launcherToken(t, l, m, n) })
	t.Run("Refusals", func(t *testing.T) {
		a := f64(2)
		gone := *dy
		gone.v.Owner = released{}
		ro := *dy
		ro.v.ReadOnly = true
		other := *dy
		other.v.Space = otherSpace{}
		for _, c := range []struct {
			name string
			l    *backend.Launch
			is   error
			says string
		}{
			{"released", &backend.Launch{Label: "r", Kernel: kAxpy, Shape: rangeShape(4), Args: []backend.Arg{gone.arg(), dx.arg(), a}}, backend.ErrReleased, "released"},
			{"read-only", &backend.Launch{Label: "w", Kernel: kAxpy, Shape: rangeShape(4), Args: []backend.Arg{ro.arg(), dx.arg(), a}}, nil, "read-only"},
			{"another space", &backend.Launch{Label: "s", Kernel: kAxpy, Shape: rangeShape(4), Args: []backend.Arg{other.arg(), dx.arg(), a}}, nil, "OtherSpace"},
			{"no description", &backend.Launch{Label: "n", Kernel: &backend.Kernel{Name: "backendtest.None", Rank: 1, NoDevice: "view a has elements of type complex128"}, Shape: rangeShape(4)}, backend.ErrUnsupported, "complex128"},
		} {
			err := l.For(c.l)
			if err == nil {
				err = l.Fence()
			}
			if err == nil || c.is != nil && !errors.Is(err, c.is) || !strings.Contains(err.Error(), c.says) {
				t.Errorf("%s: error %v, want one wrapping %v saying %q", c.name, err, c.is, c.says)
			}
		}
	})
}

// lmem is the memory TestLauncher allocates and copies through.
type lmem struct {
	space backend.BlockSpace
	cs    backend.CopySpace
}

// lview is a rank-1 view of a block, described for a launch.
type lview struct {
	b backend.Block
	v backend.View
}

func (v *lview) arg() backend.Arg { return backend.Arg{View: &v.v, Kind: v.v.Elem} }

func f64(x float64) backend.Arg {
	return backend.Arg{Kind: backend.KindFloat64, Bits: math.Float64bits(x)}
}

func rangeShape(n int) backend.Shape {
	s := backend.Shape{Rank: 1}
	s.Upper[0] = n
	return s
}

// upload copies data into a new block of m's space and describes it as a
// rank-1 view; the block is freed when the test ends.
func upload[T int32 | float64](t *testing.T, m *lmem, label string, data []T) *lview {
	t.Helper()
	size := int(unsafe.Sizeof(data[0]))
	b, err := m.space.Allocate(label, len(data)*size, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Free() })
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&data[0])), len(data)*size)
	if b.Host != nil {
		copy(unsafe.Slice((*byte)(b.Host), len(raw)), raw)
	} else {
		var p runtime.Pinner
		p.Pin(&raw[0])
		err := m.cs.CopyBytes(backend.Endpoint{Space: m.space, Addr: b.Addr}, backend.Endpoint{Host: unsafe.Pointer(&raw[0])}, len(raw))
		p.Unpin()
		if err != nil {
			t.Fatal(err)
		}
	}
	v := &lview{b: b, v: backend.View{Label: label, Space: m.space, Addr: b.Addr, Host: b.Host, Rank: 1, ElemSize: size, Elem: backend.KindOf(reflect.TypeOf(data[0]))}}
	v.v.Extents[0], v.v.Strides[0] = len(data), 1
	return v
}

// download returns the elements of v's span.
func download[T int32 | float64](t *testing.T, m *lmem, v *lview) []T {
	t.Helper()
	n := 1
	for r := range v.v.Rank {
		n += (v.v.Extents[r] - 1) * v.v.Strides[r]
	}
	out := make([]T, n)
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), n*v.v.ElemSize)
	if v.b.Host != nil {
		copy(raw, unsafe.Slice((*byte)(v.b.Host), len(raw)))
		return out
	}
	var p runtime.Pinner
	p.Pin(&raw[0])
	defer p.Unpin()
	if err := m.cs.CopyBytes(backend.Endpoint{Host: unsafe.Pointer(&raw[0])}, backend.Endpoint{Space: m.space, Addr: v.b.Addr}, len(raw)); err != nil {
		t.Fatal(err)
	}
	return out
}

// released is the Owner of a view after its final Release.
type released struct{}

func (released) Released() bool { return true }

// otherSpace is a space no backend owns.
type otherSpace struct{}

func (otherSpace) Name() string         { return "OtherSpace" }
func (otherSpace) HostAccessible() bool { return false }
