package main

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// ScatterViews. A kernel may take parameters of type
// containers.ScatterView1 to ScatterView6 (param.scatter), passed by value
// at the launch. Its body may only take an accessor,
//
//	a := sv.Access()
//
// and call the accessor's updates a.Add, a.Sub, a.Mul, a.Div and a.Update
// (or sv.Access().Add(...) directly), those that fit the ScatterView's
// operation (Add and Sub a ScatterSum, Mul and Div a ScatterProd; Update
// any). Anything else done with a ScatterView or an accessor (a copy, a
// method value, Release, another method) is refused. The host kernel
// takes one accessor per chunk, which holds an id of a duplicated
// ScatterView's token for the chunk (host_scatter.go); the description
// has the ScatterView as a view written by atomic updates (ir_scatter.go).

// scatterInfo is what a ScatterView parameter's type says: the view's
// rank and element type and the operation ("ScatterSum", "ScatterProd",
// "ScatterMin", "ScatterMax").
type scatterInfo struct {
	rank int
	elem *types.Basic
	op   string
}

// scatterType reports whether t is containers.ScatterViewN[Op, E] for N
// in 1..6 and E a fixed-size number type.
func scatterType(t types.Type) (*scatterInfo, bool) {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != containersPath {
		return nil, false
	}
	nm := n.Obj().Name()
	if len(nm) != len("ScatterView1") || !strings.HasPrefix(nm, "ScatterView") || nm[11] < '1' || nm[11] > '6' {
		return nil, false
	}
	args := n.TypeArgs()
	if args == nil || args.Len() != 2 {
		return nil, false
	}
	op, ok := types.Unalias(args.At(0)).(*types.Named)
	if !ok {
		return nil, false
	}
	e, ok := numericType(args.At(1))
	if !ok {
		return nil, false
	}
	return &scatterInfo{rank: int(nm[11] - '0'), elem: e, op: op.Obj().Name()}, true
}

// isScatterAccessType reports whether t is containers.ScatterAccessN.
func isScatterAccessType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == containersPath && strings.HasPrefix(n.Obj().Name(), "ScatterAccess")
}

// scatterParam returns the parameter v of k when it is a ScatterView,
// or an error for a scan kernel, whose body runs twice for an index.
func (p *pkgInfo) scatterParam(k *kernelFunc, v *types.Var) (*param, error) {
	si, ok := scatterType(v.Type())
	if !ok {
		return nil, nil
	}
	if k.pattern == patScan {
		return nil, p.errorf(v.Pos(), k.name, "parameter %s: a scan kernel takes no ScatterView: its body runs twice for an index", v.Name())
	}
	return &param{v: v, name: v.Name(), scatter: si}, nil
}

// scatterRecv returns the ScatterView parameter whose accessor x is: an
// accessor local (a of a := sv.Access()) or sv.Access() itself.
func (p *pkgInfo) scatterRecv(k *kernelFunc, x ast.Expr) *param {
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		if v, ok := p.info.Uses[x].(*types.Var); ok {
			return k.scatterAcc[v]
		}
	case *ast.CallExpr:
		if pr, m, ok := p.isScatterMethod(k, x); ok && m == "Access" && len(x.Args) == 0 {
			return pr
		}
	}
	return nil
}

// isScatterMethod reports whether call is sv.M(...) on a ScatterView
// parameter of k, returning the parameter and M.
func (p *pkgInfo) isScatterMethod(k *kernelFunc, call *ast.CallExpr) (*param, string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil, "", false
	}
	obj := p.info.Uses[id]
	for _, pr := range k.params {
		if pr.scatter != nil && pr.v == obj {
			return pr, sel.Sel.Name, true
		}
	}
	return nil, "", false
}

// scatterUpdate reports whether call is an update of an accessor:
// a.M(indices..., v) or sv.Access().M(...), returning the ScatterView
// parameter and M.
func (p *pkgInfo) scatterUpdate(k *kernelFunc, call *ast.CallExpr) (*param, string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	if pr := p.scatterRecv(k, sel.X); pr != nil {
		return pr, sel.Sel.Name, true
	}
	return nil, "", false
}

// scatterFits reports whether accessor method m fits operation op, and
// if not, which methods do.
func scatterFits(op, m string) (bool, string) {
	switch m {
	case "Add", "Sub":
		return op == "ScatterSum", scatterMethods(op)
	case "Mul", "Div":
		return op == "ScatterProd", scatterMethods(op)
	case "Update":
		return true, ""
	}
	return false, scatterMethods(op)
}

func scatterMethods(op string) string {
	switch op {
	case "ScatterSum":
		return "call Add, Sub or Update"
	case "ScatterProd":
		return "call Mul, Div or Update"
	}
	return "call Update"
}

// scatterAssign checks an assignment that involves an accessor: only
// a := sv.Access() is allowed, which makes a the accessor of sv. It
// reports whether s is such an assignment.
func (c *checker) scatterAssign(s *ast.AssignStmt) bool {
	involved := false
	for _, e := range append(append([]ast.Expr(nil), s.Lhs...), s.Rhs...) {
		if t := c.p.info.TypeOf(e); t != nil && isScatterAccessType(t) {
			involved = true
		}
	}
	if !involved {
		return false
	}
	if len(s.Lhs) == 1 && len(s.Rhs) == 1 && s.Tok == token.DEFINE {
		id, _ := s.Lhs[0].(*ast.Ident)
		call, _ := ast.Unparen(s.Rhs[0]).(*ast.CallExpr)
		if id != nil && call != nil {
			v, _ := c.p.info.Defs[id].(*types.Var)
			if pr, m, ok := c.p.isScatterMethod(c.k, call); ok && m == "Access" && v != nil {
				if c.k.scatterAcc == nil {
					c.k.scatterAcc = map[*types.Var]*param{}
				}
				c.k.scatterAcc[v] = pr
				return true
			}
		}
	}
	c.refuse(s.Pos(), "this assignment of a ScatterView accessor", "declare each accessor once, a := sv.Access(), and call its updates")
	return true
}

// scatterCall checks a call of a method of a ScatterView parameter or of
// an accessor, and reports whether x is one.
func (c *checker) scatterCall(x *ast.CallExpr) bool {
	if pr, m, ok := c.p.scatterUpdate(c.k, x); ok {
		switch m {
		case "Add", "Sub", "Mul", "Div", "Update":
			if fits, instead := scatterFits(pr.scatter.op, m); !fits {
				c.refuse(x.Pos(), m+" of the "+pr.scatter.op+" ScatterView "+pr.name, instead)
				return true
			}
			c.exprs(x.Args)
			pr.write = true
		case "Release":
			c.refuse(x.Pos(), "Release of an accessor", "leave it out: the kernel gives its accessors back itself")
		default:
			c.refuse(x.Pos(), "a call of the accessor's "+m, scatterMethods(pr.scatter.op))
		}
		return true
	}
	if pr, m, ok := c.p.isScatterMethod(c.k, x); ok {
		if m == "Access" {
			c.refuse(x.Pos(), pr.name+".Access() as a value", "declare a := "+pr.name+".Access() and call its updates")
		} else {
			c.refuse(x.Pos(), "a call of "+pr.name+"."+m, "call only Access, then the accessor's updates")
		}
		return true
	}
	return false
}

// scatterIdent refuses a ScatterView parameter or an accessor used as a
// value, and reports whether obj is one.
func (c *checker) scatterIdent(x *ast.Ident, obj *types.Var) bool {
	if pr := c.param(obj); pr != nil && pr.scatter != nil {
		c.refuse(x.Pos(), "the ScatterView "+obj.Name()+" as a value", "call "+obj.Name()+".Access() and the accessor's updates")
		return true
	}
	if pr := c.k.scatterAcc[obj]; pr != nil {
		c.refuse(x.Pos(), "the accessor "+obj.Name()+" as a value", scatterMethods(pr.scatter.op))
		return true
	}
	return false
}
