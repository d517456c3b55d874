package mpi

import "github.com/gokkos/kokkos"

func sendInts(c *Comm, dest int) error {
	v := kokkos.Must(kokkos.NewView1[int32]("ints", 4))
	return Send[int32](c, &v, dest, 0)
}
