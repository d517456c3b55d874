package kernel

import (
	"fmt"
	"reflect"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// pieces is a kernel argument that a device launch binds as several
// parameters, its KernelPieces in order: package random's pools, whose
// pieces are their unique token and the view of their states. A host
// kernel takes the argument itself. The pieces of parameter p are named
// as the kernel's description names them (cmd/kokkos-kernelgen's
// ir_random.go): a token "gkrtok_p", a view "gkrstates_p". KernelPieces of
// the zero value gives zero pieces of the same types.
type pieces interface {
	KernelPieces() []any
}

var piecesType = reflect.TypeFor[pieces]()

// pieceParams returns the backend parameters of the pieces of parameter
// name, of type t (which implements pieces).
func pieceParams(name string, t reflect.Type) []backend.Param {
	var ps []backend.Param
	for _, pc := range reflect.Zero(t).Interface().(pieces).KernelPieces() {
		pt := reflect.TypeOf(pc)
		if pt == tokenType {
			ps = append(ps, backend.Param{Name: "gkrtok_" + name, Token: true})
			continue
		}
		bp := backend.Param{Name: "gkrstates_" + name, View: true, Write: true}
		bp.Rank, bp.Elem = viewShape(pt)
		ps = append(ps, bp)
	}
	return ps
}

// expandPieces returns vals with each argument of pieces replaced by its
// pieces, as the backend kernel's parameters list them.
func expandPieces(vals []any) []any {
	out := make([]any, 0, len(vals)+2)
	for _, v := range vals {
		if pc, ok := v.(pieces); ok {
			out = append(out, pc.KernelPieces()...)
			continue
		}
		out = append(out, v)
	}
	return out
}

// checkPieces checks argument j, a pool (pieces), for a launch on space:
// not the zero pool; for a device launch, a pool of that instance; for a
// host launch, a pool the host can draw from.
func (e *entry) checkPieces(space kokkos.ExecutionSpace, j int, pc pieces) error {
	var tok kokkos.UniqueToken
	for _, x := range pc.KernelPieces() {
		if t, ok := x.(kokkos.UniqueToken); ok {
			tok = t
		}
	}
	name := e.Params[j].Name
	if tok == (kokkos.UniqueToken{}) {
		return fmt.Errorf("%w: kernel %s: pool %s is the zero %T: make it with its constructor", ErrArgs, e.Name, name, pc)
	}
	ts := tok.Space()
	if hostSpace(space) {
		if !hostSpace(ts) {
			return fmt.Errorf("%w: kernel %s: pool %s was made for %s, whose states the host cannot reach, and the launch runs on the host", ErrArgs, e.Name, name, ts.Name())
		}
		return nil
	}
	if ts != space {
		return fmt.Errorf("%w: kernel %s: pool %s was made for another instance (%s) than the launch's (%s): make it for the policy's space", ErrArgs, e.Name, name, ts.Name(), space.Name())
	}
	return nil
}
