package kokkos_test

import (
	"fmt"
	"sync"

	"github.com/gokkos/kokkos"
)

// The atomic operations come in three forms: AtomicOp returns nothing,
// AtomicFetchOp the old value, AtomicOpFetch the new one.
func ExampleAtomicFetchMul() {
	x := int32(3)
	old := kokkos.AtomicFetchMul(&x, 4)
	now := kokkos.AtomicMulFetch(&x, 2)
	kokkos.AtomicMod(&x, 5)
	fmt.Println(old, now, kokkos.AtomicLoad(&x))
	fmt.Println(kokkos.AtomicFetchLshift(&x, 3), kokkos.AtomicNandFetch(&x, 6))
	// Output:
	// 3 24 4
	// 4 -1
}

func ExampleAtomicIncFetch() {
	var tickets uint16
	seen := make([]bool, 100)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 25 {
				seen[kokkos.AtomicIncFetch(&tickets)-1] = true // each ticket once
			}
		})
	}
	wg.Wait()
	all := true
	for _, s := range seen {
		all = all && s
	}
	fmt.Println(tickets, all)
	// Output: 100 true
}

func ExampleRef_Mul() {
	v := kokkos.Must(kokkos.NewView1[float64]("v", 1, kokkos.WithTraits(kokkos.Atomic)))
	v.Ref(0).Store(1)
	kokkos.ParallelFor("double", kokkos.Range(0, 10), func(int) { v.Ref(0).Mul(2) })
	fmt.Println(v.Ref(0).Load(), v.Ref(0).Dec(), v.Ref(0).Load())
	// Output: 1024 1024 1023
}
