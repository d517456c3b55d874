package containers_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

// A DualView filled on the host, brought to the device, updated there and
// brought back. With the device space HostSpace both sides are one view
// and the syncs copy nothing; with cuda.Space the same calls copy.
func ExampleDualView1() {
	var space kokkos.MemorySpace = kokkos.HostSpace // cuda.Space on a GPU
	dv, err := containers.NewDualView1[float64]("x", 4, kokkos.InSpace(space))
	if err != nil {
		panic(err)
	}
	defer dv.Release()

	h := dv.ViewHost()
	for i := range 4 {
		h.Set(i, float64(i))
	}
	dv.ModifyHost()
	if err := dv.SyncDevice(); err != nil { // copies when the device is another memory
		panic(err)
	}

	// Work on the device view (a kernel on a GPU); here a host loop.
	d := dv.ViewDevice()
	kokkos.ParallelFor("scale", kokkos.Range(0, 4), func(i int) { d.Set(i, 10*d.At(i)) })
	dv.ModifyDevice()

	if err := dv.SyncHost(); err != nil {
		panic(err)
	}
	fmt.Println(h.Data(), dv.NeedSyncHost(), dv.NeedSyncDevice())
	// Output: [0 10 20 30] false false
}
