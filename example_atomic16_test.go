package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// Atomic views take complex128 and other 16-byte elements: on amd64 each
// Ref operation is one 16-byte compare-and-swap (LOCK CMPXCHG16B), elsewhere
// it holds a lock from a table for the time of one update.
func ExampleRef_Add_complex128() {
	sums := kokkos.Must(kokkos.NewView1[complex128]("sums", 2, kokkos.WithTraits(kokkos.Atomic)))
	kokkos.ParallelFor("accumulate", kokkos.Range(0, 1000), func(i int) {
		sums.Ref(i % 2).Add(complex(1, float64(i)))
	})
	pair := kokkos.Must(kokkos.NewView1[[2]float64]("pair", 1, kokkos.WithTraits(kokkos.Atomic)))
	kokkos.ParallelFor("pairs", kokkos.Range(0, 100), func(i int) {
		pair.Ref(0).Update(func(o [2]float64) [2]float64 { return [2]float64{o[0] + 1, o[1] + o[0]} })
	})
	fmt.Println(sums.Ref(0).Load(), sums.Ref(1).Load(), pair.Ref(0).Load())
	// Output: (500+249500i) (500+250000i) [100 4950]
}
