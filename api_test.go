package kokkos

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoInternalAliases checks that the package declares no exported alias
// of a type from an internal package: go doc and pkg.go.dev do not list an
// alias's methods, and users read the API here.
func TestNoInternalAliases(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		internal := map[string]bool{}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			local := filepath.Base(path)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			internal[local] = strings.Contains(path, "/internal/")
		}
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok || !ts.Assign.IsValid() || !ts.Name.IsExported() {
				return true
			}
			typ := ts.Type
			if ix, ok := typ.(*ast.IndexExpr); ok {
				typ = ix.X
			}
			if sel, ok := typ.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] {
					t.Errorf("%s: %s is an alias of %s.%s, a type of an internal package", fset.Position(ts.Pos()), ts.Name.Name, id.Name, sel.Sel.Name)
				}
			}
			return true
		})
	}
}
