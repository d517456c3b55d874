package kernelir

import (
	"fmt"
	"math"
)

// A View is a view a Machine reads and writes: Data is a slice of the
// element type ([]float64 for float64, []int for int, ...), element
// (i0, i1, ...) at Data[Offset + i0*Strides[0] + i1*Strides[1] + ...]
// for 0 <= id < Extents[d].
type View struct {
	Data    any
	Extents []int
	Strides []int
	Offset  int
}

// A Machine runs a kernel's description on the host, one call of the
// body at a time, with Go's semantics exactly (see the package doc): it
// is the reference a backend's translation is checked against.
type Machine struct {
	k      *Kernel
	views  map[string]*mview
	params []uint64 // scalar parameters' values, in order of k.Params
	tokens map[string]Token
	umaps  map[string]*umapBinding
	// aggParams are the struct parameters' scalars, by position.
	aggParams map[int][]uint64
}

type mview struct {
	p    *Param
	v    View
	get  func(off int) uint64
	set  func(off int, u uint64)
	size int
}

// NewMachine binds k (valid: Parse's, or checked by Validate) to its
// arguments, in the order of k.Params: a View (or *View) for a view, a Go
// value of the parameter's type for a scalar (float64, int8, bool, int,
// ...). The machine reads and writes the views' Data.
func NewMachine(k *Kernel, args ...any) (*Machine, error) {
	if len(args) != len(k.Params) {
		return nil, fmt.Errorf("kernelir: kernel %s takes %d arguments, got %d", k.Name, len(k.Params), len(args))
	}
	m := &Machine{k: k, views: map[string]*mview{}, params: make([]uint64, len(args))}
	for j, a := range args {
		p := &k.Params[j]
		if p.Token {
			if err := m.bindToken(p, a); err != nil {
				return nil, err
			}
			continue
		}
		if p.UMap {
			if err := m.bindUMap(p, a); err != nil {
				return nil, err
			}
			continue
		}
		if !p.IsView() && p.Type.IsStruct() {
			if err := m.bindAggParam(j, p, a); err != nil {
				return nil, err
			}
			continue
		}
		if !p.IsView() {
			u, ok := fromGo(p.Type, a)
			if !ok {
				return nil, fmt.Errorf("kernelir: kernel %s: argument %s is %T, want %s", k.Name, p.Name, a, p.Type)
			}
			m.params[j] = u
			continue
		}
		var v View
		switch a := a.(type) {
		case View:
			v = a
		case *View:
			v = *a
		default:
			return nil, fmt.Errorf("kernelir: kernel %s: argument %s is %T, want a kernelir.View", k.Name, p.Name, a)
		}
		if len(v.Extents) != p.Rank || len(v.Strides) != p.Rank {
			return nil, fmt.Errorf("kernelir: kernel %s: view %s has %d extents and %d strides, want %d", k.Name, p.Name, len(v.Extents), len(v.Strides), p.Rank)
		}
		mv := &mview{p: p, v: v}
		if !bindData(mv, p.Type, v.Data) {
			return nil, fmt.Errorf("kernelir: kernel %s: view %s holds %T, want a []%s", k.Name, p.Name, v.Data, p.Type)
		}
		// Every element the extents reach must be in Data.
		lo, hi := v.Offset, v.Offset
		for d := range p.Rank {
			if v.Extents[d] < 0 {
				return nil, fmt.Errorf("kernelir: kernel %s: view %s has extent %d", k.Name, p.Name, v.Extents[d])
			}
			if v.Extents[d] == 0 {
				lo, hi = 0, -1
				break
			}
			if s := v.Strides[d] * (v.Extents[d] - 1); s >= 0 {
				hi += s
			} else {
				lo += s
			}
		}
		if hi >= lo && (lo < 0 || hi >= mv.size) {
			return nil, fmt.Errorf("kernelir: kernel %s: view %s reaches elements %d to %d of data of %d", k.Name, p.Name, lo, hi, mv.size)
		}
		m.views[p.Name] = mv
	}
	return m, nil
}

func bindData(mv *mview, t Type, data any) bool {
	switch t {
	case Int:
		return bindSlice(mv, data, func(x int) uint64 { return uint64(x) }, func(u uint64) int { return int(u) })
	case Int8:
		return bindSlice(mv, data, func(x int8) uint64 { return uint64(x) }, func(u uint64) int8 { return int8(u) })
	case Int16:
		return bindSlice(mv, data, func(x int16) uint64 { return uint64(x) }, func(u uint64) int16 { return int16(u) })
	case Int32:
		return bindSlice(mv, data, func(x int32) uint64 { return uint64(x) }, func(u uint64) int32 { return int32(u) })
	case Int64:
		return bindSlice(mv, data, func(x int64) uint64 { return uint64(x) }, func(u uint64) int64 { return int64(u) })
	case Uint8:
		return bindSlice(mv, data, func(x uint8) uint64 { return uint64(x) }, func(u uint64) uint8 { return uint8(u) })
	case Uint16:
		return bindSlice(mv, data, func(x uint16) uint64 { return uint64(x) }, func(u uint64) uint16 { return uint16(u) })
	case Uint32:
		return bindSlice(mv, data, func(x uint32) uint64 { return uint64(x) }, func(u uint64) uint32 { return uint32(u) })
	case Uint64:
		return bindSlice(mv, data, func(x uint64) uint64 { return x }, func(u uint64) uint64 { return u })
	case Float32:
		return bindSlice(mv, data, func(x float32) uint64 { return math.Float64bits(float64(x)) }, func(u uint64) float32 { return float32(math.Float64frombits(u)) })
	case Float64:
		return bindSlice(mv, data, math.Float64bits, math.Float64frombits)
	}
	return false
}

func bindSlice[T any](mv *mview, data any, to func(T) uint64, from func(uint64) T) bool {
	s, ok := data.([]T)
	if !ok {
		return false
	}
	mv.size = len(s)
	mv.get = func(off int) uint64 { return to(s[off]) }
	mv.set = func(off int, u uint64) { s[off] = from(u) }
	return true
}

// fromGo returns the bits of the Go value a of type t.
func fromGo(t Type, a any) (uint64, bool) {
	switch t {
	case Bool:
		if b, ok := a.(bool); ok {
			if b {
				return 1, true
			}
			return 0, true
		}
	case Int:
		if x, ok := a.(int); ok {
			return uint64(x), true
		}
	case Int8:
		if x, ok := a.(int8); ok {
			return uint64(x), true
		}
	case Int16:
		if x, ok := a.(int16); ok {
			return uint64(x), true
		}
	case Int32:
		if x, ok := a.(int32); ok {
			return uint64(x), true
		}
	case Int64:
		if x, ok := a.(int64); ok {
			return uint64(x), true
		}
	case Uint8:
		if x, ok := a.(uint8); ok {
			return uint64(x), true
		}
	case Uint16:
		if x, ok := a.(uint16); ok {
			return uint64(x), true
		}
	case Uint32:
		if x, ok := a.(uint32); ok {
			return uint64(x), true
		}
	case Uint64:
		if x, ok := a.(uint64); ok {
			return x, true
		}
	case Float32:
		if x, ok := a.(float32); ok {
			return math.Float64bits(float64(x)), true
		}
	case Float64:
		if x, ok := a.(float64); ok {
			return math.Float64bits(x), true
		}
	}
	return 0, false
}

// accPtr reads and writes the accumulator acc, a *T of type t.
func accPtr(t Type, acc any) (get func() uint64, set func(uint64), ok bool) {
	switch p := acc.(type) {
	case *bool:
		return func() uint64 { return b2u(*p) }, func(u uint64) { *p = u != 0 }, t == Bool
	case *int:
		return func() uint64 { return uint64(*p) }, func(u uint64) { *p = int(u) }, t == Int
	case *int8:
		return func() uint64 { return uint64(*p) }, func(u uint64) { *p = int8(u) }, t == Int8
	case *int16:
		return func() uint64 { return uint64(*p) }, func(u uint64) { *p = int16(u) }, t == Int16
	case *int32:
		return func() uint64 { return uint64(*p) }, func(u uint64) { *p = int32(u) }, t == Int32
	case *int64:
		return func() uint64 { return uint64(*p) }, func(u uint64) { *p = int64(u) }, t == Int64
	case *uint8:
		return func() uint64 { return uint64(*p) }, func(u uint64) { *p = uint8(u) }, t == Uint8
	case *uint16:
		return func() uint64 { return uint64(*p) }, func(u uint64) { *p = uint16(u) }, t == Uint16
	case *uint32:
		return func() uint64 { return uint64(*p) }, func(u uint64) { *p = uint32(u) }, t == Uint32
	case *uint64:
		return func() uint64 { return *p }, func(u uint64) { *p = u }, t == Uint64
	case *float32:
		return func() uint64 { return math.Float64bits(float64(*p)) }, func(u uint64) { *p = float32(math.Float64frombits(u)) }, t == Float32
	case *float64:
		return func() uint64 { return math.Float64bits(*p) }, func(u uint64) { *p = math.Float64frombits(u) }, t == Float64
	}
	return nil, nil, false
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Run calls the body once, at the indices idx (one per index parameter),
// with the accumulator acc (a *T of the kernel's Acc type; nil for a For
// kernel) and, for a scan, the final flag. What makes the Go body panic
// is an error wrapping ErrRun.
func (m *Machine) Run(idx []int, acc any, final bool) (err error) {
	k := m.k
	if k.Team != "" {
		return fmt.Errorf("kernelir: kernel %s is a team kernel: run it with RunTeam", k.Name)
	}
	if len(idx) != len(k.Index) {
		return fmt.Errorf("kernelir: kernel %s takes %d indices, got %d", k.Name, len(k.Index), len(idx))
	}
	x := &exec{m: m, ar: &arena{}}
	if k.Acc != Invalid {
		var ok bool
		x.accGet, x.accSet, ok = accPtr(k.Acc, acc)
		if !ok {
			return fmt.Errorf("kernelir: kernel %s: accumulator %T, want *%s", k.Name, acc, k.Acc)
		}
	}
	defer func() {
		if r := recover(); r != nil {
			re, ok := r.(perr)
			if !ok {
				panic(r)
			}
			err = re.err
		}
	}()
	e := &env{}
	for d, n := range k.Index {
		e.declare(n, uint64(idx[d]))
	}
	for j, p := range k.Params {
		if s, ok := m.aggParams[j]; ok {
			h := x.ar.alloc(len(s))
			copy(x.agg(h), s)
			e.declare(p.Name, h)
			continue
		}
		if !p.IsView() && !p.Token && !p.UMap {
			e.declare(p.Name, m.params[j])
		}
	}
	if k.Final != "" {
		e.declare(k.Final, b2u(final))
	}
	x.env = e
	x.stmts(k.Body)
	return nil
}

// env holds the variables of one call: names and values, innermost last.
type env struct {
	names []string
	vals  []uint64
	marks []int
}

func (e *env) declare(name string, u uint64) {
	if name == "_" {
		return
	}
	e.names = append(e.names, name)
	e.vals = append(e.vals, u)
}

func (e *env) slot(name string) *uint64 {
	for n := len(e.names) - 1; n >= 0; n-- {
		if e.names[n] == name {
			return &e.vals[n]
		}
	}
	panic(fmt.Sprintf("kernelir: %s undeclared in a validated kernel", name))
}

func (e *env) push() { e.marks = append(e.marks, len(e.names)) }
func (e *env) pop() {
	n := e.marks[len(e.marks)-1]
	e.marks = e.marks[:len(e.marks)-1]
	e.names, e.vals = e.names[:n], e.vals[:n]
}

// exec runs one function: the kernel's body or a helper's.
type exec struct {
	m      *Machine
	env    *env
	fn     *Func
	accGet func() uint64
	accSet func(uint64)
	ret    []uint64
	depth  int
	// tm is the thread of a team kernel (team.go), nil otherwise;
	// scratch holds its scratch views, which env binds by index.
	tm      *member
	scratch []*mview
	ar      *arena            // the composite values of this Run
	vmap    map[string]*mview // a helper's view parameters
}

// ctl is how a statement ends.
type ctl uint8

const (
	ctlNext ctl = iota
	ctlBreak
	ctlContinue
	ctlReturn
)

func runErr(format string, args ...any) {
	panic(perr{fmt.Errorf("%w: %s", ErrRun, fmt.Sprintf(format, args...))})
}

func (x *exec) stmts(list []Stmt) ctl {
	for _, s := range list {
		if c := x.stmt(s); c != ctlNext {
			return c
		}
	}
	return ctlNext
}

func (x *exec) block(list []Stmt) ctl {
	x.env.push()
	defer x.env.pop()
	return x.stmts(list)
}

func (x *exec) stmt(s Stmt) ctl {
	switch s := s.(type) {
	case *VarDecl:
		vals := make([]uint64, len(s.Vars))
		for n := range s.Values {
			vals[n] = x.expr(s.Values[n])
		}
		for n := len(s.Values); n < len(s.Vars); n++ {
			vals[n] = x.zero(s.Vars[n].Type)
		}
		for n, v := range s.Vars {
			x.env.declare(v.Name, vals[n])
		}
	case *Assign:
		var vals []uint64
		if len(s.Values) == 1 && len(s.Targets) > 1 {
			vals = x.call(s.Values[0].(*Call))
		} else {
			vals = make([]uint64, len(s.Values))
			for n, v := range s.Values {
				vals[n] = x.expr(v)
			}
		}
		// Go evaluates the targets' indices with the values, then stores.
		offs := make([]int, len(s.Targets))
		var parts [][]uint64
		for n := range s.Targets {
			if t := &s.Targets[n]; t.Kind == TargetElem {
				_, offs[n] = x.elem(t.Name, t.Index)
			} else if t.Kind == TargetPart {
				if parts == nil {
					parts = make([][]uint64, len(s.Targets))
				}
				parts[n], offs[n] = x.partLoc(t)
			}
		}
		for n := range s.Targets {
			t := &s.Targets[n]
			if t.Kind == TargetNew {
				continue
			}
			if t.Kind == TargetPart {
				x.put(parts[n], offs[n], t.T, vals[n])
				continue
			}
			x.store(t, offs[n], vals[n])
		}
		for n, t := range s.Targets {
			if t.Kind == TargetNew {
				x.env.declare(t.Name, vals[n])
			}
		}
	case *OpAssign:
		t := &s.Target
		get, set := x.lvalue(t)
		old := get()
		if s.Op == "shl" || s.Op == "shr" {
			set(shift(s.Op, t.T, old, x.count(s.Value)))
		} else {
			set(binop(s.Op, t.T, old, x.expr(s.Value)))
		}
	case *IncDec:
		t := &s.Target
		get, set := x.lvalue(t)
		op := "add"
		if s.Dec {
			op = "sub"
		}
		set(binop(op, t.T, get(), one(t.T)))
	case *ExprStmt:
		if c, ok := s.X.(*Call); ok {
			x.call(c)
		} else {
			x.expr(s.X)
		}
	case *If:
		x.env.push()
		defer x.env.pop()
		if s.Init != nil {
			x.stmt(s.Init)
		}
		if x.expr(s.Cond) != 0 {
			return x.block(s.Then)
		}
		if s.Else != nil {
			return x.stmt(s.Else)
		}
	case *For:
		x.env.push()
		defer x.env.pop()
		if s.Init != nil {
			x.stmt(s.Init)
		}
		for s.Cond == nil || x.expr(s.Cond) != 0 {
			switch x.block(s.Body) {
			case ctlBreak:
				return ctlNext
			case ctlReturn:
				return ctlReturn
			}
			if s.Post != nil {
				x.stmt(s.Post)
			}
		}
	case *Range:
		n := x.expr(s.N)
		x.env.push()
		defer x.env.pop()
		for i := uint64(0); less(s.T, i, n); i++ {
			x.env.push()
			switch s.Key.Kind {
			case TargetNew:
				x.env.declare(s.Key.Name, i)
			case TargetVar:
				*x.env.slot(s.Key.Name) = i
			}
			c := x.stmts(s.Body)
			x.env.pop()
			switch c {
			case ctlBreak:
				return ctlNext
			case ctlReturn:
				return ctlReturn
			}
		}
	case *Switch:
		x.env.push()
		defer x.env.pop()
		if s.Init != nil {
			x.stmt(s.Init)
		}
		tag, tagT := uint64(1), Bool
		if s.Tag != nil {
			tag, tagT = x.expr(s.Tag), TypeOf(s.Tag)
		}
		var body []Stmt
		found := false
	cases:
		for _, c := range s.Cases {
			for _, v := range c.Values {
				if equal(tagT, tag, x.expr(v)) {
					body, found = c.Body, true
					break cases
				}
			}
		}
		if !found {
			for _, c := range s.Cases {
				if c.Default {
					body, found = c.Body, true
				}
			}
		}
		if found {
			switch c := x.block(body); c {
			case ctlBreak:
				return ctlNext
			default:
				return c
			}
		}
	case *Break:
		return ctlBreak
	case *Continue:
		return ctlContinue
	case *Return:
		if x.fn != nil && len(s.Values) == 0 {
			for _, r := range x.fn.Results {
				if r.Name == "_" || r.Name == "" {
					x.ret = append(x.ret, x.zero(r.Type))
				} else {
					x.ret = append(x.ret, *x.env.slot(r.Name))
				}
			}
		} else if x.fn != nil {
			if len(s.Values) == 1 && len(x.fn.Results) > 1 {
				x.ret = x.call(s.Values[0].(*Call))
			} else {
				x.ret = make([]uint64, len(s.Values))
				for n, v := range s.Values {
					x.ret[n] = x.expr(v)
				}
			}
		}
		return ctlReturn
	case *Block:
		return x.block(s.Body)
	case *Nested, *NestedScan, *Barrier, *Collective, *ScratchDecl:
		return x.teamStmt(s)
	}
	return ctlNext
}

func one(t Type) uint64 {
	if t.IsFloat() {
		return math.Float64bits(1)
	}
	return 1
}

// less reports whether i < n for integers of type t (i non-negative).
func less(t Type, i, n uint64) bool {
	if t.IsSigned() {
		return int64(i) < int64(n)
	}
	return i < n
}

// lvalue returns the reader and writer of target t (not new, not blank).
func (x *exec) lvalue(t *Target) (func() uint64, func(uint64)) {
	switch t.Kind {
	case TargetVar:
		p := x.env.slot(t.Name)
		return func() uint64 { return *p }, func(u uint64) { *p = u }
	case TargetElem:
		v, off := x.elem(t.Name, t.Index)
		return func() uint64 { return v.get(off) }, func(u uint64) { v.set(off, u) }
	case TargetAcc:
		return x.accGet, x.accSet
	case TargetPart:
		s, off := x.partLoc(t)
		return func() uint64 { return s[off] }, func(u uint64) { s[off] = u }
	}
	return func() uint64 { return 0 }, func(uint64) {}
}

func (x *exec) store(t *Target, off int, u uint64) {
	switch t.Kind {
	case TargetVar:
		if isAgg(t.T) {
			copy(x.agg(*x.env.slot(t.Name)), x.agg(u))
			return
		}
		*x.env.slot(t.Name) = u
	case TargetElem:
		x.view(t.Name).set(off, u)
	case TargetAcc:
		x.accSet(u)
	}
}

// elem returns view name and the offset of the element at idx, or fails
// as the host accessor panics.
func (x *exec) elem(name string, idx []Expr) (*mview, int) {
	v := x.view(name)
	var at [MaxRank]int
	for d, e := range idx {
		at[d] = int(x.expr(e))
	}
	off := v.v.Offset
	for d := range idx {
		if at[d] < 0 || at[d] >= v.v.Extents[d] {
			runErr("%s.At%v out of bounds of view %s with extents %v", name, at[:len(idx)], name, v.v.Extents)
		}
		off += at[d] * v.v.Strides[d]
	}
	return v, off
}

// count evaluates a shift count as an unsigned count, failing on a
// negative one as Go panics.
func (x *exec) count(c Expr) uint64 {
	n := x.expr(c)
	if TypeOf(c).IsSigned() && int64(n) < 0 {
		runErr("negative shift amount %d", int64(n))
	}
	return n
}

// call runs helper c and returns its results.
func (x *exec) call(c *Call) []uint64 {
	f := x.m.k.Helper(c.Func)
	args := make([]uint64, len(c.Args))
	for n, a := range c.Args {
		if f.Params[n].Type.IsView() {
			continue
		}
		args[n] = x.expr(a)
	}
	if x.depth > 10000 {
		runErr("helper calls nested too deep")
	}
	y := &exec{m: x.m, env: &env{}, fn: f, depth: x.depth + 1, ar: x.ar}
	for n, p := range f.Params {
		if p.Type.IsView() {
			if y.vmap == nil {
				y.vmap = map[string]*mview{}
			}
			y.vmap[p.Name] = x.view(c.Args[n].(*Ref).Name)
			continue
		}
		y.env.declare(p.Name, args[n])
	}
	for _, r := range f.Results {
		if r.Name != "" {
			y.env.declare(r.Name, y.zero(r.Type))
		}
	}
	y.stmts(f.Body)
	return y.ret
}

func (x *exec) expr(e Expr) uint64 {
	switch e := e.(type) {
	case *Const:
		return e.Bits
	case *Ref:
		u := *x.env.slot(e.Name)
		if e.T >= numTypes && isAgg(e.T) {
			return x.copyOf(x.agg(u), 0, e.T)
		}
		return u
	case *Unary:
		v := x.expr(e.X)
		switch e.Op {
		case "not":
			return v ^ 1
		case "cpl":
			return norm(e.T, ^v)
		}
		if e.T.IsFloat() {
			return v ^ (1 << 63)
		}
		return norm(e.T, -v)
	case *Binary:
		switch e.Op {
		case "land":
			if x.expr(e.X) == 0 {
				return 0
			}
			return x.expr(e.Y)
		case "lor":
			if x.expr(e.X) != 0 {
				return 1
			}
			return x.expr(e.Y)
		case "shl", "shr":
			a := x.expr(e.X)
			return shift(e.Op, e.T, a, x.count(e.Y))
		}
		a := x.expr(e.X)
		b := x.expr(e.Y)
		return binop(e.Op, e.T, a, b)
	case *Convert:
		return convert(e.T, TypeOf(e.X), x.expr(e.X))
	case *At:
		v, off := x.elem(e.View, e.Index)
		return v.get(off)
	case *Extent:
		return uint64(x.view(e.View).v.Extents[e.Dim])
	case *AccRead:
		return x.accGet()
	case *Call:
		return x.call(e)[0]
	case *Math:
		args := make([]uint64, len(e.Args))
		for n, a := range e.Args {
			args[n] = x.expr(a)
		}
		return mathCall(e.Func, args)
	case *MinMax:
		r := x.expr(e.Args[0])
		for _, a := range e.Args[1:] {
			r = minMax(e.Max, e.T, r, x.expr(a))
		}
		return r
	case *Atomic:
		return x.atomic(e)
	case *TeamQuery:
		return x.teamExpr(e)
	default:
		if u, ok := x.localExpr(e); ok {
			return u
		}
	}
	if u, ok := x.tokenExpr(e); ok {
		return u
	}
	if u, ok := x.umapExpr(e); ok {
		return u
	}
	panic(fmt.Sprintf("kernelir: %T in a validated kernel", e))
}

func (x *exec) atomic(e *Atomic) uint64 {
	v, off := x.elem(e.View, e.Index)
	args := make([]uint64, len(e.Args))
	for n, a := range e.Args {
		args[n] = x.expr(a)
	}
	t := e.T
	base, res := atomicBase(e.Op)
	old := v.get(off)
	var nv uint64
	switch base {
	case "Load":
		return old
	case "Store":
		v.set(off, args[0])
		return 0
	case "Exchange":
		v.set(off, args[0])
		return old
	case "CompareExchange":
		if old == args[0] {
			v.set(off, args[1])
		}
		return old
	case "Inc":
		nv = binop("add", t, old, one(t))
	case "Dec":
		nv = binop("sub", t, old, one(t))
	case "Add", "Sub", "Mul", "Div", "Mod", "And", "Or", "Xor":
		nv = binop(map[string]string{"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "Mod": "rem", "And": "and", "Or": "or", "Xor": "xor"}[base], t, old, args[0])
	case "Nand":
		nv = norm(t, ^(old & args[0]))
	case "Min":
		nv = args[0]
		if compare("lt", t, old, args[0]) {
			nv = old
		}
	case "Max":
		nv = args[0]
		if compare("gt", t, old, args[0]) {
			nv = old
		}
	case "Lshift":
		nv = shift("shl", t, old, args[0])
	case "Rshift":
		nv = shift("shr", t, old, args[0])
	}
	v.set(off, nv)
	switch res {
	case resOld:
		return old
	case resNew:
		return nv
	}
	return 0
}

// Go's operations on bits.

func f64(t Type, u uint64) float64 { return math.Float64frombits(u) }

func fbits(t Type, f float64) uint64 {
	if t == Float32 {
		return math.Float64bits(float64(float32(f)))
	}
	return math.Float64bits(f)
}

// binop is a op b for the arithmetic and comparison operators (not the
// shifts, not && and ||).
func binop(op string, t Type, a, b uint64) uint64 {
	switch op {
	case "eq", "ne", "lt", "le", "gt", "ge":
		return b2u(compare(op, t, a, b))
	}
	if t == Float32 {
		x, y := float32(f64(t, a)), float32(f64(t, b))
		var r float32
		switch op {
		case "add":
			r = x + y
		case "sub":
			r = x - y
		case "mul":
			r = x * y
		case "div":
			r = x / y
		}
		return math.Float64bits(float64(r))
	}
	if t == Float64 {
		x, y := f64(t, a), f64(t, b)
		var r float64
		switch op {
		case "add":
			r = x + y
		case "sub":
			r = x - y
		case "mul":
			r = x * y
		case "div":
			r = x / y
		}
		return math.Float64bits(r)
	}
	var r uint64
	switch op {
	case "add":
		r = a + b
	case "sub":
		r = a - b
	case "mul":
		r = a * b
	case "div", "rem":
		if b == 0 {
			runErr("integer divide by zero")
		}
		if t.IsSigned() {
			x, y := int64(a), int64(b)
			if op == "div" {
				r = uint64(x / y)
			} else {
				r = uint64(x % y)
			}
		} else if op == "div" {
			r = a / b
		} else {
			r = a % b
		}
	case "and":
		r = a & b
	case "or":
		r = a | b
	case "xor":
		r = a ^ b
	case "andnot":
		r = a &^ b
	}
	return norm(t, r)
}

// shift is a << n or a >> n for a of type t.
func shift(op string, t Type, a, n uint64) uint64 {
	if op == "shl" {
		if n >= 64 {
			return 0
		}
		return norm(t, a<<n)
	}
	if t.IsSigned() {
		if n > 63 {
			n = 63
		}
		return norm(t, uint64(int64(a)>>n))
	}
	if n >= 64 {
		return 0
	}
	return a >> n
}

func compare(op string, t Type, a, b uint64) bool {
	var lt, eq bool
	switch {
	case t.IsFloat():
		x, y := f64(t, a), f64(t, b)
		lt, eq = x < y, x == y
		switch op {
		case "ne":
			return x != y
		case "le":
			return x <= y
		case "ge":
			return x >= y
		case "gt":
			return x > y
		}
	case t.IsSigned():
		lt, eq = int64(a) < int64(b), a == b
	default:
		lt, eq = a < b, a == b
	}
	switch op {
	case "eq":
		return eq
	case "ne":
		return !eq
	case "lt":
		return lt
	case "le":
		return lt || eq
	case "gt":
		return !lt && !eq
	}
	return !lt
}

func equal(t Type, a, b uint64) bool { return compare("eq", t, a, b) }

func minMax(isMax bool, t Type, a, b uint64) uint64 {
	switch {
	case t.IsFloat():
		x, y := f64(t, a), f64(t, b)
		if isMax {
			return math.Float64bits(max(x, y))
		}
		return math.Float64bits(min(x, y))
	case t.IsSigned():
		if isMax == (int64(b) > int64(a)) && a != b {
			return b
		}
		return a
	}
	if isMax == (b > a) && a != b {
		return b
	}
	return a
}

// convert is the Go conversion of u, of type from, to type to.
func convert(to, from Type, u uint64) uint64 {
	switch {
	case to == from:
		return u
	case to.IsInteger() && from.IsInteger():
		return norm(to, u)
	case to.IsFloat() && from.IsSigned():
		if to == Float32 {
			return math.Float64bits(float64(float32(int64(u))))
		}
		return math.Float64bits(float64(int64(u)))
	case to.IsFloat() && from.IsUnsigned():
		if to == Float32 {
			return math.Float64bits(float64(float32(u)))
		}
		return math.Float64bits(float64(u))
	case to.IsFloat():
		return fbits(to, f64(from, u))
	case from == Float32:
		return floatToInt(to, float32(f64(from, u)))
	}
	return floatToInt(to, f64(from, u))
}

// floatToInt converts f to integer type t as compiled Go code does.
func floatToInt[F float32 | float64](t Type, f F) uint64 {
	switch t {
	case Int, Int64:
		return uint64(int64(f))
	case Int8:
		return uint64(int64(int8(f)))
	case Int16:
		return uint64(int64(int16(f)))
	case Int32:
		return uint64(int64(int32(f)))
	case Uint8:
		return uint64(uint8(f))
	case Uint16:
		return uint64(uint16(f))
	case Uint32:
		return uint64(uint32(f))
	}
	return uint64(f)
}

func mathCall(name string, a []uint64) uint64 {
	f := func(n int) float64 { return math.Float64frombits(a[n]) }
	var r float64
	switch name {
	case "Sqrt":
		r = math.Sqrt(f(0))
	case "Cbrt":
		r = math.Cbrt(f(0))
	case "Exp":
		r = math.Exp(f(0))
	case "Exp2":
		r = math.Exp2(f(0))
	case "Expm1":
		r = math.Expm1(f(0))
	case "Log":
		r = math.Log(f(0))
	case "Log2":
		r = math.Log2(f(0))
	case "Log10":
		r = math.Log10(f(0))
	case "Log1p":
		r = math.Log1p(f(0))
	case "Sin":
		r = math.Sin(f(0))
	case "Cos":
		r = math.Cos(f(0))
	case "Tan":
		r = math.Tan(f(0))
	case "Asin":
		r = math.Asin(f(0))
	case "Acos":
		r = math.Acos(f(0))
	case "Atan":
		r = math.Atan(f(0))
	case "Atan2":
		r = math.Atan2(f(0), f(1))
	case "Sinh":
		r = math.Sinh(f(0))
	case "Cosh":
		r = math.Cosh(f(0))
	case "Tanh":
		r = math.Tanh(f(0))
	case "Asinh":
		r = math.Asinh(f(0))
	case "Acosh":
		r = math.Acosh(f(0))
	case "Atanh":
		r = math.Atanh(f(0))
	case "Pow":
		r = math.Pow(f(0), f(1))
	case "Abs":
		r = math.Abs(f(0))
	case "Floor":
		r = math.Floor(f(0))
	case "Ceil":
		r = math.Ceil(f(0))
	case "Trunc":
		r = math.Trunc(f(0))
	case "Round":
		r = math.Round(f(0))
	case "RoundToEven":
		r = math.RoundToEven(f(0))
	case "Mod":
		r = math.Mod(f(0), f(1))
	case "Remainder":
		r = math.Remainder(f(0), f(1))
	case "FMA":
		r = math.FMA(f(0), f(1), f(2))
	case "Hypot":
		r = math.Hypot(f(0), f(1))
	case "Copysign":
		r = math.Copysign(f(0), f(1))
	case "Erf":
		r = math.Erf(f(0))
	case "Erfc":
		r = math.Erfc(f(0))
	case "Gamma":
		r = math.Gamma(f(0))
	case "Min":
		r = math.Min(f(0), f(1))
	case "Max":
		r = math.Max(f(0), f(1))
	case "Signbit":
		return b2u(math.Signbit(f(0)))
	case "Inf":
		r = math.Inf(int(a[0]))
	case "NaN":
		r = math.NaN()
	case "IsNaN":
		return b2u(math.IsNaN(f(0)))
	case "IsInf":
		return b2u(math.IsInf(f(0), int(a[1])))
	default:
		panic("kernelir: math." + name + " in a validated kernel")
	}
	return math.Float64bits(r)
}
