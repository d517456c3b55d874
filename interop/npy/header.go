package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gokkos/kokkos/internal/errkind"
)

// A Header describes the array a .npy file holds, as its header states it.
type Header struct {
	// Descr is numpy's description of the element type, in the form numpy
	// writes it (its dtype.str): '<f8' is little-endian float64, '|b1'
	// bool, '>i4' big-endian int32. A header may name the type otherwise
	// ('float64', 'f8', 'd', '=f8'); ReadHeader returns it in this form.
	// For a dtype no view holds, it is the header's text.
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
// returns the header: the way to learn a file's dtype and shape before
// choosing the view to read it into. It consumes r up to the first byte
// of the data, so Read and ReadView need the file again from its start
// (seek back, or open it again); ReadAny reads a file of any dtype in one
// pass. It returns the errors Read returns for a bad header: ErrFormat,
// ErrDtype for a dtype no view holds, ErrRank above rank 8.
//
// The header is read as numpy reads it: a Python dict literal with the
// keys descr, fortran_order and shape, in any order and with any quotes,
// spacing, comments and trailing commas numpy takes; the shape a tuple of
// integers and fortran_order True or False; the dtype named in any of the
// ways Header.Descr lists. Headers numpy refuses are refused, with an
// error wrapping ErrFormat that says what is wrong.
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
// from r, leaving r at the first byte of the data, and checks the header
// as numpy does, since a corrupt file must give an error and never a panic
// or a partial view.
func readHeader(r io.Reader) (Header, dtype, bool, error) {
	var pre [12]byte
	if _, err := io.ReadFull(r, pre[:10]); err != nil {
		return Header{}, dtype{}, false, formatError(truncated(err), "reading the magic string and version")
	}
	if string(pre[:6]) != magic {
		return Header{}, dtype{}, false, formatError(nil, "not a .npy file: it starts with %q, not \\x93NUMPY", pre[:6])
	}
	major, minor := pre[6], pre[7]
	var n int
	switch major {
	case 1:
		n = int(binary.LittleEndian.Uint16(pre[8:10]))
	case 2, 3:
		if _, err := io.ReadFull(r, pre[10:12]); err != nil {
			return Header{}, dtype{}, false, formatError(truncated(err), "reading the header length")
		}
		n = int(binary.LittleEndian.Uint32(pre[8:12]))
	default:
		return Header{}, dtype{}, false, formatError(nil, "format version %d.%d; this reader knows 1.0, 2.0 and 3.0", major, minor)
	}
	if n > maxHeader {
		return Header{}, dtype{}, false, formatError(nil, "header of %d bytes, above the limit of %d", n, maxHeader)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return Header{}, dtype{}, false, formatError(truncated(err), "reading the header of %d bytes", n)
	}
	var text string
	if major == 3 {
		if !utf8.Valid(buf) {
			return Header{}, dtype{}, false, formatError(nil, "header %q of format version 3 is not UTF-8", buf)
		}
		text = string(buf)
	} else {
		// Versions 1 and 2 are Latin-1.
		runes := make([]rune, len(buf))
		for i, c := range buf {
			runes[i] = rune(c)
		}
		text = string(runes)
	}
	return parseHeader(text, major < 3)
}

// magic starts every .npy file.
const magic = "\x93NUMPY"

// headerKeys are the keys of a header's dict, which has no others.
var headerKeys = [...]string{"descr", "fortran_order", "shape"}

// parseHeader parses a header's dict from text and checks it as numpy's
// reader does: the keys descr, fortran_order and shape and no others
// (where one is repeated, the last counts), a tuple of ints for the
// shape, a bool for the order; then that the view can hold the dtype and
// rank, and the size. It drops a Python 2 long suffix L after a number
// where old is set, as numpy does for versions 1 and 2.
func parseHeader(text string, old bool) (Header, dtype, bool, error) {
	v, err := parsePyLiteral(text, old)
	if err != nil {
		return Header{}, dtype{}, false, formatError(nil, "header %q is not a dict literal that numpy reads: %v", text, err)
	}
	if v.kind != pyDict {
		return Header{}, dtype{}, false, formatError(nil, "header %q is a %s, not a dict", text, v.kind)
	}
	var fields [len(headerKeys)]*pyValue
	var extra []string
	for i := 0; i < len(v.elems); i += 2 {
		k := v.elems[i]
		if j := slices.Index(headerKeys[:], k.str); k.kind == pyStr && j >= 0 {
			fields[j] = &v.elems[i+1]
		} else if !slices.Contains(extra, k.src) {
			extra = append(extra, k.src)
		}
	}
	if len(extra) > 0 {
		return Header{}, dtype{}, false, formatError(nil, "header %q has the key %s besides descr, fortran_order and shape, which numpy refuses", text, strings.Join(extra, ", "))
	}
	for j, f := range fields {
		if f == nil {
			return Header{}, dtype{}, false, formatError(nil, "header %q has no key '%s'", text, headerKeys[j])
		}
	}
	descr, order, shape := fields[0], fields[1], fields[2]
	if shape.kind != pyTuple || slices.ContainsFunc(shape.elems, func(e pyValue) bool { return e.kind != pyInt }) {
		return Header{}, dtype{}, false, formatError(nil, "header %q: the shape %s is not a tuple of integers", text, shape.src)
	}
	if order.kind != pyBoolean {
		return Header{}, dtype{}, false, formatError(nil, "header %q: fortran_order %s is not True or False", text, order.src)
	}
	h := Header{Descr: descr.src, FortranOrder: order.n != 0, Shape: make([]int, len(shape.elems))}
	for i, e := range shape.elems {
		if e.big {
			return h, dtype{}, false, formatError(nil, "shape %s: the extent %s is beyond int64", shape.src, e.src)
		}
		h.Shape[i] = int(e.n)
	}
	if descr.kind == pyStr {
		h.Descr = descr.str
	}
	if len(h.Shape) > 8 {
		return h, dtype{}, false, errkind.Errorf(ErrRank, "npy: the file's shape %s has rank %d; a view holds at most 8", shapeString(h.Shape), len(h.Shape))
	}
	d, native, ok := parseDescr(h.Descr)
	if !ok || descr.kind != pyStr {
		return h, d, false, errkind.Errorf(ErrDtype, "npy: the file's dtype %q is not a boolean or fixed-size number that a view can hold", h.Descr)
	}
	h.Descr = d.descrOrder(native)
	size := d.size
	for _, e := range h.Shape {
		if e < 0 || e > 0 && size > math.MaxInt/e {
			return h, d, false, formatError(nil, "shape %s: negative extent or size overflows", shapeString(h.Shape))
		}
		size *= e
	}
	return h, d, native, nil
}
