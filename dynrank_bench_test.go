package kokkos

import "testing"

// These benchmarks sum the same 4096×4096 and 256×256×256 float64 views as
// view_bench_test.go through a DynRankView and through an OffsetView, each
// next to the rank-typed view in the same run: compare
// BenchmarkDynSum2At2 and BenchmarkOffsetSum2At with BenchmarkSum2ViewRight,
// and the Sum3 ones with BenchmarkSum3ViewRight.

func BenchmarkDynSum2At2(b *testing.B) {
	d := DynRankFrom[float64](benchView2(b, LayoutRight))
	for b.Loop() {
		s := 0.0
		for i := 0; i < d.Extent(0); i++ {
			for j := 0; j < d.Extent(1); j++ {
				s += d.At2(i, j)
			}
		}
		sinkF = s
	}
}

func BenchmarkDynSum2At(b *testing.B) {
	d := DynRankFrom[float64](benchView2(b, LayoutRight))
	for b.Loop() {
		s := 0.0
		for i := 0; i < d.Extent(0); i++ {
			for j := 0; j < d.Extent(1); j++ {
				s += d.At(i, j)
			}
		}
		sinkF = s
	}
}

func BenchmarkOffsetSum2At(b *testing.B) {
	o, err := OffsetView2Of(benchView2(b, LayoutRight), [2]int{-3, 5})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s := 0.0
		for i := o.Begin(0); i < o.End(0); i++ {
			for j := o.Begin(1); j < o.End(1); j++ {
				s += o.At(i, j)
			}
		}
		sinkF = s
	}
}

func BenchmarkDynSum3At3(b *testing.B) {
	d := DynRankFrom[float64](benchView3(b, LayoutRight))
	for b.Loop() {
		s := 0.0
		for i := 0; i < d.Extent(0); i++ {
			for j := 0; j < d.Extent(1); j++ {
				for k := 0; k < d.Extent(2); k++ {
					s += d.At3(i, j, k)
				}
			}
		}
		sinkF = s
	}
}

func BenchmarkOffsetSum3At(b *testing.B) {
	o, err := OffsetView3Of(benchView3(b, LayoutRight), [3]int{-1, 0, 7})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s := 0.0
		for i := o.Begin(0); i < o.End(0); i++ {
			for j := o.Begin(1); j < o.End(1); j++ {
				for k := o.Begin(2); k < o.End(2); k++ {
					s += o.At(i, j, k)
				}
			}
		}
		sinkF = s
	}
}
