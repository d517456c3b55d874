package kokkos_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// A view in device memory is re-pointed at an address in its space, given
// as AtAddress gives it to WrapView1: here, the second half of a larger
// device buffer.
func ExampleView1_AssignData_device() {
	space := backendtest.FakeDevice(false) // a memory space the host cannot access
	buf := kokkos.Must(kokkos.NewView1[float64]("buf", 4, kokkos.InSpace(space)))
	defer buf.Release()
	half := kokkos.Must(kokkos.NewView1[float64]("half", 2, kokkos.InSpace(space)))
	own := half // half's own allocation, released below
	defer own.Release()
	if err := half.AssignData(nil, kokkos.AtAddress(buf.Allocation().Addr()+2*8)); err != nil {
		fmt.Println(err)
	}
	_ = kokkos.Fill(kokkos.View[float64](half), 7)
	h := kokkos.Must(kokkos.CreateMirrorViewAndCopy(buf))
	fmt.Println(h.At(0), h.At(1), h.At(2), h.At(3), half.Traits())
	// Output:
	// 0 0 7 7 Unmanaged
}
