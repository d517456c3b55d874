package main

import (
	"go/importer"
	"go/token"
	"go/types"
	"sync"
)

// sources reads and type-checks, from source, the packages that the
// packages this process checks import, once for the whole process: the
// first load pays for the kokkos package and its dependencies (a go list
// per module path and some 40,000 lines), every later one finds them
// checked. go generate loads one package per process; the tests load
// hundreds. Its file set is the one every load parses into, so that every
// position, the kernels' and the imported objects', resolves in it.
var sources struct {
	once sync.Once
	fset *token.FileSet
	mu   sync.Mutex // held while the importer runs: it is not safe for concurrent use
	imp  types.ImporterFrom
}

// sourceSet returns the file set shared by every load of this process.
func sourceSet() *token.FileSet {
	sources.once.Do(func() {
		sources.fset = token.NewFileSet()
		sources.imp = importer.ForCompiler(sources.fset, "source", nil).(types.ImporterFrom)
	})
	return sources.fset
}

// sourceImporter returns the importer shared by every load of this
// process; each import holds a lock.
func sourceImporter() types.ImporterFrom {
	sourceSet()
	return lockedImporter{}
}

type lockedImporter struct{}

func (lockedImporter) Import(path string) (*types.Package, error) {
	return lockedImporter{}.ImportFrom(path, "", 0)
}

func (lockedImporter) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	sources.mu.Lock()
	defer sources.mu.Unlock()
	return sources.imp.ImportFrom(path, dir, mode)
}
