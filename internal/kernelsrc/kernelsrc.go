// Package kernelsrc hashes the Go source of kernels: kokkos-kernelgen
// records the hash in the code it generates, and package kernelcheck
// compares it with the source, in a package's tests, to tell a kernel
// whose body changed after go generate ran. Binaries never read source:
// package kernel does not import this one.
package kernelsrc

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNoSource is matched by the error of Files and Funcs when dir cannot
// be read.
var ErrNoSource = errors.New("no source")

// GeneratedSuffix ends the name of the file kokkos-kernelgen writes.
const GeneratedSuffix = "_kernels_gen.go"

// Files returns, sorted, the names of the files of the package in dir that
// kernels are read from: its .go files of the default build context, as
// go build sees them, less tests and the generated *_kernels_gen.go file.
func Files(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoSource, err)
	}
	var files []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, GeneratedSuffix) {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, n); err != nil || !ok {
			continue
		}
		files = append(files, n)
	}
	sort.Strings(files)
	return files, nil
}

// Funcs returns the source text of every top-level function of the files
// of Files(dir), by name. A function's text runs from its func keyword to
// its closing brace; comments before it do not count, but for the
// arguments of its directive (//kokkos:kernel nocheck), which come first.
// A method is named T.M (its receiver's base type T), and the declaration
// of a type T (its specification, from the name to the end of the type)
// "type T".
func Funcs(dir string) (map[string][]byte, error) {
	files, err := Files(dir)
	if err != nil {
		return nil, err
	}
	text := map[string][]byte{}
	fset := token.NewFileSet()
	for _, n := range files {
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, n, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			tf := fset.File(d.Pos())
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
				for _, s := range gd.Specs {
					ts := s.(*ast.TypeSpec)
					text["type "+ts.Name.Name] = src[tf.Offset(ts.Pos()):tf.Offset(ts.End())]
				}
				continue
			}
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil {
				if len(fd.Recv.List) != 1 {
					continue
				}
				rt := fd.Recv.List[0].Type
				if st, ok := rt.(*ast.StarExpr); ok {
					rt = st.X
				}
				id, ok := rt.(*ast.Ident)
				if !ok {
					continue
				}
				name = id.Name + "." + name
			}
			t := src[tf.Offset(fd.Pos()):tf.Offset(fd.End())]
			// The directive's arguments change the generated code:
			// they count, when there are any.
			if args, _ := Directive(fd.Doc); len(args) > 0 {
				t = append([]byte(Marker+" "+strings.Join(args, " ")+"\n"), t...)
			}
			text[name] = t
		}
	}
	return text, nil
}

// Hash returns the hash of the texts of the functions names (a kernel,
// then the helpers it calls) among funcs (from Funcs).
func Hash(funcs map[string][]byte, names []string) (string, error) {
	h := sha256.New()
	for _, n := range names {
		t, ok := funcs[n]
		if !ok {
			return "", fmt.Errorf("function %s not found", n)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(t))
		h.Write(t)
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// Marker is the directive that marks a kernel or a helper in its doc
// comment, on a line of its own, alone or followed by arguments after a
// space: //kokkos:kernel nocheck.
const Marker = "//kokkos:kernel"

// Directive returns the arguments of the directive in doc (an empty
// slice for none) and its comment, or nil, nil when doc holds none.
func Directive(doc *ast.CommentGroup) ([]string, *ast.Comment) {
	if doc == nil {
		return nil, nil
	}
	for _, c := range doc.List {
		t := strings.TrimSpace(c.Text)
		if t == Marker {
			return []string{}, c
		}
		if rest, ok := strings.CutPrefix(t, Marker); ok && (rest[0] == ' ' || rest[0] == '\t') {
			return strings.Fields(rest), c
		}
	}
	return nil, nil
}
