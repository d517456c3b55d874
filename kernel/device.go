package kernel

import (
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/cuda"
)

var deviceChecks atomic.Bool

// CheckDeviceBounds sets whether launches on a GPU check every view access
// against the view's extents (cuda.CheckBounds): an access outside them
// then returns a *cuda.BoundsError, naming the view, its label, the index
// and the extents, instead of touching memory, and each launch waits for
// its kernel. It is off by default, as in Kokkos, since it costs time;
// host kernels always check.
func CheckDeviceBounds(on bool) { deviceChecks.Store(on) }

// deviceArgs binds vals to the CUDA body's names, with fused multiply-adds
// off so that floating-point results round as the host kernel's do.
func (e *entry) deviceArgs(vals []any) ([]cuda.Arg, error) {
	if e.CUDA == "" {
		return nil, fmt.Errorf("%w: kernel %s: %s", ErrNoDevice, e.Name, e.NoCUDA)
	}
	args := make([]cuda.Arg, 0, len(vals)+2)
	for j, p := range e.Params {
		v := vals[j]
		if p.View {
			if p.Write && readOnly(v) {
				return nil, fmt.Errorf("%w: kernel %s: view %s is read-only and the kernel writes it", ErrArgs, e.Name, p.Name)
			}
			args = append(args, cuda.Bind(p.CUDAName, v))
			continue
		}
		args = append(args, cuda.Scalar(p.CUDAName, widen(v, p.CUDAConv)))
	}
	args = append(args, cuda.FMAD(false))
	if deviceChecks.Load() {
		args = append(args, cuda.CheckBounds())
	}
	if e.Helpers != "" {
		args = append(args, cuda.Helpers(e.Helpers))
	}
	return args, nil
}

// readOnly reports whether the view v (a View1..View6 value) is read-only.
func readOnly(v any) bool {
	p := reflect.New(reflect.TypeOf(v))
	p.Elem().Set(reflect.ValueOf(v))
	ro, ok := p.Interface().(interface{ IsReadOnly() bool })
	return ok && ro.IsReadOnly()
}

// widen converts a scalar to the type its CUDA binding takes (conv of
// Param.CUDAConv).
func widen(v any, conv string) any {
	if b, ok := v.(bool); ok {
		if b {
			return int32(1)
		}
		return int32(0)
	}
	switch conv {
	case "int32":
		return int32(reflect.ValueOf(v).Int())
	case "uint32":
		return uint32(reflect.ValueOf(v).Uint())
	}
	return v
}

// deviceFor queues e on the policy's stream.
func (e *entry) deviceFor(label string, p any, vals []any) error {
	args, err := e.deviceArgs(vals)
	if err != nil {
		return err
	}
	return cuda.ParallelFor(label, p.(cuda.Policy), e.CUDA, args...)
}

// deviceReduce runs the reduction or scan e with r's device counterpart.
func deviceReduce[T any](e *entry, label string, p any, r kokkos.Reducer[T], vals []any) (T, error) {
	var zero T
	args, err := e.deviceArgs(vals)
	if err != nil {
		return zero, err
	}
	var res any
	switch any(zero).(type) {
	case float32:
		res, err = devReduce[float32](e, label, p, r.Builtin(), args)
	case float64:
		res, err = devReduce[float64](e, label, p, r.Builtin(), args)
	case int32:
		res, err = devReduce[int32](e, label, p, r.Builtin(), args)
	case int64:
		res, err = devReduce[int64](e, label, p, r.Builtin(), args)
	case int:
		var x int64
		x, err = devReduce[int64](e, label, p, r.Builtin(), args)
		res = int(x)
	case uint32:
		res, err = devReduce[uint32](e, label, p, r.Builtin(), args)
	case uint64:
		res, err = devReduce[uint64](e, label, p, r.Builtin(), args)
	case bool:
		res, err = devLogical(e, label, p, r.Builtin(), args)
	default:
		return zero, fmt.Errorf("%w: kernel %s: the device reduces float32, float64, int32, int64, int, uint32, uint64 and bool, not %T", ErrArgs, e.Name, zero)
	}
	if err != nil {
		return zero, err
	}
	return res.(T), nil
}

// devReduce runs e with the device reducer named name.
func devReduce[E cuda.Elem](e *entry, label string, p any, name string, args []cuda.Arg) (E, error) {
	var r cuda.Reducer[E]
	switch name {
	case "Sum":
		r = cuda.Sum[E]()
	case "Prod":
		r = cuda.Prod[E]()
	case "Min":
		r = cuda.Min[E]()
	case "Max":
		r = cuda.Max[E]()
	case "BAnd":
		r = cuda.Custom[E]("value = 0; value = ~value;", "dst = dst & src;")
	case "BOr":
		r = cuda.Custom[E]("value = 0;", "dst = dst | src;")
	default:
		return 0, reducerError(e, name)
	}
	return devRun(e, label, p, r, args)
}

// devLogical runs e with LAnd or LOr.
func devLogical(e *entry, label string, p any, name string, args []cuda.Arg) (bool, error) {
	var r cuda.Reducer[bool]
	switch name {
	case "LAnd":
		r = cuda.LAnd()
	case "LOr":
		r = cuda.LOr()
	default:
		return false, reducerError(e, name)
	}
	return devRun(e, label, p, r, args)
}

// devRun runs the reduction or scan e with the device reducer r.
func devRun[T any](e *entry, label string, p any, r cuda.Reducer[T], args []cuda.Arg) (T, error) {
	if e.Pattern == PatternScan {
		return cuda.ParallelScan(label, p.(kokkos.RangePolicy), r, e.CUDA, args...)
	}
	return cuda.ParallelReduce(label, p.(cuda.Policy), r, e.CUDA, args...)
}

func reducerError(e *entry, name string) error {
	if name == "" {
		name = "a custom or location reducer"
	}
	return fmt.Errorf("%w: kernel %s: %s has no device counterpart: use Sum, Prod, Min, Max, BAnd or BOr (LAnd or LOr for bool)", ErrArgs, e.Name, name)
}
