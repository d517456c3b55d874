// Command viewouter is the Kokkos View page's example in Go: it fills
// a(i) = i and b(i) = i, computes the outer product c(i0, i1) = a(i0)*b(i1)
// into a LayoutLeft view through read-only views of a and b, and checks c
// against the closed form.
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
	for i := range n0 {
		a.Set(i, float64(i))
	}
	for i := range n1 {
		b.Set(i, float64(i))
	}
	c, err := kokkos.NewView2[float64]("C", n0, n1, kokkos.LayoutLeft)
	if err != nil {
		return err
	}
	constA, constB := a.ReadOnly(), b.ReadOnly()
	for i1 := range n1 { // LayoutLeft: the first index is contiguous
		for i0 := range n0 {
			c.Set(i0, i1, constA.At(i0)*constB.At(i1))
		}
	}

	// check: sum of c = (sum of 0..n0-1) * (sum of 0..n1-1)
	sum := 0.0
	for i1 := range n1 {
		for _, x := range c.Col(i1) {
			sum += x
		}
	}
	want := float64(n0*(n0-1)/2) * float64(n1*(n1-1)/2)
	fmt.Printf("C(%d, %d) %v: sum %.6g, expected %.6g\n", c.Extent(0), c.Extent(1), c.Layout(), sum, want)
	if sum != want {
		return fmt.Errorf("check failed: sum %v, want %v", sum, want)
	}
	fmt.Println("check passed")
	return nil
}
