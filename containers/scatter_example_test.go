package containers_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/containers"
)

// A histogram counted by concurrent closures: each chunk of indices takes
// an accessor, which on a host pool of several workers holds a copy of
// the bins of its own, and ContributeInto adds the copies to the bins.
func ExampleScatterView1() {
	const n, nbins = 100000, 8
	data := make([]int, n)
	for i := range data {
		data[i] = (i * 7919) % 1000
	}
	bins := kokkos.Must(kokkos.NewView1[int64]("bins", nbins))
	sv, err := containers.NewScatterView1[containers.ScatterSum](bins)
	if err != nil {
		panic(err)
	}
	defer sv.Release()
	kokkos.ParallelForChunks("histogram", kokkos.Range(0, n), func(lo, hi int) {
		a := sv.Access()
		defer a.Release()
		for i := lo; i < hi; i++ {
			a.Add(data[i]*nbins/1000, 1)
		}
	})
	if err := sv.ContributeInto(bins); err != nil {
		panic(err)
	}
	for b := range nbins {
		fmt.Print(bins.At(b), " ")
	}
	fmt.Println()
	// Output: 12500 12500 12500 12500 12500 12500 12500 12500
}
