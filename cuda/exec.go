package cuda

import (
	"fmt"

	"github.com/gokkos/kokkos/backend"
)

// A *Stream is a backend.Launcher: package kernel launches Go kernels on
// it through the methods below when a policy names the stream
// (kokkos.Range(0, n).On(stream)). They take the kernel's CUDA C form,
// bind each argument as the kernel's parameter, and run the same
// patterns as ParallelFor, ParallelReduce and ParallelScan, with fused
// multiply-adds off so that floating-point results round as the host
// kernel's do.
var _ backend.Launcher = (*Stream)(nil)

// For queues l's kernel once per index of its shape on s.
func (s *Stream) For(l *backend.Launch) error {
	if l.Kernel.Team {
		return s.teamFor(l)
	}
	lb := getLaunch()
	defer lb.put()
	lp, prog, err := s.planKernel(lb, l, patFor, valueSig{})
	if err != nil {
		return err
	}
	return lp.runFor(lb, prog)
}

// Reduce runs l's reduction on s with r and returns the result's bits.
func (s *Stream) Reduce(l *backend.Launch, r backend.Reduction) (uint64, error) {
	return s.reduce(l, patReduce, r)
}

// Scan runs l's scan on s with r and returns the total's bits.
func (s *Stream) Scan(l *backend.Launch, r backend.Reduction) (uint64, error) {
	return s.reduce(l, patScan, r)
}

func (s *Stream) reduce(l *backend.Launch, pat patternKind, r backend.Reduction) (uint64, error) {
	value, asBool, err := reduction(l, r)
	if err != nil {
		return 0, err
	}
	if l.Kernel.Team {
		return s.teamReduce(l, pat, value, asBool, r.Kind)
	}
	lb := getLaunch()
	defer lb.put()
	lp, prog, err := s.planKernel(lb, l, pat, value)
	if err != nil {
		return 0, err
	}
	var bits uint64
	var b bool
	var res any = &bits
	if asBool {
		res = &b
	}
	if pat == patScan {
		err = lp.runScan(lb, prog, value, asBool, res)
	} else {
		err = lp.runReduce(lb, prog, value, asBool, 0, res)
	}
	if err != nil {
		return 0, err
	}
	if asBool {
		return uint64(boolByte(b)), nil
	}
	return extend(bits, r.Kind), nil
}

// extend sign-extends the bits of a 32-bit signed result.
func extend(bits uint64, k backend.Kind) uint64 {
	if k == backend.KindInt32 {
		return uint64(int64(int32(uint32(bits))))
	}
	return bits
}

// reduction returns the accumulator of r as the device computes it.
func reduction(l *backend.Launch, r backend.Reduction) (valueSig, bool, error) {
	if r.Kind == backend.KindBool {
		switch r.Op {
		case backend.ReduceLAnd:
			return LAnd().value, true, nil
		case backend.ReduceLOr:
			return LOr().value, true, nil
		}
		return valueSig{}, false, fmt.Errorf("%w: kernel %s: %v of bool: reduce bools with LAnd or LOr", backend.ErrUnsupported, l.Kernel.Name, r.Op)
	}
	e, ok := elemOfKind(r.Kind)
	if !ok {
		return valueSig{}, false, fmt.Errorf("%w: kernel %s: the device reduces float32, float64, int32, int64, int, uint32, uint64 and bool, not %v", backend.ErrUnsupported, l.Kernel.Name, r.Kind)
	}
	init, join := "", ""
	switch r.Op {
	case backend.ReduceSum:
		init, join = "value = 0;", "dst += src;"
	case backend.ReduceProd:
		init, join = "value = 1;", "dst *= src;"
	case backend.ReduceMin:
		init, join = "value = "+greatestC(e)+";", "if (src < dst) dst = src;"
	case backend.ReduceMax:
		init, join = "value = "+leastC(e)+";", "if (src > dst) dst = src;"
	case backend.ReduceBAnd:
		init, join = "value = 0; value = ~value;", "dst = dst & src;"
	case backend.ReduceBOr:
		init, join = "value = 0;", "dst = dst | src;"
	}
	if join == "" || (r.Op == backend.ReduceBAnd || r.Op == backend.ReduceBOr) && (e == elemFloat32 || e == elemFloat64) {
		return valueSig{}, false, fmt.Errorf("%w: kernel %s: %v of %v has no device form", backend.ErrUnsupported, l.Kernel.Name, r.Op, r.Kind)
	}
	return valueSig{ctype: e.c(), size: e.size(), init: init, join: join}, false, nil
}

// elemOfKind returns the device element type of kind k: Go's int is a
// 64-bit integer there.
func elemOfKind(k backend.Kind) (elemType, bool) {
	switch k {
	case backend.KindFloat32:
		return elemFloat32, true
	case backend.KindFloat64:
		return elemFloat64, true
	case backend.KindInt32:
		return elemInt32, true
	case backend.KindInt64, backend.KindInt:
		return elemInt64, true
	case backend.KindUint32:
		return elemUint32, true
	case backend.KindUint64:
		return elemUint64, true
	}
	return 0, false
}

// planKernel binds l's arguments to the names of the kernel's CUDA C form
// and plans the launch on s.
func (s *Stream) planKernel(lb *launchBuf, l *backend.Launch, pat patternKind, value valueSig) (*launchPlan, *program, error) {
	k := l.Kernel
	code, err := kernelCode(k)
	if err != nil {
		return nil, nil, err
	}
	if len(l.Args) != len(k.Params) || len(code.names) != len(k.Params) {
		return nil, nil, fmt.Errorf("%w: %q: kernel %s takes %d arguments, got %d", ErrBinding, l.Label, k.Name, len(k.Params), len(l.Args))
	}
	a := &lb.args
	base, err := s.tokenBase(l.Label, tokenWords(l))
	if err != nil {
		return nil, nil, err
	}
	for j := range l.Args {
		arg, p, name := &l.Args[j], &k.Params[j], code.names[j]
		if p.Token {
			continue
		}
		if p.UMap {
			if err := bindUMap(a, l.Label, p, name, arg); err != nil {
				return nil, nil, err
			}
			continue
		}
		if p.View {
			e, ok := elemOfKind(arg.Kind)
			if !ok || arg.View == nil {
				return nil, nil, fmt.Errorf("%w: %q: view %s: the device binds views of float32, float64, int32, int64, int, uint32 and uint64, not %v", ErrBinding, l.Label, p.Name, arg.Kind)
			}
			d := *arg.View
			if p.Write && d.ReadOnly {
				return nil, nil, fmt.Errorf("%w: %q: kernel %s: view %s (label %q) is read-only and the kernel writes it", ErrBinding, l.Label, k.Name, p.Name, d.Label)
			}
			if !p.Write {
				// The kernel only reads it: const in the body.
				d.ReadOnly = true
			}
			a.views = append(a.views, viewArg{name: name, elem: e, d: d})
			continue
		}
		if arg.Kind == backend.KindStruct {
			scs, err := structScalars(name, arg, code.params[j].Type)
			if err != nil {
				return nil, nil, fmt.Errorf("%w: %q: kernel %s: %w", ErrBinding, l.Label, k.Name, err)
			}
			a.scalars = append(a.scalars, scs...)
			continue
		}
		sc, err := scalarOf(name, arg, code.conv[j])
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %q: kernel %s: %w", ErrBinding, l.Label, k.Name, err)
		}
		a.scalars = append(a.scalars, sc)
	}
	if err := bindTokens(a, l, code.names, base); err != nil {
		return nil, nil, err
	}
	a.noFMAD = true
	a.check = l.Check
	a.helpers = code.helpers
	devNo, err := collect(a, l.Label, nil)
	if err != nil {
		return nil, nil, err
	}
	sh := &l.Shape
	if k.Team {
		// A team kernel runs over its league, as a range.
		sh = &backend.Shape{Rank: 1}
		sh.Upper[0] = max(l.Shape.Team.League, 0)
	}
	lp, err := planBound(lb, l.Label, pat, sh, s, devNo)
	if err != nil {
		return nil, nil, err
	}
	lp.sig.team = k.Team
	lp.sig.value = value
	lb.key = appendKeyOf(lb.key[:0], &lp.sig, code, lp.args.noFMAD)
	prog, err := lp.dev.program(lb.key, &lp.sig, code.body, lp.label, lp.args.noFMAD)
	return lp, prog, err
}

// scalarOf binds a scalar argument as the CUDA body takes it: widened to
// 32 bits where conv says so.
func scalarOf(name string, arg *backend.Arg, conv string) (scalarArg, error) {
	switch conv {
	case "int32":
		return scalarArg{name, elemInt32, uint64(uint32(arg.Bits))}, nil
	case "uint32":
		return scalarArg{name, elemUint32, uint64(uint32(arg.Bits))}, nil
	}
	e, ok := elemOfKind(arg.Kind)
	if !ok {
		return scalarArg{}, fmt.Errorf("scalar %s of kind %v has no device form", name, arg.Kind)
	}
	bits := arg.Bits
	if e == elemInt32 || e == elemUint32 || e == elemFloat32 {
		bits = uint64(uint32(bits))
	}
	return scalarArg{name, e, bits}, nil
}
