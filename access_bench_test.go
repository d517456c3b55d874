package kokkos

import "testing"

// The small-access benchmarks run At, Set and Ptr over views that fit in
// the first-level caches (4096 float64 elements), so that they time the
// accessors' checks and index arithmetic rather than memory bandwidth, as
// the Sum benchmarks over 4096×4096 views do. They use only At, Set and Ptr
// on views without traits: the path that must stay as fast as it was.

const smallN = 64

func smallView1(b *testing.B) View1[float64] {
	b.Helper()
	return Must(NewView1[float64]("small", smallN*smallN))
}

func smallView2(b *testing.B) View2[float64] {
	b.Helper()
	return Must(NewView2[float64]("small", smallN, smallN))
}

func smallView3(b *testing.B) View3[float64] {
	b.Helper()
	return Must(NewView3[float64]("small", 16, 16, 16))
}

func BenchmarkSmallAt1(b *testing.B) {
	v := smallView1(b)
	for b.Loop() {
		s := 0.0
		for i := 0; i < v.Extent(0); i++ {
			s += v.At(i)
		}
		sinkF = s
	}
}

func BenchmarkSmallSet1(b *testing.B) {
	v := smallView1(b)
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			v.Set(i, float64(i))
		}
	}
}

func BenchmarkSmallPtr1(b *testing.B) {
	v := smallView1(b)
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			*v.Ptr(i) += 1
		}
	}
}

func BenchmarkSmallAt2(b *testing.B) {
	v := smallView2(b)
	for b.Loop() {
		s := 0.0
		for i := 0; i < v.Extent(0); i++ {
			for j := 0; j < v.Extent(1); j++ {
				s += v.At(i, j)
			}
		}
		sinkF = s
	}
}

func BenchmarkSmallSet2(b *testing.B) {
	v := smallView2(b)
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			for j := 0; j < v.Extent(1); j++ {
				v.Set(i, j, float64(j))
			}
		}
	}
}

func BenchmarkSmallPtr2(b *testing.B) {
	v := smallView2(b)
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			for j := 0; j < v.Extent(1); j++ {
				*v.Ptr(i, j) += 1
			}
		}
	}
}

func BenchmarkSmallAt3(b *testing.B) {
	v := smallView3(b)
	for b.Loop() {
		s := 0.0
		for i := 0; i < v.Extent(0); i++ {
			for j := 0; j < v.Extent(1); j++ {
				for k := 0; k < v.Extent(2); k++ {
					s += v.At(i, j, k)
				}
			}
		}
		sinkF = s
	}
}

func BenchmarkSmallSet3(b *testing.B) {
	v := smallView3(b)
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			for j := 0; j < v.Extent(1); j++ {
				for k := 0; k < v.Extent(2); k++ {
					v.Set(i, j, k, float64(k))
				}
			}
		}
	}
}

func BenchmarkSmallPtr3(b *testing.B) {
	v := smallView3(b)
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			for j := 0; j < v.Extent(1); j++ {
				for k := 0; k < v.Extent(2); k++ {
					*v.Ptr(i, j, k) += 1
				}
			}
		}
	}
}

func BenchmarkSmallOffsetAt2(b *testing.B) {
	o := Must(NewOffsetView2[float64]("small", Bounds(-1, smallN-2), Bounds(1, smallN)))
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

func BenchmarkSmallOffsetSet2(b *testing.B) {
	o := Must(NewOffsetView2[float64]("small", Bounds(-1, smallN-2), Bounds(1, smallN)))
	for b.Loop() {
		for i := o.Begin(0); i < o.End(0); i++ {
			for j := o.Begin(1); j < o.End(1); j++ {
				o.Set(i, j, float64(j))
			}
		}
	}
}

func BenchmarkSmallOffsetPtr2(b *testing.B) {
	o := Must(NewOffsetView2[float64]("small", Bounds(-1, smallN-2), Bounds(1, smallN)))
	for b.Loop() {
		for i := o.Begin(0); i < o.End(0); i++ {
			for j := o.Begin(1); j < o.End(1); j++ {
				*o.Ptr(i, j) += 1
			}
		}
	}
}

func BenchmarkSmallDynAt2(b *testing.B) {
	d := Must(NewDynRankView[float64]("small", []int{smallN, smallN}))
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

func BenchmarkSmallDynSet2(b *testing.B) {
	d := Must(NewDynRankView[float64]("small", []int{smallN, smallN}))
	for b.Loop() {
		for i := 0; i < d.Extent(0); i++ {
			for j := 0; j < d.Extent(1); j++ {
				d.Set2(i, j, float64(j))
			}
		}
	}
}

func BenchmarkSmallDynPtr2(b *testing.B) {
	d := Must(NewDynRankView[float64]("small", []int{smallN, smallN}))
	for b.Loop() {
		for i := 0; i < d.Extent(0); i++ {
			for j := 0; j < d.Extent(1); j++ {
				*d.Ptr2(i, j) += 1
			}
		}
	}
}
