// Package kernelsrc hashes the Go source of kernels: kokkos-kernelgen
// records the hash in the code it generates, and package kernel compares
// it with the source on disk, when there is one, to tell a kernel whose
// body changed after go generate ran.
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

// Hash returns the hash of the source text of the top-level functions
// names (a kernel, then the helpers it calls) of the package in dir: the
// .go files of the default build context, less tests and the generated
// *_kernels_gen.go files. Each function's text runs from its func keyword
// to its closing brace; comments before it do not count.
func Hash(dir string, names []string) (string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoSource, err)
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
	text := map[string][]byte{}
	fset := token.NewFileSet()
	for _, n := range files {
		src, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return "", err
		}
		f, err := parser.ParseFile(fset, n, src, parser.SkipObjectResolution)
		if err != nil {
			return "", err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			tf := fset.File(fd.Pos())
			text[fd.Name.Name] = src[tf.Offset(fd.Pos()):tf.Offset(fd.End())]
		}
	}
	h := sha256.New()
	for _, n := range names {
		t, ok := text[n]
		if !ok {
			return "", fmt.Errorf("function %s not found in %s", n, dir)
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(t))
		h.Write(t)
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// ErrNoSource is matched by Hash's error when dir cannot be read.
var ErrNoSource = errors.New("no source")

// GeneratedSuffix ends the name of the file kokkos-kernelgen writes.
const GeneratedSuffix = "_kernels_gen.go"
