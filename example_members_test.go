package kokkos_test

import (
	"fmt"
	"sync"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// AssignData re-points a view at other memory of the same shape, as
// Kokkos's assign_data: here, one slab of a larger buffer after another.
func ExampleView1_AssignData() {
	buf := []float64{1, 2, 3, 4, 5, 6}
	slab := kokkos.Must(kokkos.WrapView1(buf, 2, kokkos.WithLabel("slab")))
	for k := 0; k < 3; k++ {
		if err := slab.AssignData(buf[2*k:]); err != nil {
			panic(err)
		}
		fmt.Println(slab.At(0), slab.At(1))
	}
	// Output:
	// 1 2
	// 3 4
	// 5 6
}

// AsTraits gives the same elements with other memory traits, as Kokkos's
// View<int*, MemoryTraits<Atomic>> xa = x.
func ExampleView1_AsTraits() {
	x := kokkos.Must(kokkos.NewView1[int64]("hist", 4))
	xa := kokkos.Must(x.AsTraits(kokkos.Atomic))
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				xa.Ref((w + i) % 4).Add(1)
			}
		})
	}
	wg.Wait()
	fmt.Println(x.At(0), x.At(1), x.At(2), x.At(3))
	// Output: 2000 2000 2000 2000
}

// ReadOnlyData hands the elements of a read-only view to code that reads a
// slice.
func ExampleReadOnlyData() {
	v := kokkos.Must(kokkos.NewView1[float64]("v", 3))
	v.Set(0, 1.5)
	v.Set(2, 2.5)
	ro := v.ReadOnly()
	sum := 0.0
	for _, x := range kokkos.ReadOnlyData[float64](&ro) {
		sum += x
	}
	fmt.Println(sum)
	// Output: 4
}

// AtAddress wraps device memory that another library allocated: the view
// is unmanaged, and the caller frees the memory after its last use.
func ExampleAtAddress() {
	dev := backendtest.FakeDevice(false) // stands for a GPU's memory space
	blk, err := dev.Allocate("from another library", 4*8, true)
	if err != nil {
		panic(err)
	}
	defer blk.Free()
	d := kokkos.Must(kokkos.WrapView1[float64](nil, 4, kokkos.InSpace(dev), kokkos.AtAddress(blk.Addr)))
	if err := kokkos.Fill[float64](&d, 0.25); err != nil {
		panic(err)
	}
	h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(d))
	fmt.Println(h.At(3), d.UseCount())
	// Output: 0.25 0
}
