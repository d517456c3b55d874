package arrow

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/float16"
)

// Element is the set of element types that have an Arrow fixed-width
// numeric type: int8 to int64, uint8 to uint64, float16.Num (Arrow's
// half-float), float32 and float64. A view of such elements shares its
// memory with the Arrow array of that type.
type Element interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float16.Num | float32 | float64
}

// DataType returns the Arrow type of elements of type T, such as
// arrow.PrimitiveTypes.Float64 for float64.
func DataType[T Element]() arrow.DataType {
	switch any(*new(T)).(type) {
	case int8:
		return arrow.PrimitiveTypes.Int8
	case int16:
		return arrow.PrimitiveTypes.Int16
	case int32:
		return arrow.PrimitiveTypes.Int32
	case int64:
		return arrow.PrimitiveTypes.Int64
	case uint8:
		return arrow.PrimitiveTypes.Uint8
	case uint16:
		return arrow.PrimitiveTypes.Uint16
	case uint32:
		return arrow.PrimitiveTypes.Uint32
	case uint64:
		return arrow.PrimitiveTypes.Uint64
	case float16.Num:
		return arrow.FixedWidthTypes.Float16
	case float32:
		return arrow.PrimitiveTypes.Float32
	default: // float64, the last of Element
		return arrow.PrimitiveTypes.Float64
	}
}

func sizeOf[T Element]() int { return int(unsafe.Sizeof(*new(T))) }

// typeName names T in messages ("float64", "float16.Num").
func typeName[T Element]() string { return fmt.Sprintf("%T", *new(T)) }

// checkType returns an error wrapping ErrType unless dt is T's Arrow type.
func checkType[T Element](op string, dt arrow.DataType) error {
	if dt == nil || !arrow.TypeEqual(dt, DataType[T]()) {
		return errorf(ErrType, "arrow: %s[%s] of Arrow data of type %v: the element types differ; ask for the Go type of %v, or cast the Arrow array (arrow/compute) first", op, typeName[T](), dt, dt)
	}
	return nil
}
