package random

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel/kernelcheck"
)

// TestFillKokkos fills views of four element types and ranks (LayoutRight
// and LayoutLeft) from one-state Serial pools, one after the other, as
// kokkos_random.cpp does with fill_random, against Kokkos's values.
func TestFillKokkos(t *testing.T) {
	_, fills, _ := readRef(t)
	want := map[string][]string{} // "pool seed view" → values by flat index
	for _, l := range fills {
		f := strings.Fields(l)
		key := f[1] + " " + f[2] + " " + f[3]
		i, _ := strconv.Atoi(f[4])
		for len(want[key]) <= i {
			want[key] = append(want[key], "")
		}
		want[key][i] = f[5]
	}
	if len(want) != 16 {
		t.Fatalf("%d filled views in the reference, want 16", len(want))
	}
	for _, name := range []string{"xorshift64", "xorshift1024"} {
		for _, seed := range []uint64{0, 981} {
			d := must(kokkos.NewView2[float64]("d", 300, 3))
			n := must(kokkos.NewView1[int32]("n", 260))
			f := must(kokkos.NewView3[float32]("f", 130, 2, 2, kokkos.LayoutLeft))
			u := must(kokkos.NewView1[uint64]("u", 200))
			var errs []error
			if name == "xorshift64" {
				p := must(NewXorShift64Pool(kokkos.Serial{}, seed))
				errs = append(errs, FillRange(d, p, -1.0, 2.0), Fill(n, p, 1000), FillRange(f, p, 0.5, 4), FillRange(u, p, 10, 1<<40))
			} else {
				p := must(NewXorShift1024Pool(kokkos.Serial{}, seed))
				errs = append(errs, FillRange(d, p, -1.0, 2.0), Fill(n, p, 1000), FillRange(f, p, 0.5, 4), FillRange(u, p, 10, 1<<40))
			}
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			got := map[string][]string{}
			pre := fmt.Sprintf("%s %d ", name, seed)
			for i := range 300 {
				for j := range 3 {
					got[pre+"d2"] = append(got[pre+"d2"], strconv.FormatFloat(d.At(i, j), 'x', -1, 64))
				}
			}
			for i := range 260 {
				got[pre+"i1"] = append(got[pre+"i1"], strconv.Itoa(int(n.At(i))))
			}
			for i := range 130 {
				for j := range 2 {
					for k := range 2 {
						got[pre+"f3"] = append(got[pre+"f3"], strconv.FormatFloat(float64(f.At(i, j, k)), 'x', -1, 64))
					}
				}
			}
			for i := range 200 {
				got[pre+"u1"] = append(got[pre+"u1"], strconv.FormatUint(u.At(i), 10))
			}
			for key, g := range got {
				w := want[key]
				if len(w) != len(g) {
					t.Fatalf("%s: %d values, Kokkos %d", key, len(g), len(w))
				}
				bad := 0
				for i := range g {
					if !sameValue(g[i], w[i]) {
						if bad++; bad <= 3 {
							t.Errorf("%s [%d]: %s, Kokkos %s", key, i, g[i], w[i])
						}
					}
				}
			}
		}
	}
}

// sameValue compares a value as Go formats it with one as C prints it
// (floats in %a).
func sameValue(g, w string) bool {
	if g == w {
		return true
	}
	a, err1 := strconv.ParseFloat(g, 64)
	b, err2 := strconv.ParseFloat(w, 64)
	return err1 == nil && err2 == nil && a == b
}

// TestFillParallel fills views from pools of several states on the
// default (parallel) host space and checks the result against serial
// draws: each chunk of 128 rows is a run of consecutive draws of one
// state, the runs of a state tile its draws from the start, and the pool's
// states end advanced by exactly the draws made.
func TestFillParallel(t *testing.T) {
	space := kokkos.DefaultExecutionSpace()
	for _, states := range []int{1, 3, 8} {
		for _, ext := range [][2]int{{128*37 + 5, 1}, {1000, 3}, {127, 2}} {
			p := must(NewXorShift64PoolSize(space, uint64(states*7919+ext[0]), states))
			start := make([]XorShift64, states)
			for i := range start {
				start[i] = p.GetStateAt(i)
			}
			v := must(kokkos.NewView2[float64]("v", ext[0], ext[1]))
			if err := FillRange(v, p, -2.0, 5.0); err != nil {
				t.Fatal(err)
			}
			// Where each value lies among the serial draws of each state.
			total := ext[0] * ext[1]
			type at struct{ s, k int }
			pos := map[float64]at{}
			seq := make([][]float64, states)
			for s := range states {
				g := start[s]
				for k := range total {
					x := g.DrandRange(-2, 5)
					seq[s] = append(seq[s], x)
					pos[x] = at{s, k}
				}
			}
			used := make([][]bool, states)
			for s := range used {
				used[s] = make([]bool, total)
			}
			for c := 0; c*128 < ext[0]; c++ {
				first := v.At(c*128, 0)
				a, ok := pos[first]
				if !ok {
					t.Fatalf("%d states, %v: chunk %d starts with %v, which no state draws", states, ext, c, first)
				}
				k := a.k
				for i := c * 128; i < min(ext[0], (c+1)*128); i++ {
					for j := range ext[1] {
						if x := v.At(i, j); x != seq[a.s][k] || used[a.s][k] {
							t.Fatalf("%d states, %v: v(%d, %d) = %v, want draw %d of state %d, %v (used %v)", states, ext, i, j, x, k, a.s, seq[a.s][k], used[a.s][k])
						}
						used[a.s][k] = true
						k++
					}
				}
			}
			for s := range states {
				m := 0
				for m < total && used[s][m] {
					m++
				}
				for k := m; k < total; k++ {
					if used[s][k] {
						t.Fatalf("%d states, %v: state %d's draws have a gap at %d", states, ext, s, m)
					}
				}
				g := start[s]
				for range m {
					g.DrandRange(-2, 5)
				}
				if h := p.GetStateAt(s); h.State() != g.State() {
					t.Errorf("%d states, %v: state %d ends at %#x, want %#x after its %d draws", states, ext, s, h.State(), g.State(), m)
				}
			}
		}
	}
}

// TestFillTypes fills views of every element type from parallel pools of
// both kinds and checks the range; Fill(v, pool, r) draws what
// FillRange(v, pool, 0, r) does.
func TestFillTypes(t *testing.T) {
	space := kokkos.DefaultExecutionSpace()
	check := func(name string, lo, hi float64, vals []float64, closed bool) {
		t.Helper()
		distinct := map[float64]bool{}
		for i, x := range vals {
			if x < lo || x > hi || x == hi && !closed {
				t.Fatalf("%s: [%d] = %v outside [%v, %v)", name, i, x, lo, hi)
			}
			distinct[x] = true
		}
		if len(distinct) < 5 {
			t.Fatalf("%s: only %d distinct values among %d", name, len(distinct), len(vals))
		}
	}
	p := must(NewXorShift64PoolSize(space, 42, 4))
	q := must(NewXorShift1024PoolSize(space, 42, 4))
	fillCheck(t, "int8", p, q, int8(-20), int8(30), check)
	fillCheck(t, "int16", p, q, int16(-300), int16(3000), check)
	fillCheck(t, "int32", p, q, int32(-7), int32(1<<30), check)
	fillCheck(t, "int64", p, q, int64(-1<<40), int64(1<<50), check)
	fillCheck(t, "int", p, q, -5, 1000, check)
	fillCheck(t, "uint8", p, q, uint8(3), uint8(250), check)
	fillCheck(t, "uint16", p, q, uint16(3), uint16(60000), check)
	fillCheck(t, "uint32", p, q, uint32(3), uint32(4e9), check)
	fillCheck(t, "uint64", p, q, uint64(3), uint64(1<<63), check)
	fillCheck(t, "uint", p, q, uint(3), uint(1e6), check)
	fillCheck(t, "float32", p, q, float32(-1), float32(1), check)
	fillCheck(t, "float64", p, q, -1e3, 1e3, check)

	// The range form is the begin/end form from 0.
	for _, seed := range []uint64{1, 2} {
		a := must(kokkos.NewView1[int32]("a", 300))
		b := must(kokkos.NewView1[int32]("b", 300))
		if err := errors.Join(Fill(a, must(NewXorShift64PoolSize(kokkos.Serial{}, seed, 2)), 77),
			FillRange(b, must(NewXorShift64PoolSize(kokkos.Serial{}, seed, 2)), 0, 77)); err != nil {
			t.Fatal(err)
		}
		for i := range 300 {
			if a.At(i) != b.At(i) {
				t.Fatalf("seed %d: Fill [%d] = %d, FillRange from 0 %d", seed, i, a.At(i), b.At(i))
			}
		}
	}
}

func fillCheck[T kokkos.Number](t *testing.T, name string, p XorShift64Pool, q XorShift1024Pool, lo, hi T, check func(string, float64, float64, []float64, bool)) {
	t.Helper()
	_, float := any(lo).(float32)
	if _, ok := any(lo).(float64); ok {
		float = true
	}
	for k, fill := range []func(kokkos.View[T]) error{
		func(v kokkos.View[T]) error { return FillRange(v, p, lo, hi) },
		func(v kokkos.View[T]) error { return FillRange(v, q, lo, hi) },
	} {
		v := must(kokkos.NewView3[T]("v", 150, 4, 3))
		if err := fill(v); err != nil {
			t.Fatal(err)
		}
		var vals []float64
		for i := range 150 {
			for j := range 4 {
				for l := range 3 {
					vals = append(vals, float64(v.At(i, j, l)))
				}
			}
		}
		check(fmt.Sprintf("%s pool %d", name, k), float64(lo), float64(hi), vals, float)
	}
}

// TestFillErrors: a read-only view, a released one, an empty integer
// range, the zero pool.
func TestFillErrors(t *testing.T) {
	p := must(NewXorShift64PoolSize(kokkos.Serial{}, 1, 1))
	v := must(kokkos.NewView1[float64]("ro", 10))
	if err := FillRange(v.ReadOnly(), p, 0, 1); !errors.Is(err, kokkos.ErrReadOnly) || !strings.Contains(err.Error(), `"ro"`) {
		t.Errorf("read-only view: %v", err)
	}
	w := must(kokkos.NewView1[float64]("gone", 10))
	w.Release()
	if err := FillRange(w, p, 0, 1); !errors.Is(err, kokkos.ErrReleased) || !strings.Contains(err.Error(), `"gone"`) {
		t.Errorf("released view: %v", err)
	}
	n := must(kokkos.NewView1[int32]("ints", 10))
	wantPanic(t, `random: FillRange of view "ints": the range [4, 4) is empty`, func() { FillRange(n, p, 4, 4) })
	wantPanic(t, "random: XorShift64Pool.Fill of the zero XorShift64Pool", func() { Fill(n, XorShift64Pool{}, 3) })
}

// wantPanic checks that f panics with a message that starts with want.
func wantPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if s, _ := r.(string); !strings.HasPrefix(s, want) {
			t.Errorf("panic %v, want one starting %q", r, want)
		}
	}()
	f()
}

// TestKernelsGenerated checks that the generated fill kernels are those
// of the source.
func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }
