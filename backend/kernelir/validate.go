package kernelir

import (
	"fmt"
	"math"
)

// Validate checks k and its helpers against the rules of the description
// and fills in the types the text leaves implicit (variables, view
// elements, calls). The rules: every name is declared before use, in
// Go's block scopes (a Block, each branch of an If and each Case, a For's
// and a Range's body, and the init clauses' own scope); operands have the
// types their node states; a condition is a bool; a view is indexed with
// as many ints as its rank; indices and the final flag are never assigned
// (a scalar parameter may be: it is the function's copy); break is in a loop or switch and continue in a loop; a
// kernel returns nothing and a helper its results; helpers do not call
// themselves, directly or not; at most MaxRank indices. The error wraps
// ErrInvalid.
func Validate(k *Kernel) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ve, ok := r.(perr)
			if !ok {
				panic(r)
			}
			err = ve.err
		}
	}()
	v := &validator{k: k, funcs: map[string]*Func{}}
	for _, f := range k.Helpers {
		if !isIdent(f.Name) || f.Name == "_" {
			v.failf("helper name %q", f.Name)
		}
		if v.funcs[f.Name] != nil {
			v.failf("two helpers named %s", f.Name)
		}
		v.funcs[f.Name] = f
	}
	v.writes = helperWrites(k.Helpers, v.funcs)
	if k.Pattern > PatternScan {
		v.failf("kernel %s: pattern %d", k.Name, k.Pattern)
	}
	if k.Team != "" {
		v.teamKernel()
	} else if len(k.Index) < 1 || len(k.Index) > MaxRank || k.Pattern == PatternScan && len(k.Index) != 1 {
		v.failf("kernel %s: %d indices", k.Name, len(k.Index))
	}
	if (k.Pattern == PatternFor) != (k.Acc == Invalid) || (k.Pattern == PatternScan) != (k.Final != "") {
		v.failf("kernel %s: a %s kernel with acc %s and final flag %q", k.Name, k.Pattern, k.Acc, k.Final)
	}
	if k.Acc >= numTypes {
		v.failf("kernel %s: acc of type %d", k.Name, k.Acc)
	}
	for _, f := range k.Helpers {
		v.fn = f
		v.scopes = []map[string]*binding{{}}
		for _, p := range f.Params {
			v.declare(p.Name, p.Type, false)
		}
		for _, r := range f.Results {
			v.storable("result", r.Type)
			if r.Name != "" {
				v.declare(r.Name, r.Type, false)
			}
		}
		v.stmts(f.Body)
	}
	v.fn = nil
	v.scopes = []map[string]*binding{{}}
	for _, n := range k.Index {
		v.declare(n, Int, true)
	}
	seen := map[string]bool{}
	for _, p := range k.Params {
		if !isIdent(p.Name) {
			v.failf("kernel %s: parameter name %q", k.Name, p.Name)
		}
		if p.UMap && umapParamOK(p) {
			if p.Name != "_" && (v.lookup(p.Name) != nil || seen[p.Name]) {
				v.failf("kernel %s: two parameters named %s", k.Name, p.Name)
			}
			seen[p.Name] = true
			continue
		}
		if p.Token && p.Rank == 0 && p.Type == Invalid && !p.Write {
			if p.Name != "_" && (v.lookup(p.Name) != nil || seen[p.Name]) {
				v.failf("kernel %s: two parameters named %s", k.Name, p.Name)
			}
			seen[p.Name] = true
			continue
		}
		if p.Token || p.UMap || p.Rank < 0 || p.Rank > MaxRank || !p.Type.IsNumeric() && !((p.Type == Bool || p.Type.IsStruct()) && p.Rank == 0) {
			v.failf("kernel %s: parameter %s of type %s and rank %d", k.Name, p.Name, p.Type, p.Rank)
		}
		if p.Name != "_" && (v.lookup(p.Name) != nil || seen[p.Name]) {
			v.failf("kernel %s: two parameters named %s", k.Name, p.Name)
		}
		seen[p.Name] = true
		if p.IsView() {
			continue
		}
		v.declare(p.Name, p.Type, false)
	}
	if k.Final != "" {
		v.declare(k.Final, Bool, true)
	}
	v.stmts(k.Body)
	// No recursion among helpers.
	state := map[string]int{}
	var visit func(name string)
	visit = func(name string) {
		switch state[name] {
		case 1:
			v.failf("helper %s calls itself, directly or not", name)
		case 2:
			return
		}
		state[name] = 1
		for _, c := range v.calls[name] {
			visit(c)
		}
		state[name] = 2
	}
	for _, f := range k.Helpers {
		visit(f.Name)
	}
	return nil
}

// MaxRank is the largest rank of a view and the most indices of a kernel.
const MaxRank = 6

type binding struct {
	t        Type
	readOnly bool
	view     *Param // a scratch view (team.go)
}

type validator struct {
	k      *Kernel
	fn     *Func // the helper being checked; nil for the kernel
	funcs  map[string]*Func
	scopes []map[string]*binding
	loops  int // enclosing loops
	breaks int // enclosing loops and switches
	calls  map[string][]string
	nested []string          // the kinds of the enclosing nested ranges (team.go)
	writes map[string][]bool // the view parameters each helper writes (local.go)
}

func (v *validator) failf(format string, args ...any) {
	panic(perr{fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))})
}

// where names the function being checked, for errors.
func (v *validator) where() string {
	if v.fn != nil {
		return "helper " + v.fn.Name
	}
	return "kernel " + v.k.Name
}

func (v *validator) errf(format string, args ...any) {
	v.failf("%s: %s", v.where(), fmt.Sprintf(format, args...))
}

func (v *validator) declare(name string, t Type, readOnly bool) {
	if !isIdent(name) {
		v.errf("name %q", name)
	}
	if !t.valid() {
		v.errf("%s of type %s", name, t)
	}
	if name == "_" {
		return
	}
	v.scopes[len(v.scopes)-1][name] = &binding{t: t, readOnly: readOnly}
}

func (v *validator) lookup(name string) *binding {
	for n := len(v.scopes) - 1; n >= 0; n-- {
		if b := v.scopes[n][name]; b != nil {
			return b
		}
	}
	return nil
}

// views returns the view parameter name, unless a local shadows it.
func (v *validator) views(name string) *Param {
	if b := v.lookup(name); b != nil {
		if b.view != nil {
			return b.view // a scratch view
		}
		return helperView(name, b.t)
	}
	if v.fn != nil {
		return nil
	}
	if p := v.k.Param(name); p != nil && p.IsView() {
		return p
	}
	return nil
}

func (v *validator) push() { v.scopes = append(v.scopes, map[string]*binding{}) }
func (v *validator) pop()  { v.scopes = v.scopes[:len(v.scopes)-1] }

func (v *validator) stmts(list []Stmt) {
	for _, s := range list {
		v.stmt(s)
	}
}

func (v *validator) block(list []Stmt) {
	v.push()
	v.stmts(list)
	v.pop()
}

func (v *validator) stmt(s Stmt) {
	switch s := s.(type) {
	case *VarDecl:
		if len(s.Values) != 0 && len(s.Values) != len(s.Vars) {
			v.errf("var of %d names and %d values", len(s.Vars), len(s.Values))
		}
		for n, x := range s.Values {
			v.exprOf(x, s.Vars[n].Type)
		}
		for _, d := range s.Vars {
			v.storable(d.Name, d.Type)
			v.declare(d.Name, d.Type, false)
		}
	case *Assign:
		var types []Type
		if len(s.Values) == 1 && len(s.Targets) > 1 {
			c, ok := s.Values[0].(*Call)
			if !ok {
				v.errf("an assignment of %d targets from one value", len(s.Targets))
			}
			types = v.call(c)
			if len(types) != len(s.Targets) {
				v.errf("an assignment of %d targets from %s, of %d results", len(s.Targets), c.Func, len(types))
			}
		} else {
			if len(s.Values) != len(s.Targets) {
				v.errf("an assignment of %d targets and %d values", len(s.Targets), len(s.Values))
			}
			for _, x := range s.Values {
				types = append(types, v.expr(x))
			}
		}
		var news []Target
		for n := range s.Targets {
			t := &s.Targets[n]
			if t.Kind == TargetNew {
				if t.T != types[n] {
					v.errf("new variable %s of type %s given a %s", t.Name, t.T, types[n])
				}
				news = append(news, *t)
				continue
			}
			v.target(t)
			if t.T.IsPointer() {
				v.errf("an assignment of a pointer")
			}
			if t.Kind != TargetBlank && t.T != types[n] {
				v.errf("an assignment of a %s to a %s", types[n], t.T)
			}
		}
		for _, t := range news {
			v.storable(t.Name, t.T)
			v.declare(t.Name, t.T, false)
		}
	case *OpAssign:
		v.target(&s.Target)
		if s.Target.Kind == TargetBlank || s.Target.Kind == TargetNew {
			v.errf("%s= to a blank or new target", s.Op)
		}
		v.arith(s.Op, s.Target.T)
		if s.Op == "shl" || s.Op == "shr" {
			if !v.expr(s.Value).IsInteger() {
				v.errf("a shift count that is not an integer")
			}
		} else {
			v.exprOf(s.Value, s.Target.T)
		}
	case *IncDec:
		v.target(&s.Target)
		if !s.Target.T.IsNumeric() || s.Target.Kind == TargetBlank || s.Target.Kind == TargetNew {
			v.errf("++ or -- of a %s", s.Target.T)
		}
	case *ExprStmt:
		switch x := s.X.(type) {
		case *Call:
			v.call(x)
		case *Atomic, *TokenAcquire:
			v.expr(x)
		case *TokenRelease:
			v.tokenExpr(x, true)
		case *UMapInsert:
			v.umapExpr(x, true)
		default:
			v.errf("an expression statement of %T", s.X)
		}
	case *If:
		v.push()
		if s.Init != nil {
			v.stmt(s.Init)
		}
		v.exprOf(s.Cond, Bool)
		v.block(s.Then)
		if s.Else != nil {
			switch s.Else.(type) {
			case *If, *Block:
			default:
				v.errf("else of %T", s.Else)
			}
			v.push()
			v.stmt(s.Else)
			v.pop()
		}
		v.pop()
	case *For:
		v.push()
		if s.Init != nil {
			v.simple(s.Init)
			v.stmt(s.Init)
		}
		if s.Cond != nil {
			v.exprOf(s.Cond, Bool)
		}
		if s.Post != nil {
			v.simple(s.Post)
			if a, ok := s.Post.(*Assign); ok {
				for _, t := range a.Targets {
					if t.Kind == TargetNew {
						v.errf("a declaration in a for statement's post clause")
					}
				}
			}
			v.stmt(s.Post)
		}
		v.loops++
		v.breaks++
		v.block(s.Body)
		v.loops--
		v.breaks--
		v.pop()
	case *Range:
		if !s.T.IsInteger() {
			v.errf("a range over a %s", s.T)
		}
		v.exprOf(s.N, s.T)
		v.push()
		switch s.Key.Kind {
		case TargetNew:
			if s.Key.T != s.T {
				v.errf("range key %s of type %s over a %s", s.Key.Name, s.Key.T, s.T)
			}
			v.declare(s.Key.Name, s.T, false)
		case TargetVar:
			v.target(&s.Key)
			if s.Key.T != s.T {
				v.errf("range key %s of type %s over a %s", s.Key.Name, s.Key.T, s.T)
			}
		case TargetBlank:
		default:
			v.errf("a range key that is not a variable")
		}
		v.loops++
		v.breaks++
		v.block(s.Body)
		v.loops--
		v.breaks--
		v.pop()
	case *Switch:
		v.push()
		if s.Init != nil {
			v.simple(s.Init)
			v.stmt(s.Init)
		}
		tag := Bool
		if s.Tag != nil {
			tag = v.expr(s.Tag)
			if !tag.IsScalar() {
				v.errf("a switch tag without a value")
			}
		}
		defaults := 0
		v.breaks++
		for _, c := range s.Cases {
			if c.Default {
				defaults++
				if len(c.Values) > 0 {
					v.errf("a default case with values")
				}
			} else if len(c.Values) == 0 {
				v.errf("a case without values")
			}
			for _, x := range c.Values {
				v.exprOf(x, tag)
			}
			v.block(c.Body)
		}
		v.breaks--
		if defaults > 1 {
			v.errf("a switch of %d default cases", defaults)
		}
		v.pop()
	case *Break:
		if v.breaks == 0 {
			v.errf("break outside a loop or switch")
		}
	case *Continue:
		if v.loops == 0 {
			v.errf("continue outside a loop")
		}
	case *Return:
		if len(v.nested) > 0 {
			v.errf("return inside a %s range", v.inNested())
		}
		if v.fn == nil {
			if len(s.Values) != 0 {
				v.errf("a kernel returns no values")
			}
			return
		}
		res := v.fn.Results
		if len(s.Values) == 0 && len(res) > 0 && res[0].Name != "" {
			return // a bare return of named results
		}
		if len(s.Values) == 1 && len(res) > 1 {
			c, ok := s.Values[0].(*Call)
			if !ok {
				v.errf("return of one value from a helper of %d results", len(res))
			}
			got := v.call(c)
			if len(got) != len(res) {
				v.errf("return of %s's %d results from a helper of %d", c.Func, len(got), len(res))
			}
			for n, t := range got {
				if t != res[n].Type {
					v.errf("return of a %s for a %s", t, res[n].Type)
				}
			}
			return
		}
		if len(s.Values) != len(res) {
			v.errf("return of %d values from a helper of %d results", len(s.Values), len(res))
		}
		for n, x := range s.Values {
			v.exprOf(x, res[n].Type)
		}
	case *Block:
		v.block(s.Body)
	case *Nested, *NestedScan, *Barrier, *Collective, *ScratchDecl:
		v.teamStmt(s)
	case nil:
		v.errf("a missing statement")
	default:
		v.errf("a statement of type %T", s)
	}
}

// simple checks that s is a simple statement (of a for's or a switch's
// header).
func (v *validator) simple(s Stmt) {
	switch s.(type) {
	case *Assign, *OpAssign, *IncDec, *ExprStmt, *VarDecl:
	default:
		v.errf("a %T in a statement's header", s)
	}
}

// target resolves t and fills in its type.
func (v *validator) target(t *Target) {
	switch t.Kind {
	case TargetVar:
		b := v.lookup(t.Name)
		if b == nil {
			v.errf("assignment to undeclared %s", t.Name)
		}
		if b.readOnly {
			v.errf("assignment to %s, an index or the final flag", t.Name)
		}
		t.T = b.t
	case TargetElem:
		p := v.views(t.Name)
		if p == nil {
			v.errf("%s is not a view", t.Name)
		}
		if !p.Write {
			v.errf("a store to view %s, which is not marked written", t.Name)
		}
		v.indices(p, t.Index)
		t.T = p.Type
	case TargetAcc:
		if v.fn != nil || v.k.Acc == Invalid {
			v.errf("*acc outside a reduction or scan")
		}
		t.T = v.k.Acc
	case TargetBlank:
		t.T = Invalid
	case TargetNew:
		v.errf("a new variable %s here", t.Name)
	case TargetPart:
		v.partTarget(t)
	default:
		v.errf("target kind %d", t.Kind)
	}
}

func (v *validator) indices(p *Param, idx []Expr) {
	if len(idx) != p.Rank {
		v.errf("view %s of rank %d indexed with %d indices", p.Name, p.Rank, len(idx))
	}
	for _, x := range idx {
		v.exprOf(x, Int)
	}
}

// arith checks that op applies to t.
func (v *validator) arith(op string, t Type) {
	switch op {
	case "add", "sub", "mul", "div":
		if t.IsNumeric() {
			return
		}
	case "rem", "and", "or", "xor", "andnot", "shl", "shr":
		if t.IsInteger() {
			return
		}
	}
	v.errf("operator %s on a %s", op, t)
}

func (v *validator) exprOf(x Expr, want Type) {
	if got := v.expr(x); got != want {
		v.errf("a %s where a %s is wanted", got, want)
	}
}

// call checks a helper call and returns its result types.
func (v *validator) call(c *Call) []Type {
	f := v.funcs[c.Func]
	if f == nil {
		v.errf("call of unknown helper %s", c.Func)
	}
	if len(c.Args) != len(f.Params) {
		v.errf("call of %s with %d arguments, not %d", c.Func, len(c.Args), len(f.Params))
	}
	for n, a := range c.Args {
		if f.Params[n].Type.IsView() {
			v.viewArg(c, n, a, f.Params[n].Type)
			continue
		}
		v.exprOf(a, f.Params[n].Type)
	}
	c.Results = nil
	for _, r := range f.Results {
		c.Results = append(c.Results, r.Type)
	}
	caller := ""
	if v.fn != nil {
		caller = v.fn.Name
	}
	if v.calls == nil {
		v.calls = map[string][]string{}
	}
	if caller != "" {
		v.calls[caller] = append(v.calls[caller], c.Func)
	}
	return c.Results
}

// expr checks x and returns its type.
func (v *validator) expr(x Expr) Type {
	switch x := x.(type) {
	case *Const:
		if x.T == Invalid || x.T >= numTypes || !constOK(x) {
			v.errf("constant %#x of type %s", x.Bits, x.T)
		}
	case *Ref:
		b := v.lookup(x.Name)
		if b == nil || b.view != nil {
			v.errf("undeclared %s", x.Name)
		}
		x.T = b.t
	case *Unary:
		t := v.expr(x.X)
		switch x.Op {
		case "not":
			if t != Bool {
				v.errf("! of a %s", t)
			}
		case "neg":
			if t != x.T || !t.IsNumeric() {
				v.errf("- of a %s as a %s", t, x.T)
			}
		case "cpl":
			if t != x.T || !t.IsInteger() {
				v.errf("^ of a %s as a %s", t, x.T)
			}
		default:
			v.errf("unary operator %s", x.Op)
		}
	case *Binary:
		switch x.Op {
		case "land", "lor":
			v.exprOf(x.X, Bool)
			v.exprOf(x.Y, Bool)
		case "eq", "ne":
			v.exprOf(x.X, x.T)
			v.exprOf(x.Y, x.T)
			if x.T == Invalid || x.T >= numTypes {
				v.errf("comparison of %s", x.T)
			}
		case "lt", "le", "gt", "ge":
			v.exprOf(x.X, x.T)
			v.exprOf(x.Y, x.T)
			if !x.T.IsNumeric() {
				v.errf("ordering of %s", x.T)
			}
		case "shl", "shr":
			v.arith(x.Op, x.T)
			v.exprOf(x.X, x.T)
			if !v.expr(x.Y).IsInteger() {
				v.errf("a shift count that is not an integer")
			}
		default:
			v.arith(x.Op, x.T)
			v.exprOf(x.X, x.T)
			v.exprOf(x.Y, x.T)
		}
	case *Convert:
		t := v.expr(x.X)
		if !t.IsNumeric() || !x.T.IsNumeric() {
			if !(t == Bool && x.T == Bool) {
				v.errf("conversion of a %s to %s", t, x.T)
			}
		}
	case *At:
		p := v.views(x.View)
		if p == nil {
			v.errf("%s is not a view", x.View)
		}
		v.indices(p, x.Index)
		x.T = p.Type
	case *Extent:
		p := v.views(x.View)
		if p == nil {
			v.errf("%s is not a view", x.View)
		}
		if x.Dim < 0 || x.Dim >= p.Rank {
			v.errf("%s.Extent(%d) of a rank-%d view", x.View, x.Dim, p.Rank)
		}
	case *AccRead:
		if v.fn != nil || v.k.Acc == Invalid {
			v.errf("*acc outside a reduction or scan")
		}
		x.T = v.k.Acc
	case *Call:
		if len(v.call(x)) != 1 {
			v.errf("call of %s, of %d results, as a value", x.Func, len(x.Results))
		}
	case *Math:
		n, ok := MathFuncs[x.Func]
		if !ok {
			v.errf("math.%s", x.Func)
		}
		if len(x.Args) != n {
			v.errf("math.%s with %d arguments", x.Func, len(x.Args))
		}
		for i, a := range x.Args {
			want := Float64
			if x.Func == "Inf" || x.Func == "IsInf" && i == 1 {
				want = Int
			}
			v.exprOf(a, want)
		}
	case *MinMax:
		if !x.T.IsNumeric() || len(x.Args) == 0 {
			v.errf("min or max of %d %s", len(x.Args), x.T)
		}
		for _, a := range x.Args {
			v.exprOf(a, x.T)
		}
	case *Atomic:
		p := v.views(x.View)
		if p == nil {
			v.errf("%s is not a view", x.View)
		}
		if !p.Write {
			v.errf("an atomic on view %s, which is not marked written", x.View)
		}
		v.indices(p, x.Index)
		x.T = p.Type
		base, res := atomicBase(x.Op)
		op, ok := atomicOps[base]
		if !ok || res != resNone && !op.fetch && base != x.Op || op.intOnly && !p.Type.IsInteger() {
			v.errf("atomic %s on a %s", x.Op, p.Type)
		}
		if len(x.Args) != op.args {
			v.errf("atomic %s with %d values", x.Op, len(x.Args))
		}
		for _, a := range x.Args {
			if base == "Lshift" || base == "Rshift" {
				if c, ok := a.(*Const); !ok || c.T != Uint64 {
					v.errf("atomic %s with a count that is not a uint64 constant", x.Op)
				}
				continue
			}
			v.exprOf(a, p.Type)
		}
	case *TeamQuery:
		v.teamExpr(x)
	case nil:
		v.errf("a missing expression")
	default:
		if v.tokenExpr(x, false) || v.umapExpr(x, false) {
			break
		}
		if _, ok := v.localExpr(x); !ok {
			v.errf("an expression of type %T", x)
		}
	}
	return TypeOf(x)
}

// constOK reports whether c's bits are a value of its type.
func constOK(c *Const) bool {
	switch {
	case c.T == Bool:
		return c.Bits <= 1
	case c.T.IsInteger():
		return norm(c.T, c.Bits) == c.Bits
	case c.T == Float32:
		f := math.Float64frombits(c.Bits)
		return f != f || float64(float32(f)) == f
	}
	return true
}

// norm reduces bits to a value of integer type t: the low bits, sign- or
// zero-extended.
func norm(t Type, u uint64) uint64 {
	switch t {
	case Int8:
		return uint64(int64(int8(u)))
	case Int16:
		return uint64(int64(int16(u)))
	case Int32:
		return uint64(int64(int32(u)))
	case Uint8:
		return u & 0xff
	case Uint16:
		return u & 0xffff
	case Uint32:
		return u & 0xffffffff
	case Bool:
		return u & 1
	}
	return u
}
