// Package kernel launches Go kernels: functions in a subset of Go, marked
// //kokkos:kernel, that the command kokkos-kernelgen compiles, when go
// generate runs, into a host kernel (the body inlined in a loop over each
// chunk of indices) and a description (package backend/kernelir) that a
// device backend compiles, package cuda into CUDA C. One body then runs on
// the host pool and on a GPU:
//
//	//go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen
//
//	//kokkos:kernel
//	func Triad(i int, a, b, c kokkos.View1[float64], s float64) {
//		a.Set(i, b.At(i)+s*c.At(i))
//	}
//
//	err := kernel.For("triad", kokkos.Range(0, n), Triad, a, b, c, 2.0)                // host
//	err = kernel.For("triad", kokkos.Range(0, n).On(stream), Triad, da, db, dc, 2.0)   // GPU
//
// The arguments after the kernel are its parameters after the indices (and
// before a reduction's accumulator), views by value. docs/guide/kernels.md
// describes the subset, the kernel shapes and the generated code.
package kernel

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sync"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/layout"
)

// ErrNotGenerated is matched (errors.Is) by the error of a launch of a
// function that has no generated code: mark it //kokkos:kernel and run go
// generate in its package.
var ErrNotGenerated = errors.New("kernel: no generated code")

// ErrStale is matched by the error of a launch of a kernel whose
// generated code does not fit this version of package kernel (another
// kokkos-kernelgen wrote it), and by the errors of package kernelcheck
// for generated code older than its source: run go generate again. A
// launch never reads source files: whether the generated code matches its
// source is for go generate, CI and kernelcheck.Generated in the
// package's tests to tell.
var ErrStale = errors.New("kernel: generated code is stale")

// ErrArgs is matched by the error of a launch whose arguments do not fit
// the kernel: their number or types, a policy of another rank, a view the
// space cannot reach, a read-only view the kernel writes.
var ErrArgs = errors.New("kernel: bad arguments")

// ErrNoDevice is matched by the error of a device launch of a kernel that
// has no CUDA translation (its message says why): run it on the host.
var ErrNoDevice = errors.New("kernel: no CUDA translation")

// Pattern is the parallel pattern a kernel is written for: the backend
// contract's, which a device backend is handed with the kernel.
type Pattern = backend.Pattern

const (
	PatternFor    = backend.PatternFor    // func(i int, ...)
	PatternReduce = backend.PatternReduce // func(i int, ..., acc *T)
	PatternScan   = backend.PatternScan   // func(i int, ..., acc *T, final bool)
)

// A Spec is what kokkos-kernelgen generates for one kernel and registers
// in the generated file's init function.
type Spec struct {
	Func    any      // the kernel
	Name    string   // package name and function name: "stream.Triad"
	Hash    string   // the hash of the source of Funcs, for package kernelcheck
	Funcs   []string // the kernel and the helpers it calls
	Pattern Pattern
	Rank    int // the number of indices: 1 for a RangePolicy, 2 to 6; 0 for a team kernel
	// Team says the kernel is a team kernel: its first parameter is a
	// Team (no indices), it is launched over a kokkos.TeamPolicy, and its
	// pattern is For or Reduce.
	Team   bool
	Params []Param // the parameters after the indices (or the Team), before acc
	// Host returns the host kernel over the arguments (already of the
	// parameters' types); its type depends on the pattern and the rank:
	//
	//	For, rank 1:     func(l *Launch, args []any) (func(lo, hi int), error)
	//	For, rank N:     func(l *Launch, args []any, right bool) (func(lo, hi [N]int), error)
	//	Reduce, rank 1:  func(l *Launch, args []any) (func(lo, hi int, acc *T), error)
	//	Reduce, rank N:  func(l *Launch, args []any, right bool) (func(lo, hi [N]int, acc *T), error)
	//	Scan:            func(l *Launch, args []any) (func(lo, hi int, acc *T, final bool), error)
	//	For, team:       func(l *Launch, args []any) (func(m *kokkos.TeamMember), error)
	//	Reduce, team:    func(l *Launch, args []any) (func(m *kokkos.TeamMember, acc *T), error)
	//
	// right says that a tile's last index runs innermost; l is live for
	// the length of the call only.
	Host any
	// IR is the kernel's description, the text of package
	// backend/kernelir (its helpers', then its own), which a device
	// backend compiles from; NoDevice says why IR is empty (the kernel
	// then runs on the host only).
	IR, NoDevice string
}

// A Param is a kernel parameter after the indices.
type Param struct {
	Name  string // the Go name
	View  bool
	Write bool // the kernel writes the view
}

type entry struct {
	Spec
	fn reflect.Type
	entryKernel
}

var (
	regMu    sync.RWMutex
	registry = map[uintptr]*entry{}
)

// Register records the generated code of a kernel. Generated files call
// it from init; a second Spec for the same function replaces the first.
func Register(s Spec) {
	v := reflect.ValueOf(s.Func)
	if v.Kind() != reflect.Func {
		panic(fmt.Sprintf("kernel.Register(%s): Func is %T, not a function", s.Name, s.Func))
	}
	regMu.Lock()
	registry[v.Pointer()] = &entry{Spec: s, fn: v.Type()}
	regMu.Unlock()
}

// lookup returns the entry of fn.
func lookup(fn any, pat Pattern, rank int, team bool) (*entry, error) {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func {
		return nil, fmt.Errorf("%w: %T is not a function", ErrArgs, fn)
	}
	regMu.RLock()
	e := registry[v.Pointer()]
	regMu.RUnlock()
	if e == nil {
		name := "the function"
		if f := runtime.FuncForPC(v.Pointer()); f != nil {
			name = f.Name()
		}
		return nil, fmt.Errorf("%w for %s: mark it //kokkos:kernel and run go generate in its package "+
			"(with //go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen)", ErrNotGenerated, name)
	}
	if e.Pattern != pat {
		return nil, fmt.Errorf("%w: kernel %s is written for kernel.%s, not kernel.%s", ErrArgs, e.Name, e.Pattern, pat)
	}
	if err := e.teamShape(team); err != nil {
		return nil, err
	}
	if !team && e.Rank != rank {
		return nil, fmt.Errorf("%w: kernel %s takes %d indices, the policy has rank %d", ErrArgs, e.Name, e.Rank, rank)
	}
	return e, nil
}

// convert returns args as the kernel's parameter types: each view of
// exactly its parameter's type; a number of another numeric type when
// its value converts exactly (a float64 to a float32 rounds), so that
// untyped constants fit any parameter.
func (e *entry) convert(args []any) ([]any, error) {
	first := e.first()
	if len(args) != len(e.Params) {
		return nil, fmt.Errorf("%w: kernel %s takes %d arguments (%s), got %d", ErrArgs, e.Name, len(e.Params), e.paramList(), len(args))
	}
	out := make([]any, len(args))
	for j, a := range args {
		want := e.fn.In(first + j)
		if a != nil && reflect.TypeOf(a) == want {
			out[j] = a
			continue
		}
		if c, ok := convertNumber(a, want); ok {
			out[j] = c
			continue
		}
		hint := ""
		if a != nil && reflect.TypeOf(a).Kind() == reflect.Pointer && reflect.TypeOf(a).Elem() == want {
			hint = ": pass the view itself, not a pointer to it"
		}
		return nil, fmt.Errorf("%w: kernel %s: argument %d (%s) is %T, want %v%s", ErrArgs, e.Name, j+1, e.Params[j].Name, a, want, hint)
	}
	return out, nil
}

func (e *entry) paramList() string {
	s := ""
	for j, p := range e.Params {
		if j > 0 {
			s += ", "
		}
		s += p.Name + " " + e.fn.In(e.first()+j).String()
	}
	return s
}

// convertNumber converts a number to the numeric type want when the value
// survives the conversion (a float64 to a float32 rounds).
func convertNumber(a any, want reflect.Type) (any, bool) {
	if a == nil || !numeric(want.Kind()) {
		return nil, false
	}
	v := reflect.ValueOf(a)
	if !numeric(v.Kind()) || !v.CanConvert(want) {
		return nil, false
	}
	c := v.Convert(want)
	if v.Kind() == reflect.Float64 && want.Kind() == reflect.Float32 {
		f := v.Float()
		if math.IsInf(f, 0) || math.IsNaN(f) || math.Abs(f) <= math.MaxFloat32 {
			return c.Interface(), true
		}
		return nil, false
	}
	if !c.CanConvert(v.Type()) || c.Convert(v.Type()).Interface() != v.Interface() {
		return nil, false
	}
	// The way back must not hide a change of sign (int8(-1) to uint8 and back).
	if isInt(v.Kind()) && isUint(want.Kind()) && v.Int() < 0 || isUint(v.Kind()) && isInt(want.Kind()) && c.Int() < 0 {
		return nil, false
	}
	return c.Interface(), true
}

func numeric(k reflect.Kind) bool {
	return isInt(k) || isUint(k) || k == reflect.Float32 || k == reflect.Float64
}

func isInt(k reflect.Kind) bool { return k >= reflect.Int && k <= reflect.Int64 }

func isUint(k reflect.Kind) bool {
	return k >= reflect.Uint8 && k <= reflect.Uint64 && k != reflect.Uint
}

// hostSpace returns the host space of s, or nil, false for a device space.
func hostSpace(s kokkos.ExecutionSpace) bool {
	if s == nil {
		return true
	}
	_, ok := s.(kokkos.HostExecutionSpace)
	return ok
}

// info names a view parameter, for the panics of the accessors.
type info struct {
	kernel, name, label string
	ext                 []int
	write               bool // the accessor writes
	readOnly            bool // the view is read-only
}

// hostInfo checks that the host can run kernel k on the view d, parameter
// name, and returns its names.
func hostInfo(k, name string, d *backend.View, write bool) (*info, error) {
	in := &info{kernel: k, name: name, label: d.Label, ext: d.Extents[:d.Rank:d.Rank], write: write && !d.ReadOnly, readOnly: d.ReadOnly}
	switch {
	case d.Owner != nil && d.Owner.Released():
		return nil, fmt.Errorf("%w: kernel %s: view %s (label %q) was released: %w", ErrArgs, k, name, d.Label, kokkos.ErrReleased)
	case d.Host == nil && size(d) > 0:
		return nil, fmt.Errorf("%w: kernel %s: view %s (label %q) is in %s, which the host cannot access: "+
			"launch on a cuda stream (policy.On(stream)), or DeepCopy the view to a host mirror", ErrArgs, k, name, d.Label, d.Space.Name())
	case d.Atomic:
		return nil, fmt.Errorf("%w: kernel %s: view %s (label %q) has the Atomic trait, which host kernels do not honour: "+
			"pass a view without it and use the kokkos.Atomic functions in the kernel", ErrArgs, k, name, d.Label)
	case write && d.ReadOnly:
		return nil, fmt.Errorf("%w: kernel %s: view %s (label %q) is read-only and the kernel writes it", ErrArgs, k, name, d.Label)
	}
	return in, nil
}

func size(d *backend.View) int {
	n, _ := layout.Product(d.Extents[:d.Rank])
	return n
}

// outOfBounds is the panic of an accessor given an index outside the
// view's extents; the accessors build it in place so that they stay
// within the inlining budget.
type outOfBounds struct {
	in   *info
	op   accessOp
	rank int
	idx  [6]int
}

type accessOp uint8

const (
	opAt accessOp = iota + 1
	opSet
	opPtr
)

func (e outOfBounds) Error() string {
	if e.op != opAt && !e.in.write {
		why := "which is read-only"
		if !e.in.readOnly {
			why = "which the kernel was bound to read only"
		}
		return fmt.Sprintf("kernel %s: %s.%s%v on view %s (label %q), %s",
			e.in.kernel, e.in.name, [...]string{"", "At", "Set", "Ptr"}[e.op], e.idx[:e.rank], e.in.name, e.in.label, why)
	}
	return fmt.Sprintf("kernel %s: %s.%s%v out of bounds of view %s (label %q) with extents %v",
		e.in.kernel, e.in.name, [...]string{"", "At", "Set", "Ptr"}[e.op], e.idx[:e.rank], e.in.name, e.in.label, e.in.ext)
}

// A Launch is what package kernel hands the generated host kernel of a
// launch (Spec.Host) while it binds its arguments: the accessors' Base
// takes it, so that the address of a view's memory goes to generated code
// only. Only package kernel makes a live Launch, and it is live only
// during that call; the zero Launch is never live.
type Launch struct {
	live   bool
	checks bool // CheckHostBounds, read at the bind
}

// check panics unless l is live.
func (l *Launch) check(in *info) {
	if l == nil || !l.live {
		panic(fmt.Sprintf("kernel %s: Base of view %s (label %q) outside a launch: "+
			"only the code kokkos-kernelgen generates, while package kernel launches it, may take a view's address", in.kernel, in.name, in.label))
	}
}

// bind calls the generated host kernel h on vals with a live Launch, which
// dies when h returns.
func bind[B any](h func(*Launch, []any) (B, error), vals []any) (B, error) {
	l := &Launch{live: true, checks: hostChecks.Load()}
	defer func() { l.live = false }()
	return h(l, vals)
}

// bindMD is bind for the host kernel of an MDRangePolicy.
func bindMD[B any](h func(*Launch, []any, bool) (B, error), vals []any, right bool) (B, error) {
	l := &Launch{live: true, checks: hostChecks.Load()}
	defer func() { l.live = false }()
	return h(l, vals, right)
}
