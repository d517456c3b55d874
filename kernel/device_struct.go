package kernel

import (
	"reflect"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
)

// paramKind is the kind of a kernel's scalar parameter of type t: a
// struct's is backend.KindStruct (go generate admits only structs of
// numbers and arrays and structs of them, which C lays out as Go does).
func paramKind(t reflect.Type) backend.Kind {
	if t.Kind() == reflect.Struct {
		return backend.KindStruct
	}
	return backend.KindOf(t)
}

// structBytes returns a copy of the bytes of struct v in memory.
func structBytes(v any) []byte {
	x := reflect.New(reflect.TypeOf(v))
	x.Elem().Set(reflect.ValueOf(v))
	return append([]byte(nil), unsafe.Slice((*byte)(x.UnsafePointer()), x.Elem().Type().Size())...)
}
