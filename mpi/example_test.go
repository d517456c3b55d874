package mpi_test

import (
	"errors"
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/mpi"
)

// Before Init (and after Finalize) every call returns an error wrapping
// ErrNotInitialized instead of crashing.
func Example_beforeInit() {
	v := kokkos.Must(kokkos.NewView1[float64]("x", 4))
	err := mpi.Send[float64](mpi.World(), &v, 1, 0)
	fmt.Println(errors.Is(err, mpi.ErrNotInitialized))
	fmt.Println(err)
	// Output:
	// true
	// mpi: Send before Init
}

// A ring: each rank sends a strided column of its field to the next rank
// and receives the previous rank's into a contiguous view, then all ranks
// sum a value. Run it under mpirun; it is compiled here, not run.
func Example_ring() {
	if err := mpi.Init(); err != nil {
		fmt.Println(err)
		return
	}
	defer mpi.Finalize()
	w := mpi.World()
	field := kokkos.Must(kokkos.NewView2[float64]("field", 64, 64))
	col := field.Subview1(kokkos.All, 0) // strided: packed through DeepCopy
	got := kokkos.Must(kokkos.NewView1[float64]("got", 64))
	next, prev := (w.Rank()+1)%w.Size(), (w.Rank()+w.Size()-1)%w.Size()
	r, err := mpi.Irecv[float64](w, &got, prev, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := mpi.Send[float64](w, &col, next, 0); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := r.Wait(); err != nil {
		fmt.Println(err)
		return
	}
	total := kokkos.Must(kokkos.NewView0[float64]("total"))
	total.Set(got.At(0))
	if err := mpi.Allreduce[float64](w, &total, &total, mpi.Sum); err != nil {
		fmt.Println(err)
	}
}
