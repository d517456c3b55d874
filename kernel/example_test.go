package kernel_test

import (
	"errors"
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
	"github.com/gokkos/kokkos/kernel/kerneltest"
)

// The kernels launched here are kerneltest.Triad and kerneltest.Dot, Go
// functions marked //kokkos:kernel whose generated code go generate wrote:
//
//	//kokkos:kernel
//	func Triad(i int, a, b, c kokkos.View1[float64], s float64) {
//		a.Set(i, b.At(i)+s*c.At(i))
//	}
//
//	//kokkos:kernel
//	func Dot(i int, a, b kokkos.View1[float64], acc *float64) {
//		*acc += a.At(i) * b.At(i)
//	}
//
// The same launches run on a GPU when the policy is on a *cuda.Stream and
// the views are in cuda.Space.
func Example() {
	const n = 1000
	a := kokkos.Must(kokkos.NewView1[float64]("a", n))
	b := kokkos.Must(kokkos.NewView1[float64]("b", n))
	c := kokkos.Must(kokkos.NewView1[float64]("c", n))
	kokkos.ParallelFor("init", kokkos.Range(0, n), func(i int) {
		b.Set(i, float64(i))
		c.Set(i, 1)
	})

	// a = b + 2c, on the host pool.
	if err := kernel.For("triad", kokkos.Range(0, n), kerneltest.Triad, a, b, c, 2.0); err != nil {
		fmt.Println(err)
		return
	}
	// The sum of a(i)*b(i), joined as kokkos.ParallelReduce joins.
	dot, err := kernel.Reduce("dot", kokkos.Range(0, n), kokkos.Sum[float64](), kerneltest.Dot, a, b)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.At(0), a.At(n-1), dot)

	// A launch checks its arguments before anything runs: Triad writes a.
	err = kernel.For("triad", kokkos.Range(0, n), kerneltest.Triad, a.ReadOnly(), b, c, 2.0)
	fmt.Println(errors.Is(err, kernel.ErrArgs))
	// Output:
	// 2 1001 3.338325e+08
	// true
}
