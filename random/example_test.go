package random_test

import (
	"fmt"
	"math"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/random"
)

// A pool of one state per worker of the default host space: each index
// of a parallel loop takes a free state, draws from it and gives it back,
// as Kokkos's get_state and free_state. Fill fills a view as
// fill_random.
func Example() {
	space := kokkos.DefaultExecutionSpace()
	pool, err := random.NewXorShift64Pool(space, 5374857)
	if err != nil {
		panic(err)
	}
	defer pool.Release()

	const n = 100000
	hits := kokkos.ParallelReduce("darts", kokkos.Range(0, n).On(space), kokkos.Sum[int64](), func(i int, acc *int64) {
		g := pool.GetState()
		x, y := g.Drand(), g.Drand()
		pool.FreeState(g)
		if x*x+y*y <= 1 {
			*acc++
		}
	})
	// Which state draws for which index depends on the workers' timing:
	// the estimate lies within 3.12 and 3.16 for this seed.
	fmt.Println("pi within 0.05:", math.Abs(4*float64(hits)/n-math.Pi) < 0.05)

	v := kokkos.Must(kokkos.NewView2[int32]("dice", 50, 4))
	if err := random.FillRange(v, pool, 1, 7); err != nil {
		panic(err)
	}
	ok := true
	for i := range 50 {
		for j := range 4 {
			ok = ok && v.At(i, j) >= 1 && v.At(i, j) <= 6
		}
	}
	fmt.Println("dice in [1, 6]:", ok)

	// Kokkos's sequences, state by state: the first draws of state 0 of a
	// pool of 4 states of seed 5374857, as Kokkos 4.6.1 prints them.
	small, _ := random.NewXorShift64PoolSize(kokkos.Serial{}, 5374857, 4)
	g := small.GetStateAt(0)
	fmt.Println(g.Urand64(), g.Drand())
	small.FreeState(g)
	// Output:
	// pi within 0.05: true
	// dice in [1, 6]: true
	// 18131587140662445806 0.9699549440484673
}
