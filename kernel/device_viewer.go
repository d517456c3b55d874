package kernel

import (
	"fmt"
	"reflect"
)

// A deviceViewer is a kernel argument that a device launch binds as a
// view: a ScatterView of package containers, whose kernels' updates are
// atomic operations on its view there. DeviceView returns that view (a
// kokkos.View1..6 value, of the right type even with an error), or an
// error saying why the argument has none on a device.
type deviceViewer interface {
	DeviceView() (any, error)
}

// deviceViewType returns the type of the view a parameter of type t
// binds as on a device: t itself, or a deviceViewer's view type.
func deviceViewType(t reflect.Type) reflect.Type {
	if dv, ok := reflect.Zero(t).Interface().(deviceViewer); ok {
		v, _ := dv.DeviceView()
		return reflect.TypeOf(v)
	}
	return t
}

// deviceViewOf returns v, or the view a deviceViewer binds as on a device.
func (e *entry) deviceViewOf(name string, v any) (any, error) {
	dv, ok := v.(deviceViewer)
	if !ok {
		return v, nil
	}
	w, err := dv.DeviceView()
	if err != nil {
		return nil, fmt.Errorf("%w: kernel %s: parameter %s: %w", ErrArgs, e.Name, name, err)
	}
	return w, nil
}
