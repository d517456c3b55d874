package algorithms_test

import (
	"fmt"
	"math"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/algorithms"
)

func Example() {
	v := kokkos.Must(kokkos.WrapView1([]float64{3, math.NaN(), -1, math.Copysign(0, -1), 0, math.Inf(-1), 2}, 7))
	if err := algorithms.Sort(v); err != nil {
		panic(err)
	}
	fmt.Println(v.Data())

	// Sort by key: equal keys keep their values' order.
	keys := kokkos.Must(kokkos.WrapView1([]int32{2, 1, 2, 0, 1}, 5))
	names := kokkos.Must(kokkos.WrapView1([]string{"c", "b", "d", "a", "e"}, 5))
	if err := algorithms.SortByKey(keys, names); err != nil {
		panic(err)
	}
	fmt.Println(keys.Data(), names.Data())

	// A comparator: descending.
	if err := algorithms.SortFunc(keys, func(a, b int32) bool { return a > b }); err != nil {
		panic(err)
	}
	fmt.Println(keys.Data())
	// Output:
	// [-Inf -1 -0 0 2 3 NaN]
	// [0 1 1 2 2] [a b e c d]
	// [2 2 1 1 0]
}

func ExampleBinSort() {
	// Particles' x coordinates, binned into 4 intervals of [0, 8] (5 bins:
	// the last holds 8 itself).
	x := kokkos.Must(kokkos.WrapView1([]float64{7.5, 0.5, 3, 8, 2.5, 6}, 6))
	bs, err := algorithms.NewBinSort(algorithms.NewBinOp1D(x, 4, 0.0, 8.0), false)
	if err != nil {
		panic(err)
	}
	if err := bs.CreatePermuteVector(); err != nil {
		panic(err)
	}
	count, offsets, perm := bs.BinCount(), bs.BinOffsets(), bs.PermuteVector()
	fmt.Println(kokkos.ReadOnlyData(&count), kokkos.ReadOnlyData(&offsets), kokkos.ReadOnlyData(&perm))
	id := kokkos.Must(kokkos.WrapView1([]string{"p0", "p1", "p2", "p3", "p4", "p5"}, 6))
	if err := algorithms.Apply(bs, kokkos.View[string](id)); err != nil {
		panic(err)
	}
	fmt.Println(id.Data())
	// Output:
	// [1 2 0 2 1] [0 1 3 3 5] [1 2 4 0 5 3]
	// [p1 p2 p4 p0 p5 p3]
}
