package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
)

func ExampleMinMax() {
	x := []int{4, -2, 9, 0}
	m := kokkos.ParallelReduce("range", kokkos.Range(0, len(x)), kokkos.MinMax[int](),
		func(i int, acc *kokkos.MinMaxVal[int]) {
			acc.MinVal, acc.MaxVal = min(acc.MinVal, x[i]), max(acc.MaxVal, x[i])
		})
	fmt.Println(m.MinVal, m.MaxVal)
	// Output: -2 9
}

func ExampleMinMaxLoc() {
	x := []float64{3, 7, -1, 7, -1}
	m := kokkos.ParallelReduce("extremes", kokkos.Range(0, len(x)), kokkos.MinMaxLoc[float64, int](),
		func(i int, acc *kokkos.MinMaxValLoc[float64, int]) {
			if x[i] < acc.MinVal {
				acc.MinVal, acc.MinLoc = x[i], i
			}
			if x[i] > acc.MaxVal {
				acc.MaxVal, acc.MaxLoc = x[i], i
			}
		})
	fmt.Println(m.MinVal, m.MinLoc, m.MaxVal, m.MaxLoc)
	// Output: -1 2 7 1
}

// The First reducers resolve ties by the least location, whatever the
// order in which partial results are joined; MinMaxFirstLastLoc takes the
// greatest location of the maximum.
func ExampleMaxFirstLoc() {
	x := []int{5, 9, 2, 9, 9}
	body := func(i int, acc *kokkos.ValLoc[int, int]) {
		if x[i] > acc.Val || x[i] == acc.Val && i < acc.Loc {
			*acc = kokkos.ValLoc[int, int]{Val: x[i], Loc: i}
		}
	}
	m := kokkos.ParallelReduce("argmax", kokkos.Range(0, len(x)), kokkos.MaxFirstLoc[int, int](), body)
	fl := kokkos.ParallelReduce("firstlast", kokkos.Range(0, len(x)), kokkos.MinMaxFirstLastLoc[int, int](),
		func(i int, acc *kokkos.MinMaxValLoc[int, int]) {
			if x[i] < acc.MinVal || x[i] == acc.MinVal && i < acc.MinLoc {
				acc.MinVal, acc.MinLoc = x[i], i
			}
			if x[i] > acc.MaxVal || x[i] == acc.MaxVal && i > acc.MaxLoc {
				acc.MaxVal, acc.MaxLoc = x[i], i
			}
		})
	// by last digit: 5 and 2 tie with nothing; the order is x%10
	byDigit := func(a, b int) bool { return a%10 < b%10 }
	d := kokkos.ParallelReduce("digit", kokkos.Range(0, len(x)), kokkos.MinFirstLocCustomComparator[int, int](byDigit),
		func(i int, acc *kokkos.ValLoc[int, int]) {
			if byDigit(x[i], acc.Val) || !byDigit(acc.Val, x[i]) && i < acc.Loc {
				*acc = kokkos.ValLoc[int, int]{Val: x[i], Loc: i}
			}
		})
	fmt.Println(m, fl.MaxLoc, d)
	// Output: {9 1} 4 {2 2}
}

func ExamplePartitionSpace() {
	pool := kokkos.NewThreads(4)
	defer pool.Close()
	parts, err := kokkos.PartitionSpace(pool, 1, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := make([]float64, 1000)
	y := make([]float64, 1000)
	// the two loops run at the same time, each on its own workers
	kokkos.ParallelFor("x", kokkos.Range(0, len(x)).On(parts[0]), func(i int) { x[i] = 1 })
	kokkos.ParallelFor("y", kokkos.Range(0, len(y)).On(parts[1]), func(i int) { y[i] = 2 })
	for _, p := range parts {
		if err := p.Close(); err != nil { // fences, then stops its workers
			fmt.Println(err)
		}
	}
	fmt.Println(parts[0].Concurrency(), parts[1].Concurrency(), x[999]+y[999])
	// Output: 1 3 3
}
