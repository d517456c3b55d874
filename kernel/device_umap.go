package kernel

import (
	"fmt"
	"reflect"

	"github.com/gokkos/kokkos/backend"
)

// umapArg is implemented by containers.UnorderedMap: a kernel's map
// parameter binds to a device launch through it.
type umapArg interface {
	BackendArg() (*backend.UMap, error)
	BackendKinds() (key, value backend.Kind)
}

// umapParam marks bp a map parameter when t, its type, is a map's.
func umapParam(bp *backend.Param, t reflect.Type) bool {
	um, ok := reflect.Zero(t).Interface().(umapArg)
	if !ok {
		return false
	}
	bp.UMap, bp.Write = true, true
	bp.Elem, bp.Value = um.BackendKinds()
	return true
}

// umapBind returns the argument of map parameter p, bound to value v.
func (e *entry) umapBind(p *backend.Param, v any) (backend.Arg, error) {
	u, err := v.(umapArg).BackendArg()
	if err != nil {
		return backend.Arg{}, fmt.Errorf("%w: kernel %s: map %s: %v", ErrArgs, e.Name, p.Name, err)
	}
	return backend.Arg{UMap: u}, nil
}
