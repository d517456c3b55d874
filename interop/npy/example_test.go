package npy_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/interop/npy"
)

// A LayoutLeft view is written in Fortran order and read back as
// LayoutLeft, without a transpose; a subview goes through a contiguous
// copy.
func ExampleWrite() {
	a := kokkos.Must(kokkos.NewView2[float64]("A", 2, 3, kokkos.LayoutLeft))
	for i := range 2 {
		for j := range 3 {
			a.Set(i, j, float64(10*i+j))
		}
	}
	var f bytes.Buffer // or an *os.File
	if err := npy.Write(&f, a); err != nil {
		panic(err)
	}
	var b kokkos.View2[float64]
	if err := npy.ReadView(&f, &b, "B"); err != nil {
		panic(err)
	}
	fmt.Println(b.Layout(), b.At(1, 2))

	s := a.Subview2(kokkos.All, kokkos.Pair(1, 3)) // strided
	if err := npy.Write(&f, s); err != nil {
		panic(err)
	}
	c, err := npy.Read[float64](&f, "C") // a DynRankView of the file's rank
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Extents(), c.At2(1, 0))
	// Output:
	// LayoutLeft 12
	// [2 2] 11
}

// The element type is the caller's: a file of another dtype, or another
// rank, is an error naming both.
func ExampleRead() {
	v := kokkos.Must(kokkos.NewView1[int32]("counts", 4))
	var f bytes.Buffer
	_ = npy.Write(&f, v)
	_, err := npy.Read[float64](bytes.NewReader(f.Bytes()), "x")
	fmt.Println(errors.Is(err, npy.ErrDtype), err)
	var m kokkos.View2[int32]
	err = npy.ReadView(bytes.NewReader(f.Bytes()), &m, "x")
	fmt.Println(errors.Is(err, npy.ErrRank), err)
	// Output:
	// true npy: the file's dtype is int32 ("<i4"), the view's element type is float64
	// true npy: the file's shape (4,) has rank 1; kokkos.View2[int32] has rank 2
}

// Several named arrays in one .npz archive, as numpy.savez writes them.
func ExampleNPZWriter() {
	x := kokkos.Must(kokkos.NewView1[float64]("x", 3))
	y := kokkos.Must(kokkos.NewView2[int64]("y", 2, 2))
	x.Set(2, 1.5)
	y.Set(1, 0, 7)

	var f bytes.Buffer
	z := npy.NewNPZWriter(&f)
	w, _ := z.Create("x")
	_ = npy.Write(w, x)
	w, _ = z.Create("y")
	_ = npy.Write(w, y)
	if err := z.Close(); err != nil {
		panic(err)
	}

	r, err := npy.OpenNPZ(bytes.NewReader(f.Bytes()), int64(f.Len()))
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Names())
	var gy kokkos.View2[int64]
	if err := npy.ReadNPZ(r, "y", &gy); err != nil {
		panic(err)
	}
	fmt.Println(gy.At(1, 0))
	// Output:
	// [x y]
	// 7
}

// A file whose dtype is not known in advance: ReadAny returns a
// DynRankView of the file's element type, for a type switch.
func ExampleReadAny() {
	v := kokkos.Must(kokkos.NewView2[int16]("counts", 2, 3))
	v.Set(1, 2, 7)
	var f bytes.Buffer // or an *os.File
	if err := npy.Write(&f, v); err != nil {
		panic(err)
	}

	a, err := npy.ReadAny(&f, "A")
	if err != nil {
		panic(err)
	}
	switch a := a.(type) {
	case kokkos.DynRankView[float64]:
		fmt.Println("float64", a.Extents())
	case kokkos.DynRankView[int16]:
		fmt.Println("int16", a.Extents(), a.At2(1, 2))
	default:
		fmt.Printf("%T\n", a)
	}
	// Output:
	// int16 [2 3] 7
}
