package npy

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/errkind"
)

// Read reads a .npy file from r into a new DynRankView labelled label, of
// the file's rank (0 to kokkos.MaxDynRank) and shape: LayoutRight for a
// file in C order, LayoutLeft for one in Fortran order (the elements are
// read as they lie, without a transpose). The file's dtype must be T's
// (see Elem), in either byte order. It returns an error wrapping ErrDtype
// when it is not, naming both; ErrRank for a file of rank 8 (use ReadView
// with a View8); ErrFormat for data that is not a .npy file or is cut
// short. On error it returns no view. It reads r up to the end of the
// array's data, not beyond.
func Read[T Elem](r io.Reader, label string) (kokkos.DynRankView[T], error) {
	var v kokkos.DynRankView[T]
	err := ReadView(r, &v, label)
	return v, err
}

// ReadView reads a .npy file from r into a new view labelled label that it
// stores in *dst, which points to a kokkos.View0[T] … kokkos.View8[T] or a
// kokkos.DynRankView[T], as Read does:
//
//	var a kokkos.View2[float64]
//	err := npy.ReadView(f, &a, "A")
//
// It returns an error wrapping ErrRank, naming both ranks, when the file's
// rank is not the view's, and Read's errors otherwise; *dst is unchanged
// on error. It panics when dst points to another type.
func ReadView[T Elem](r io.Reader, dst interface{ Data() []T }, label string) error {
	rank, alloc := viewKind(dst, label)
	h, d, native, err := readHeader(r)
	if err != nil {
		return err
	}
	fh, err := checkDtype[T](h, d, native)
	if err != nil {
		return err
	}
	return readInto(r, fh, dst, rank, alloc)
}

// readInto reads the data of the file of header h from r into a new view
// of rank rank (-1 for a DynRankView) that alloc allocates, and stores it
// in dst.
func readInto[T Elem](r io.Reader, h fileHeader, dst any, rank int, alloc func(kokkos.LayoutSpec) (newView[T], error)) error {
	if rank >= 0 && len(h.Shape) != rank {
		return errkind.Errorf(ErrRank, "npy: the file's shape %s has rank %d; %s has rank %d", shapeString(h.Shape), len(h.Shape), strings.TrimPrefix(fmt.Sprintf("%T", dst), "*"), rank)
	}
	if rank < 0 && len(h.Shape) > kokkos.MaxDynRank {
		return errkind.Errorf(ErrRank, "npy: the file's shape %s has rank %d, above a DynRankView's %d: read it into a View8", shapeString(h.Shape), len(h.Shape), kokkos.MaxDynRank)
	}
	v, err := readData(r, h, alloc)
	if err != nil {
		return err
	}
	v.store()
	return nil
}

// ReadAny reads a .npy file of any dtype a view holds from r, as Read
// does, into a new DynRankView of the element type of the file's dtype:
// a kokkos.DynRankView of bool, int8, int16, int32, int64, uint8, uint16,
// uint32, uint64, float32, float64, complex64 or complex128, for a type
// switch. It is the way to read a file whose dtype is not known in
// advance. It returns Read's errors, with ErrDtype for a dtype no view
// holds and ErrRank for a file of rank 8: read that one with ReadView
// into a View8 of the type that ReadHeader's Descr names.
func ReadAny(r io.Reader, label string) (any, error) {
	h, d, native, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	switch d {
	case dtype{'b', 1}:
		return readAny[bool](r, h, d, native, label)
	case dtype{'i', 1}:
		return readAny[int8](r, h, d, native, label)
	case dtype{'i', 2}:
		return readAny[int16](r, h, d, native, label)
	case dtype{'i', 4}:
		return readAny[int32](r, h, d, native, label)
	case dtype{'i', 8}:
		return readAny[int64](r, h, d, native, label)
	case dtype{'u', 1}:
		return readAny[uint8](r, h, d, native, label)
	case dtype{'u', 2}:
		return readAny[uint16](r, h, d, native, label)
	case dtype{'u', 4}:
		return readAny[uint32](r, h, d, native, label)
	case dtype{'u', 8}:
		return readAny[uint64](r, h, d, native, label)
	case dtype{'f', 4}:
		return readAny[float32](r, h, d, native, label)
	case dtype{'f', 8}:
		return readAny[float64](r, h, d, native, label)
	case dtype{'c', 8}:
		return readAny[complex64](r, h, d, native, label)
	}
	return readAny[complex128](r, h, d, native, label)
}

// readAny reads the data of a file of header h, whose dtype is T's, into
// a new DynRankView[T].
func readAny[T Elem](r io.Reader, h Header, d dtype, native bool, label string) (any, error) {
	fh, err := checkDtype[T](h, d, native)
	if err != nil {
		return nil, err
	}
	var v kokkos.DynRankView[T]
	rank, alloc := viewKind(&v, label)
	if err := readInto(r, fh, &v, rank, alloc); err != nil {
		return nil, err
	}
	return v, nil
}

// A newView is a view that readData allocated and filled, not yet stored
// where the caller asked.
type newView[T any] struct {
	data  []T
	store func()
}

// viewKind returns the rank of the view kind dst points to (-1 for
// DynRankView) and the function that allocates one from a spec.
func viewKind[T Elem](dst interface{ Data() []T }, label string) (int, func(kokkos.LayoutSpec) (newView[T], error)) {
	switch p := dst.(type) {
	case *kokkos.View0[T]:
		return 0, alloc(p, func(s kokkos.LayoutSpec) (kokkos.View0[T], error) { return kokkos.NewView0From[T](label, s) })
	case *kokkos.View1[T]:
		return 1, alloc(p, func(s kokkos.LayoutSpec) (kokkos.View1[T], error) { return kokkos.NewView1From[T](label, s) })
	case *kokkos.View2[T]:
		return 2, alloc(p, func(s kokkos.LayoutSpec) (kokkos.View2[T], error) { return kokkos.NewView2From[T](label, s) })
	case *kokkos.View3[T]:
		return 3, alloc(p, func(s kokkos.LayoutSpec) (kokkos.View3[T], error) { return kokkos.NewView3From[T](label, s) })
	case *kokkos.View4[T]:
		return 4, alloc(p, func(s kokkos.LayoutSpec) (kokkos.View4[T], error) { return kokkos.NewView4From[T](label, s) })
	case *kokkos.View5[T]:
		return 5, alloc(p, func(s kokkos.LayoutSpec) (kokkos.View5[T], error) { return kokkos.NewView5From[T](label, s) })
	case *kokkos.View6[T]:
		return 6, alloc(p, func(s kokkos.LayoutSpec) (kokkos.View6[T], error) { return kokkos.NewView6From[T](label, s) })
	case *kokkos.View7[T]:
		return 7, alloc(p, func(s kokkos.LayoutSpec) (kokkos.View7[T], error) { return kokkos.NewView7From[T](label, s) })
	case *kokkos.View8[T]:
		return 8, alloc(p, func(s kokkos.LayoutSpec) (kokkos.View8[T], error) { return kokkos.NewView8From[T](label, s) })
	case *kokkos.DynRankView[T]:
		return -1, alloc(p, func(s kokkos.LayoutSpec) (kokkos.DynRankView[T], error) {
			return kokkos.NewDynRankViewFrom[T](label, s)
		})
	}
	panic(fmt.Sprintf("npy.ReadView: dst is a %T, not a pointer to a View0 … View8 or DynRankView of %T", dst, *new(T)))
}

// alloc returns the function that allocates a view with newV and stores it
// in *dst when asked.
func alloc[V any, P interface {
	*V
	Data() []T
}, T any](dst P, newV func(kokkos.LayoutSpec) (V, error)) func(kokkos.LayoutSpec) (newView[T], error) {
	return func(s kokkos.LayoutSpec) (newView[T], error) {
		v, err := newV(s)
		if err != nil {
			return newView[T]{}, err
		}
		return newView[T]{data: P(&v).Data(), store: func() { *dst = v }}, nil
	}
}

// fileHeader is a checked header and what reading its data needs.
type fileHeader struct {
	Header
	d      dtype
	native bool
	bytes  int // of the data
}

// checkDtype checks that the dtype d of header h is T's.
func checkDtype[T Elem](h Header, d dtype, native bool) (fileHeader, error) {
	if want := dtypeOf[T](); d != want {
		elem := want.String()
		if name := fmt.Sprintf("%T", *new(T)); name != elem {
			elem = fmt.Sprintf("%s (%s)", name, elem)
		}
		return fileHeader{}, errkind.Errorf(ErrDtype, "npy: the file's dtype is %s (%q), the view's element type is %s", d, h.Descr, elem)
	}
	n := d.size
	for _, e := range h.Shape {
		n *= e // checked for overflow by readHeader
	}
	return fileHeader{h, d, native, n}, nil
}

// bufferAbove is the data size above which the data is read before the
// view is allocated, where the input's size is unknown: a corrupt shape
// then fails at the end of the input instead of allocating what it claims.
const bufferAbove = 64 << 20

// readData reads h's data from r into a new view that alloc allocates.
func readData[T Elem](r io.Reader, h fileHeader, alloc func(kokkos.LayoutSpec) (newView[T], error)) (newView[T], error) {
	var zero newView[T]
	spec := kokkos.LayoutSpec{Layout: kokkos.LayoutRight, Extents: h.Shape}
	if h.FortranOrder {
		spec.Layout = kokkos.LayoutLeft
	}
	var src []byte
	switch left, known := remaining(r); {
	case known && left < int64(h.bytes):
		return zero, formatError(io.ErrUnexpectedEOF, "shape %s of %s needs %d bytes of data, the input has %d", shapeString(h.Shape), h.d, h.bytes, left)
	case !known && h.bytes > bufferAbove:
		var b bytes.Buffer
		if _, err := io.CopyN(&b, r, int64(h.bytes)); err != nil {
			return zero, formatError(truncated(err), "reading %d bytes of data of shape %s", h.bytes, shapeString(h.Shape))
		}
		src = b.Bytes()
	}
	v, err := alloc(spec)
	if err != nil {
		return zero, err
	}
	dst := bytesOf(v.data)
	if src != nil {
		copy(dst, src)
	} else if _, err := io.ReadFull(r, dst); err != nil {
		return zero, formatError(truncated(err), "reading %d bytes of data of shape %s", h.bytes, shapeString(h.Shape))
	}
	fixElements(dst, h.d, h.native)
	return v, nil
}

// remaining returns the number of bytes left in r, and whether r can tell
// (a bytes.Reader, a strings.Reader, a file or another io.Seeker).
func remaining(r io.Reader) (int64, bool) {
	switch r := r.(type) {
	case interface{ Len() int }:
		return int64(r.Len()), true
	case *os.File:
		fi, err := r.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return 0, false
		}
		at, err := r.Seek(0, io.SeekCurrent)
		return fi.Size() - at, err == nil
	case io.Seeker:
		at, err := r.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0, false
		}
		end, err := r.Seek(0, io.SeekEnd)
		if err != nil {
			return 0, false
		}
		if _, err := r.Seek(at, io.SeekStart); err != nil {
			return 0, false
		}
		return end - at, true
	}
	return 0, false
}

// bytesOf returns the bytes of the elements of s.
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}

// fixElements turns the bytes of elements of dtype d read from a file into
// the machine's values: it reverses the bytes of each number where the
// file's byte order is not the machine's, and turns every nonzero byte of
// a bool into 1, the only true a Go bool may hold.
func fixElements(b []byte, d dtype, native bool) {
	if d.kind == 'b' {
		for i, c := range b {
			if c > 1 {
				b[i] = 1
			}
		}
		return
	}
	if native {
		return
	}
	w := d.size
	if d.kind == 'c' {
		w /= 2 // the real and imaginary parts are each in the file's order
	}
	for i := 0; i+w <= len(b); i += w {
		for j, k := i, i+w-1; j < k; j, k = j+1, k-1 {
			b[j], b[k] = b[k], b[j]
		}
	}
}
