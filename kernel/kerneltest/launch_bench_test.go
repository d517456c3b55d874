package kerneltest

import (
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
	last *backend.Launch
}

func (r *recorder) For(l *backend.Launch) error {
	r.last = l
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
