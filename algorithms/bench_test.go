package algorithms

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/gokkos/kokkos"
)

// benchSizes are the benchmarks' numbers of keys; GOKKOS_SORT_BENCH_N
// (an exponent of 2, 26 for the tutorial's 2^26) replaces them with one.
func benchSizes() []int {
	if e, err := strconv.Atoi(os.Getenv("GOKKOS_SORT_BENCH_N")); err == nil {
		return []int{1 << e}
	}
	return []int{1 << 16, 1 << 20, 1 << 24}
}

// benchSort times sort of fresh copies of n random keys of T against
// slices.Sort of the same keys, in the same run.
func benchSort[T kokkos.Number](b *testing.B, gen func(*rand.Rand) T) {
	for _, n := range benchSizes() {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		src := make([]T, n)
		for i := range src {
			src[i] = gen(rng)
		}
		v := kokkos.Must(kokkos.NewView1[T]("keys", n))
		b.Run(fmt.Sprintf("%T/n=%d/Sort", *new(T), n), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				copy(v.Data(), src)
				b.StartTimer()
				if err := Sort(v); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%T/n=%d/slices.Sort", *new(T), n), func(b *testing.B) {
			s := make([]T, n)
			for range b.N {
				b.StopTimer()
				copy(s, src)
				b.StartTimer()
				slices.Sort(s)
			}
		})
	}
}

func BenchmarkSortFloat64(b *testing.B) {
	benchSort(b, func(r *rand.Rand) float64 { return r.Float64() })
}
func BenchmarkSortFloat32(b *testing.B) {
	benchSort(b, func(r *rand.Rand) float32 { return r.Float32() })
}
func BenchmarkSortInt32(b *testing.B) {
	benchSort(b, func(r *rand.Rand) int32 { return int32(r.Uint32()) })
}
func BenchmarkSortUint64(b *testing.B) { benchSort(b, func(r *rand.Rand) uint64 { return r.Uint64() }) }

// BenchmarkSortFunc times SortFunc's parallel merge sort against
// slices.SortStableFunc and slices.SortFunc with the same comparison.
func BenchmarkSortFunc(b *testing.B) {
	for _, n := range benchSizes() {
		rng := rand.New(rand.NewPCG(2, uint64(n)))
		src := make([]float64, n)
		for i := range src {
			src[i] = rng.Float64()
		}
		less := func(a, b float64) bool { return a > b }
		compare := func(a, b float64) int {
			if a > b {
				return -1
			}
			if a < b {
				return 1
			}
			return 0
		}
		v := kokkos.Must(kokkos.NewView1[float64]("keys", n))
		b.Run(fmt.Sprintf("n=%d/SortFunc", n), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				copy(v.Data(), src)
				b.StartTimer()
				if err := SortFunc(v, less); err != nil {
					b.Fatal(err)
				}
			}
		})
		s := make([]float64, n)
		b.Run(fmt.Sprintf("n=%d/slices.SortStableFunc", n), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				copy(s, src)
				b.StartTimer()
				slices.SortStableFunc(s, compare)
			}
		})
		b.Run(fmt.Sprintf("n=%d/slices.SortFunc", n), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				copy(s, src)
				b.StartTimer()
				slices.SortFunc(s, compare)
			}
		})
	}
}
