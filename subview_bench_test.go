package kokkos

import "testing"

// More subview benchmarks next to BenchmarkSubview: a rank-2 subview of a
// rank-3 view, a rank-0 subview of a rank-4 view, and the subviews of an
// offset view, each into a local variable whose extent is read.

func BenchmarkSubview3to2(b *testing.B) {
	v, err := NewView3[float64]("sub3", 64, 64, 64)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w := v.Subview2(i&63, All, Pair(1, 33))
		n += w.Extent(1)
	}
	sinkF = float64(n)
}

func BenchmarkSubview4to0(b *testing.B) {
	v, err := NewView4[float64]("sub4", 8, 8, 8, 8)
	if err != nil {
		b.Fatal(err)
	}
	n := 0.0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w := v.Subview0(i&7, 1, 2, 3)
		n += w.At()
	}
	sinkF = n
}

func BenchmarkSubviewOffset3to2(b *testing.B) {
	o, err := NewOffsetView3[float64]("osub3", Bounds(-1, 62), Bounds(0, 63), Bounds(1, 64))
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w := o.Subview2(i&63-1, All, Pair(1, 33))
		n += w.Extent(1)
	}
	sinkF = float64(n)
}
