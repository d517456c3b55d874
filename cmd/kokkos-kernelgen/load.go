package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"github.com/gokkos/kokkos/internal/kernelsrc"
)

// kokkosPath is the import path of the package whose views kernels take.
const kokkosPath = "github.com/gokkos/kokkos"

// directive marks a kernel or helper in the function's doc comment.
const directive = "//kokkos:kernel"

// loadDir parses and type-checks the package in dir (the files of
// kernelsrc.Files: those go build sees, less tests and the file this
// command generates) and finds its kernels.
func loadDir(dir string) (*pkgInfo, error) {
	names, err := kernelsrc.Files(dir)
	if err != nil {
		return nil, err
	}
	fset := sourceSet()
	var files []*ast.File
	text := map[string][]byte{}
	for _, n := range names {
		path := filepath.Join(dir, n)
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		text[path] = src
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no Go files", dir)
	}
	p, err := check(fset, dir, files)
	if err != nil {
		return nil, err
	}
	p.text = text
	return p, nil
}

// loadSource is loadDir for a package given as file contents, written to a
// temporary directory under dir (which must lie in a module that can import
// the kokkos package) and removed after loading. Tests use it.
func loadSource(dir string, files map[string]string) (*pkgInfo, error) {
	tmp, err := writeSource(dir, files)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	return loadDir(tmp)
}

// writeSource writes files to a new temporary directory under dir and
// returns its path.
func writeSource(dir string, files map[string]string) (string, error) {
	tmp, err := os.MkdirTemp(dir, "kernelgen")
	if err != nil {
		return "", err
	}
	for n, src := range files {
		if err := os.WriteFile(filepath.Join(tmp, n), []byte(src), 0o644); err != nil {
			os.RemoveAll(tmp)
			return "", err
		}
	}
	return tmp, nil
}

// check type-checks files and finds the kernels.
func check(fset *token.FileSet, dir string, files []*ast.File) (*pkgInfo, error) {
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Implicits:  map[ast.Node]types.Object{},
		Scopes:     map[ast.Node]*types.Scope{},
	}
	var errs []string
	conf := types.Config{
		Importer: sourceImporter(),
		Error: func(err error) {
			if len(errs) < 10 {
				errs = append(errs, err.Error())
			}
		},
	}
	pkg, _ := conf.Check(files[0].Name.Name, fset, files, info)
	if len(errs) > 0 {
		return nil, fmt.Errorf("the package does not compile:\n\t%s", strings.Join(errs, "\n\t"))
	}
	p := &pkgInfo{fset: fset, pkg: pkg, info: info, files: files, dir: dir, byObj: map[*types.Func]*kernelFunc{}}
	var shapeErrs []string
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || !marked(fd) {
				continue
			}
			k, err := p.classify(fd)
			if err == nil {
				err = p.parseDirective(k)
			}
			if err != nil {
				shapeErrs = append(shapeErrs, err.Error())
				continue
			}
			p.kernels = append(p.kernels, k)
			p.byObj[k.obj] = k
		}
	}
	if len(shapeErrs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(shapeErrs, "\n"))
	}
	return p, nil
}

// marked reports whether fd's doc comment holds the directive on a line of
// its own, with or without arguments (directiveArgs).
func marked(fd *ast.FuncDecl) bool {
	args, _ := directiveArgs(fd)
	return args != nil
}

// errorf formats an error at pos, naming the kernel.
func (p *pkgInfo) errorf(pos token.Pos, kernel string, format string, args ...any) error {
	return fmt.Errorf("%s: kernel %s: %s", p.fset.Position(pos), kernel, fmt.Sprintf(format, args...))
}

// classify works out the shape of a marked function.
func (p *pkgInfo) classify(fd *ast.FuncDecl) (*kernelFunc, error) {
	name := fd.Name.Name
	obj, _ := p.info.Defs[fd.Name].(*types.Func)
	if obj == nil {
		return nil, p.errorf(fd.Pos(), name, "not a function")
	}
	sig := obj.Type().(*types.Signature)
	if sig.Recv() != nil && sig.RecvTypeParams() != nil {
		return nil, p.errorf(fd.Pos(), name, "a method of a generic type cannot be a helper")
	}
	if sig.TypeParams() != nil {
		return nil, p.errorf(fd.Pos(), name, "a generic function cannot be a kernel; write one per element type")
	}
	if sig.Variadic() {
		return nil, p.errorf(fd.Pos(), name, "a variadic function cannot be a kernel")
	}
	if fd.Body == nil {
		return nil, p.errorf(fd.Pos(), name, "a kernel needs a body")
	}
	k := &kernelFunc{decl: fd, obj: obj, name: name}
	if sig.Recv() != nil {
		var err error
		if k, err = p.recvHelper(fd, obj, sig); err != nil {
			return nil, err
		}
	}
	ps := sig.Params()
	if ps.Len() > 0 && isTeamType(ps.At(0).Type()) {
		return p.classifyTeam(k, sig)
	}
	nIdx := 0
	for nIdx < ps.Len() && types.Identical(ps.At(nIdx).Type(), types.Typ[types.Int]) {
		nIdx++
	}
	if sig.Results().Len() > 0 || nIdx == 0 || k.recv != nil {
		k.helper = true
		for i := range ps.Len() {
			v := ps.At(i)
			if pr, err := p.helperView(k, v); pr != nil || err != nil {
				if err != nil {
					return nil, err
				}
				k.params = append(k.params, pr)
				continue
			}
			b, ok := scalarType(v.Type())
			if !ok && !p.helperParamOK(v.Type()) {
				return nil, p.errorf(v.Pos(), name, "helper parameter %s has type %s; a helper takes scalars (int, int8..int64, uint8..uint64, float32, float64, bool), arrays and structs of them%s", v.Name(), v.Type(), p.localTypeError(v.Type()))
			}
			k.params = append(k.params, &param{v: v, name: v.Name(), elem: b})
		}
		for i := range sig.Results().Len() {
			v := sig.Results().At(i)
			b, ok := scalarType(v.Type())
			if !ok && !p.helperParamOK(v.Type()) {
				return nil, p.errorf(v.Pos(), name, "helper result has type %s; a helper returns scalars, arrays and structs of them%s", v.Type(), p.localTypeError(v.Type()))
			}
			k.results = append(k.results, b)
		}
		return k, nil
	}
	if nIdx > 6 {
		return nil, p.errorf(ps.At(6).Pos(), name, "%d int index parameters; a kernel has 1 to 6 (an MDRangePolicy has rank 2 to 6)", nIdx)
	}
	for i := range nIdx {
		k.index = append(k.index, ps.At(i))
	}
	rest := ps.Len()
	// A scan ends with (acc *T, final bool), a reduction with acc *T.
	if rest >= nIdx+2 && types.Identical(ps.At(rest-1).Type(), types.Typ[types.Bool]) {
		if ptr, ok := ps.At(rest - 2).Type().(*types.Pointer); ok {
			b, ok := numericType(ptr.Elem())
			if !ok {
				return nil, p.errorf(ps.At(rest-2).Pos(), name, "accumulator %s has type %s; it must point to a number", ps.At(rest-2).Name(), ptr)
			}
			k.pattern, k.acc, k.accElem, k.final = patScan, ps.At(rest-2), b, ps.At(rest-1)
			rest -= 2
		}
	}
	if k.acc == nil && rest > nIdx {
		if ptr, ok := ps.At(rest - 1).Type().(*types.Pointer); ok {
			b, ok := scalarType(ptr.Elem())
			if !ok {
				return nil, p.errorf(ps.At(rest-1).Pos(), name, "accumulator %s has type %s; it must point to a number or a bool", ps.At(rest-1).Name(), ptr)
			}
			k.pattern, k.acc, k.accElem = patReduce, ps.At(rest-1), b
			rest--
		}
	}
	if k.pattern == patScan && nIdx != 1 {
		return nil, p.errorf(fd.Pos(), name, "a scan kernel has one index (a RangePolicy), not %d", nIdx)
	}
	for i := nIdx; i < rest; i++ {
		v := ps.At(i)
		if rank, elem, ok := viewType(v.Type()); ok {
			k.params = append(k.params, &param{v: v, name: v.Name(), rank: rank, elem: elem})
			continue
		}
		if b, ok := scalarType(v.Type()); ok {
			k.params = append(k.params, &param{v: v, name: v.Name(), elem: b})
			continue
		}
		if isTokenType(v.Type()) {
			k.params = append(k.params, &param{v: v, name: v.Name(), token: true})
			continue
		}
		if isUMapType(v.Type()) {
			k.params = append(k.params, &param{v: v, name: v.Name(), umap: true})
			continue
		}
		if kind := poolKind(v.Type()); kind != "" {
			k.params = append(k.params, &param{v: v, name: v.Name(), pool: kind})
			continue
		}
		if pr, err := p.scatterParam(k, v); pr != nil || err != nil {
			if err != nil {
				return nil, err
			}
			k.params = append(k.params, pr)
			continue
		}
		if pr, err := p.structParam(k, v); pr != nil || err != nil {
			if err != nil {
				return nil, err
			}
			k.params = append(k.params, pr)
			continue
		}
		return nil, p.errorf(v.Pos(), name, "parameter %s has type %s; a kernel takes views (kokkos.View1 to View6 of fixed-size numbers), scalars (numbers, bool, structs of numbers declared in the package) and unique tokens (kokkos.UniqueToken), then acc *T for a reduction or acc *T, final bool for a scan", v.Name(), v.Type())
	}
	for _, v := range []*types.Var{k.acc, k.final} {
		if v != nil && v.Name() == "_" {
			return nil, p.errorf(v.Pos(), name, "the accumulator and the final flag need names")
		}
	}
	return k, nil
}

// scalarType returns t as a basic type a kernel's scalar may have.
func scalarType(t types.Type) (*types.Basic, bool) {
	if types.Identical(t, types.Typ[types.Bool]) {
		return types.Typ[types.Bool], true
	}
	if types.Identical(t, types.Typ[types.Int]) {
		return types.Typ[types.Int], true
	}
	return numericType(t)
}

// numericType returns t as a fixed-size number type: int8..int64,
// uint8..uint64, float32, float64. Named types are refused: the kernel's
// types must be spelled out.
func numericType(t types.Type) (*types.Basic, bool) {
	b, ok := t.(*types.Basic)
	if !ok || t != types.Unalias(t) {
		return nil, false
	}
	switch b.Kind() {
	case types.Int8, types.Int16, types.Int32, types.Int64,
		types.Uint8, types.Uint16, types.Uint32, types.Uint64,
		types.Float32, types.Float64:
		return b, true
	}
	return nil, false
}

// viewType reports whether t is kokkos.ViewN[E] for N in 1..6 and E a
// fixed-size number type.
func viewType(t types.Type) (rank int, elem *types.Basic, ok bool) {
	n, isNamed := t.(*types.Named)
	if !isNamed || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != kokkosPath {
		return 0, nil, false
	}
	nm := n.Obj().Name()
	if len(nm) != 5 || !strings.HasPrefix(nm, "View") || nm[4] < '1' || nm[4] > '6' {
		return 0, nil, false
	}
	args := n.TypeArgs()
	if args == nil || args.Len() != 1 {
		return 0, nil, false
	}
	e, ok := numericType(args.At(0))
	if !ok {
		return 0, nil, false
	}
	return int(nm[4] - '0'), e, true
}

// isViewMethod reports whether call is v.M(...) on a view parameter or a
// scratch view of k, returning the parameter and M.
func (p *pkgInfo) isViewMethod(k *kernelFunc, call *ast.CallExpr) (*param, string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok {
		return nil, "", false
	}
	obj := p.info.Uses[id]
	for _, pr := range k.params {
		if pr.isView() && pr.v == obj {
			return pr, sel.Sel.Name, true
		}
	}
	for _, sv := range k.scratch {
		if sv.v == obj {
			return sv.param, sel.Sel.Name, true
		}
	}
	return nil, "", false
}

// calledFunc returns the function a call calls by name (a helper, a math
// or kokkos function, a builtin), or nil.
func (p *pkgInfo) calledFunc(call *ast.CallExpr) types.Object {
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return p.info.Uses[f]
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			if _, isPkg := p.info.Uses[x].(*types.PkgName); isPkg {
				return p.info.Uses[f.Sel]
			}
		}
	}
	return nil
}
