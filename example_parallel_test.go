package kokkos_test

import (
	"errors"
	"fmt"

	"github.com/gokkos/kokkos"
)

func ExampleParallelFor() {
	x := make([]float64, 8)
	kokkos.ParallelFor("fill", kokkos.Range(0, len(x)), func(i int) {
		x[i] = float64(i * i)
	})
	fmt.Println(x)
	// Output: [0 1 4 9 16 25 36 49]
}

func ExampleParallelForChunks() {
	const s = 2.0
	x := []float64{1, 2, 3, 4, 5, 6}
	y := []float64{6, 5, 4, 3, 2, 1}
	z := make([]float64, len(x))
	kokkos.ParallelForChunks("triad", kokkos.Range(0, len(z)).WithChunk(2), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			z[i] = x[i] + s*y[i]
		}
	})
	fmt.Println(z)
	// Output: [13 12 11 10 9 8]
}

func ExampleParallelReduce() {
	x := []float64{1, 2, 3, 4}
	y := []float64{4, 3, 2, 1}
	dot := kokkos.ParallelReduce("dot", kokkos.Range(0, len(x)), kokkos.Sum[float64](),
		func(i int, acc *float64) { *acc += x[i] * y[i] })
	fmt.Println(dot)
	// Output: 20
}

func ExampleMinLoc() {
	x := []float64{3, -1, 4, -1, 5}
	m := kokkos.ParallelReduce("argmin", kokkos.Range(0, len(x)), kokkos.MinLoc[float64, int](),
		func(i int, acc *kokkos.ValLoc[float64, int]) {
			if x[i] < acc.Val {
				*acc = kokkos.ValLoc[float64, int]{Val: x[i], Loc: i}
			}
		})
	fmt.Println(m.Val, m.Loc) // the first of equal values wins
	// Output: -1 1
}

func ExampleReducer() {
	// A custom reducer: the largest absolute value.
	absMax := kokkos.Reducer[float64]{
		Identity: func() float64 { return 0 },
		Join:     func(a, b float64) float64 { return max(a, b) },
	}
	x := []float64{2, -7, 3}
	m := kokkos.ParallelReduce("absmax", kokkos.Range(0, len(x)), absMax, func(i int, acc *float64) {
		*acc = max(*acc, x[i], -x[i])
	})
	fmt.Println(m)
	// Output: 7
}

func ExampleParallelScan() {
	count := []int{3, 1, 4, 1, 5}
	offset := make([]int, len(count))
	total := kokkos.ParallelScan("offsets", kokkos.Range(0, len(count)), kokkos.Sum[int](),
		func(i int, acc *int, final bool) {
			if final {
				offset[i] = *acc // before adding: exclusive
			}
			*acc += count[i]
		})
	fmt.Println(offset, total)
	// Output: [0 3 4 8 9] 14
}

func ExampleInclusiveScan() {
	src := []int{1, 2, 3, 4}
	dst := make([]int, len(src))
	total := kokkos.InclusiveScan("prefix", kokkos.Range(0, len(src)), dst, src)
	fmt.Println(dst, total)
	// Output: [1 3 6 10] 10
}

func ExampleParallelForMD() {
	const n0, n1 = 2, 3
	a := make([]int, n0*n1) // row-major n0 x n1
	p := kokkos.MDRange([]int{0, 0}, []int{n0, n1}).Tile(1, 2).Order(kokkos.IterateRight, kokkos.IterateRight)
	kokkos.ParallelForMD("index", p, func(i, j int) {
		a[i*n1+j] = 10*i + j
	})
	fmt.Println(a)
	// Output: [0 1 2 10 11 12]
}

func ExampleParallelReduceMD() {
	p := kokkos.MDRange([]int{1, 1}, []int{4, 3})
	s := kokkos.ParallelReduceMD("sum", p, kokkos.Sum[int](), func(i, j int, acc *int) { *acc += i * j })
	fmt.Println(s)
	// Output: 18
}

func ExampleThreads_NewInstance() {
	inst := kokkos.DefaultHostExecutionSpace().NewInstance()
	x := make([]int, 4)
	// Both run in order on the instance; the caller goes on at once.
	kokkos.ParallelFor("first", kokkos.Range(0, len(x)).On(inst), func(i int) { x[i] = i })
	kokkos.ParallelFor("second", kokkos.Range(0, len(x)).On(inst), func(i int) { x[i] *= 10 })
	inst.Submit("report", func() { fmt.Println("done:", x) })
	if err := inst.Fence(); err != nil {
		fmt.Println(err)
	}
	// Output: done: [0 10 20 30]
}

func ExamplePanicError() {
	inst := kokkos.DefaultHostExecutionSpace().NewInstance()
	kokkos.ParallelFor("check", kokkos.Range(0, 10).On(inst), func(i int) {
		if i == 7 {
			panic("bad value")
		}
	})
	err := inst.Fence()
	var pe *kokkos.PanicError
	fmt.Println(errors.As(err, &pe), pe.Label, pe.Value)
	fmt.Println(err)
	// The package-level Fence reports it too, once.
	fmt.Println(errors.Is(kokkos.Fence(), err), kokkos.Fence())
	// Output:
	// true check bad value
	// kokkos: panic in kernel "check" at example_parallel_test.go:125: bad value
	// true <nil>
}

func ExampleAtomicAdd() {
	hist := make([]int64, 4)
	kokkos.ParallelFor("histogram", kokkos.Range(0, 1000), func(i int) {
		kokkos.AtomicAdd(&hist[i%4], 1)
	})
	fmt.Println(hist)
	// Output: [250 250 250 250]
}
