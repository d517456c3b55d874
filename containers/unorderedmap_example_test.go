package containers_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

// A global-to-local id map filled by a parallel loop, as in the Kokkos
// tutorial's unordered_map exercise: every body inserts its global id
// with its local index, then the entries are read back by index.
func ExampleUnorderedMap() {
	const n = 1000
	g2l, err := containers.NewUnorderedMap[uint64, int32]("g2l", n)
	if err != nil {
		panic(err)
	}
	global := func(i int) uint64 { return uint64(i)*0x9e3779b97f4a7c15 + 1 }
	kokkos.ParallelFor("fill", kokkos.Range(0, n), func(i int) {
		if r := g2l.Insert(global(i), int32(i)); r.Failed() {
			panic("capacity exceeded")
		}
	})
	errors := kokkos.ParallelReduce("check", kokkos.Range(0, int(g2l.Capacity())), kokkos.Sum[int](), func(x int, acc *int) {
		if i := uint32(x); g2l.ValidAt(i) && global(int(g2l.ValueAt(i))) != g2l.KeyAt(i) {
			*acc++
		}
	})
	fmt.Println("size", g2l.Size(), "capacity", g2l.Capacity(), "errors", errors)
	fmt.Println("local id of global(42):", g2l.ValueAt(g2l.Find(global(42))))
	fmt.Println("exists global(n):", g2l.Exists(global(n)))

	// Counting with the atomic-add insert: existing keys add the value.
	counts, _ := containers.NewUnorderedMap[int32, int64]("counts", 10)
	kokkos.ParallelFor("count", kokkos.Range(0, n), func(i int) {
		counts.InsertOp(int32(i%7), 1, containers.UnorderedMapAtomicAdd[int64]{})
	})
	fmt.Println("count of 3:", counts.ValueAt(counts.Find(3)))
	// Output:
	// size 1000 capacity 1280 errors 0
	// local id of global(42): 42
	// exists global(n): false
	// count of 3: 143
}
