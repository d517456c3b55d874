package npy

import (
	"bytes"
	"fmt"
	"io"
	"os"
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
	h, err := readHeaderFor[T](r)
	if err != nil {
		return kokkos.DynRankView[T]{}, err
	}
	if len(h.Shape) > kokkos.MaxDynRank {
		return kokkos.DynRankView[T]{}, errkind.Errorf(ErrRank,
			"npy: the file's shape %s has rank %d, above a DynRankView's %d: read it with ReadView into a View8", shapeString(h.Shape), len(h.Shape), kokkos.MaxDynRank)
	}
	return readData[kokkos.DynRankView[T], T](r, h, func(spec kokkos.LayoutSpec) (kokkos.DynRankView[T], error) {
		return kokkos.NewDynRankViewFrom[T](label, spec)
	})
}

// ReadView reads a .npy file from r into a new view of kind V, one of
// kokkos.View0[T] … kokkos.View8[T] or kokkos.DynRankView[T], as Read does:
//
//	a, err := npy.ReadView[kokkos.View2[float64]](f, "A")
//
// It returns an error wrapping ErrRank, naming both ranks, when the file's
// rank is not V's, and Read's errors otherwise. It panics when V is not one
// of those view kinds.
func ReadView[V any, T Elem](r io.Reader, label string) (V, error) {
	var zero V
	rank, alloc := viewKind[V, T](label)
	h, err := readHeaderFor[T](r)
	if err != nil {
		return zero, err
	}
	if rank >= 0 && len(h.Shape) != rank {
		return zero, errkind.Errorf(ErrRank, "npy: the file's shape %s has rank %d; %T has rank %d", shapeString(h.Shape), len(h.Shape), zero, rank)
	}
	if rank < 0 && len(h.Shape) > kokkos.MaxDynRank {
		return zero, errkind.Errorf(ErrRank, "npy: the file's shape %s has rank %d, above a DynRankView's %d: read it into a View8", shapeString(h.Shape), len(h.Shape), kokkos.MaxDynRank)
	}
	return readData[V, T](r, h, alloc)
}

// viewKind returns the rank of view kind V (-1 for DynRankView) and the
// function that allocates one from a spec.
func viewKind[V any, T Elem](label string) (int, func(kokkos.LayoutSpec) (V, error)) {
	as := func(f func(kokkos.LayoutSpec) (any, error)) func(kokkos.LayoutSpec) (V, error) {
		return func(s kokkos.LayoutSpec) (V, error) {
			v, err := f(s)
			return v.(V), err
		}
	}
	var v V
	switch any(v).(type) {
	case kokkos.View0[T]:
		return 0, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewView0From[T](label, s) })
	case kokkos.View1[T]:
		return 1, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewView1From[T](label, s) })
	case kokkos.View2[T]:
		return 2, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewView2From[T](label, s) })
	case kokkos.View3[T]:
		return 3, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewView3From[T](label, s) })
	case kokkos.View4[T]:
		return 4, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewView4From[T](label, s) })
	case kokkos.View5[T]:
		return 5, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewView5From[T](label, s) })
	case kokkos.View6[T]:
		return 6, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewView6From[T](label, s) })
	case kokkos.View7[T]:
		return 7, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewView7From[T](label, s) })
	case kokkos.View8[T]:
		return 8, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewView8From[T](label, s) })
	case kokkos.DynRankView[T]:
		return -1, as(func(s kokkos.LayoutSpec) (any, error) { return kokkos.NewDynRankViewFrom[T](label, s) })
	}
	panic(fmt.Sprintf("npy.ReadView: %T is not a view kind of element type %T (View0 to View8, DynRankView)", v, *new(T)))
}

// fileHeader is a checked header and what reading its data needs.
type fileHeader struct {
	Header
	d      dtype
	native bool
	bytes  int // of the data
}

// readHeaderFor reads the header from r and checks that its dtype is T's.
func readHeaderFor[T Elem](r io.Reader) (fileHeader, error) {
	h, d, native, err := readHeader(r)
	if err != nil {
		return fileHeader{}, err
	}
	if want := dtypeOf[T](); d != want {
		return fileHeader{}, errkind.Errorf(ErrDtype, "npy: the file's dtype is %s (%q) and the view's element type %T is %s",
			d, h.Descr, *new(T), want)
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
func readData[V any, T Elem](r io.Reader, h fileHeader, alloc func(kokkos.LayoutSpec) (V, error)) (V, error) {
	var zero V
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
	dst := bytesOf(any(&v).(interface{ Data() []T }).Data())
	if src != nil {
		copy(dst, src)
	} else if _, err := io.ReadFull(r, dst); err != nil {
		release(&v)
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

// release drops the view that v points to after a failed read.
func release(v any) {
	if r, ok := v.(interface{ Release() error }); ok {
		_ = r.Release()
	}
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
