package kerneltest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

// The tests of the host code's checks: the kernels of checks.go against
// the functions called directly, on random data, where the accesses in
// loops run unchecked once the loop's test passed, and where they leave
// the views (the checked copies must panic, naming the line); nocheck
// kernels with kernel.CheckHostBounds off and on.

// lineOf returns "checks.go:N", the line of checks.go holding text, the
// n-th such line (from 1).
func lineOf(t *testing.T, text string, n int) string {
	t.Helper()
	src, err := os.ReadFile("checks.go")
	if err != nil {
		t.Fatal(err)
	}
	for k, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, text) {
			if n--; n == 0 {
				return fmt.Sprintf("checks.go:%d", k+1)
			}
		}
	}
	t.Fatalf("%q not found in checks.go", text)
	return ""
}

// mustPanic runs f and checks that it panics with a *kokkos.PanicError at
// where whose message holds each of says.
func mustPanic(t *testing.T, what, where string, f func(), says ...string) {
	t.Helper()
	var got any
	func() {
		defer func() { got = recover() }()
		f()
	}()
	var pe *kokkos.PanicError
	if err, ok := got.(error); !ok || !errors.As(err, &pe) {
		t.Errorf("%s: panic %v, want a *kokkos.PanicError", what, got)
		return
	}
	if pe.Where != where {
		t.Errorf("%s: panic at %q, want at %s (%v)", what, pe.Where, where, pe.Value)
	}
	for _, s := range says {
		if !strings.Contains(fmt.Sprint(pe.Value), s) {
			t.Errorf("%s: panic %q does not say %q", what, pe.Value, s)
		}
	}
}

func TestYAx(t *testing.T) {
	rng := rand.New(rand.NewPCG(201, 1))
	const n, m = 97, 61
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		A := kokkos.Must(kokkos.NewView2[float64]("A", n, m, lay))
		x := kokkos.Must(kokkos.NewView1[float64]("x", m+3))
		fill(A, randFloat[float64](rng, -1, 1))
		fill(x, randFloat[float64](rng, -1, 1))
		for _, cols := range []int{m, m - 7, 0} {
			want := kokkos.Must(kokkos.NewView1[float64]("want", n))
			wantExt := kokkos.Must(kokkos.NewView1[float64]("want", n))
			for i := range n {
				YAx(i, want, A, x, cols)
				YAxExt(i, wantExt, A, x)
			}
			for _, w := range places(t) {
				for _, fn := range []any{YAx, YAxEach} {
					y := kokkos.Must(kokkos.NewView1[float64]("y", n, kokkos.InSpace(w.mem)))
					keep(t, &y)
					if launched(t, w, kernel.For("yax", kokkos.Range(0, n).On(w.space), fn, y, at(t, w, A, kokkos.CreateMirror), at(t, w, x, kokkos.CreateMirror), cols)) {
						check(t, w, fmt.Sprintf("%v, %d columns: y", lay, cols), y, want, 4)
					}
				}
				y := kokkos.Must(kokkos.NewView1[float64]("y", n, kokkos.InSpace(w.mem)))
				keep(t, &y)
				if launched(t, w, kernel.For("yax", kokkos.Range(0, n).On(w.space), YAxExt, y, at(t, w, A, kokkos.CreateMirror), at(t, w, x, kokkos.CreateMirror))) {
					check(t, w, fmt.Sprintf("%v: y over the extent", lay), y, wantExt, 4)
				}
			}
		}
		// More columns than A has: the loop's test fails, and the checked
		// loop panics at the access, naming A.
		y := kokkos.Must(kokkos.NewView1[float64]("y", n))
		where := lineOf(t, "s += A.At(i, j) * x.At(j)", 1)
		for _, s := range []kokkos.ExecutionSpace{nil, kokkos.Serial{}} {
			mustPanic(t, "m past A", where, func() { _ = kernel.For("yax", kokkos.Range(0, n).On(s), YAx, y, A, x, m+1) },
				`label "A"`, fmt.Sprintf(" %d]", m), fmt.Sprintf("extents [%d %d]", n, m))
		}
		// x shorter than A's rows: the test fails on x.
		xs := kokkos.Must(kokkos.NewView1[float64]("short", m-2))
		where = lineOf(t, "s += A.At(i, j) * x.At(j)", 2)
		mustPanic(t, "x short", where, func() { _ = kernel.For("yax", kokkos.Range(0, n), YAxExt, y, A, xs) },
			`label "short"`, fmt.Sprintf("x.At[%d]", m-2), fmt.Sprintf("extents [%d]", m-2))
	}
}

func TestLoopForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(202, 1))
	const n = 300
	const nx = n + 8
	x := kokkos.Must(kokkos.NewView1[int64]("x", nx))
	w2 := kokkos.Must(kokkos.NewView2[int64]("w", 9, 11))
	fill(x, func() int64 { return rng.Int64N(2001) - 1000 })
	fill(w2, func() int64 { return rng.Int64N(2001) - 1000 })
	for _, b := range [][2]int{{0, 0}, {3, 40}, {10, 11}, {7, 149}, {5, 2}} {
		lo, hi := b[0], b[1]
		want := kokkos.Must(kokkos.NewView2[int64]("want", n, 8))
		for i := range n {
			LoopForms(i, x, w2, lo, hi, want)
		}
		for _, w := range places(t) {
			out := kokkos.Must(kokkos.NewView2[int64]("out", n, 8, kokkos.InSpace(w.mem)))
			keep(t, &out)
			if launched(t, w, kernel.For("loopforms", kokkos.Range(0, n).On(w.space), LoopForms, at(t, w, x, kokkos.CreateMirror), at(t, w, w2, kokkos.CreateMirror), lo, hi, out)) {
				check(t, w, fmt.Sprintf("lo %d, hi %d: out", lo, hi), out, want)
			}
		}
	}
	out := kokkos.Must(kokkos.NewView2[int64]("out", n, 8))
	// hi past x: the inclusive loop's access fails first.
	mustPanic(t, "hi past x", lineOf(t, "s0 += x.At(k) * int64(k)", 1), func() {
		_ = kernel.For("loopforms", kokkos.Range(0, n), LoopForms, x, w2, 0, nx, out)
	}, `label "x"`, fmt.Sprintf("x.At[%d]", nx))
	// lo negative: the same loop, at its first index.
	mustPanic(t, "lo negative", lineOf(t, "s0 += x.At(k) * int64(k)", 1), func() {
		_ = kernel.For("loopforms", kokkos.Range(0, n), LoopForms, x, w2, -1, 3, out)
	}, "x.At[-1]")
	// The triangle reads x at i+b-a, up to i+5, which leaves x at its
	// last indices.
	xs := kokkos.Must(kokkos.NewView1[int64]("xs", 20))
	mustPanic(t, "triangle past x", lineOf(t, "s2 += w.At(a, b) * x.At(i+b-a)", 1), func() {
		_ = kernel.For("loopforms", kokkos.Range(0, 30), LoopForms, xs, w2, 0, 0, out)
	}, `label "xs"`)
}

func TestNorm3(t *testing.T) {
	rng := rand.New(rand.NewPCG(203, 1))
	const n = 1000
	par := kokkos.Must(kokkos.NewView2[float64]("par", n, 5))
	fill(par, randFloat[float64](rng, -1, 1))
	for _, c := range []struct {
		name string
		x    func(w where) kokkos.View2[float64]
	}{
		{"right", func(w where) kokkos.View2[float64] {
			v := kokkos.Must(kokkos.NewView2[float64]("x", n, 3, kokkos.InSpace(w.mem)))
			keep(t, &v)
			if err := kokkos.DeepCopy[float64](v, par.Subview2(kokkos.All, kokkos.Pair(1, 4))); err != nil {
				t.Fatal(err)
			}
			return v
		}},
		{"left", func(w where) kokkos.View2[float64] {
			v := kokkos.Must(kokkos.NewView2[float64]("x", n, 3, kokkos.LayoutLeft, kokkos.InSpace(w.mem)))
			keep(t, &v)
			if err := kokkos.DeepCopy[float64](v, par.Subview2(kokkos.All, kokkos.Pair(1, 4))); err != nil {
				t.Fatal(err)
			}
			return v
		}},
		{"columns 1 to 3 of 5", func(w where) kokkos.View2[float64] {
			p := at(t, w, par, kokkos.CreateMirror)
			return p.Subview2(kokkos.All, kokkos.Pair(1, 4))
		}},
	} {
		ref := c.x(refPlace)
		want := kokkos.Must(kokkos.NewView1[float64]("want", n))
		for i := range n {
			Norm3(i, want, ref)
		}
		for _, w := range places(t) {
			r := kokkos.Must(kokkos.NewView1[float64]("r", n, kokkos.InSpace(w.mem)))
			keep(t, &r)
			if launched(t, w, kernel.For("norm3", kokkos.Range(0, n).On(w.space), Norm3, r, c.x(w))) {
				check(t, w, c.name+": r", r, want, 2)
			}
		}
	}
	// An (N, 2) view: the checked copy panics at x.At(i, 2), first at
	// i = 0 when one chunk runs the indices in order (with several, the
	// first to panic may be any chunk's first index).
	x2 := kokkos.Must(kokkos.NewView2[float64]("two", n, 2))
	r := kokkos.Must(kokkos.NewView1[float64]("r", n))
	mustPanic(t, "(N, 2)", lineOf(t, "r.Set(i, math.Sqrt(", 1), func() { _ = kernel.For("norm3", kokkos.Range(0, n).WithChunk(n), Norm3, r, x2) },
		`label "two"`, "x.At[0 2]", fmt.Sprintf("extents [%d 2]", n))
}

// TestForce runs the MD force kernel, checked and nocheck (with
// CheckHostBounds off and on), against the function called directly.
func TestForce(t *testing.T) {
	const n, k = 2000, 24
	for _, lay := range []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft} {
		x, _, neigh := mdSystem(n, k, lay)
		for _, cnt := range []int{k, 5, 0} {
			want := kokkos.Must(kokkos.NewView2[float64]("want", n, 3, lay))
			for i := range n {
				Force(i, want, x, neigh, cnt, 6.25)
			}
			for _, on := range []bool{false, true} {
				was := kernel.CheckHostBounds(on)
				for _, w := range places(t) {
					for _, fn := range []any{Force, ForceNocheck} {
						f := kokkos.Must(kokkos.NewView2[float64]("f", n, 3, lay, kokkos.InSpace(w.mem)))
						keep(t, &f)
						if launched(t, w, kernel.For("force", kokkos.Range(0, n).On(w.space), fn, f, at(t, w, x, kokkos.CreateMirror), at(t, w, neigh, kokkos.CreateMirror), cnt, 6.25)) {
							check(t, w, fmt.Sprintf("%v, %d neighbors, checks %v: f", lay, cnt, on), f, want, 4)
						}
					}
				}
				kernel.CheckHostBounds(was)
			}
		}
	}
}

// TestNocheckChecked: with CheckHostBounds on, a nocheck kernel given an
// index outside a view panics as any kernel does, naming its line, the
// view's label, the indices and the extents; the kernel without nocheck
// panics so whatever the setting.
func TestNocheckChecked(t *testing.T) {
	const n, k = 100, 8
	x, f, neigh := mdSystem(n, k, kokkos.LayoutRight)
	neigh.Set(37, 5, n+4)
	was := kernel.CheckHostBounds(true)
	defer kernel.CheckHostBounds(was)
	if !kernel.CheckHostBounds(true) {
		t.Fatal("CheckHostBounds does not return the former setting")
	}
	want := []string{`label "x"`, fmt.Sprintf("x.At[%d 0]", n+4), fmt.Sprintf("extents [%d 3]", n)}
	mustPanic(t, "nocheck, checks on", lineOf(t, "dx, dy, dz := xi-x.At(j, 0)", 2), func() {
		_ = kernel.For("force", kokkos.Range(0, n), ForceNocheck, f, x, neigh, k, 6.25)
	}, want...)
	kernel.CheckHostBounds(false)
	mustPanic(t, "checked, checks off", lineOf(t, "dx, dy, dz := xi-x.At(j, 0)", 1), func() {
		_ = kernel.For("force", kokkos.Range(0, n).On(kokkos.Serial{}), Force, f, x, neigh, k, 6.25)
	}, want...)
	// A reduction and a kernel over a box, too.
	kernel.CheckHostBounds(true)
	xs := kokkos.Must(kokkos.NewView1[float64]("xs", 10))
	idx := kokkos.Must(kokkos.NewView2[int32]("idx", 20, 4))
	idx.Set(13, 2, 10)
	out := kokkos.Must(kokkos.NewView1[float64]("out", 10))
	mustPanic(t, "gather", lineOf(t, "s += x.At(int(idx.At(i, k)))", 1), func() {
		_, _ = kernel.Reduce("gather", kokkos.Range(0, 20), kokkos.Sum[float64](), GatherNocheck, xs, idx, out)
	}, `label "xs"`, "x.At[10]", "extents [10]")
	o2 := kokkos.Must(kokkos.NewView2[float32]("o2", 20, 4))
	x32 := kokkos.Must(kokkos.NewView1[float32]("x32", 10))
	mustPanic(t, "gather over a box", lineOf(t, "out.Set(i, j, x.At(int(idx.At(i, j))))", 1), func() {
		_ = kernel.For("gather2", kokkos.MDRange([]int{0, 0}, []int{20, 4}), GatherNocheck2, x32, idx, o2)
	}, `label "x32"`, "x.At[10]")
}

// TestNocheckUnchecked: with CheckHostBounds off, a nocheck kernel does
// not check: an index just past a view that is a part of a larger one
// reads the larger one's next element, where the checked code panics.
// (Outside any view, it would be undefined behaviour.)
func TestNocheckUnchecked(t *testing.T) {
	par := kokkos.Must(kokkos.NewView1[float32]("par", 12))
	for i := range 12 {
		par.Set(i, float32(i))
	}
	x := par.Subview1(kokkos.Pair(0, 10))
	idx := kokkos.Must(kokkos.NewView2[int32]("idx", 3, 2))
	for i := range 3 {
		idx.Set(i, 0, int32(i))
		idx.Set(i, 1, int32(9+i%2))
	}
	out := kokkos.Must(kokkos.NewView2[float32]("out", 3, 2))
	was := kernel.CheckHostBounds(false)
	defer kernel.CheckHostBounds(was)
	p := kokkos.MDRange([]int{0, 0}, []int{3, 2})
	if err := kernel.For("gather2", p, GatherNocheck2, x, idx, out); err != nil {
		t.Fatal(err)
	}
	if got := out.At(1, 1); got != 10 {
		t.Errorf("out(1, 1) = %v, want 10, the parent's element after x's last", got)
	}
	kernel.CheckHostBounds(true)
	mustPanic(t, "checks on", lineOf(t, "out.Set(i, j, x.At(int(idx.At(i, j))))", 1), func() {
		_ = kernel.For("gather2", p, GatherNocheck2, x, idx, out)
	}, "x.At[10]", "extents [10]")
}

// TestGatherNocheck runs the nocheck reduction with its atomics and
// stores, and the nocheck kernel over a box, with the checks off and on,
// against the functions called directly (on small integers, so that the
// sums' order does not matter).
func TestGatherNocheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(204, 1))
	const n, k, nx = 500, 6, 77
	x := kokkos.Must(kokkos.NewView1[float64]("x", nx))
	fill(x, func() float64 { return float64(rng.IntN(200) - 100) })
	x32 := kokkos.Must(kokkos.NewView1[float32]("x32", nx))
	fill(x32, func() float32 { return float32(rng.IntN(200) - 100) })
	idx := kokkos.Must(kokkos.NewView2[int32]("idx", n, k, kokkos.LayoutLeft))
	fill(idx, func() int32 { return int32(rng.IntN(nx)) })
	want := kokkos.Must(kokkos.NewView1[float64]("want", nx))
	var wantSum float64
	for i := range n {
		GatherNocheck(i, x, idx, want, &wantSum)
	}
	want2 := kokkos.Must(kokkos.NewView2[float32]("want2", n, k))
	for i := range n {
		for j := range k {
			GatherNocheck2(i, j, x32, idx, want2)
		}
	}
	for _, on := range []bool{false, true} {
		was := kernel.CheckHostBounds(on)
		for _, w := range places(t) {
			out := kokkos.Must(kokkos.NewView1[float64]("out", nx, kokkos.InSpace(w.mem)))
			keep(t, &out)
			sum, err := kernel.Reduce("gather", kokkos.Range(0, n).On(w.space), kokkos.Sum[float64](), GatherNocheck, at(t, w, x, kokkos.CreateMirror), at(t, w, idx, kokkos.CreateMirror), out)
			if launched(t, w, err) {
				check(t, w, fmt.Sprintf("checks %v: out", on), out, want)
				if sum != wantSum {
					t.Errorf("%s, checks %v: sum %v, want %v", w.name, on, sum, wantSum)
				}
			}
			for _, it := range []kokkos.Iterate{kokkos.IterateLeft, kokkos.IterateRight} {
				o2 := kokkos.Must(kokkos.NewView2[float32]("o2", n, k, kokkos.InSpace(w.mem)))
				keep(t, &o2)
				p := kokkos.MDRange([]int{0, 0}, []int{n, k}).Order(it, it).Tile(7, 4).On(w.space)
				if launched(t, w, kernel.For("gather2", p, GatherNocheck2, at(t, w, x32, kokkos.CreateMirror), at(t, w, idx, kokkos.CreateMirror), o2)) {
					check(t, w, fmt.Sprintf("checks %v, %v: o2", on, it), o2, want2)
				}
			}
		}
		kernel.CheckHostBounds(was)
	}
}

func TestMatMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(205, 1))
	const n0, n1, n2 = 37, 29, 41
	a := kokkos.Must(kokkos.NewView2[float64]("a", n0, n1))
	bl := kokkos.Must(kokkos.NewView2[float64]("b", n1, n2, kokkos.LayoutLeft))
	fill(a, randFloat[float64](rng, -1, 1))
	fill(bl, randFloat[float64](rng, -1, 1))
	want := kokkos.Must(kokkos.NewView2[float64]("want", n0, n2))
	for i := range n0 {
		for j := range n2 {
			MatMul(i, j, want, a, bl)
		}
	}
	for _, w := range places(t) {
		for _, it := range []kokkos.Iterate{kokkos.IterateLeft, kokkos.IterateRight} {
			c := kokkos.Must(kokkos.NewView2[float64]("c", n0, n2, kokkos.InSpace(w.mem)))
			keep(t, &c)
			p := kokkos.MDRange([]int{0, 0}, []int{n0, n2}).Order(it, it).Tile(8, 8).On(w.space)
			if launched(t, w, kernel.For("matmul", p, MatMul, c, at(t, w, a, kokkos.CreateMirror), at(t, w, bl, kokkos.CreateMirror))) {
				check(t, w, fmt.Sprintf("%v: c", it), c, want, 4)
			}
		}
	}
	// b of fewer rows than a has columns: the loop's test fails, the
	// checked loop panics at b.
	bs := kokkos.Must(kokkos.NewView2[float64]("bshort", n1-1, n2))
	c := kokkos.Must(kokkos.NewView2[float64]("c", n0, n2))
	mustPanic(t, "b short", lineOf(t, "s += a.At(i, k) * b.At(k, j)", 1), func() {
		_ = kernel.For("matmul", kokkos.MDRange([]int{0, 0}, []int{n0, n2}), MatMul, c, a, bs)
	}, `label "bshort"`, fmt.Sprintf("b.At[%d ", n1-1))
}

func TestHisto(t *testing.T) {
	rng := rand.New(rand.NewPCG(206, 1))
	const n, m = 700, 10
	x := kokkos.Must(kokkos.NewView2[int64]("x", n, m))
	fill(x, func() int64 { return rng.Int64N(201) - 100 })
	wantH := kokkos.Must(kokkos.NewView1[int64]("want", m))
	wantC := kokkos.Must(kokkos.NewView2[int32]("want", n, m))
	for i := range n {
		Histo(i, wantH, x, wantC, 20)
	}
	for _, w := range places(t) {
		h := kokkos.Must(kokkos.NewView1[int64]("h", m, kokkos.InSpace(w.mem)))
		keep(t, &h)
		cnt := kokkos.Must(kokkos.NewView2[int32]("cnt", n, m, kokkos.InSpace(w.mem)))
		keep(t, &cnt)
		if launched(t, w, kernel.For("histo", kokkos.Range(0, n).On(w.space), Histo, h, at(t, w, x, kokkos.CreateMirror), cnt, 20)) {
			check(t, w, "h", h, wantH)
			check(t, w, "cnt", cnt, wantC)
		}
	}
	// h shorter than the rows: the atomic's Ptr panics.
	hs := kokkos.Must(kokkos.NewView1[int64]("hshort", m-1))
	cnt := kokkos.Must(kokkos.NewView2[int32]("cnt", n, m))
	mustPanic(t, "h short", lineOf(t, "kokkos.AtomicAdd(h.Ptr(k), x.At(i, k))", 1), func() {
		_ = kernel.For("histo", kokkos.Range(0, n), Histo, hs, x, cnt, 20)
	}, `label "hshort"`, fmt.Sprintf("h.Ptr[%d]", m-1))
}
