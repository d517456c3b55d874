package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"

	"github.com/gokkos/kokkos/backend/kernelir"
)

// The description of random's pools (check_random.go). A pool parameter
// is two parameters, its token and its states, which package kernel binds
// from the pool's KernelPieces (randomTok, randomStates); a generator g is
// a local of struct kokkosRandomXorShift64 (or ...1024) of randomSource:
//
//	g := pool.GetState()  (assign ((new g S)) ((call kokkosRandomLoad64 states (acquire tok))))
//	x := g.Drand()        (call gkm_kokkosRandomXorShift64_Drand (addr g))
//	pool.FreeState(g)     (call kokkosRandomStore64 states g), then (release tok (field g I))
//
// The helpers of randomSource join the package's when one of its kernels
// takes a pool.

// randomTok and randomStates name the pieces of pool parameter name: the
// checker refuses Go names that start with gk, so they are the kernel's
// own.
func randomTok(name string) string    { return "gkrtok_" + name }
func randomStates(name string) string { return "gkrstates_" + name }

// randomIR is the description of randomSource: its helpers and its two
// generator structs, by kind.
type randomIR struct {
	helpers []*kernelir.Func
	structs map[string]kernelir.Type
}

// usesRandom reports whether a kernel of p takes a pool.
func (p *pkgInfo) usesRandom() bool {
	for _, k := range p.kernels {
		for _, pr := range k.params {
			if pr.pool != "" {
				return true
			}
		}
	}
	return false
}

// randomDesc describes randomSource once for p, type-checked against the
// kokkos and math packages p's imports reach.
func (p *pkgInfo) randomDesc() (*randomIR, error) {
	if p.random != nil {
		return p.random, nil
	}
	src := randomSource
	for _, g := range [][2]string{{"kokkosRandomXorShift64", "2685821657736338717"}, {"kokkosRandomXorShift1024", "1181783497276652981"}} {
		src += strings.NewReplacer("GEN", g[0], "MUL", g[1]).Replace(randomDraws)
	}
	fset := sourceSet()
	f, err := parser.ParseFile(fset, "kokkosrandom.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("the generators' description: %w", err)
	}
	info := &types.Info{
		Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{},
	}
	conf := types.Config{Importer: reachedImporter{p.pkg, sourceImporter()}}
	pkg, err := conf.Check("kokkosrandom", fset, []*ast.File{f}, info)
	if err != nil {
		return nil, fmt.Errorf("the generators' description: %w", err)
	}
	rp := &pkgInfo{fset: fset, pkg: pkg, info: info, files: []*ast.File{f}, dir: p.dir, byObj: map[*types.Func]*kernelFunc{}}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !marked(fd) {
			continue
		}
		k, err := rp.classify(fd)
		if err != nil {
			return nil, fmt.Errorf("the generators' description: %w", err)
		}
		rp.kernels = append(rp.kernels, k)
		rp.byObj[k.obj] = k
	}
	if err := rp.checkBodies(); err != nil {
		return nil, fmt.Errorf("the generators' description: %w", err)
	}
	helpers, err := rp.buildHelpers()
	if err != nil {
		return nil, fmt.Errorf("the generators' description: %w", err)
	}
	r := &randomIR{helpers: helpers, structs: map[string]kernelir.Type{}}
	b := &irBuilder{p: rp, k: rp.kernels[0]}
	for _, kind := range []string{"XorShift64", "XorShift1024"} {
		obj := pkg.Scope().Lookup("kokkosRandom" + kind)
		r.structs[kind] = b.goType(obj.Pos(), obj.Type())
	}
	p.random = r
	return r, nil
}

// reachedImporter imports the packages that pkg's imports reach, and
// others with next.
type reachedImporter struct {
	pkg  *types.Package
	next types.Importer
}

func (r reachedImporter) Import(path string) (*types.Package, error) {
	seen := map[*types.Package]bool{}
	var find func(p *types.Package) *types.Package
	find = func(p *types.Package) *types.Package {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if p.Path() == path {
			return p
		}
		for _, q := range p.Imports() {
			if f := find(q); f != nil {
				return f
			}
		}
		return nil
	}
	if f := find(r.pkg); f != nil {
		return f, nil
	}
	return r.next.Import(path)
}

// randomParams describes pool parameter pr as its two pieces.
func randomParams(pr *param) []kernelir.Param {
	return []kernelir.Param{
		{Name: randomTok(pr.name), Token: true},
		{Name: randomStates(pr.name), Type: kernelir.Uint64, Rank: 2, Write: true},
	}
}

// randomIR returns the description of randomSource, or fails at pos.
func (b *irBuilder) randomIR(pos token.Pos) *randomIR {
	r, err := b.p.randomDesc()
	if err != nil {
		b.fail(pos, "%v", err)
	}
	return r
}

// randomAssign describes g := pool.GetState(); ok is false for other
// statements.
func (b *irBuilder) randomAssign(s *ast.AssignStmt) (kernelir.Stmt, bool) {
	id, pr, ok := b.p.getState(b.k, s)
	if !ok {
		return nil, false
	}
	r := b.randomIR(s.Pos())
	load := &kernelir.Call{Func: "kokkosRandomLoad" + strings.TrimPrefix(pr.pool, "XorShift"), Args: []kernelir.Expr{
		&kernelir.Ref{Name: randomStates(pr.name)}, &kernelir.TokenAcquire{Token: randomTok(pr.name)},
	}}
	return &kernelir.Assign{
		Targets: []kernelir.Target{{Kind: kernelir.TargetNew, Name: id.Name, T: r.structs[pr.pool]}},
		Values:  []kernelir.Expr{load},
	}, true
}

// randomStmt describes pool.FreeState(g); ok is false for other calls.
func (b *irBuilder) randomStmt(c *ast.CallExpr) (kernelir.Stmt, bool) {
	pr, m, ok := b.p.poolCall(b.k, c)
	if !ok {
		return nil, false
	}
	if m != "FreeState" {
		b.fail(c.Pos(), "pool method %s has no description", m)
	}
	g := ast.Unparen(c.Args[0]).(*ast.Ident).Name
	store := &kernelir.Call{Func: "kokkosRandomStore" + strings.TrimPrefix(pr.pool, "XorShift"), Args: []kernelir.Expr{
		&kernelir.Ref{Name: randomStates(pr.name)}, &kernelir.Ref{Name: g},
	}}
	// The state is stored before the index is released (which fences):
	// the next holder reads it.
	return &kernelir.Block{Body: []kernelir.Stmt{
		&kernelir.ExprStmt{X: store},
		&kernelir.ExprStmt{X: &kernelir.TokenRelease{Token: randomTok(pr.name), ID: &kernelir.Sel{X: &kernelir.Ref{Name: g}, Name: "I"}}},
	}}, true
}

// randomCall describes a draw g.M(args); ok is false for other calls.
func (b *irBuilder) randomCall(c *ast.CallExpr) (kernelir.Expr, bool) {
	id, kind, m, ok := b.p.genCall(c)
	if !ok {
		return nil, false
	}
	b.randomIR(c.Pos())
	sel := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	sig := b.p.info.Selections[sel].Obj().Type().(*types.Signature)
	call := &kernelir.Call{Func: "gkm_kokkosRandom" + kind + "_" + m, Args: []kernelir.Expr{&kernelir.Addr{Name: id.Name}}}
	for n, a := range c.Args {
		call.Args = append(call.Args, b.exprAs(a, b.irType(a.Pos(), basicOf(sig.Params().At(n).Type()))))
	}
	return call, true
}

// withRandomHelpers returns p's helpers fs, and after them those of
// randomSource when a kernel of p takes a pool.
func (p *pkgInfo) withRandomHelpers(fs []*kernelir.Func) ([]*kernelir.Func, error) {
	if !p.usesRandom() {
		return fs, nil
	}
	r, err := p.randomDesc()
	if err != nil {
		return fs, err
	}
	return append(fs, r.helpers...), nil
}
