package main

import (
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
	"github.com/gokkos/kokkos/examples/tutorials/internal/tut"
	"github.com/gokkos/kokkos/kernel"
)

// benchSetup returns the program's n×m bins, its histogram and a
// ScatterView of the histogram, at the program's default sizes.
func benchSetup(b *testing.B) (tut.Place, kokkos.View2[int32], kokkos.View1[int32], containers.ScatterView1[containers.ScatterSum, int32]) {
	const n, m = 100000, 100
	place, err := tut.Open(false)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(place.Release)
	v := kokkos.Must(kokkos.NewView2[int32]("V", n, m))
	r := kokkos.Must(kokkos.NewView1[int32]("R", n))
	if err := kernel.For("values", kokkos.MDRange([]int{0, 0}, []int{n, m}), Values, v); err != nil {
		b.Fatal(err)
	}
	sv, err := containers.NewScatterView1[containers.ScatterSum](r)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(sv.Release)
	return place, v, r, sv
}

// BenchmarkScatterView times the program's ScatterView forms (kernel,
// closure) and each phase of the kernel form: ResetExcept of every copy,
// the loop, ContributeInto. Compare with -cpu 1,2 and the C++ program's
// histogram.scatter-view.
func BenchmarkScatterView(b *testing.B) {
	place, v, r, sv := benchSetup(b)
	ro := v.ReadOnly()
	loop := func() {
		if err := kernel.For("ScatterView Loop", kokkos.Range(0, v.Extent(0)), HistScatter, ro, sv); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("kernel", func(b *testing.B) {
		for range b.N {
			if err := scatterView(place, sv, v, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("closure", func(b *testing.B) {
		for range b.N {
			if err := scatterViewClosure(sv, v, r); err != nil {
				b.Fatal(err)
			}
		}
	})
	// touch takes every copy at once, as a loop on every worker does, so
	// that ResetExcept resets them all.
	accs := make([]containers.ScatterAccess1[int32], kokkos.DefaultExecutionSpace().Concurrency())
	touch := func() {
		for k := range accs {
			accs[k] = sv.Access()
			accs[k].Add(k, 1)
		}
		for k := range accs {
			accs[k].Release()
		}
	}
	b.Run("reset", func(b *testing.B) {
		for range b.N {
			b.StopTimer()
			touch()
			b.StartTimer()
			if err := sv.ResetExcept(r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("loop", func(b *testing.B) {
		for range b.N {
			loop()
		}
	})
	b.Run("contribute", func(b *testing.B) {
		loop()
		b.ResetTimer()
		for range b.N {
			if err := sv.ContributeInto(r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
