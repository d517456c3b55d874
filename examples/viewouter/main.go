// Command viewouter is the Kokkos View page's example in Go: it fills
// a(i) = i and b(i) = i with ParallelFor, computes the outer product
// c(i0, i1) = a(i0)*b(i1) into a LayoutLeft view through read-only views of
// a and b with an MDRange ParallelFor (iterating left, to match the
// layout), and checks the sum of c with a ParallelReduce against the closed
// form.
//
//	go run ./examples/viewouter -n0 300 -n1 200
//	go run ./examples/viewouter -space cuda    # the same on the GPU
//
// With -space cuda the views are in cuda.Space and the four loops are
// CUDA C++ bodies run by cuda.ParallelFor and cuda.ParallelReduce. Every
// value is an integer held exactly by a float64: the products i0*i1 and
// every partial sum stay below 2^53 while the total does, so the sum is
// exact whatever the order of the additions, and host and device print the
// same checksum.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
)

func main() {
	n0 := flag.Int("n0", 1000, "extent of a")
	n1 := flag.Int("n1", 800, "extent of b")
	space := flag.String("space", "host", "where the views live and the loops run: host or cuda")
	flag.Parse()
	var err error
	switch *space {
	case "host":
		err = run(*n0, *n1)
	case "cuda":
		err = runCUDA(*n0, *n1)
	default:
		err = fmt.Errorf("unknown -space %q: use host or cuda", *space)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "viewouter:", err)
		os.Exit(1)
	}
}

func run(n0, n1 int) error {
	a, err := kokkos.NewView1[float64]("A", n0)
	if err != nil {
		return err
	}
	b, err := kokkos.NewView1[float64]("B", n1)
	if err != nil {
		return err
	}
	kokkos.ParallelFor("InitA", kokkos.Range(0, n0), func(i int) { a.Set(i, float64(i)) })
	kokkos.ParallelFor("InitB", kokkos.Range(0, n1), func(i int) { b.Set(i, float64(i)) })
	c, err := kokkos.NewView2[float64]("C", n0, n1, kokkos.LayoutLeft)
	if err != nil {
		return err
	}
	constA, constB := a.ReadOnly(), b.ReadOnly()
	policy := kokkos.MDRange([]int{0, 0}, []int{n0, n1}).Order(kokkos.IterateLeft, kokkos.IterateLeft)
	kokkos.ParallelFor2("SetC", policy, func(i0, i1 int) {
		c.Set(i0, i1, constA.At(i0)*constB.At(i1))
	})

	// check: sum of c = (sum of 0..n0-1) * (sum of 0..n1-1)
	sum := kokkos.ParallelReduce("SumC", kokkos.Range(0, n1), kokkos.Sum[float64](), func(i1 int, acc *float64) {
		for _, x := range c.Col(i1) {
			*acc += x
		}
	})
	return report(c.Extent(0), c.Extent(1), c.Layout(), sum)
}

// runCUDA is run with the views in cuda.Space and the loops on the GPU.
// FMAD(false) keeps the compiler from contracting a*b + acc, so each
// product is rounded (here: exact) before it is added, as on the host.
func runCUDA(n0, n1 int) error {
	if err := cuda.Available(); err != nil {
		return err
	}
	a, err := kokkos.NewView1[float64]("A", n0, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer a.Release()
	b, err := kokkos.NewView1[float64]("B", n1, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer b.Release()
	if err := cuda.ParallelFor("InitA", kokkos.Range(0, n0), "a(i) = i;", cuda.Bind("a", a)); err != nil {
		return err
	}
	if err := cuda.ParallelFor("InitB", kokkos.Range(0, n1), "b(i) = i;", cuda.Bind("b", b)); err != nil {
		return err
	}
	c, err := kokkos.NewView2[float64]("C", n0, n1, kokkos.LayoutLeft, kokkos.InSpace(cuda.Space))
	if err != nil {
		return err
	}
	defer c.Release()
	policy := kokkos.MDRange([]int{0, 0}, []int{n0, n1}).Order(kokkos.IterateLeft, kokkos.IterateLeft)
	if err := cuda.ParallelFor("SetC", policy, "c(i0, i1) = a(i0) * b(i1);",
		cuda.Bind("a", a.ReadOnly()), cuda.Bind("b", b.ReadOnly()), cuda.Bind("c", c), cuda.FMAD(false)); err != nil {
		return err
	}
	if n0 == 0 || n1 == 0 {
		// An empty C sums to 0. (cuda.ParallelReduce over an MDRange with
		// an empty dimension divides by zero sizing its grid.)
		return report(n0, n1, c.Layout(), 0)
	}
	// The reduction waits for its result, after SetC on the same stream.
	sum, err := cuda.ParallelReduce("SumC", policy, cuda.Sum[float64](), "acc += c(i0, i1);",
		cuda.Bind("c", c.ReadOnly()), cuda.FMAD(false))
	if err != nil {
		return err
	}
	return report(c.Extent(0), c.Extent(1), c.Layout(), sum)
}

// report prints the checksum and compares it with the closed form.
func report(n0, n1 int, layout kokkos.Layout, sum float64) error {
	want := float64(n0*(n0-1)/2) * float64(n1*(n1-1)/2)
	fmt.Printf("C(%d, %d) %v: sum %.6g, expected %.6g\n", n0, n1, layout, sum, want)
	if sum != want {
		return fmt.Errorf("check failed: sum %v, want %v", sum, want)
	}
	fmt.Println("check passed")
	return nil
}
