package main

import (
	"go/ast"
	"go/token"
	"go/types"
)

// The model of a package's kernels, shared by the checker (check.go), the
// host emitter (host.go) and the description's builder (ir.go). The loader
// (load.go) fills it from go/parser and go/types; the checker then refuses
// anything outside the subset, so the emitters may assume a checked body.

// pkgInfo is one package being generated.
type pkgInfo struct {
	fset    *token.FileSet
	pkg     *types.Package
	info    *types.Info
	files   []*ast.File
	dir     string            // the package's directory
	text    map[string][]byte // the files' contents, by the name fset knows them by
	kernels []*kernelFunc     // every //kokkos:kernel function, in source order
	byObj   map[*types.Func]*kernelFunc

	viewPasses []viewPass // views given to helpers' view parameters (host_helpers.go)

	random *randomIR // the description of random's generators, once (ir_random.go)
}

// pattern is the parallel pattern a kernel is launched with.
type pattern uint8

const (
	patFor    pattern = iota // func(i int, views and scalars...)
	patReduce                // func(i int, views and scalars..., acc *T)
	patScan                  // func(i int, views and scalars..., acc *T, final bool)
)

// kernelFunc is one //kokkos:kernel function.
//
// A kernel's first parameters of type int are its indices: one for a
// RangePolicy, 2 to 6 for an MDRangePolicy. Then come views (View1 to
// View6 of the kokkos package, element types int8..int64, uint8..uint64,
// float32, float64), scalars (those types, bool, and int) and unique
// tokens (kokkos.UniqueToken, check_token.go), and, for a
// reduction, the accumulator acc *T last, or, for a scan, acc *T and
// final bool last. A kernel has no results.
//
// A helper is a //kokkos:kernel function that has results, or no leading
// int parameter: kernels call it; it takes and returns scalars only.
type kernelFunc struct {
	decl    *ast.FuncDecl
	obj     *types.Func
	name    string // the Go name
	helper  bool
	pattern pattern      // kernels only
	index   []*types.Var // the index parameters, kernels only
	params  []*param     // kernels: the views and scalars between the indices and acc; helpers: all parameters
	acc     *types.Var   // the accumulator parameter (*T), reductions and scans
	accElem *types.Basic // T
	final   *types.Var   // the final flag, scans
	results []*types.Basic
	callees []*kernelFunc // the helpers the body calls, set by the checker
	nocheck bool          // //kokkos:kernel nocheck: the host may skip bounds checks
	// team is the Team parameter of a team kernel (func K(t kernel.Team,
	// views and scalars..., [acc *T])), which has no indices; nil for the
	// others. scratch are its scratch views, and nested its loops over
	// the Team's nested ranges, both set by the checker (check_team.go).
	team    *types.Var
	scratch []*scratchView
	nested  map[*ast.RangeStmt]string // the loop → "TeamThreadRange", "ThreadVectorRange" or "TeamVectorRange"

	scans map[*ast.CallExpr]*nestedScan // a team kernel's nested scans, set by the checker (check_scan.go)

	recv    *types.Var      // a helper method's receiver (check_local.go)
	structs map[string]bool // the struct types the body uses, by name, set by the checker

	// scatterAcc are the accessors of the ScatterView parameters (a of
	// a := sv.Access()), set by the checker (check_scatter.go).
	scatterAcc map[*types.Var]*param

	// fastmath (//kokkos:kernel fastmath): the host's vectorized sums
	// may add floats in another order (host_simd.go).
	fastmath bool

	// hold: the generator that a flat kernel's host chunk takes and
	// gives back once per chunk (host_random.go), set by emitHost.
	hold *poolHold
}

// scratchView is a scratch view of a team kernel, declared by a statement
// of the body's top level
//
//	s := kokkos.ScratchViewN[T](t.TeamScratch(level), extents...)
//
// (or t.ThreadScratch), and then used as a view parameter is (At, Set,
// Ptr, Extent, the atomics): its param is the local s (write set by the
// checker).
type scratchView struct {
	*param
	level   int  // 0 or 1
	thread  bool // the thread's own pad (ThreadScratch), not the team's
	decl    *ast.AssignStmt
	call    *ast.CallExpr // kokkos.ScratchViewN[T](...)
	extents []ast.Expr
}

// param is a view or scalar parameter.
type param struct {
	v     *types.Var
	name  string       // the Go name
	rank  int          // 1 to 6 for a view, 0 for a scalar
	elem  *types.Basic // a view's element type, or the scalar's type
	write bool         // the body stores through the view (Set, Ptr, atomics); views only
	token bool         // a kokkos.UniqueToken (check_token.go); rank 0, elem nil
	umap  bool         // a containers.UnorderedMap (check_umap.go); rank 0, elem nil
	pool  string       // a random pool (check_random.go): its generator, "XorShift64" or "XorShift1024"; rank 0, elem nil

	scatter *scatterInfo // a containers.ScatterView (check_scatter.go); rank 0, elem nil
}

// isView reports whether p is a view.
func (p *param) isView() bool { return p.rank > 0 }
