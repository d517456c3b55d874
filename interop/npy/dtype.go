package npy

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"strconv"
	"strings"
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

// descrOrder returns the descr of d, in numpy's canonical form (its
// dtype.str): '|' for one byte, else '<' or '>', the machine's order where
// native is set.
func (d dtype) descrOrder(native bool) string {
	s := d.descr()
	if d.size > 1 && !native {
		order := byte('>')
		if !nativeLittle {
			order = '<'
		}
		s = string(order) + s[1:]
	}
	return s
}

// dtypeNames are the names numpy.dtype takes for the dtypes a view holds,
// without a byte order, whose sizes are the same on every platform (int,
// long and their kin are not).
var dtypeNames = map[string]dtype{
	"bool": {'b', 1}, "bool_": {'b', 1},
	"int8": {'i', 1}, "int16": {'i', 2}, "int32": {'i', 4}, "int64": {'i', 8},
	"uint8": {'u', 1}, "uint16": {'u', 2}, "uint32": {'u', 4}, "uint64": {'u', 8},
	"float32": {'f', 4}, "float64": {'f', 8}, "complex64": {'c', 8}, "complex128": {'c', 16},
	"float": {'f', 8}, "complex": {'c', 16}, "single": {'f', 4}, "double": {'f', 8},
	"csingle": {'c', 8}, "cdouble": {'c', 16},
	"byte": {'i', 1}, "ubyte": {'u', 1}, "short": {'i', 2}, "ushort": {'u', 2},
	"intc": {'i', 4}, "uintc": {'u', 4}, "longlong": {'i', 8}, "ulonglong": {'u', 8},
}

// dtypeChars are numpy's one-character type codes of the dtypes a view
// holds, of fixed sizes ('l' and 'L' are not).
var dtypeChars = map[byte]dtype{
	'?': {'b', 1}, 'b': {'i', 1}, 'B': {'u', 1}, 'h': {'i', 2}, 'H': {'u', 2},
	'i': {'i', 4}, 'I': {'u', 4}, 'q': {'i', 8}, 'Q': {'u', 8},
	'f': {'f', 4}, 'd': {'f', 8}, 'F': {'c', 8}, 'D': {'c', 16},
}

// parseDescr returns the dtype of a header's descr string, as numpy.dtype
// reads it, and whether its bytes are in the machine's order; ok is false
// for a descr that is not a fixed-size number a view can hold. It takes
// the forms numpy writes ('<f8', '|b1'), those with another byte order
// ('>i4', '=f8', '|f8' for the machine's) or none ('f8'), the type codes
// ('d', '>h', '?') and the names ('float64', 'bool', 'double').
func parseDescr(s string) (d dtype, native, ok bool) {
	if d, ok := dtypeNames[s]; ok {
		return d, true, true
	}
	order := byte('=')
	if len(s) > 0 && strings.IndexByte("<>=|", s[0]) >= 0 {
		order, s = s[0], s[1:]
	}
	switch {
	case len(s) == 1:
		if d, ok = dtypeChars[s[0]]; !ok {
			return dtype{}, false, false
		}
	case len(s) > 1 && strings.IndexByte("biufc", s[0]) >= 0:
		digits := strings.TrimLeft(s[1:], "0")
		if len(digits) > 2 || strings.Trim(digits, "0123456789") != "" || digits == "" {
			return dtype{}, false, false
		}
		d.kind = s[0]
		d.size, _ = strconv.Atoi(digits)
		switch {
		case d.kind == 'b' && d.size == 1,
			(d.kind == 'i' || d.kind == 'u') && (d.size == 1 || d.size == 2 || d.size == 4 || d.size == 8),
			d.kind == 'f' && (d.size == 4 || d.size == 8),
			d.kind == 'c' && (d.size == 8 || d.size == 16):
		default:
			return d, false, false
		}
	default:
		return dtype{}, false, false
	}
	switch order {
	case '<':
		return d, nativeLittle || d.size == 1, true
	case '>':
		return d, !nativeLittle || d.size == 1, true
	}
	return d, true, true
}
