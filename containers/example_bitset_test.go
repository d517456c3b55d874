package containers_test

import (
	"fmt"
	"sync"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

// Goroutines claim free slots of a Bitset: each searches near its own
// hint for an unset bit and sets it; a Set that returns false lost the
// race for that bit, and the search goes on.
func ExampleBitset() {
	slots := kokkos.Must(containers.NewBitset("slots", 100))
	defer slots.Release()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hint := g * 32
			for claimed := 0; claimed < 10; {
				ok, i := slots.FindAnyUnsetNear(hint, containers.BitScanForwardMoveHintForward)
				if ok && slots.Set(i) {
					claimed++
				}
				hint = i
			}
		}()
	}
	wg.Wait()
	n, _ := slots.Count()
	fmt.Println(n, "of", slots.Size(), "slots claimed")
	// Output: 40 of 100 slots claimed
}

// A DynamicView grows by whole chunks; the elements already there do not
// move.
func ExampleDynamicView() {
	d := kokkos.Must(containers.NewDynamicView[int]("d", 3, 100)) // chunks of 4
	defer d.Release()
	for n := 1; n <= 6; n++ {
		if err := d.Resize(n); err != nil {
			panic(err)
		}
		d.Set(n-1, n*n)
	}
	first := d.Ptr(0)
	if err := d.Resize(50); err != nil {
		panic(err)
	}
	fmt.Println(d.ChunkSize(), d.Size(), d.AllocationExtent(), d.At(5), first == d.Ptr(0))
	// Output: 4 50 52 36 true
}
