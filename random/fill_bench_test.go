package random

import (
	"testing"

	"github.com/gokkos/kokkos"
)

// BenchmarkFill fills a view of 1M float64 from a pool of the default
// host space.
func BenchmarkFill(b *testing.B) {
	p := must(NewXorShift64Pool(nil, 1))
	v := must(kokkos.NewView1[float64]("v", 1<<20))
	b.SetBytes(8 << 20)
	for b.Loop() {
		if err := FillRange(v, p, 0, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGetState takes and gives back a state and draws one Drand.
func BenchmarkGetState(b *testing.B) {
	p := must(NewXorShift64Pool(nil, 1))
	b.RunParallel(func(pb *testing.PB) {
		s := 0.0
		for pb.Next() {
			g := p.GetState()
			s += g.Drand()
			p.FreeState(g)
		}
		_ = s
	})
}
