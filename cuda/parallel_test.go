package cuda_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"

	kokkos "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
	"github.com/gokkos/kokkos/cuda/cudatest"
	"github.com/gokkos/kokkos/internal/testutil"
)

// devicePair allocates a parent view of extents pext and layout kind k in
// cuda.Space and on the host, fills the host one with random values,
// copies it to the device, and returns both parents and their subviews
// args (all when args is nil).
type devicePair[T any] struct {
	host, dev       kokkos.View[T]
	hostSub, devSub kokkos.View[T]
}

func newDevicePair[T any](t *testing.T, rng *rand.Rand, label string, ext []int, k int, sub bool, fill func() T) devicePair[T] {
	t.Helper()
	pext, args := parentOf(rng, ext, sub)
	opts := layoutOpts(rng, k, pext)
	h, err := newViewR[T](label, pext, opts...)
	if err != nil {
		t.Fatal(err)
	}
	d, err := newViewR[T](label, pext, append(opts, kokkos.InSpace(cuda.Space))...)
	if err != nil {
		t.Fatal(err)
	}
	dh := kokkos.DynRankFrom(h)
	data := dh.Data()
	for i := range data {
		data[i] = fill()
	}
	if err := kokkos.DeepCopy(d, h); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { release(t, d) })
	p := devicePair[T]{host: h, dev: d, hostSub: h, devSub: d}
	if sub {
		p.hostSub, p.devSub = subviewR(h, args), subviewR(d, args)
	}
	return p
}

// back copies the device parent to the host parent.
func (p devicePair[T]) back(t *testing.T) {
	t.Helper()
	if err := kokkos.Fence(); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(p.host, p.dev); err != nil {
		t.Fatal(err)
	}
}

// at returns the host subview's element at idx.
func at[T any](v kokkos.View[T], idx []int) *T {
	d := kokkos.DynRankFrom(v)
	data := d.Data()
	return &data[offset(d.Strides(), idx)]
}

// eachInBox calls f for every index of the box [lo, hi).
func eachInBox(lo, hi []int, f func(idx []int)) {
	ext := make([]int, len(lo))
	for d := range lo {
		ext[d] = max(hi[d]-lo[d], 0)
	}
	idx := make([]int, len(lo))
	testutil.ForEachIndex(ext, func(off []int) {
		for d := range off {
			idx[d] = lo[d] + off[d]
		}
		f(idx)
	})
}

// TestParallelForRangeTypes runs y(i) = a * x(i) + y(i) on every element
// type, at lengths that leave partial blocks, and compares with the host.
func TestParallelForRangeTypes(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 31, 1000003} {
		axpyCase[float32](t, rng, n, func() float32 { return float32(rng.NormFloat64()) }, 1.5)
		axpyCase[float64](t, rng, n, rng.NormFloat64, -2.25)
		axpyCase[int32](t, rng, n, func() int32 { return int32(rng.IntN(1<<20)) - 1<<19 }, 3)
		axpyCase[int64](t, rng, n, func() int64 { return rng.Int64N(1<<40) - 1<<39 }, -7)
		axpyCase[uint32](t, rng, n, rng.Uint32, 5)
		axpyCase[uint64](t, rng, n, rng.Uint64, 9)
	}
}

func axpyCase[T cuda.Elem](t *testing.T, rng *rand.Rand, n int, fill func() T, a T) {
	t.Run(fmt.Sprintf("%T/%d", a, n), func(t *testing.T) {
		x := newDevicePair(t, rng, "x", []int{n}, 0, false, fill)
		y := newDevicePair(t, rng, "y", []int{n}, 0, false, fill)
		want := make([]T, n)
		for i := range want {
			want[i] = a*(*at(x.host, []int{i})) + *at(y.host, []int{i})
		}
		xd := x.dev.(kokkos.View1[T])
		if err := cuda.ParallelFor("axpy", kokkos.Range(0, n), "y(i) = a * x(i) + y(i);",
			cuda.Bind("x", xd.ReadOnly()), cuda.Bind("y", y.dev), cuda.Scalar("a", a), cuda.FMAD(false)); err != nil {
			t.Fatal(err)
		}
		y.back(t)
		for i := range want {
			if got := *at(y.host, []int{i}); got != want[i] {
				t.Fatalf("y(%d) = %v, want %v", i, got, want[i])
			}
		}
	})
}

// TestParallelForMD runs an MDRange body of every rank 2 to 6 over views
// of every layout, contiguous or strided subviews, in both iteration
// orders, on a box that starts past 0, and compares every element
// (those outside the box must be unchanged).
func TestParallelForMD(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(3, 4))
	exts := map[int][]int{2: {37, 45}, 3: {9, 17, 5}, 4: {5, 7, 3, 6}, 5: {3, 4, 5, 2, 3}, 6: {2, 3, 4, 2, 3, 5}}
	for r := 2; r <= 6; r++ {
		for k := 0; k < 3; k++ {
			for _, sub := range []bool{false, true} {
				for _, it := range []kokkos.Iterate{kokkos.IterateDefault, kokkos.IterateLeft, kokkos.IterateRight} {
					name := fmt.Sprintf("rank%d/layout%d/sub=%v/%v", r, k, sub, it)
					t.Run(name, func(t *testing.T) {
						ext := exts[r]
						fill := func() float64 { return float64(rng.IntN(1000)) + 0.5 }
						c := newDevicePair(t, rng, "c", ext, k, sub, fill)
						a := newDevicePair(t, rng, "a", ext[:1], 0, false, fill)
						lo, hi := make([]int, r), make([]int, r)
						for d := range lo {
							lo[d], hi[d] = min(1, ext[d]-1), ext[d]
						}
						before := map[string]float64{}
						eachInBox(make([]int, r), ext, func(idx []int) { before[fmt.Sprint(idx)] = *at(c.hostSub, idx) })
						idx := strings.Join([]string{"i0", "i1", "i2", "i3", "i4", "i5"}[:r], ", ")
						f := "i0"
						for d := 1; d < r; d++ {
							f = fmt.Sprintf("(%s * 2 + i%d)", f, d)
						}
						body := fmt.Sprintf("c(%s) = a(i0) * %s + c(%s);", idx, f, idx)
						pol := kokkos.MDRange(lo, hi).Order(kokkos.IterateDefault, it).Tile(append([]int{16, 4}, make([]int, r-2)...)...)
						if err := cuda.ParallelFor("md", pol, body, cuda.Bind("c", c.devSub), cuda.Bind("a", a.dev), cuda.FMAD(false)); err != nil {
							t.Fatal(err)
						}
						c.back(t)
						eachInBox(make([]int, r), ext, func(idx []int) {
							want := before[fmt.Sprint(idx)]
							inside := true
							for d := range idx {
								inside = inside && idx[d] >= lo[d]
							}
							if inside {
								f := 0.0
								for d, i := range idx {
									if d == 0 {
										f = float64(i)
									} else {
										f = f*2 + float64(i)
									}
								}
								want = *at(a.host, idx[:1])*f + want
							}
							if got := *at(c.hostSub, idx); got != want {
								t.Fatalf("c%v = %v, want %v", idx, got, want)
							}
						})
					})
				}
			}
		}
	}
}

// TestParallelReduceReducers compares every built-in reducer with the
// host's on the same random data, and checks that the result is the same
// on every run.
func TestParallelReduceReducers(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 31, 1000003} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			x := newDevicePair(t, rng, "x", []int{n}, 0, false, func() int64 { return rng.Int64N(2001) - 1000 })
			f := newDevicePair(t, rng, "f", []int{n}, 0, false, func() float64 { return rng.NormFloat64() })
			xh, fh := kokkos.DynRankFrom(x.host), kokkos.DynRankFrom(f.host)
			xs, fs := xh.Data(), fh.Data()
			pol := kokkos.Range(0, n)
			bx := cuda.Bind("x", x.dev)
			check := func(name string, got, want any, err error) {
				t.Helper()
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if got != want {
					t.Errorf("%s = %v, want %v", name, got, want)
				}
			}
			var sum, prod int64 = 0, 1
			mn, mx := kokkos.ValLoc[int64, int]{Val: math.MaxInt64}, kokkos.ValLoc[int64, int]{Val: math.MinInt64}
			land, lor := true, false
			for i, v := range xs {
				sum += v
				prod *= v | 1
				if v < mn.Val {
					mn = kokkos.ValLoc[int64, int]{Val: v, Loc: i}
				}
				if v > mx.Val {
					mx = kokkos.ValLoc[int64, int]{Val: v, Loc: i}
				}
				land = land && v > -1000
				lor = lor || v == 999
			}
			got, err := cuda.ParallelReduce("sum", pol, cuda.Sum[int64](), "acc += x(i);", bx)
			check("Sum", got, sum, err)
			got, err = cuda.ParallelReduce("prod", pol, cuda.Prod[int64](), "acc *= x(i) | 1;", bx)
			check("Prod", got, prod, err)
			got, err = cuda.ParallelReduce("min", pol, cuda.Min[int64](), "if (x(i) < acc) acc = x(i);", bx)
			check("Min", got, mn.Val, err)
			got, err = cuda.ParallelReduce("max", pol, cuda.Max[int64](), "if (x(i) > acc) acc = x(i);", bx)
			check("Max", got, mx.Val, err)
			vl, err := cuda.ParallelReduce("minloc", pol, cuda.MinLoc[int64](), "if (x(i) < acc.val) { acc.val = x(i); acc.loc = i; }", bx)
			check("MinLoc", vl, mn, err)
			vl, err = cuda.ParallelReduce("maxloc", pol, cuda.MaxLoc[int64](), "if (x(i) > acc.val) { acc.val = x(i); acc.loc = i; }", bx)
			check("MaxLoc", vl, mx, err)
			b, err := cuda.ParallelReduce("land", pol, cuda.LAnd(), "acc = acc && x(i) > -1000;", bx)
			check("LAnd", b, land, err)
			b, err = cuda.ParallelReduce("lor", pol, cuda.LOr(), "acc = acc || x(i) == 999;", bx)
			check("LOr", b, lor, err)
			xor, err := cuda.ParallelReduce("xor", pol, cuda.Custom[int64]("value = 0;", "dst ^= src;"), "acc ^= x(i) * 7;", bx)
			wantXor := int64(0)
			for _, v := range xs {
				wantXor ^= v * 7
			}
			check("Custom", xor, wantXor, err)

			// Floating point: close to the host's sum, and bit-identical
			// from run to run.
			first, err := cuda.ParallelReduce("fsum", pol, cuda.Sum[float64](), "acc += f(i);", cuda.Bind("f", f.dev))
			if err != nil {
				t.Fatal(err)
			}
			host := 0.0
			for _, v := range fs {
				host += v
			}
			if math.Abs(first-host) > 1e-9*float64(n) {
				t.Errorf("float sum %v, host %v", first, host)
			}
			for k := 0; k < 5; k++ {
				again, err := cuda.ParallelReduce("fsum", pol, cuda.Sum[float64](), "acc += f(i);", cuda.Bind("f", f.dev))
				if err != nil || math.Float64bits(again) != math.Float64bits(first) {
					t.Fatalf("run %d: %v (%v), first %v: not bit-identical", k, again, err, first)
				}
			}
		})
	}
}

// TestParallelReduceMDAndInto reduces over an MDRange and into a rank-0
// device view on a stream.
func TestParallelReduceMDAndInto(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(7, 8))
	c := newDevicePair(t, rng, "c", []int{123, 77, 5}, 1, true, func() int32 { return int32(rng.IntN(100)) })
	want := int32(0)
	eachInBox([]int{0, 0, 0}, []int{123, 77, 5}, func(idx []int) { want += *at(c.hostSub, idx) })
	got, err := cuda.ParallelReduce("md", kokkos.MDRange([]int{0, 0, 0}, []int{123, 77, 5}), cuda.Sum[int32](), "acc += c(i0, i1, i2);", cuda.Bind("c", c.devSub))
	if err != nil || got != want {
		t.Fatalf("MDRange sum = %v (%v), want %v", got, err, want)
	}
	// Empty boxes reduce to the identity.
	for _, hi := range [][]int{{0, 5, 5}, {5, 0, 5}, {5, 5, 0}} {
		got, err := cuda.ParallelReduce("empty", kokkos.MDRange([]int{0, 0, 0}, hi), cuda.Sum[int32](), "acc += c(i0, i1, i2);", cuda.Bind("c", c.devSub))
		if err != nil || got != 0 {
			t.Errorf("empty box %v: %v (%v), want 0", hi, got, err)
		}
		m, err := cuda.ParallelReduce("empty", kokkos.MDRange([]int{0, 0, 0}, hi), cuda.MinLoc[int32](), "acc.val = c(i0, i1, i2);", cuda.Bind("c", c.devSub))
		if err != nil || m.Val != math.MaxInt32 || m.Loc != 0 {
			t.Errorf("empty box %v: MinLoc %v (%v), want the identity", hi, m, err)
		}
	}
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	r, err := kokkos.NewView0[int32]("r", kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	if _, err := cuda.ParallelReduce("into", kokkos.MDRange([]int{0, 0, 0}, []int{123, 77, 5}).On(s), cuda.Sum[int32](),
		"acc += c(i0, i1, i2);", cuda.Bind("c", c.devSub), cuda.ReduceInto(r)); err != nil {
		t.Fatal(err)
	}
	if err := s.Fence(); err != nil {
		t.Fatal(err)
	}
	var v int32
	if err := kokkos.DeepCopyToScalar(&v, r); err != nil || v != want {
		t.Fatalf("ReduceInto: %v (%v), want %v", v, err, want)
	}
}

// TestParallelScan runs inclusive and exclusive scans of odd lengths and
// compares them with the host's.
func TestParallelScan(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 31, 1000, 1000003} {
		for _, inclusive := range []bool{true, false} {
			t.Run(fmt.Sprintf("%d/inclusive=%v", n, inclusive), func(t *testing.T) {
				x := newDevicePair(t, rng, "x", []int{n}, 0, false, func() int64 { return rng.Int64N(1<<20) - 1<<19 })
				y := newDevicePair(t, rng, "y", []int{n}, 0, false, func() int64 { return rng.Int64() })
				body := "acc += x(i); if (final) y(i) = acc;"
				if !inclusive {
					body = "if (final) y(i) = acc; acc += x(i);"
				}
				total, err := cuda.ParallelScan("scan", kokkos.Range(0, n), cuda.Sum[int64](), body, cuda.Bind("x", x.dev), cuda.Bind("y", y.dev))
				if err != nil {
					t.Fatal(err)
				}
				y.back(t)
				xh, yh := kokkos.DynRankFrom(x.host), kokkos.DynRankFrom(y.host)
				xs, ys := xh.Data(), yh.Data()
				acc := int64(0)
				for i, v := range xs {
					if inclusive {
						acc += v
					}
					if ys[i] != acc {
						t.Fatalf("y(%d) = %d, want %d", i, ys[i], acc)
					}
					if !inclusive {
						acc += v
					}
				}
				if total != acc {
					t.Errorf("total %d, want %d", total, acc)
				}
			})
		}
	}
}

// TestAtomicBodies builds a histogram through an Atomic view and through
// Kokkos::atomic_add.
func TestAtomicBodies(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	rng := rand.New(rand.NewPCG(11, 12))
	const n, bins = 100000, 17
	x := newDevicePair(t, rng, "x", []int{n}, 0, false, func() uint32 { return rng.Uint32() })
	h1, err := kokkos.NewView1[uint64]("h1", bins, kokkos.InSpace(cuda.Space), kokkos.WithTraits(kokkos.Atomic))
	if err != nil {
		t.Fatal(err)
	}
	defer h1.Release()
	h2, err := kokkos.NewView1[float64]("h2", bins, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Release()
	if err := cuda.ParallelFor("hist", kokkos.Range(0, n), "h1(x(i) % 17) += 1; Kokkos::atomic_add(&h2(x(i) % 17), 0.5);",
		cuda.Bind("x", x.dev), cuda.Bind("h1", h1), cuda.Bind("h2", h2)); err != nil {
		t.Fatal(err)
	}
	want := make([]uint64, bins)
	xh := kokkos.DynRankFrom(x.host)
	for _, v := range xh.Data() {
		want[v%bins]++
	}
	g1, g2 := make([]uint64, bins), make([]float64, bins)
	w1, _ := kokkos.WrapView1(g1, bins)
	w2, _ := kokkos.WrapView1(g2, bins)
	if err := kokkos.DeepCopy(w2, h2); err != nil {
		t.Fatal(err)
	}
	plain, err := kokkos.NewView1[uint64]("plain", bins, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Release()
	if err := cuda.ParallelFor("copyout", kokkos.Range(0, bins), "plain(i) = h1(i);", cuda.Bind("plain", plain), cuda.Bind("h1", h1)); err != nil {
		t.Fatal(err)
	}
	if err := kokkos.DeepCopy(w1, plain); err != nil {
		t.Fatal(err)
	}
	for b := range want {
		if g1[b] != want[b] || g2[b] != float64(want[b])/2 {
			t.Errorf("bin %d: %d and %v, want %d", b, g1[b], g2[b], want[b])
		}
	}
}

// TestBoundsCheck reports an out-of-range access as a *BoundsError.
func TestBoundsCheck(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	a, err := kokkos.NewView2[float64]("grid", 10, 20, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	err = cuda.ParallelFor("oob", kokkos.Range(0, 10), "a(i, i + 11) = 1;", cuda.Bind("a", a), cuda.CheckBounds())
	var be *cuda.BoundsError
	if !errors.As(err, &be) || !errors.Is(err, cuda.ErrOutOfBounds) {
		t.Fatalf("err = %v, want a *BoundsError", err)
	}
	if be.View != "a" || be.Label != "grid" || be.Kernel != "oob" || len(be.Index) != 2 || be.Index[1] < 20 || be.Extents[1] != 20 {
		t.Errorf("report %+v", be)
	}
	if err := cuda.ParallelFor("ok", kokkos.Range(0, 10), "a(i, i) = 1;", cuda.Bind("a", a), cuda.CheckBounds()); err != nil {
		t.Errorf("in-bounds body: %v", err)
	}
}

// TestBadUse checks the error of each misuse: it names the label and the
// view, and matches its sentinel.
func TestBadUse(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	d, err := kokkos.NewView1[float64]("dev", 8, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	h, _ := kokkos.NewView1[float64]("hostview", 8)
	c, _ := kokkos.NewView1[complex128]("cplx", 8)
	gone, _ := kokkos.NewView1[float64]("gone", 8, kokkos.InSpace(cuda.Space))
	_ = gone.Release()
	r := kokkos.Range(0, 8)
	for _, c := range []struct {
		name, body string
		pol        cuda.Policy
		args       []cuda.Arg
		sentinel   error
		want       []string
	}{
		{"host view", "a(i) = 1;", r, []cuda.Arg{cuda.Bind("a", h)}, cuda.ErrBinding, []string{"hostview", "HostSpace", "DeepCopy"}},
		{"read-only", "a(i) = 1;", r, []cuda.Arg{cuda.Bind("a", d.ReadOnly())}, cuda.ErrCompile, []string{"read-only", "body line 1"}},
		{"rank", "a(i, i) = 1;", r, []cuda.Arg{cuda.Bind("a", d)}, cuda.ErrCompile, []string{"rank", "body line 1"}},
		{"type", "a(i) = 1;", r, []cuda.Arg{cuda.Bind("a", c)}, cuda.ErrBinding, []string{"complex128"}},
		{"name", "a(i) = 1;", r, []cuda.Arg{cuda.Bind("a-b", d)}, cuda.ErrBinding, []string{"a-b", "C identifier", "dev"}},
		{"keyword", "a(i) = 1;", r, []cuda.Arg{cuda.Bind("int", d)}, cuda.ErrBinding, []string{"keyword"}},
		{"twice", "a(i) = 1;", r, []cuda.Arg{cuda.Bind("a", d), cuda.Scalar("a", 1.0)}, cuda.ErrBinding, []string{"twice"}},
		{"unbound", "a(i) = b(i);", r, []cuda.Arg{cuda.Bind("a", d)}, cuda.ErrCompile, []string{`"b" is undefined`, "body line 1"}},
		{"released", "a(i) = 1;", r, []cuda.Arg{cuda.Bind("a", gone)}, kokkos.ErrReleased, []string{"gone"}},
		{"host space", "a(i) = 1;", r.On(kokkos.Serial{}), []cuda.Arg{cuda.Bind("a", d)}, cuda.ErrPolicy, []string{"Serial"}},
		{"rank 7", "", kokkos.MDRange(make([]int, 7), []int{1, 1, 1, 1, 1, 1, 1}), nil, cuda.ErrPolicy, []string{"rank 7"}},
		{"tiles", "", kokkos.MDRange([]int{0, 0}, []int{4, 4}).Tile(64, 64), nil, cuda.ErrPolicy, []string{"1024"}},
	} {
		err := cuda.ParallelFor("bad-"+c.name, c.pol, c.body, c.args...)
		if err == nil || !errors.Is(err, c.sentinel) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.sentinel)
			continue
		}
		msg := err.Error()
		for _, w := range append(c.want, "bad-"+c.name) {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", c.name, msg, w)
			}
		}
	}
}

// TestKernelCacheOnDisk checks that a compiled kernel is stored in the
// cache folder, and that a damaged file there is rebuilt.
func TestKernelCacheOnDisk(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	dir := t.TempDir()
	t.Setenv(cuda.EnvCache, dir)
	if cuda.CacheDir() != dir {
		t.Fatalf("CacheDir %q, want %q", cuda.CacheDir(), dir)
	}
	a, err := kokkos.NewView1[int32]("a", 100, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	body := fmt.Sprintf("a(i) = i * %d;", rand.IntN(1<<20)+7) // a body no earlier run compiled
	if err := cuda.ParallelFor("cached", kokkos.Range(0, 100), body, cuda.Bind("a", a)); err != nil {
		t.Fatal(err)
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Fatalf("cache holds %d files, want 1", len(files))
	}
}

// TestGraphReplay captures two bodies on a stream and replays them.
func TestGraphReplay(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	s, err := cuda.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	const n = 1000
	a, err := kokkos.NewView1[int64]("a", n, kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if err := cuda.ParallelFor("zero", kokkos.Range(0, n).On(s), "a(i) = i;", cuda.Bind("a", a)); err != nil {
		t.Fatal(err)
	}
	g, err := cuda.Capture(s, func() error {
		if err := cuda.ParallelFor("double", kokkos.Range(0, n).On(s), "a(i) *= 2;", cuda.Bind("a", a)); err != nil {
			return err
		}
		return cuda.ParallelFor("inc", kokkos.Range(0, n).On(s), "a(i) += 1;", cuda.Bind("a", a))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Release()
	want := make([]int64, n)
	for i := range want {
		want[i] = int64(i)
	}
	for rep := 0; rep < 3; rep++ {
		if err := g.Launch(); err != nil {
			t.Fatal(err)
		}
		for i := range want {
			want[i] = want[i]*2 + 1
		}
	}
	if err := s.Fence(); err != nil {
		t.Fatal(err)
	}
	got := make([]int64, n)
	w, _ := kokkos.WrapView1(got, n)
	if err := kokkos.DeepCopy(w, a); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("a(%d) = %d after 3 replays, want %d", i, got[i], want[i])
		}
	}
	// A wait inside the capture fails it.
	_, err = cuda.Capture(s, func() error {
		_, err := cuda.ParallelReduce("sum", kokkos.Range(0, n).On(s), cuda.Sum[int64](), "acc += a(i);", cuda.Bind("a", a))
		return err
	})
	if !errors.Is(err, cuda.ErrCapture) {
		t.Errorf("reduction into a Go value inside Capture: %v, want ErrCapture", err)
	}
	if err := s.Fence(); err != nil {
		t.Errorf("stream after a failed capture: %v", err)
	}
}

// BenchmarkLaunchEmpty measures the asynchronous launch of an empty body
// and its allocations.
func BenchmarkLaunchEmpty(b *testing.B) {
	cudatest.RequireDevice(b)
	pol := kokkos.Range(0, 1)
	if err := cuda.ParallelFor("empty", pol, ""); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := cuda.ParallelFor("empty", pol, ""); err != nil {
			b.Fatal(err)
		}
		if i%100 == 99 {
			_ = cuda.Synchronize()
		}
	}
	_ = cuda.Synchronize()
}

// BenchmarkLaunchEmptyRaw is BenchmarkLaunchEmpty's baseline: a bare
// cuLaunchKernel of the same kernel, grid and arguments.
func BenchmarkLaunchEmptyRaw(b *testing.B) {
	cudatest.RequireDevice(b)
	launch, err := cuda.RangeBodyBaseline("", 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := launch(); err != nil {
			b.Fatal(err)
		}
		if i%100 == 99 {
			_ = cuda.Synchronize()
		}
	}
	_ = cuda.Synchronize()
}

// TestReduceIntoWrongType refuses a result view of another element type,
// even of the same size.
func TestReduceIntoWrongType(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	r, err := kokkos.NewView0[int64]("r", kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	_, err = cuda.ParallelReduce("wrong", kokkos.Range(0, 10), cuda.Sum[float64](), "acc += i;", cuda.ReduceInto(r))
	if !errors.Is(err, cuda.ErrBinding) || !strings.Contains(err.Error(), "wrong") {
		t.Errorf("err = %v, want ErrBinding naming the label", err)
	}
	b, err := kokkos.NewView0[bool]("b", kokkos.InSpace(cuda.Space))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if _, err := cuda.ParallelReduce("land", kokkos.Range(0, 10), cuda.LAnd(), "acc = acc && i < 10;", cuda.ReduceInto(b)); err != nil {
		t.Fatal(err)
	}
	var got bool
	if err := kokkos.DeepCopyToScalar(&got, b); err != nil || !got {
		t.Errorf("LAnd into a bool view: %v (%v), want true", got, err)
	}
}

// TestConcurrentPatterns runs reductions and loops from many goroutines at
// once, on the default stream and on streams of their own, sharing the
// compiled programs, the launch buffers and each stream's scratch memory.
func TestConcurrentPatterns(t *testing.T) {
	cudatest.RequireDevice(t)
	cudatest.LeakCheck(t)
	const workers, rounds, n = 8, 20, 4099
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var st *cuda.Stream
			if w%2 == 1 {
				s, err := cuda.NewStream()
				if err != nil {
					errs <- err
					return
				}
				defer s.Release()
				st = s
			}
			pol := kokkos.Range(0, n)
			if st != nil {
				pol = pol.On(st)
			}
			x, err := kokkos.NewView1[int64]("x", n, kokkos.InSpace(cuda.Space))
			if err != nil {
				errs <- err
				return
			}
			defer x.Release()
			for r := range rounds {
				k := int64(w*rounds + r)
				if err := cuda.ParallelFor("set", pol, "x(i) = i * k;", cuda.Bind("x", x), cuda.Scalar("k", k)); err != nil {
					errs <- err
					return
				}
				got, err := cuda.ParallelReduce("sum", pol, cuda.Sum[int64](), "acc += x(i);", cuda.Bind("x", x))
				if err != nil {
					errs <- err
					return
				}
				if want := k * n * (n - 1) / 2; got != want {
					errs <- fmt.Errorf("worker %d round %d: sum %d, want %d", w, r, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
