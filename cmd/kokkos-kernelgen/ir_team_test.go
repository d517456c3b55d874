package main

import (
	"go/ast"
	"go/parser"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/backend/backendtest"
	"github.com/gokkos/kokkos/backend/kernelir"
)

// teamHeader opens the team kernels' test package.
const teamHeader = `package k

import (
	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/kernel"
)

var _ kokkos.View1[float64]
var _ kernel.Team
`

// loadTeamSource type-checks src and returns its package with its marked
// functions: team kernels as they are, the rest classified.
func loadTeamSource(t *testing.T, src string) *pkgInfo {
	t.Helper()
	tmp, err := writeSource(".", map[string]string{"k.go": teamHeader + src})
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	fset := sourceSet()
	path := filepath.Join(tmp, "k.go")
	text, _ := os.ReadFile(path)
	f, err := parser.ParseFile(fset, path, text, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{}, Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{}}
	conf := types.Config{Importer: sourceImporter()}
	pkg, err := conf.Check("k", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	p := &pkgInfo{fset: fset, pkg: pkg, info: info, files: []*ast.File{f}, dir: tmp, byObj: map[*types.Func]*kernelFunc{}, text: map[string][]byte{path: text}}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || !marked(fd) {
			continue
		}
		obj := info.Defs[fd.Name].(*types.Func)
		k := &kernelFunc{decl: fd, obj: obj, name: fd.Name.Name}
		if p.teamVar(k) == nil {
			if k, err = p.classify(fd); err != nil {
				t.Fatal(err)
			}
		}
		p.kernels = append(p.kernels, k)
		p.byObj[obj] = k
	}
	return p
}

// teamSuiteSource holds the Go source of backendtest's team kernels.
func teamSuiteSource(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("../../backend/backendtest/launcher_team.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(src), "as kokkos-kernelgen describes them:\n")
	rest, _, _ = strings.Cut(rest, "\nvar (")
	var b strings.Builder
	for _, line := range strings.Split(rest, "\n") {
		line = strings.TrimPrefix(strings.TrimPrefix(line, "//"), "\t")
		if strings.HasPrefix(line, "func ") {
			b.WriteString("//kokkos:kernel\n")
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// TestDescribeTeamKernels describes the Go source of backendtest's team
// kernels and compares each description with the one its suite runs on
// every Launcher.
func TestDescribeTeamKernels(t *testing.T) {
	p := loadTeamSource(t, teamSuiteSource(t))
	want := map[string]string{}
	for _, k := range backendtest.TeamKernels() {
		ir, err := kernelir.Parse(k.IR)
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		want[ir.Name] = kernelir.Print(ir)
	}
	for _, k := range p.kernels {
		ir, err := p.buildKernel(k)
		if err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		if err := kernelir.Validate(ir); err != nil {
			t.Fatalf("%s: %v\n%s", k.name, err, kernelir.Print(ir))
		}
		got := kernelir.Print(ir)
		if got != want[k.name] {
			t.Errorf("%s: description\n%s\nwant\n%s", k.name, got, want[k.name])
		}
		delete(want, k.name)
	}
	if len(want) != 0 {
		t.Errorf("kernels not described: %v", want)
	}
}

// TestDescribeTeamForms covers the forms the suite's kernels do not: var
// declarations of collectives and scratch views, ThreadScratch of rank 3,
// keys assigned with =, a VectorReduce by Max, a blank scan result.
func TestDescribeTeamForms(t *testing.T) {
	p := loadTeamSource(t, `
//kokkos:kernel
func F(t kernel.Team, v kokkos.View1[int64], m int, on bool) {
	var s = kokkos.ScratchView3[float32](t.ThreadScratch(1), 2, m, 3)
	var x int64 = kernel.VectorReduce(t, kokkos.Max[int64](), v.At(0))
	var j int
	for j = range t.TeamVectorRange(1, m) {
		s.Set(0, j, 2, float32(j))
	}
	_, tot := kernel.TeamScan(t, kokkos.BOr[int64](), x)
	on = kernel.TeamBroadcast(t, on, 0)
	if on && t.SinglePerThread() {
		v.Set(int(t.LeagueSize()), tot+int64(s.Extent(1)))
	}
}
`)
	ir, err := p.buildKernel(p.kernels[0])
	if err != nil {
		t.Fatal(err)
	}
	got := kernelir.Print(ir)
	want := `kernelir 1
(kernel F for (team t)
  (view v int64 1 w)
  (scalar m int)
  (scalar on bool)
  (body
    (scratch s float32 thread 1 ((int 2) m (int 3)))
    (vectorreduce Max int64 ((new x int64)) (at v (int 0)))
    (var ((j int)) ())
    (nested teamvector j (int 1) m
      (body
        (assign ((at s (int 0) j (int 2))) ((conv float32 j)))))
    (teamscan BOr int64 (_ (new tot int64)) x)
    (teambroadcast bool (on) on (int 0))
    (if (land on (team SinglePerThread))
      (then
        (assign ((at v (conv int (team LeagueSize)))) ((add int64 tot (conv int64 (extent s 1)))))))))
`
	if got != want {
		t.Fatalf("description\n%s\nwant\n%s", got, want)
	}
	if _, err := kernelir.Parse(got); err != nil {
		t.Fatal(err)
	}
}

// TestDescribeTeamRefusals checks the errors of team forms that have no
// description.
func TestDescribeTeamRefusals(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{"x := 1 + kernel.TeamReduce(t, kokkos.Sum[int](), n)\n_ = x", "kernel.TeamReduce is the whole value of an assignment"},
		{"r := kokkos.Sum[int]()\nx := kernel.TeamReduce(t, r, n)\n_ = x", "a value of a type other than a number or bool"},
		{"s := kokkos.ScratchView4[int](t.TeamScratch(0), 1, 1, 1, 1)\n_ = s", "ScratchView4 has no description: a team kernel takes scratch views of rank 1 to 3"},
		{"s := kokkos.ScratchView1[int](t.TeamScratch(n), 1)\n_ = s", "the scratch level must be the constant 0 or 1"},
		{"s := kokkos.ScratchView1[int](t.TeamScratch(2), 1)\n_ = s", "the scratch level must be the constant 0 or 1"},
		{"s := kokkos.ScratchView1[int](t.TeamScratch(0), 1, kokkos.WithTraits(kokkos.Atomic))\n_ = s", "with options has no description"},
		{"u := t\n_ = u", "a value of a type other than a number or bool"},
		{"n = int(t.LeagueSize()) + f(t)", "k.go:13:27: kernel K: the call of f has no description"},
		{"n = t.TeamScratch(0).Size()", "the call of t.TeamScratch(0).Size has no description"},
	} {
		p := loadTeamSource(t, "\n//kokkos:kernel\nfunc K(t kernel.Team, v kokkos.View1[int64], n int) {\n"+c.body+"\n}\n\nfunc f(t kernel.Team) int { return 0 }\n")
		_, err := p.buildKernel(p.kernels[0])
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "k.go:") {
			t.Errorf("%s: %v, want an error at k.go about %q", c.body, err, c.want)
		}
	}
}
