// Package kernelcheck tells whether the generated code of a package's Go
// kernels (the *_kernels_gen.go file that kokkos-kernelgen writes) is up
// to date with their source. A launch does not check it: binaries never
// read source files. Call Generated from a test of each package with
// kernels, so that go test fails where go generate was forgotten:
//
//	func TestKernelsGenerated(t *testing.T) { kernelcheck.Generated(t) }
//
// It compares the hash that go generate recorded for each kernel with the
// hash of the kernel's source (and its helpers') now, and finds the
// kernels marked //kokkos:kernel that have no generated code. The exact
// check, byte for byte, is kokkos-kernelgen -check, which CI runs as go
// generate followed by a diff.
package kernelcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend/kernelir"
	"github.com/gokkos/kokkos/internal/kernelsrc"
	"github.com/gokkos/kokkos/kernel"
)

// Generated fails t, with the errors of Check, when the generated kernels
// of the package in the current directory (a test's package) are not up
// to date with its source.
func Generated(t testing.TB) {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(dir); err != nil {
		t.Error(err)
	}
}

// Check returns nil when the generated file of the package in dir is up
// to date with the source of its kernels, or an error that wraps
// kernel.ErrStale (a kernel or a helper changed, or went away, after go
// generate ran) or kernel.ErrNotGenerated (a kernel has no generated code)
// and names each kernel: run go generate in dir.
func Check(dir string) error {
	funcs, err := kernelsrc.Funcs(dir)
	if err != nil {
		return err
	}
	marked, err := kernels(dir)
	if err != nil {
		return err
	}
	gen, err := specs(dir)
	if err != nil {
		return err
	}
	var stale, missing []string
	for _, s := range gen {
		h, err := kernelsrc.Hash(funcs, s.funcs)
		switch {
		case err != nil:
			stale = append(stale, fmt.Sprintf("%s: %v", s.name, err))
		case h != s.hash:
			stale = append(stale, fmt.Sprintf("%s: its source, or a helper's, changed", s.name))
		case s.ir != "":
			// A description this module's backends cannot read (of
			// another version of package kernelir) is stale too.
			if _, err := kernelir.Parse(s.ir); err != nil {
				stale = append(stale, fmt.Sprintf("%s: its description does not read here: %v", s.name, err))
			}
		}
		delete(marked, s.name)
	}
	for name := range marked {
		missing = append(missing, name)
	}
	sort.Strings(stale)
	sort.Strings(missing)
	switch {
	case len(stale) > 0:
		return fmt.Errorf("%w in %s, after go generate ran: %s; run go generate there", kernel.ErrStale, dir, strings.Join(stale, "; "))
	case len(missing) > 0:
		return fmt.Errorf("%w in %s for the kernels %s: run go generate there (with //go:generate go run github.com/gokkos/kokkos/cmd/kokkos-kernelgen)",
			kernel.ErrNotGenerated, dir, strings.Join(missing, ", "))
	}
	return nil
}

// kernels returns the names of the functions of dir's source marked
// //kokkos:kernel that are kernels, not helpers: a kernel returns nothing
// and takes an int first.
func kernels(dir string) (map[string]bool, error) {
	files, err := kernelsrc.Files(dir)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, n := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil || fd.Doc == nil || !marked(fd.Doc) {
				continue
			}
			ps := fd.Type.Params.List
			if fd.Type.Results != nil || len(ps) == 0 {
				continue
			}
			if id, ok := ps[0].Type.(*ast.Ident); ok && id.Name == "int" {
				names[fd.Name.Name] = true
			}
		}
	}
	return names, nil
}

func marked(doc *ast.CommentGroup) bool {
	args, _ := kernelsrc.Directive(doc)
	return args != nil
}

// spec is what the generated file records of one kernel.
type spec struct {
	name, hash, ir string
	funcs          []string
}

// specs reads the kernel.Spec literals of dir's generated file; none when
// there is no such file.
func specs(dir string) ([]spec, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []spec
	fset := token.NewFileSet()
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), kernelsrc.GeneratedSuffix) {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		consts := stringConsts(f)
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			var s spec
			for _, el := range lit.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				key, _ := kv.Key.(*ast.Ident)
				switch {
				case key == nil:
				case key.Name == "Func":
					if id, ok := kv.Value.(*ast.Ident); ok {
						s.name = id.Name
					}
				case key.Name == "Hash":
					s.hash = unquote(kv.Value)
				case key.Name == "IR":
					s.ir = concat(kv.Value, consts)
				case key.Name == "Funcs":
					if l, ok := kv.Value.(*ast.CompositeLit); ok {
						for _, x := range l.Elts {
							s.funcs = append(s.funcs, unquote(x))
						}
					}
				}
			}
			if s.name != "" && s.funcs != nil {
				out = append(out, s)
				return false
			}
			return true
		})
	}
	return out, nil
}

// stringConsts returns the string constants declared in f by a literal.
func stringConsts(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, sp := range gd.Specs {
			vs := sp.(*ast.ValueSpec)
			for n, id := range vs.Names {
				if n < len(vs.Values) {
					out[id.Name] = concat(vs.Values[n], nil)
				}
			}
		}
	}
	return out
}

// concat evaluates a sum of string literals and constants of consts.
func concat(e ast.Expr, consts map[string]string) string {
	switch e := e.(type) {
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return concat(e.X, consts) + concat(e.Y, consts)
		}
	case *ast.Ident:
		return consts[e.Name]
	case *ast.ParenExpr:
		return concat(e.X, consts)
	}
	return unquote(e)
}

func unquote(e ast.Expr) string {
	if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
		s, _ := strconv.Unquote(b.Value)
		return s
	}
	return ""
}
