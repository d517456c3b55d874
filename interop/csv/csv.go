// Package csv reads comma-separated numbers into a rank-2 view and writes
// a view back, through encoding/csv: one record per row, one field per
// column, typed by the view's element type.
//
//	a, names, err := csv.Read[float64](f, "A", csv.Options{Header: true})
//	err = csv.Write(w, a, csv.Options{Header: true, Names: names})
//
// Read streams: it parses each record as it comes into the growing
// row-major buffer of the view's elements, and stops at the first field
// that is not a number of the element type, with an error naming its line
// and column.
package csv

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/internal/errkind"
)

// ErrField: a field is not a number of the view's element type (a word, an
// empty field, a fraction in an integer column, a value out of range). The
// error names the line and column; it also wraps strconv's ErrSyntax or
// ErrRange.
var ErrField = errors.New("csv: invalid number")

// Options are the format of a file. The zero value reads and writes plain
// comma-separated numbers without a header.
type Options struct {
	// Comma separates the fields; ',' when 0. It may be '\t' or ';'.
	Comma rune
	// Comment starts a line that Read skips (as '#'); none when 0.
	Comment rune
	// Header says that the first record names the columns: Read returns
	// its fields, and Write writes Names first.
	Header bool
	// Names are the column names Write writes where Header is set; one
	// per column of the view.
	Names []string
}

// Read reads the records of r into a new LayoutRight view labelled label,
// one row per record and one column per field, parsing each field (with
// surrounding spaces trimmed) as a T: integers in base 10, floating-point
// numbers as strconv.ParseFloat takes them (NaN and Inf included). Every
// record must have as many fields as the first. It returns the header's
// fields where o.Header is set. Input without records gives a view with no
// rows (and as many columns as the header has fields).
//
// It returns an error wrapping ErrField, naming the line, the column and
// the field, for a field that is not a T; an error wrapping
// encoding/csv's ErrFieldCount, naming the line, for a record of another
// length, and csv's other errors for malformed quoting; and r's errors.
// On error it returns no view.
func Read[T kokkos.Number](r io.Reader, label string, o Options) (kokkos.View2[T], []string, error) {
	var zero kokkos.View2[T]
	cr := csv.NewReader(r)
	if o.Comma != 0 {
		cr.Comma = o.Comma
	}
	cr.Comment = o.Comment
	cr.ReuseRecord = true
	parse := parser[T]()
	var names []string
	var data []T
	cols, rows := -1, 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return zero, nil, fmt.Errorf("csv: reading view %q: %w", label, err)
		}
		if o.Header && names == nil {
			names = append([]string{}, rec...)
			cols = len(rec)
			continue
		}
		if cols < 0 {
			cols = len(rec)
		}
		for j, f := range rec {
			x, err := parse(strings.TrimSpace(f))
			if err != nil {
				line, col := cr.FieldPos(j)
				return zero, nil, errkind.Errorf(ErrField, "csv: reading view %q: line %d, column %d (byte %d): %q is not a valid %s: %w",
					label, line, j+1, col, f, typeName[T](), errors.Unwrap(err))
			}
			data = append(data, x)
		}
		rows++
	}
	v, err := kokkos.NewView2[T](label, rows, max(cols, 0))
	if err != nil {
		return zero, nil, err
	}
	copy(v.Data(), data)
	return v, names, nil
}

// typeName returns T's name.
func typeName[T any]() string { return reflect.TypeFor[T]().String() }

// parser returns the function that parses a field as a T.
func parser[T kokkos.Number]() func(string) (T, error) {
	var z T
	bits := int(unsafe.Sizeof(z)) * 8
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Float32, reflect.Float64:
		return func(s string) (T, error) {
			x, err := strconv.ParseFloat(s, bits)
			return T(x), err
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(s string) (T, error) {
			x, err := strconv.ParseInt(s, 10, bits)
			return T(x), err
		}
	default:
		return func(s string) (T, error) {
			x, err := strconv.ParseUint(s, 10, bits)
			return T(x), err
		}
	}
}

// Write writes the rows of v to w as records, one field per column:
// integers in base 10, floating-point numbers in the shortest form that
// reads back as the same value. Where o.Header is set it first writes
// o.Names, which must name every column. v may have any layout, and may
// be read-only.
//
// It returns an error wrapping kokkos.ErrNotHostAccessible for a view the
// host cannot access (mirror it first with kokkos.CreateMirrorViewAndCopy),
// kokkos.ErrElementType for a view with the Atomic trait, kokkos.ErrShape
// when o.Names does not match the columns, kokkos.ErrReleased for a view
// whose allocation was released, and w's errors.
func Write[T kokkos.Number](w io.Writer, v kokkos.View2[T], o Options) error {
	s := kokkos.ShapeOf[T](&v)
	switch {
	case s.Allocation != nil && s.Allocation.Released():
		return errkind.Errorf(kokkos.ErrReleased, "csv: writing view %q: its allocation had its final Release", s.Label)
	case !s.Space.HostAccessible():
		return errkind.Errorf(kokkos.ErrNotHostAccessible,
			"csv: writing view %q: it is in %s, which the host cannot access: mirror it first (kokkos.CreateMirrorViewAndCopy) and write the mirror", s.Label, s.Space.Name())
	case s.Traits&kokkos.Atomic != 0:
		return errkind.Errorf(kokkos.ErrElementType,
			"csv: writing view %q: it has the Atomic trait, whose elements are only read atomically; write a view of them without the trait (AsTraits) once no updates run", s.Label)
	case o.Header && len(o.Names) != s.Extents[1]:
		return errkind.Errorf(kokkos.ErrShape, "csv: writing view %q: %d names for %d columns", s.Label, len(o.Names), s.Extents[1])
	}
	cw := csv.NewWriter(w)
	if o.Comma != 0 {
		cw.Comma = o.Comma
	}
	if o.Header {
		var err error
		if len(o.Names) == 1 && o.Names[0] == "" {
			// encoding/csv writes a record of one empty field as an empty
			// line, which readers skip: quote it.
			_, err = io.WriteString(w, "\"\"\n")
		} else {
			err = cw.Write(o.Names)
		}
		if err != nil {
			return fmt.Errorf("csv: writing view %q: %w", s.Label, err)
		}
	}
	format := formatter[T]()
	rec := make([]string, s.Extents[1])
	for i := range s.Extents[0] {
		for j := range rec {
			rec[j] = format(v.At(i, j))
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("csv: writing view %q: %w", s.Label, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("csv: writing view %q: %w", s.Label, err)
	}
	return nil
}

// formatter returns the function that formats a T as Read parses it.
func formatter[T kokkos.Number]() func(T) string {
	var z T
	bits := int(unsafe.Sizeof(z)) * 8
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Float32, reflect.Float64:
		return func(x T) string { return strconv.FormatFloat(float64(x), 'g', -1, bits) }
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(x T) string { return strconv.FormatInt(int64(x), 10) }
	default:
		return func(x T) string { return strconv.FormatUint(uint64(x), 10) }
	}
}
