package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	npyio "codeberg.org/sbinet/npyio/npy"
	"github.com/gokkos/kokkos/internal/errkind"
)

// A Header describes the array a .npy file holds, as its header states it.
type Header struct {
	// Descr is numpy's description of the element type: '<f8' is
	// little-endian float64, '|b1' bool, '>i4' big-endian int32.
	Descr string
	// FortranOrder is true where the elements are stored column-major (the
	// first index varies fastest); such files are read into LayoutLeft
	// views.
	FortranOrder bool
	// Shape is the array's extents; its length is the rank (0 for a
	// scalar).
	Shape []int
}

// String returns the header as numpy's dict.
func (h Header) String() string {
	return fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }",
		h.Descr, pyBool(h.FortranOrder), shapeString(h.Shape))
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// shapeString formats extents as a Python tuple: (), (3,), (2, 3).
func shapeString(shape []int) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, e := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(e))
	}
	if len(shape) == 1 {
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return b.String()
}

// ReadHeader reads the preamble and header of a .npy file from r and
// returns the header, leaving r at the first byte of the data: the way to
// learn a file's dtype and shape before choosing the view to read it into
// (then read the file again from its start with Read or ReadView). It
// returns the errors Read returns for a bad header: ErrFormat, ErrDtype for
// a dtype no view holds, ErrRank above rank 8.
func ReadHeader(r io.Reader) (Header, error) {
	h, _, _, err := readHeader(r)
	if err != nil {
		return Header{}, err
	}
	return h, nil
}

// maxHeader is the largest header accepted, in bytes: numpy refuses
// headers above 10000 bytes unless told otherwise; a valid header of rank
// 8 needs a tenth of that, and a corrupt length must not allocate
// gigabytes.
const maxHeader = 1 << 16

// formatError returns an error wrapping ErrFormat (and err, if not nil).
func formatError(err error, format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	if err != nil {
		return errkind.Errorf(ErrFormat, "npy: %s: %w", msg, err)
	}
	return errkind.Errorf(ErrFormat, "npy: %s", msg)
}

// truncated turns the end of input inside a file into io.ErrUnexpectedEOF.
func truncated(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// readHeader reads the magic string, version and header of a .npy file
// from r, leaving r at the first byte of the data. The header's dict is
// parsed by npyio; what it gives is checked here, since a corrupt file
// must give an error and never a panic or a partial view.
func readHeader(r io.Reader) (Header, dtype, bool, error) {
	var pre [12]byte
	if _, err := io.ReadFull(r, pre[:10]); err != nil {
		return Header{}, dtype{}, false, formatError(truncated(err), "reading the magic string and version")
	}
	if !bytes.Equal(pre[:6], npyio.Magic[:]) {
		return Header{}, dtype{}, false, formatError(nil, "not a .npy file: it starts with %q, not \\x93NUMPY", pre[:6])
	}
	major, minor := pre[6], pre[7]
	var n, pl int
	switch major {
	case 1:
		n, pl = int(binary.LittleEndian.Uint16(pre[8:10])), 10
	case 2, 3:
		if _, err := io.ReadFull(r, pre[10:12]); err != nil {
			return Header{}, dtype{}, false, formatError(truncated(err), "reading the header length")
		}
		n, pl = int(binary.LittleEndian.Uint32(pre[8:12])), 12
	default:
		return Header{}, dtype{}, false, formatError(nil, "format version %d.%d; this reader knows 1.0, 2.0 and 3.0", major, minor)
	}
	if n > maxHeader {
		return Header{}, dtype{}, false, formatError(nil, "header of %d bytes, above the limit of %d", n, maxHeader)
	}
	buf := make([]byte, pl+n)
	copy(buf, pre[:pl])
	if _, err := io.ReadFull(r, buf[pl:]); err != nil {
		return Header{}, dtype{}, false, formatError(truncated(err), "reading the header of %d bytes", n)
	}
	dict := buf[pl:]
	if i := bytes.LastIndexByte(dict, '\n'); i < 0 || bytes.IndexByte(dict, '}') < 0 || bytes.IndexByte(dict, '}') > i {
		return Header{}, dtype{}, false, formatError(nil, "header %q is not a dict ended by a newline", dict)
	}
	if major == 3 {
		// Version 3 differs from 2 only in the header's encoding (UTF-8),
		// which npyio does not know; the dicts of numbers are ASCII.
		buf[6] = 2
	}
	p, err := parseDict(buf)
	if err != nil {
		return Header{}, dtype{}, false, formatError(err, "header %q", dict)
	}
	h := Header{Descr: strings.Trim(p.Descr.Type, "'\""), FortranOrder: p.Descr.Fortran, Shape: p.Descr.Shape}
	if h.Shape == nil {
		h.Shape = []int{}
	}
	if len(h.Shape) > 8 {
		return h, dtype{}, false, errkind.Errorf(ErrRank, "npy: the file's shape %s has rank %d; a view holds at most 8", shapeString(h.Shape), len(h.Shape))
	}
	d, native, ok := parseDescr(h.Descr)
	if !ok {
		return h, d, false, errkind.Errorf(ErrDtype, "npy: the file's dtype %q is not a boolean or fixed-size number that a view can hold", h.Descr)
	}
	size := d.size
	for _, e := range h.Shape {
		if e < 0 || e > 0 && size > math.MaxInt/e {
			return h, d, false, formatError(nil, "shape %s: negative extent or size overflows", shapeString(h.Shape))
		}
		size *= e
	}
	return h, d, native, nil
}

// parseDict runs npyio's header parser over the bytes of a file's
// preamble and header, turning its panics on malformed dicts into errors.
func parseDict(b []byte) (h npyio.Header, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("malformed dict: %v", p)
		}
	}()
	r, err := npyio.NewReader(bytes.NewReader(b))
	if err != nil {
		return h, err
	}
	return r.Header, nil
}
