package backendtest

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// A FakeExecutor is a device execution-space instance without a GPU: a
// backend.Launcher that runs kernels from their descriptions (Kernel.IR,
// in package kernelir's Machine) over the memory of a Fake, one index at a
// time in index order (the last index fastest), as a second device
// backend would run them through the contract. Package kernel launches on
// it exactly as on a *cuda.Stream, so tests of kernels and of the launch
// path run on any machine. Reductions and scans join in index order from
// the reducer's identity. It refuses views of any space but its Fake,
// released views, and kernels without a description. It is safe for
// concurrent use; launches run one at a time.
type FakeExecutor struct {
	dev      *Fake
	mu       sync.Mutex
	launches int
	parsed   map[*backend.Kernel]*kernelir.Kernel
}

var _ backend.Launcher = (*FakeExecutor)(nil)

// Executor returns an execution-space instance that runs kernels over f's
// memory.
func (f *Fake) Executor() *FakeExecutor {
	return &FakeExecutor{dev: f, parsed: map[*backend.Kernel]*kernelir.Kernel{}}
}

// Name returns "FakeExec".
func (e *FakeExecutor) Name() string { return "FakeExec" }

// Concurrency returns 1.
func (e *FakeExecutor) Concurrency() int { return 1 }

// Fence returns nil: launches run before they return.
func (e *FakeExecutor) Fence() error { return nil }

// MemorySpace returns the Fake whose memory the executor runs on.
func (e *FakeExecutor) MemorySpace() backend.MemorySpace { return e.dev }

// Launches returns the number of launches run so far.
func (e *FakeExecutor) Launches() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.launches
}

// For runs l's kernel once per index of its shape.
func (e *FakeExecutor) For(l *backend.Launch) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	m, err := e.machine(l, backend.PatternFor)
	if err != nil {
		return err
	}
	if l.Kernel.Team {
		return eachTeam(&l.Shape, func(tr kernelir.TeamRun) error { return m.RunTeam(tr, nil) })
	}
	return each(&l.Shape, func(idx []int) error { return m.Run(idx, nil, false) })
}

// Reduce runs l's reduction with r and returns the result's bits.
func (e *FakeExecutor) Reduce(l *backend.Launch, r backend.Reduction) (uint64, error) {
	return e.reduce(l, backend.PatternReduce, r)
}

// Scan runs l's scan with r, in index order with final true, and returns
// the total's bits.
func (e *FakeExecutor) Scan(l *backend.Launch, r backend.Reduction) (uint64, error) {
	return e.reduce(l, backend.PatternScan, r)
}

func (e *FakeExecutor) reduce(l *backend.Launch, pat backend.Pattern, r backend.Reduction) (uint64, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if pat == backend.PatternScan && l.Shape.Rank != 1 {
		return 0, fmt.Errorf("%w: %q: a scan runs over a range, not %d indices", backend.ErrUnsupported, l.Label, l.Shape.Rank)
	}
	if r.Kind != l.Kernel.Acc {
		return 0, fmt.Errorf("backendtest: %q: a reduction of %v for an accumulator of %v", l.Label, r.Kind, l.Kernel.Acc)
	}
	m, err := e.machine(l, pat)
	if err != nil {
		return 0, err
	}
	final := pat == backend.PatternScan
	switch r.Kind {
	case backend.KindBool:
		return runAcc(m, &l.Shape, final, identBool(r.Op), func(x bool) uint64 { return b2u(x) })
	case backend.KindInt8:
		return runAcc(m, &l.Shape, final, int8(identInt(r.Op, 8)), func(x int8) uint64 { return uint64(x) })
	case backend.KindInt16:
		return runAcc(m, &l.Shape, final, int16(identInt(r.Op, 16)), func(x int16) uint64 { return uint64(x) })
	case backend.KindInt32:
		return runAcc(m, &l.Shape, final, int32(identInt(r.Op, 32)), func(x int32) uint64 { return uint64(x) })
	case backend.KindInt64:
		return runAcc(m, &l.Shape, final, identInt(r.Op, 64), func(x int64) uint64 { return uint64(x) })
	case backend.KindInt:
		return runAcc(m, &l.Shape, final, int(identInt(r.Op, 64)), func(x int) uint64 { return uint64(x) })
	case backend.KindUint8:
		return runAcc(m, &l.Shape, final, uint8(identUint(r.Op, 8)), func(x uint8) uint64 { return uint64(x) })
	case backend.KindUint16:
		return runAcc(m, &l.Shape, final, uint16(identUint(r.Op, 16)), func(x uint16) uint64 { return uint64(x) })
	case backend.KindUint32:
		return runAcc(m, &l.Shape, final, uint32(identUint(r.Op, 32)), func(x uint32) uint64 { return uint64(x) })
	case backend.KindUint64:
		return runAcc(m, &l.Shape, final, identUint(r.Op, 64), func(x uint64) uint64 { return x })
	case backend.KindFloat32:
		return runAcc(m, &l.Shape, final, float32(identFloat(r.Op)), func(x float32) uint64 { return uint64(math.Float32bits(x)) })
	case backend.KindFloat64:
		return runAcc(m, &l.Shape, final, identFloat(r.Op), math.Float64bits)
	}
	return 0, fmt.Errorf("%w: %q: a reduction of %v", backend.ErrUnsupported, l.Label, r.Kind)
}

// runAcc runs m at every index of s from the identity id and returns the
// accumulator's bits.
func runAcc[T any](m *kernelir.Machine, s *backend.Shape, final bool, id T, bits func(T) uint64) (uint64, error) {
	acc := id
	if s.Rank == 0 {
		// A team kernel's league.
		err := eachTeam(s, func(tr kernelir.TeamRun) error { return m.RunTeam(tr, &acc) })
		return bits(acc), err
	}
	err := each(s, func(idx []int) error { return m.Run(idx, &acc, final) })
	return bits(acc), err
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func identBool(op backend.ReduceOp) bool { return op == backend.ReduceLAnd }

func identInt(op backend.ReduceOp, bits uint) int64 {
	switch op {
	case backend.ReduceProd:
		return 1
	case backend.ReduceMin:
		return 1<<(bits-1) - 1
	case backend.ReduceMax:
		return -1 << (bits - 1)
	case backend.ReduceBAnd:
		return -1
	}
	return 0
}

func identUint(op backend.ReduceOp, bits uint) uint64 {
	switch op {
	case backend.ReduceProd:
		return 1
	case backend.ReduceMin, backend.ReduceBAnd:
		return math.MaxUint64 >> (64 - bits)
	}
	return 0
}

func identFloat(op backend.ReduceOp) float64 {
	switch op {
	case backend.ReduceProd:
		return 1
	case backend.ReduceMin:
		return math.Inf(1)
	case backend.ReduceMax:
		return math.Inf(-1)
	}
	return 0
}

// each calls f at every index of s, the last index fastest, until f fails.
func each(s *backend.Shape, f func(idx []int) error) error {
	r := s.Rank
	for d := range r {
		if s.Upper[d] <= s.Lower[d] {
			return nil
		}
	}
	idx := make([]int, r)
	copy(idx, s.Lower[:r])
	for {
		if err := f(idx); err != nil {
			return err
		}
		d := r - 1
		for ; d >= 0; d-- {
			idx[d]++
			if idx[d] < s.Upper[d] {
				break
			}
			idx[d] = s.Lower[d]
		}
		if d < 0 {
			return nil
		}
	}
}

// machine checks l and binds its arguments, over the Fake's memory, to a
// Machine of the kernel's description.
func (e *FakeExecutor) machine(l *backend.Launch, pat backend.Pattern) (*kernelir.Machine, error) {
	e.launches++
	k := l.Kernel
	if k.Pattern != pat {
		return nil, fmt.Errorf("backendtest: %q: kernel %s is a %v kernel, launched as %v", l.Label, k.Name, k.Pattern, pat)
	}
	if l.Shape.Rank != k.Rank {
		return nil, fmt.Errorf("backendtest: %q: kernel %s takes %d indices, the shape has %d", l.Label, k.Name, k.Rank, l.Shape.Rank)
	}
	ir := e.parsed[k]
	if ir == nil {
		if k.IR == "" {
			why := k.NoDevice
			if why == "" {
				why = "it has no description"
			}
			return nil, fmt.Errorf("%w: kernel %s: %s", backend.ErrUnsupported, k.Name, why)
		}
		var err error
		if ir, err = kernelir.Parse(k.IR); err != nil {
			return nil, fmt.Errorf("backendtest: kernel %s: %w", k.Name, err)
		}
		e.parsed[k] = ir
	}
	if (ir.Team != "") != k.Team {
		return nil, fmt.Errorf("backendtest: %q: kernel %s: Kernel.Team is %v and its description says otherwise", l.Label, k.Name, k.Team)
	}
	if len(l.Args) != len(k.Params) || len(ir.Params) != len(k.Params) {
		return nil, fmt.Errorf("backendtest: %q: kernel %s takes %d arguments, got %d", l.Label, k.Name, len(k.Params), len(l.Args))
	}
	args := make([]any, len(l.Args))
	for j, a := range l.Args {
		p := &k.Params[j]
		if a.Kind == backend.KindStruct {
			args[j] = a.Bytes // the Machine reads a struct from its bytes
			continue
		}
		if p.Token {
			if a.Token == nil {
				return nil, fmt.Errorf("backendtest: %q: token %s not bound", l.Label, p.Name)
			}
			args[j] = newFakeToken(a.Token.Size())
			continue
		}
		if p.UMap {
			u, err := e.umap(l, p, a.UMap)
			if err != nil {
				return nil, err
			}
			args[j] = u
			continue
		}
		if !p.View {
			v, err := scalar(a.Kind, a.Bits)
			if err != nil {
				return nil, fmt.Errorf("backendtest: %q: %s: %w", l.Label, p.Name, err)
			}
			args[j] = v
			continue
		}
		v, err := e.view(l, p, a.View)
		if err != nil {
			return nil, err
		}
		args[j] = v
	}
	return kernelir.NewMachine(ir, args...)
}

// ErrNotFake is wrapped by the error of a launch on a FakeExecutor given a
// view that is not in its Fake's memory.
var ErrNotFake = errors.New("backendtest: view not in the fake device's memory")

// view checks d, the view bound to p, and returns it over the Fake's
// memory.
func (e *FakeExecutor) view(l *backend.Launch, p *backend.Param, d *backend.View) (kernelir.View, error) {
	switch {
	case d == nil:
		return kernelir.View{}, fmt.Errorf("backendtest: %q: view %s not bound", l.Label, p.Name)
	case d.Space != backend.MemorySpace(e.dev):
		name := "no space"
		if d.Space != nil {
			name = d.Space.Name()
		}
		return kernelir.View{}, fmt.Errorf("%w: %q: view %s (label %q) is in %s", ErrNotFake, l.Label, p.Name, d.Label, name)
	case d.Owner != nil && d.Owner.Released():
		return kernelir.View{}, fmt.Errorf("backendtest: %q: view %s (label %q) was released: %w", l.Label, p.Name, d.Label, backend.ErrReleased)
	case p.Write && d.ReadOnly:
		return kernelir.View{}, fmt.Errorf("backendtest: %q: view %s (label %q) is read-only and the kernel writes it", l.Label, p.Name, d.Label)
	case d.Rank != p.Rank || d.Elem != p.Elem:
		return kernelir.View{}, fmt.Errorf("backendtest: %q: view %s (label %q) is rank %d of %v, the kernel takes rank %d of %v", l.Label, p.Name, d.Label, d.Rank, d.Elem, p.Rank, p.Elem)
	}
	span := 1
	for r := range d.Rank {
		if d.Extents[r] == 0 {
			span = 0
			break
		}
		span += (d.Extents[r] - 1) * d.Strides[r]
	}
	v := kernelir.View{Extents: append([]int(nil), d.Extents[:d.Rank]...), Strides: append([]int(nil), d.Strides[:d.Rank]...)}
	var mem unsafe.Pointer
	if span > 0 {
		mem = unsafe.Pointer(&e.dev.mem(d.Addr, span*d.ElemSize)[0])
	}
	switch d.Elem {
	case backend.KindBool:
		v.Data = unsafe.Slice((*bool)(mem), span)
	case backend.KindInt8:
		v.Data = unsafe.Slice((*int8)(mem), span)
	case backend.KindInt16:
		v.Data = unsafe.Slice((*int16)(mem), span)
	case backend.KindInt32:
		v.Data = unsafe.Slice((*int32)(mem), span)
	case backend.KindInt64:
		v.Data = unsafe.Slice((*int64)(mem), span)
	case backend.KindInt:
		v.Data = unsafe.Slice((*int)(mem), span)
	case backend.KindUint8:
		v.Data = unsafe.Slice((*uint8)(mem), span)
	case backend.KindUint16:
		v.Data = unsafe.Slice((*uint16)(mem), span)
	case backend.KindUint32:
		v.Data = unsafe.Slice((*uint32)(mem), span)
	case backend.KindUint64:
		v.Data = unsafe.Slice((*uint64)(mem), span)
	case backend.KindFloat32:
		v.Data = unsafe.Slice((*float32)(mem), span)
	case backend.KindFloat64:
		v.Data = unsafe.Slice((*float64)(mem), span)
	default:
		return kernelir.View{}, fmt.Errorf("%w: %q: view %s of %v", backend.ErrUnsupported, l.Label, p.Name, d.Elem)
	}
	return v, nil
}

// scalar returns the Go value of a scalar argument's bits.
func scalar(k backend.Kind, bits uint64) (any, error) {
	switch k {
	case backend.KindBool:
		return bits != 0, nil
	case backend.KindInt8:
		return int8(bits), nil
	case backend.KindInt16:
		return int16(bits), nil
	case backend.KindInt32:
		return int32(bits), nil
	case backend.KindInt64:
		return int64(bits), nil
	case backend.KindInt:
		return int(bits), nil
	case backend.KindUint8:
		return uint8(bits), nil
	case backend.KindUint16:
		return uint16(bits), nil
	case backend.KindUint32:
		return uint32(bits), nil
	case backend.KindUint64:
		return bits, nil
	case backend.KindFloat32:
		return math.Float32frombits(uint32(bits)), nil
	case backend.KindFloat64:
		return math.Float64frombits(bits), nil
	}
	return nil, fmt.Errorf("%w: a scalar of %v", backend.ErrUnsupported, k)
}
