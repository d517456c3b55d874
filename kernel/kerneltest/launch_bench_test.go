package kerneltest

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/kernel"
)

// The launch benchmarks time the host side of package kernel's device
// path without a GPU: kernel.For of Triad (three views and a scalar) over
// a range of 0 indices on backendtest's FakeExecutor, so that only the
// launch runs, against the FakeExecutor's own For of a *backend.Launch
// built beforehand (what kernel.For hands it); their difference is what
// package kernel adds to a launch (the kernel's lookup, the arguments'
// conversion, each view's description, the Launch). "nop" is kernel.For
// to a Launcher that runs nothing, package kernel's part alone.

// recorder is a FakeExecutor that keeps the last Launch of a For.
type recorder struct {
	*backendtest.FakeExecutor
	last   *backend.Launch // a copy of the last launch, its views copied
	shared bool            // two of its arguments shared one description
}

// For records a copy of l, since a Launcher must not keep l after it
// returns (package kernel reuses its memory), then runs it.
func (r *recorder) For(l *backend.Launch) error {
	c := *l
	c.Args = append([]backend.Arg(nil), l.Args...)
	r.shared = false
	for j := range c.Args {
		for k := j + 1; k < len(c.Args); k++ {
			r.shared = r.shared || c.Args[j].View != nil && c.Args[j].View == c.Args[k].View
		}
		if v := c.Args[j].View; v != nil {
			d := *v
			c.Args[j].View = &d
		}
	}
	r.last = &c
	return r.FakeExecutor.For(l)
}

// nopLauncher is a Launcher that runs nothing.
type nopLauncher struct{ *backendtest.FakeExecutor }

func (nopLauncher) For(*backend.Launch) error { return nil }

func BenchmarkDeviceLaunch(b *testing.B) {
	fake := backendtest.FakeDevice(false)
	var vs [3]kokkos.View1[float64]
	for k := range vs {
		v, err := kokkos.NewView1[float64]("v", 64, kokkos.InSpace(fake))
		if err != nil {
			b.Fatal(err)
		}
		vs[k] = v
	}
	rec := &recorder{FakeExecutor: fake.Executor()}
	empty := kokkos.Range(0, 0).On(rec)
	if err := kernel.For("triad", empty, Triad, vs[0], vs[1], vs[2], 2.0); err != nil {
		b.Fatal(err)
	}
	l := rec.last
	if l == nil || l.Shape.Count() != 0 || len(l.Args) != 4 {
		b.Fatalf("recorded launch %+v", l)
	}
	exec := fake.Executor()
	b.Run("kernel.For", func(b *testing.B) {
		p := kokkos.Range(0, 0).On(exec)
		b.ReportAllocs()
		for b.Loop() {
			if err := kernel.For("triad", p, Triad, vs[0], vs[1], vs[2], 2.0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("FakeExecutor.For", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := exec.For(l); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("nop", func(b *testing.B) {
		p := kokkos.Range(0, 0).On(nopLauncher{exec})
		b.ReportAllocs()
		for b.Loop() {
			if err := kernel.For("triad", p, Triad, vs[0], vs[1], vs[2], 2.0); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestDeviceLaunchArgs checks the Launch package kernel hands a Launcher,
// for a kernel of 4 arguments (Triad) and one of 8 (Scalars): each view's
// description is kokkos.Describe's, each its own; each scalar's bits are
// as backend.Arg says; and a read-only view bound to a written parameter
// is refused before the Launcher sees the launch.
func TestDeviceLaunchArgs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	fake := backendtest.FakeDevice(false)
	rec := &recorder{FakeExecutor: fake.Executor()}
	p := kokkos.Range(0, 0).On(rec)
	view := func(n int) kokkos.View1[float64] {
		v, err := kokkos.NewView1[float64]("v", n, kokkos.InSpace(fake))
		if err != nil {
			t.Fatal(err)
		}
		keep(t, &v)
		return v
	}
	a, b, c := view(3+rng.IntN(50)), view(3+rng.IntN(50)), view(3+rng.IntN(50))
	s := rng.NormFloat64()
	if err := kernel.For("triad", p, Triad, a, b.Subview1(kokkos.Pair(1, 3)), c, s); err != nil {
		t.Fatal(err)
	}
	l := rec.last
	want := []kokkos.View1[float64]{a, b.Subview1(kokkos.Pair(1, 3)), c}
	for j, v := range want {
		if got, w := l.Args[j].View, kokkos.Describe(v); got == nil || *got != w || l.Args[j].Kind != backend.KindFloat64 {
			t.Fatalf("triad argument %d: %+v, want %+v", j, l.Args[j], w)
		}
	}
	if rec.shared {
		t.Fatal("triad: two arguments share one description")
	}
	if l.Args[3].View != nil || l.Args[3].Bits != math.Float64bits(s) {
		t.Fatalf("triad scalar: %+v, want the bits of %v", l.Args[3], s)
	}

	out, err := kokkos.NewView1[int64]("out", 8, kokkos.InSpace(fake))
	if err != nil {
		t.Fatal(err)
	}
	keep(t, &out)
	f, err := kokkos.NewView1[float32]("f", 4, kokkos.InSpace(fake))
	if err != nil {
		t.Fatal(err)
	}
	keep(t, &f)
	k, u, sf, n, m := int8(-1-rng.IntN(100)), uint16(rng.Uint32()), float32(rng.NormFloat64()), -rng.IntN(1<<40), rng.Uint64()
	if err := kernel.For("scalars", p, Scalars, out, f, true, k, u, sf, n, m); err != nil {
		t.Fatal(err)
	}
	l = rec.last
	if got, w := l.Args[0].View, kokkos.Describe(out); got == nil || *got != w {
		t.Fatalf("scalars out: %+v, want %+v", got, w)
	}
	if got, w := l.Args[1].View, kokkos.Describe(f); got == nil || *got != w {
		t.Fatalf("scalars f: %+v, want %+v", got, w)
	}
	for j, w := range []uint64{1, uint64(int64(k)), uint64(u), uint64(math.Float32bits(sf)), uint64(n), m} {
		if a := l.Args[2+j]; a.View != nil || a.Bits != w {
			t.Fatalf("scalars argument %d: %+v, want bits %#x", 2+j, a, w)
		}
	}

	rec.last = nil
	if err := kernel.For("triad", p, Triad, a.ReadOnly(), b, c, s); !errors.Is(err, kernel.ErrArgs) || rec.last != nil {
		t.Fatalf("read-only view written: error %v, launched %v; want ErrArgs before the launch", err, rec.last != nil)
	}
}
