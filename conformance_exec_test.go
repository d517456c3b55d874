package kokkos_test

import (
	"testing"

	"github.com/gokkos/kokkos"
)

// Kokkos: core/unit_test/TestExecSpacePartitioning.hpp, partitioning_by_args
// and partitioning_by_vector: two instances by weights 1, 1 are distinct,
// their pools share the space's participants, and a reduction on each from
// two goroutines at once gives the sum of 0..3909.
func TestConformanceExecPartitioning(t *testing.T) {
	pool := kokkos.NewThreads(4)
	defer pool.Close()
	for _, weights := range [][]float64{{1, 1}, {0.5, 0.5}} {
		parts, err := kokkos.PartitionSpace(pool, weights...)
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != 2 || parts[0] == parts[1] || parts[0].Concurrency()+parts[1].Concurrency() != pool.Concurrency() {
			t.Fatalf("instances %v", parts)
		}
		const n = 3910
		sums := make(chan int, 2)
		for _, inst := range parts {
			go func() {
				sums <- kokkos.ParallelReduce("sum", kokkos.Range(0, n).On(inst), kokkos.Sum[int](), func(i int, acc *int) { *acc += i })
			}()
		}
		s1, s2 := <-sums, <-sums
		if s1 != s2 || s1 != n*(n-1)/2 {
			t.Errorf("sums %d %d, want %d", s1, s2, n*(n-1)/2)
		}
		for _, inst := range parts {
			if err := inst.Close(); err != nil {
				t.Error(err)
			}
		}
	}
	serial, err := kokkos.PartitionSpace(kokkos.Serial{}, 1, 1)
	if err != nil || len(serial) != 2 {
		t.Fatalf("Serial: %v, %v", serial, err)
	}
}
