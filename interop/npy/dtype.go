package npy

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"unsafe"
)

// Elem is the element types a .npy file holds and a view can: booleans,
// integers, floating-point and complex numbers (and types defined on
// them). int and uint are written as int64 and uint64 (int32 and uint32
// where they have 32 bits).
type Elem interface {
	~bool | ~int8 | ~int16 | ~int32 | ~int64 | ~int |
		~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// nativeLittle is true on little-endian machines.
var nativeLittle = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// dtype is a numpy dtype of a fixed-size number: its kind character (b, i,
// u, f, c) and size in bytes.
type dtype struct {
	kind byte
	size int
}

// dtypeOf returns the dtype of T.
func dtypeOf[T Elem]() dtype {
	var z T
	size := int(unsafe.Sizeof(z))
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Bool:
		return dtype{'b', size}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return dtype{'i', size}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return dtype{'u', size}
	case reflect.Float32, reflect.Float64:
		return dtype{'f', size}
	default:
		return dtype{'c', size}
	}
}

// descr returns the dtype's descr string in the machine's byte order, as
// numpy writes it: '<f8', '|b1'.
func (d dtype) descr() string {
	order := byte('<')
	switch {
	case d.size == 1:
		order = '|'
	case !nativeLittle:
		order = '>'
	}
	return fmt.Sprintf("%c%c%d", order, d.kind, d.size)
}

// String names the dtype as numpy does: float64, int32, bool, complex128.
func (d dtype) String() string {
	switch d.kind {
	case 'b':
		return "bool"
	case 'i':
		return fmt.Sprintf("int%d", 8*d.size)
	case 'u':
		return fmt.Sprintf("uint%d", 8*d.size)
	case 'f':
		return fmt.Sprintf("float%d", 8*d.size)
	default:
		return fmt.Sprintf("complex%d", 8*d.size)
	}
}

// parseDescr returns the dtype of a header's descr (without its quotes)
// and whether its bytes are in the machine's order; ok is false for a
// descr that is not a fixed-size number a view can hold.
func parseDescr(s string) (d dtype, native, ok bool) {
	if len(s) < 3 {
		return dtype{}, false, false
	}
	order, kind := s[0], s[1]
	size := 0
	for _, c := range s[2:] {
		if c < '0' || c > '9' || size > 64 {
			return dtype{}, false, false
		}
		size = 10*size + int(c-'0')
	}
	d = dtype{kind, size}
	switch {
	case kind == 'b' && size == 1,
		(kind == 'i' || kind == 'u') && (size == 1 || size == 2 || size == 4 || size == 8),
		kind == 'f' && (size == 4 || size == 8),
		kind == 'c' && (size == 8 || size == 16):
	default:
		return d, false, false
	}
	switch order {
	case '|':
		return d, true, size == 1
	case '=':
		return d, true, true
	case '<':
		return d, nativeLittle || size == 1, true
	case '>':
		return d, !nativeLittle || size == 1, true
	}
	return d, false, false
}
