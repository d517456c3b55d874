package kernelir

import (
	"fmt"
	"strings"
)

// Unique tokens. A kernel parameter of type kokkos.UniqueToken is a Param
// with Token set, written (token NAME) in the text. The body uses it
// through three nodes only, each naming the parameter:
//
//	(acquire t)     TokenAcquire: t.Acquire(), an int in [0, t.Size())
//	(release t x)   TokenRelease: t.Release(x), x an int; no result
//	(tokensize t)   TokenSize: t.Size(), an int
//
// Acquire returns an id no other holder of the token holds, waiting while
// every id is held; Release gives one back. Releasing an id that is not
// held is an error (the host kernel panics).

// TokenAcquire is t.Acquire() of token parameter Token: an int.
type TokenAcquire struct{ Token string }

// TokenRelease is t.Release(ID) of token parameter Token, ID an int. It
// has no result: it stands as the X of an ExprStmt.
type TokenRelease struct {
	Token string
	ID    Expr
}

// TokenSize is t.Size() of token parameter Token: an int.
type TokenSize struct{ Token string }

func (*TokenAcquire) exprNode() {}
func (*TokenRelease) exprNode() {}
func (*TokenSize) exprNode()    {}

// A Token is what a Machine binds to a token parameter: a
// kokkos.UniqueToken (or a backend.Token) made for the host.
type Token interface {
	Size() int
	Acquire() int
	Release(id int)
}

// printToken writes x if it is a token node, and reports whether it was.
func (p *printer) printToken(x Expr) bool {
	switch x := x.(type) {
	case *TokenAcquire:
		p.b.WriteString("(acquire " + x.Token + ")")
	case *TokenRelease:
		p.b.WriteString("(release " + x.Token + " ")
		p.expr(x.ID)
		p.b.WriteString(")")
	case *TokenSize:
		p.b.WriteString("(tokensize " + x.Token + ")")
	default:
		return false
	}
	return true
}

// parseToken reads the token node s of head h, or returns nil when h is
// not a token node's.
func (p *parser) parseToken(h string, s *sx) Expr {
	switch h {
	case "acquire":
		return &TokenAcquire{Token: p.name(p.args(s, 1, false)[0])}
	case "release":
		a := p.args(s, 2, false)
		return &TokenRelease{Token: p.name(a[0]), ID: p.expr(a[1])}
	case "tokensize":
		return &TokenSize{Token: p.name(p.args(s, 1, false)[0])}
	}
	return nil
}

// token checks that name is a token parameter of the kernel, seen from
// the kernel's body (not a helper's, and not shadowed by a local).
func (v *validator) token(name string) {
	if v.fn != nil {
		v.errf("token %s used in a helper: only a kernel's body has its tokens", name)
	}
	if p := v.k.Param(name); p == nil || !p.Token || v.lookup(name) != nil {
		v.errf("%s is not a token", name)
	}
}

// tokenExpr checks the token node x, the X of an ExprStmt when stmt, and
// reports whether it was one.
func (v *validator) tokenExpr(x Expr, stmt bool) bool {
	switch x := x.(type) {
	case *TokenAcquire:
		v.token(x.Token)
	case *TokenRelease:
		if !stmt {
			v.errf("%s.Release as a value: it has no result", x.Token)
		}
		v.token(x.Token)
		v.exprOf(x.ID, Int)
	case *TokenSize:
		v.token(x.Token)
	default:
		return false
	}
	return true
}

// bindToken binds a, the argument of token parameter p.
func (m *Machine) bindToken(p *Param, a any) error {
	t, ok := a.(Token)
	if !ok || t == nil {
		return fmt.Errorf("kernelir: kernel %s: argument %s is %T, want a token (Size, Acquire, Release)", m.k.Name, p.Name, a)
	}
	if m.tokens == nil {
		m.tokens = map[string]Token{}
	}
	m.tokens[p.Name] = t
	return nil
}

// tokenExpr runs the token node e, and reports whether it was one. A
// panic of the token's Release (an id not held) is an error wrapping
// ErrRun, as the host kernel's panic.
func (x *exec) tokenExpr(e Expr) (uint64, bool) {
	switch e := e.(type) {
	case *TokenAcquire:
		var id int
		tokenCall(e.Token+".Acquire()", func() { id = x.m.tokens[e.Token].Acquire() })
		return uint64(id), true
	case *TokenRelease:
		id := int(x.expr(e.ID))
		t := x.m.tokens[e.Token]
		call := fmt.Sprintf("%s.Release(%d)", e.Token, id)
		if id < 0 || id >= t.Size() {
			runErr("%s: id outside [0, %d)", call, t.Size())
		}
		tokenCall(call, func() { t.Release(id) })
		return 0, true
	case *TokenSize:
		return uint64(x.m.tokens[e.Token].Size()), true
	}
	return 0, false
}

// tokenCall calls f, a call of a token's method, and makes its panic an
// error wrapping ErrRun that names call.
func tokenCall(call string, f func()) {
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprint(r)
			// The token's own message repeats the call: keep what follows.
			if i := strings.Index(msg, "): "); i >= 0 {
				msg = msg[i+3:]
			}
			runErr("%s: %s", call, msg)
		}
	}()
	f()
}
