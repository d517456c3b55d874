package kernel

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

// A Policy is the index space of a launch: a RangePolicy for a kernel of
// one index, an MDRangePolicy of its rank for a kernel of 2 to 6 indices,
// a TeamPolicy for a team kernel (whose first parameter is a Team).
// The policy's execution space says where the kernel runs: nil or a host
// space runs the host kernel, a *cuda.Stream the CUDA one.
type Policy interface {
	kokkos.RangePolicy | kokkos.MDRangePolicy | kokkos.TeamPolicy
}

// shape returns the rank and execution space of p, and whether a tile's
// last index runs innermost.
func shape(p any) (rank int, space kokkos.ExecutionSpace, right bool) {
	switch q := p.(type) {
	case kokkos.RangePolicy:
		return 1, q.Space, true
	case kokkos.MDRangePolicy:
		_, inner := q.Iteration()
		return q.Rank(), q.Space(), inner != kokkos.IterateLeft
	case kokkos.TeamPolicy:
		return 0, q.Space(), true
	}
	panic("unreachable")
}

// shapeOf returns the index space of p for a device backend.
func shapeOf(p any) backend.Shape {
	if q, ok := p.(kokkos.RangePolicy); ok {
		return q.Shape()
	}
	return p.(kokkos.MDRangePolicy).Shape()
}

// For runs kernel fn, a //kokkos:kernel function of the For pattern, for
// every index of p, with args as its parameters after the indices; a team
// kernel (first parameter a Team) runs over a kokkos.TeamPolicy, once for
// every thread of every team, as kokkos.ParallelForTeam's body. On a
// host space it returns when the loop is done and panics as
// kokkos.ParallelFor does for a panic in the body (an index outside a
// view's extents among them); on a *cuda.Stream it queues the kernel and
// returns, the stream's Fence waiting for it; the device's accesses are
// not checked unless CheckDeviceBounds is on.
func For[P Policy](label string, p P, fn any, args ...any) error {
	rank, space, right := shape(any(p))
	tp, team := any(p).(kokkos.TeamPolicy)
	e, vals, err := prepare(fn, PatternFor, rank, team, args)
	if err == nil {
		err = e.tokens(space, vals)
	}
	if err != nil {
		return err
	}
	if team {
		return e.forTeam(label, tp, vals)
	}
	if !hostSpace(space) {
		return e.deviceFor(label, space, shapeOf(any(p)), vals)
	}
	switch h := e.Host.(type) {
	case func(*Launch, []any) (func(lo, hi int), error):
		b, err := bind(h, vals)
		if err != nil {
			return err
		}
		kokkos.ParallelForChunks(label, any(p).(kokkos.RangePolicy), b)
		return nil
	case func(*Launch, []any, bool) (func(lo, hi [2]int), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return err
		}
		kokkos.ParallelForTiles(label, any(p).(kokkos.MDRangePolicy), b)
		return nil
	case func(*Launch, []any, bool) (func(lo, hi [3]int), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return err
		}
		kokkos.ParallelForTiles(label, any(p).(kokkos.MDRangePolicy), b)
		return nil
	case func(*Launch, []any, bool) (func(lo, hi [4]int), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return err
		}
		kokkos.ParallelForTiles(label, any(p).(kokkos.MDRangePolicy), b)
		return nil
	case func(*Launch, []any, bool) (func(lo, hi [5]int), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return err
		}
		kokkos.ParallelForTiles(label, any(p).(kokkos.MDRangePolicy), b)
		return nil
	case func(*Launch, []any, bool) (func(lo, hi [6]int), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return err
		}
		kokkos.ParallelForTiles(label, any(p).(kokkos.MDRangePolicy), b)
		return nil
	}
	return fmt.Errorf("%w: kernel %s: the generated host kernel is a %T: run go generate", ErrStale, e.Name, e.Host)
}

// Reduce runs kernel fn, a //kokkos:kernel function of the Reduce pattern
// (its last parameter acc *T), for every index of p and returns the join
// by r of every index's contribution, as kokkos.ParallelReduce does on
// the host (the same blocks, so the same bits for any number of workers)
// and cuda.ParallelReduce on a *cuda.Stream, where r must be one of the
// built-in reducers Sum, Prod, Min, Max, LAnd, LOr, BAnd and BOr; the
// device call waits for the result. A team kernel runs over a
// kokkos.TeamPolicy as kokkos.ParallelReduceTeam's body: each thread's
// *acc starts at r's identity for each team.
func Reduce[T any, P Policy](label string, p P, r kokkos.Reducer[T], fn any, args ...any) (T, error) {
	var zero T
	rank, space, right := shape(any(p))
	tp, team := any(p).(kokkos.TeamPolicy)
	e, vals, err := prepare(fn, PatternReduce, rank, team, args)
	if err == nil {
		err = e.tokens(space, vals)
	}
	if err != nil {
		return zero, err
	}
	if team {
		return reduceTeam(e, label, tp, r, vals)
	}
	if !hostSpace(space) {
		return deviceReduce(e, label, space, shapeOf(any(p)), r, vals)
	}
	switch h := e.Host.(type) {
	case func(*Launch, []any) (func(lo, hi int, acc *T), error):
		b, err := bind(h, vals)
		if err != nil {
			return zero, err
		}
		return kokkos.ParallelReduceChunks(label, any(p).(kokkos.RangePolicy), r, b), nil
	case func(*Launch, []any, bool) (func(lo, hi [2]int, acc *T), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return zero, err
		}
		return kokkos.ParallelReduceTiles(label, any(p).(kokkos.MDRangePolicy), r, b), nil
	case func(*Launch, []any, bool) (func(lo, hi [3]int, acc *T), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return zero, err
		}
		return kokkos.ParallelReduceTiles(label, any(p).(kokkos.MDRangePolicy), r, b), nil
	case func(*Launch, []any, bool) (func(lo, hi [4]int, acc *T), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return zero, err
		}
		return kokkos.ParallelReduceTiles(label, any(p).(kokkos.MDRangePolicy), r, b), nil
	case func(*Launch, []any, bool) (func(lo, hi [5]int, acc *T), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return zero, err
		}
		return kokkos.ParallelReduceTiles(label, any(p).(kokkos.MDRangePolicy), r, b), nil
	case func(*Launch, []any, bool) (func(lo, hi [6]int, acc *T), error):
		b, err := bindMD(h, vals, right)
		if err != nil {
			return zero, err
		}
		return kokkos.ParallelReduceTiles(label, any(p).(kokkos.MDRangePolicy), r, b), nil
	}
	return zero, e.accError(zero)
}

// Scan runs kernel fn, a //kokkos:kernel function of the Scan pattern (its
// last parameters acc *T and final bool, as kokkos.ParallelScan's body),
// over the indices of p and returns the total: on the host in the blocks
// of kokkos.ParallelScan (the same bits), on a *cuda.Stream through
// cuda.ParallelScan, with a built-in reducer; both wait for the scan.
func Scan[T any](label string, p kokkos.RangePolicy, r kokkos.Reducer[T], fn any, args ...any) (T, error) {
	var zero T
	e, vals, err := prepare(fn, PatternScan, 1, false, args)
	if err == nil {
		err = e.tokens(p.Space, vals)
	}
	if err != nil {
		return zero, err
	}
	if !hostSpace(p.Space) {
		return deviceReduce(e, label, p.Space, p.Shape(), r, vals)
	}
	h, ok := e.Host.(func(*Launch, []any) (func(lo, hi int, acc *T, final bool), error))
	if !ok {
		return zero, e.accError(zero)
	}
	b, err := bind(h, vals)
	if err != nil {
		return zero, err
	}
	return kokkos.ParallelScanChunks(label, p, r, b), nil
}

// prepare finds fn's generated code and converts args to its parameters.
func prepare(fn any, pat Pattern, rank int, team bool, args []any) (*entry, []any, error) {
	e, err := lookup(fn, pat, rank, team)
	if err != nil {
		return nil, nil, err
	}
	vals, err := e.convert(args)
	if err != nil {
		return nil, nil, err
	}
	return e, vals, nil
}

// accError is the error of a reducer whose type is not the kernel's
// accumulator's.
func (e *entry) accError(zero any) error {
	acc := e.fn.In(e.fn.NumIn() - 1)
	if e.Pattern == PatternScan {
		acc = e.fn.In(e.fn.NumIn() - 2)
	}
	return fmt.Errorf("%w: kernel %s accumulates into a %v, the reducer gives a %T", ErrArgs, e.Name, acc, zero)
}
