package kernel

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend"
)

var deviceChecks atomic.Bool

// CheckDeviceBounds sets whether launches on a device check every view
// access against the view's extents (backend.Launch.Check): an access
// outside them then returns an error naming the view, its label, the index
// and the extents, instead of touching memory, and each launch may wait
// for its kernel. It is off by default, as in Kokkos, since it costs time;
// host kernels check, but for those marked nocheck (see CheckHostBounds).
func CheckDeviceBounds(on bool) { deviceChecks.Store(on) }

// launcher returns the device instance s, which is not a host instance, or
// an error naming what runs kernels.
func (e *entry) launcher(s kokkos.ExecutionSpace) (backend.Launcher, error) {
	l, ok := s.(backend.Launcher)
	if !ok {
		return nil, fmt.Errorf("%w: kernel %s: execution space %s runs no kernels: use a host space (kokkos.Serial, kokkos.Threads) or a device instance (a *cuda.Stream)", ErrArgs, e.Name, s.Name())
	}
	if e.NoDevice != "" {
		return nil, fmt.Errorf("%w: kernel %s: %s", ErrNoDevice, e.Name, e.NoDevice)
	}
	return l, nil
}

// backendKernel returns e as the backends see it, made once.
func (e *entry) backendKernel() *backend.Kernel {
	e.bkOnce.Do(func() {
		k := &backend.Kernel{
			Name: e.Name, Pattern: backend.Pattern(e.Pattern), Rank: e.Rank,
			IR: e.IR, NoDevice: e.NoDevice,
		}
		first := e.first()
		if e.Team {
			k.Rank, k.Team = 0, true
		}
		for j, p := range e.Params {
			t := e.fn.In(first + j)
			bp := backend.Param{Name: p.Name, View: p.View, Write: p.Write}
			if t.Implements(piecesType) {
				k.Params = append(k.Params, pieceParams(p.Name, t)...)
				e.hasPieces = true
				continue
			}
			if t == tokenType {
				bp.Token = true
			} else if umapParam(&bp, t) {
			} else if p.View {
				bp.Rank, bp.Elem = viewShape(deviceViewType(t))
			} else {
				bp.Elem = paramKind(t)
			}
			k.Params = append(k.Params, bp)
		}
		if e.Pattern != PatternFor {
			acc := e.fn.In(e.fn.NumIn() - 1)
			if e.Pattern == PatternScan {
				acc = e.fn.In(e.fn.NumIn() - 2)
			}
			k.Acc = backend.KindOf(acc.Elem())
		}
		e.bk = k
	})
	return e.bk
}

// viewShape returns the rank and element kind of a view type.
func viewShape(t reflect.Type) (int, backend.Kind) {
	v := reflect.New(t).Interface()
	r, _ := v.(interface{ Rank() int })
	m, ok := reflect.PointerTo(t).MethodByName("Data")
	if r == nil || !ok {
		return 0, backend.KindInvalid
	}
	return r.Rank(), backend.KindOf(m.Type.Out(0).Elem())
}

// smallLaunch is the number of arguments up to which a launch, its
// arguments and its views' descriptions take one allocation.
const smallLaunch = 4

// launchMem is the memory of a launch of at most smallLaunch arguments.
type launchMem struct {
	l     backend.Launch
	args  [smallLaunch]backend.Arg
	views [smallLaunch]backend.View
}

// launchPool holds launchMems between launches: a Launcher keeps nothing
// of a Launch after its call returns (backend.Launcher says so).
var launchPool = sync.Pool{New: func() any { return new(launchMem) }}

// release gives m back to the pool once the Launcher has returned; a nil
// m (a launch of more arguments) is left to the collector.
func (m *launchMem) release() {
	if m != nil {
		*m = launchMem{}
		launchPool.Put(m)
	}
}

// launch binds vals (already of the parameters' types) for a device
// launch over s: each view described once, each scalar as its bits.
func (e *entry) launch(label string, s backend.Shape, vals []any) (l *backend.Launch, m *launchMem, err error) {
	k := e.backendKernel()
	if e.hasPieces {
		vals = expandPieces(vals)
	}
	var views []backend.View
	if len(vals) <= smallLaunch {
		m = launchPool.Get().(*launchMem)
		l, views = &m.l, m.views[:len(vals)]
		l.Args = m.args[:len(vals)]
	} else {
		l, views = &backend.Launch{Args: make([]backend.Arg, len(vals))}, make([]backend.View, len(vals))
	}
	l.Label, l.Kernel, l.Shape, l.Check = label, k, s, deviceChecks.Load()
	for j, v := range vals {
		p := &k.Params[j]
		if p.Elem == backend.KindStruct {
			l.Args[j] = backend.Arg{Kind: p.Elem, Bytes: structBytes(v)}
			continue
		}
		if p.Token {
			l.Args[j] = backend.Arg{Token: v.(kokkos.UniqueToken)}
			continue
		}
		if p.UMap {
			if l.Args[j], err = e.umapBind(p, v); err != nil {
				m.release()
				return nil, nil, err
			}
			continue
		}
		if !p.View {
			l.Args[j] = backend.Arg{Kind: p.Elem, Bits: scalarBits(v)}
			continue
		}
		d := &views[j]
		if v, err = e.deviceViewOf(p.Name, v); err != nil {
			m.release()
			return nil, nil, err
		}
		ok := false
		if *d, ok = describe(v); !ok {
			m.release()
			return nil, nil, fmt.Errorf("%w: kernel %s: view %s: %T has no device form", ErrArgs, e.Name, p.Name, v)
		}
		if p.Write && d.ReadOnly {
			label := d.Label
			m.release()
			return nil, nil, fmt.Errorf("%w: kernel %s: view %s (label %q) is read-only and the kernel writes it", ErrArgs, e.Name, p.Name, label)
		}
		l.Args[j] = backend.Arg{View: d, Kind: p.Elem}
	}
	return l, m, nil
}

// scalarBits returns the bits of a scalar argument, as backend.Arg holds
// them.
func scalarBits(v any) uint64 {
	x := reflect.ValueOf(v)
	switch x.Kind() {
	case reflect.Bool:
		if x.Bool() {
			return 1
		}
		return 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return uint64(x.Int())
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return x.Uint()
	case reflect.Float32:
		return uint64(math.Float32bits(float32(x.Float())))
	case reflect.Float64:
		return math.Float64bits(x.Float())
	}
	return 0
}

// describe returns the description of v, a View0..View6 value of a
// numeric or bool element type. The views' methods have value receivers,
// so v itself is a kokkos.View of its element type.
func describe(v any) (backend.View, bool) {
	switch x := v.(type) {
	case kokkos.View[float64]:
		return kokkos.Describe(x), true
	case kokkos.View[float32]:
		return kokkos.Describe(x), true
	case kokkos.View[int64]:
		return kokkos.Describe(x), true
	case kokkos.View[int32]:
		return kokkos.Describe(x), true
	case kokkos.View[int]:
		return kokkos.Describe(x), true
	case kokkos.View[uint64]:
		return kokkos.Describe(x), true
	case kokkos.View[uint32]:
		return kokkos.Describe(x), true
	case kokkos.View[int16]:
		return kokkos.Describe(x), true
	case kokkos.View[int8]:
		return kokkos.Describe(x), true
	case kokkos.View[uint16]:
		return kokkos.Describe(x), true
	case kokkos.View[uint8]:
		return kokkos.Describe(x), true
	case kokkos.View[bool]:
		return kokkos.Describe(x), true
	}
	return backend.View{}, false
}

// deviceFor queues e on the device instance of the policy.
func (e *entry) deviceFor(label string, space kokkos.ExecutionSpace, s backend.Shape, vals []any) error {
	dev, err := e.launcher(space)
	if err != nil {
		return err
	}
	l, m, err := e.launch(label, s, vals)
	if err != nil {
		return err
	}
	err = dev.For(l)
	m.release()
	return noDevice(err)
}

// noDevice marks the error of a backend that cannot run a kernel (its
// description has a construct the device lacks) as ErrNoDevice too.
func noDevice(err error) error {
	if errors.Is(err, backend.ErrUnsupported) && !errors.Is(err, ErrNoDevice) {
		return fmt.Errorf("%w: %w", ErrNoDevice, err)
	}
	return err
}

// deviceReduce runs the reduction or scan e on the device instance of the
// policy with r as a built-in reduction.
func deviceReduce[T any](e *entry, label string, space kokkos.ExecutionSpace, s backend.Shape, r kokkos.Reducer[T], vals []any) (T, error) {
	var zero T
	dev, err := e.launcher(space)
	if err != nil {
		return zero, err
	}
	op := r.Builtin()
	kind := backend.KindOf(reflect.TypeFor[T]())
	if op == 0 || kind == backend.KindInvalid {
		name := "a custom or location reducer"
		if op != 0 {
			name = op.String()
		}
		return zero, fmt.Errorf("%w: kernel %s: %s of %T has no device form: use Sum, Prod, Min, Max, BAnd or BOr (LAnd or LOr for bool) of a number", ErrArgs, e.Name, name, zero)
	}
	l, m, err := e.launch(label, s, vals)
	if err != nil {
		return zero, err
	}
	red := backend.Reduction{Op: op, Kind: kind}
	var bits uint64
	if e.Pattern == PatternScan {
		bits, err = dev.Scan(l, red)
	} else {
		bits, err = dev.Reduce(l, red)
	}
	m.release()
	if err != nil {
		return zero, noDevice(err)
	}
	return fromBits[T](bits, kind), nil
}

// fromBits converts a result's bits of kind k to T, whose kind k is.
func fromBits[T any](bits uint64, k backend.Kind) T {
	var out T
	v := reflect.ValueOf(&out).Elem()
	switch k {
	case backend.KindBool:
		v.SetBool(bits != 0)
	case backend.KindInt8, backend.KindInt16, backend.KindInt32, backend.KindInt64, backend.KindInt:
		v.SetInt(int64(bits))
	case backend.KindUint8, backend.KindUint16, backend.KindUint32, backend.KindUint64:
		v.SetUint(bits)
	case backend.KindFloat32:
		v.SetFloat(float64(math.Float32frombits(uint32(bits))))
	case backend.KindFloat64:
		v.SetFloat(math.Float64frombits(bits))
	}
	return out
}

// entryKernel is the part of an entry the device path adds.
type entryKernel struct {
	bkOnce sync.Once
	bk     *backend.Kernel
	// hasPieces: a parameter binds as its pieces (pieces.go).
	hasPieces bool
}

// teamShape is the shape of a device launch of a team kernel over p: the
// league, the team size and vector length (backend.TeamAuto for Auto) and
// the scratch bytes of each level.
func teamShape(p kokkos.TeamPolicy) backend.Shape {
	s := backend.Shape{Team: backend.TeamShape{League: p.LeagueSize(), Size: p.TeamSize(), Vector: p.VectorLength()}}
	for l := range 2 {
		s.Team.Scratch[l][0], s.Team.Scratch[l][1] = p.Scratch(l)
	}
	return s
}

// deviceTeam queues the team kernel e over p's league on the device
// instance of p.
func (e *entry) deviceTeam(label string, p kokkos.TeamPolicy, vals []any) error {
	return e.deviceFor(label, p.Space(), teamShape(p), vals)
}

// deviceTeamReduce runs the team reduction e over p's league on the
// device instance of p with r as a built-in reduction.
func deviceTeamReduce[T any](e *entry, label string, p kokkos.TeamPolicy, r kokkos.Reducer[T], vals []any) (T, error) {
	return deviceReduce(e, label, p.Space(), teamShape(p), r, vals)
}

// tokenType is the type of a token parameter.
var tokenType = reflect.TypeFor[kokkos.UniqueToken]()

// tokens checks that each token among vals was made for space, the
// launch's instance (nil: the default one).
func (e *entry) tokens(space kokkos.ExecutionSpace, vals []any) error {
	for j, v := range vals {
		if pc, ok := v.(pieces); ok {
			if err := e.checkPieces(space, j, pc); err != nil {
				return err
			}
			continue
		}
		tok, ok := v.(kokkos.UniqueToken)
		if !ok {
			continue
		}
		if space == nil {
			space = kokkos.DefaultExecutionSpace()
		}
		if tok == (kokkos.UniqueToken{}) {
			return fmt.Errorf("%w: kernel %s: token %s is the zero UniqueToken: make it with kokkos.NewUniqueToken(space)", ErrArgs, e.Name, e.Params[j].Name)
		}
		if ts := tok.Space(); ts != space {
			return fmt.Errorf("%w: kernel %s: token %s was made for another instance (%s) than the launch's (%s): make it with kokkos.NewUniqueToken of the policy's space", ErrArgs, e.Name, e.Params[j].Name, ts.Name(), space.Name())
		}
	}
	return nil
}
