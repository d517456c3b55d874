// Command notools is a program that uses package kokkos without importing
// package tools, for TestLibsIgnoredWarning.
package main

import "github.com/gokkos/kokkos"

func main() {
	x := kokkos.Must(kokkos.NewView1[float64]("x", 10))
	for range 3 {
		kokkos.ParallelFor("k", kokkos.Range(0, 10), func(i int) { x.Set(i, float64(i)) })
	}
}
