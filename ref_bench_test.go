package kokkos

import "testing"

// The Ref benchmarks time one uncontended atomic update per element of a
// cache-resident view: through Ref, which dispatches on the element type at
// run time, and through AtomicAdd (AtomicSub, AtomicMul) on Ptr, which is
// compiled per type, on a view without the Atomic trait where both work.

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

// BenchmarkRefSubInt64 times Ref(i).Sub(1), against its baseline
// BenchmarkAtomicSubPtrInt64, AtomicSub(v.Ptr(i), 1).
func BenchmarkRefSubInt64(b *testing.B) {
	v := Must(NewView1[int64]("ref", smallN*smallN, WithTraits(Atomic)))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			v.Ref(i).Sub(1)
		}
	}
}

func BenchmarkAtomicSubPtrInt64(b *testing.B) {
	v := Must(NewView1[int64]("ref", smallN*smallN))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			AtomicSub(v.Ptr(i), 1)
		}
	}
}

// BenchmarkRefSubFloat64 times Ref(i).Sub(0.5), against its baseline
// BenchmarkAtomicSubPtrFloat64, AtomicSub(v.Ptr(i), 0.5).
func BenchmarkRefSubFloat64(b *testing.B) {
	v := Must(NewView1[float64]("ref", smallN*smallN, WithTraits(Atomic)))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			v.Ref(i).Sub(0.5)
		}
	}
}

func BenchmarkAtomicSubPtrFloat64(b *testing.B) {
	v := Must(NewView1[float64]("ref", smallN*smallN))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			AtomicSub(v.Ptr(i), 0.5)
		}
	}
}

// BenchmarkRefMulInt64 times Ref(i).Mul(3), against its baseline
// BenchmarkAtomicMulPtrInt64, AtomicMul(v.Ptr(i), 3): a compare-and-swap
// loop either way.
func BenchmarkRefMulInt64(b *testing.B) {
	v := Must(NewView1[int64]("ref", smallN*smallN, WithTraits(Atomic)))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			v.Ref(i).Mul(3)
		}
	}
}

func BenchmarkAtomicMulPtrInt64(b *testing.B) {
	v := Must(NewView1[int64]("ref", smallN*smallN))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			AtomicMul(v.Ptr(i), 3)
		}
	}
}

// BenchmarkRefMulFloat64 times Ref(i).Mul(1.5), against its baseline
// BenchmarkAtomicMulPtrFloat64, AtomicMul(v.Ptr(i), 1.5).
func BenchmarkRefMulFloat64(b *testing.B) {
	v := Must(NewView1[float64]("ref", smallN*smallN, WithTraits(Atomic)))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			v.Ref(i).Mul(1.5)
		}
	}
}

func BenchmarkAtomicMulPtrFloat64(b *testing.B) {
	v := Must(NewView1[float64]("ref", smallN*smallN))
	for b.Loop() {
		for i := 0; i < v.Extent(0); i++ {
			AtomicMul(v.Ptr(i), 1.5)
		}
	}
}
