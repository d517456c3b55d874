// Package typeinfo answers questions about element types that the view
// and array packages share.
package typeinfo

import "reflect"

// HasPointers reports whether values of t hold Go pointers, which memory
// outside the Go heap cannot keep: the garbage collector does not see it.
func HasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan, reflect.Func,
		reflect.Interface, reflect.Slice, reflect.String:
		return true
	case reflect.Array:
		return t.Len() > 0 && HasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if HasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
