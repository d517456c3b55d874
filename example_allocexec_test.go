package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

// A view initialized on an asynchronous instance: the constructor queues
// the initialization behind the instance's earlier work and returns; work
// submitted to the instance afterwards runs after it.
func ExampleWithExec() {
	pool := kokkos.NewThreads(2)
	defer pool.Close()
	inst := pool.NewInstance()

	x, err := kokkos.NewView1[float64]("x", 4, kokkos.WithExec(inst))
	if err != nil {
		panic(err)
	}
	v := x // the closure runs later: it must not see Resize's x
	kokkos.ParallelFor("set", kokkos.Range(0, 4).On(inst), func(i int) { v.Set(i, float64(i*i)) })
	// Resize keeps the elements, its copy and fill ordered on inst too.
	if err := kokkos.Resize(&x, [1]int{6}, kokkos.WithExec(inst)); err != nil {
		panic(err)
	}
	if err := inst.Fence(); err != nil {
		panic(err)
	}
	fmt.Println(x.Data(), x.ExecutionSpace().Name())
	// Output: [0 1 4 9 0 0] Threads
}
