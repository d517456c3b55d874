// Command viewouter is the Kokkos View page's example in Go: it fills
// a(i) = i and b(i) = i with ParallelFor, computes the outer product
// c(i0, i1) = a(i0)*b(i1) into a LayoutLeft view through read-only views of
// a and b with an MDRange ParallelFor (iterating left, to match the
// layout), and checks the sum of c with a ParallelReduce against the closed
// form.
//
//	go run ./examples/viewouter -n0 300 -n1 200
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/gokkos/kokkos"
)

func main() {
	n0 := flag.Int("n0", 1000, "extent of a")
	n1 := flag.Int("n1", 800, "extent of b")
	flag.Parse()
	if err := run(*n0, *n1); err != nil {
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
	want := float64(n0*(n0-1)/2) * float64(n1*(n1-1)/2)
	fmt.Printf("C(%d, %d) %v: sum %.6g, expected %.6g\n", c.Extent(0), c.Extent(1), c.Layout(), sum, want)
	if sum != want {
		return fmt.Errorf("check failed: sum %v, want %v", sum, want)
	}
	fmt.Println("check passed")
	return nil
}
