package kokkos

import "testing"

// The Ref benchmarks time one uncontended atomic update per element of a
// cache-resident view: through Ref, which dispatches on the element type at
// run time, and through AtomicAdd on Ptr, which is compiled per type, on a
// view without the Atomic trait where both work.

func BenchmarkRefAddInt64(b *testing.B) {
	v := Must(NewView1[int64]("ref", smallN*smallN, WithTraits(Atomic)))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			v.Ref(i).Add(1)
		}
	}
}

func BenchmarkAtomicAddPtrInt64(b *testing.B) {
	v := Must(NewView1[int64]("ref", smallN*smallN))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			AtomicAdd(v.Ptr(i), 1)
		}
	}
}

func BenchmarkRefAddFloat64(b *testing.B) {
	v := Must(NewView1[float64]("ref", smallN*smallN, WithTraits(Atomic)))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			v.Ref(i).Add(0.5)
		}
	}
}

func BenchmarkAtomicAddPtrFloat64(b *testing.B) {
	v := Must(NewView1[float64]("ref", smallN*smallN))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			AtomicAdd(v.Ptr(i), 0.5)
		}
	}
}

func BenchmarkRefLoadFloat64(b *testing.B) {
	v := Must(NewView1[float64]("ref", smallN*smallN, WithTraits(Atomic)))
	for b.Loop() {
		s := 0.0
		for i := 0; i < v.Extent(0); i++ {
			s += v.Ref(i).Load()
		}
		sinkF = s
	}
}

// BenchmarkRefIncInt64 times Ref(i).Inc(), against its baseline
// BenchmarkAtomicAddPtrIncInt64, AtomicAdd(v.Ptr(i), 1).
func BenchmarkRefIncInt64(b *testing.B) {
	v := Must(NewView1[int64]("ref", smallN*smallN, WithTraits(Atomic)))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			v.Ref(i).Inc()
		}
	}
}

func BenchmarkAtomicAddPtrIncInt64(b *testing.B) {
	v := Must(NewView1[int64]("ref", smallN*smallN))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			AtomicAdd(v.Ptr(i), 1)
		}
	}
}
