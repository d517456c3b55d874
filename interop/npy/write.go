package npy

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/errkind"
)

// Write writes the elements of v to w as a .npy file (format version 1.0,
// or 2.0 for a header above 64 KiB): a header with v's dtype, in the
// machine's byte order, and shape, then the elements. v may be any host
// view kind of any rank (View0 … View8, DynRankView, an offset view) and
// layout. A contiguous LayoutRight view is written as it lies in C order,
// and a contiguous LayoutLeft view in Fortran order (fortran_order True),
// so that Read gives it back as LayoutLeft; other views (strided, padded,
// subviews) go through a contiguous copy, in C order, a block at a time.
// Read-only views are written like the others. A view with no elements
// is written with its extents: a zero-value View2 (never allocated) is an
// array of shape (0, 0).
//
// It returns an error wrapping kokkos.ErrNotHostAccessible for a view the
// host cannot access (mirror it to the host first with
// kokkos.CreateMirrorViewAndCopy), one wrapping kokkos.ErrElementType for a
// view with the Atomic trait, one wrapping kokkos.ErrReleased for a view
// whose allocation was released, one wrapping kokkos.ErrShape for a
// zero-value View0 or DynRankView (rank 0 without its element, which a
// file of shape () holds), and w's errors.
func Write[T Elem](w io.Writer, v kokkos.View[T]) error {
	s := kokkos.ShapeOf(v)
	if s.Allocation != nil && s.Allocation.Released() {
		return errkind.Errorf(kokkos.ErrReleased, "npy: writing view %q: its allocation had its final Release", s.Label)
	}
	if !s.Space.HostAccessible() {
		return errkind.Errorf(kokkos.ErrNotHostAccessible,
			"npy: writing view %q: it is in %s, which the host cannot access: mirror it first (kokkos.CreateMirrorViewAndCopy) and write the mirror", s.Label, s.Space.Name())
	}
	if s.Rank == 0 && s.Size == 0 {
		return errkind.Errorf(kokkos.ErrShape, "npy: writing view %q: it has rank 0 and no element (a zero-value view), where a file of shape () holds one", s.Label)
	}
	if s.Traits&kokkos.Atomic != 0 {
		return errkind.Errorf(kokkos.ErrElementType,
			"npy: writing view %q: it has the Atomic trait, whose elements are only read atomically; write a view of them without the trait (AsTraits) once no updates run", s.Label)
	}
	var data []T
	if s.Size > 0 {
		data = kokkos.ReadOnlyData(v)
	}
	// A view that is contiguous both ways (extents of 1) keeps its layout.
	right, left := isCompact(s.Extents, s.Strides, false), isCompact(s.Extents, s.Strides, true)
	fortran := s.Rank > 1 && left && (s.Layout == kokkos.LayoutLeft || !right)
	if !right && !left {
		data = nil
	}
	h := Header{Descr: dtypeOf[T]().descr(), FortranOrder: fortran, Shape: s.Extents}
	if err := writeHeader(w, h); err != nil {
		return fmt.Errorf("npy: writing view %q: %w", s.Label, err)
	}
	var err error
	if data != nil || s.Size == 0 {
		_, err = w.Write(bytesOf(data[:s.Size]))
	} else {
		err = writeStrided(w, kokkos.ReadOnlyData(v), s.Extents, s.Strides)
	}
	if err != nil {
		return fmt.Errorf("npy: writing the elements of view %q: %w", s.Label, err)
	}
	return nil
}

// isCompact reports whether strides are those of a contiguous view of
// extents ext, row-major or (left) column-major. Dimensions of extent 1
// may have any stride.
func isCompact(ext, str []int, left bool) bool {
	want := 1
	for k := range ext {
		r := len(ext) - 1 - k
		if left {
			r = k
		}
		if ext[r] == 0 {
			return true
		}
		if ext[r] != 1 && str[r] != want {
			return false
		}
		want *= ext[r]
	}
	return true
}

// writeStrided writes the elements of the view of extents ext and
// strides str over data in C order, through a buffer of up to block
// elements.
func writeStrided[T any](w io.Writer, data []T, ext, str []int) error {
	const block = 1 << 14
	rank := len(ext)
	last, ls := ext[rank-1], str[rank-1]
	buf := make([]T, 0, max(block, last))
	idx := make([]int, rank-1)
	off := 0
	for {
		for k := range last {
			buf = append(buf, data[off+k*ls])
		}
		if len(buf)+last > cap(buf) {
			if _, err := w.Write(bytesOf(buf)); err != nil {
				return err
			}
			buf = buf[:0]
		}
		// Advance the odometer over the dimensions before the last.
		r := rank - 2
		for ; r >= 0; r-- {
			idx[r]++
			off += str[r]
			if idx[r] < ext[r] {
				break
			}
			off -= idx[r] * str[r]
			idx[r] = 0
		}
		if r < 0 {
			break
		}
	}
	_, err := w.Write(bytesOf(buf))
	return err
}

// writeHeader writes the magic string, version and header h, padded with
// spaces so that the data starts at a multiple of 64 bytes, as numpy does.
func writeHeader(w io.Writer, h Header) error {
	dict := h.String()
	major, pre := byte(1), 10
	if len(dict)+1+pre > 1<<16-1 {
		major, pre = 2, 12
	}
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	var b bytes.Buffer
	b.Write([]byte("\x93NUMPY"))
	b.WriteByte(major)
	b.WriteByte(0)
	n := total - pre
	if major == 1 {
		_ = binary.Write(&b, binary.LittleEndian, uint16(n))
	} else {
		_ = binary.Write(&b, binary.LittleEndian, uint32(n))
	}
	b.WriteString(dict)
	for b.Len() < total-1 {
		b.WriteByte(' ')
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}
