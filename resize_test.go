package kokkos

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gokkos/kokkos/internal/testutil"
)

// resizeR calls Resize or Realloc on the view kind of v.
func resizeR(v *View[float64], ext []int, keep bool, opts ...Option) error {
	e := ext
	pick := func(r, k func() error) error {
		if keep {
			return r()
		}
		return k()
	}
	switch w := (*v).(type) {
	case View1[float64]:
		defer func() { *v = w }()
		return pick(func() error { return Resize(&w, [1]int{e[0]}, opts...) }, func() error { return Realloc(&w, [1]int{e[0]}, opts...) })
	case View2[float64]:
		defer func() { *v = w }()
		return pick(func() error { return Resize(&w, [2]int{e[0], e[1]}, opts...) }, func() error { return Realloc(&w, [2]int{e[0], e[1]}, opts...) })
	case View3[float64]:
		defer func() { *v = w }()
		return pick(func() error { return Resize(&w, [3]int{e[0], e[1], e[2]}, opts...) }, func() error { return Realloc(&w, [3]int{e[0], e[1], e[2]}, opts...) })
	case View4[float64]:
		defer func() { *v = w }()
		return pick(func() error { return Resize(&w, [4]int{e[0], e[1], e[2], e[3]}, opts...) }, func() error { return Realloc(&w, [4]int{e[0], e[1], e[2], e[3]}, opts...) })
	case View5[float64]:
		defer func() { *v = w }()
		return pick(func() error { return Resize(&w, [5]int{e[0], e[1], e[2], e[3], e[4]}, opts...) }, func() error { return Realloc(&w, [5]int{e[0], e[1], e[2], e[3], e[4]}, opts...) })
	case View6[float64]:
		defer func() { *v = w }()
		return pick(func() error { return Resize(&w, [6]int{e[0], e[1], e[2], e[3], e[4], e[5]}, opts...) }, func() error { return Realloc(&w, [6]int{e[0], e[1], e[2], e[3], e[4], e[5]}, opts...) })
	case View7[float64]:
		defer func() { *v = w }()
		return pick(func() error { return Resize(&w, [7]int{e[0], e[1], e[2], e[3], e[4], e[5], e[6]}, opts...) }, func() error { return Realloc(&w, [7]int{e[0], e[1], e[2], e[3], e[4], e[5], e[6]}, opts...) })
	case View8[float64]:
		defer func() { *v = w }()
		return pick(func() error { return Resize(&w, [8]int{e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]}, opts...) }, func() error { return Realloc(&w, [8]int{e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]}, opts...) })
	}
	panic("kind")
}

func TestResizeKeepsOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for rank := 1; rank <= MaxRank; rank++ {
		for k := range 3 {
			ext := randExt(rng, rank)
			tv := makeTestView(t, rng, "r", ext, k, false)
			old := tv.v.viewDesc()
			next := randExt(rng, rank)
			v := tv.v
			if err := resizeR(&v, next, true); err != nil {
				t.Fatal(err)
			}
			d := v.viewDesc()
			name := fmt.Sprintf("rank %d layout %d %v → %v", rank, k, ext, next)
			if d.label() != "r" || d.layout != old.layout || !slices.Equal(d.extents(), next) {
				t.Fatalf("%s: label %q layout %v extents %v", name, d.label(), d.layout, d.extents())
			}
			testutil.ForEachIndex(next, func(idx []int) {
				in := true
				for r := range idx {
					in = in && idx[r] < ext[r]
				}
				got := d.data[offsetOf(d.strides(), idx)]
				want := 0.0
				if in {
					want = old.data[offsetOf(old.strides(), idx)]
				}
				if got != want {
					t.Fatalf("%s: %v = %v, want %v", name, idx, got, want)
				}
			})
			// Realloc keeps nothing.
			if err := resizeR(&v, ext, false); err != nil {
				t.Fatal(err)
			}
			d = v.viewDesc()
			testutil.ForEachIndex(ext, func(idx []int) {
				if x := d.data[offsetOf(d.strides(), idx)]; x != 0 {
					t.Fatalf("%s: Realloc kept %v at %v", name, x, idx)
				}
			})
		}
	}
}

func TestResizeSameExtentsKeepsStorage(t *testing.T) {
	v, _ := NewView2[int]("v", 3, 4)
	v.Set(1, 1, 9)
	w := v
	if err := Resize(&v, [2]int{3, 4}); err != nil || !v.Equal(w) || v.At(1, 1) != 9 {
		t.Fatal("Resize with the same extents reallocated")
	}
	if err := Realloc(&v, [2]int{3, 4}, WithoutInitializing); err != nil || !v.Equal(w) || v.At(1, 1) != 9 {
		t.Fatal("Realloc WithoutInitializing with the same extents changed the view")
	}
	if err := Realloc(&v, [2]int{3, 4}); err != nil || !v.Equal(w) || v.At(1, 1) != 0 {
		t.Fatal("Realloc with the same extents did not zero the view")
	}
}

func TestResizeErrorsAndDevice(t *testing.T) {
	v, _ := NewView2[int]("v", 3, 4)
	r := v.ReadOnly()
	wantErr(t, Resize(&r, [2]int{5, 5}), `kokkos: Resize of read-only view "v" with extents (3, 4)`)
	u, _ := WrapView1(make([]int, 4), 4, WithLabel("u"))
	wantErr(t, Realloc(&u, [1]int{5}), `kokkos: Realloc of view "u" with extents (4): the view is unmanaged (it wraps caller memory)`)
	// A zero view is allocated by Resize.
	var z View1[int]
	if err := Resize(&z, [1]int{3}); err != nil || z.Extent(0) != 3 {
		t.Fatal(err)
	}
	// On the fake device, with an atomic LayoutStride view.
	fs := checked(t, newFakeSpace(false))
	h, _ := NewView2[int64]("h", 4, 5, LayoutLeft)
	for i := range h.Data() {
		h.Data()[i] = int64(i + 1)
	}
	d, err := CreateMirrorViewAndCopy(h, InSpace(fs))
	if err != nil {
		t.Fatal(err)
	}
	old := d
	if err := Resize(&d, [2]int{6, 3}, WithoutInitializing); err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	defer old.Release() // Resize leaves the old storage to its holders
	if d.Space() != MemorySpace(fs) || d.Layout() != LayoutLeft {
		t.Fatal("Resize changed the space or layout")
	}
	m, _ := CreateMirrorViewAndCopy(d)
	for i := range 4 {
		for j := range 3 {
			if m.At(i, j) != h.At(i, j) {
				t.Fatalf("(%d, %d) = %d, want %d", i, j, m.At(i, j), h.At(i, j))
			}
		}
	}
	a, _ := NewView2[int64]("a", 4, 5, WithStrides(1, 7), WithTraits(Atomic|Restrict))
	if err := Resize(&a, [2]int{2, 9}); err != nil || a.Traits() != Atomic|Restrict || a.Layout() != LayoutStride || a.Stride(0) != 1 || a.Stride(1) != 2 {
		t.Fatalf("%v %v %+v", err, a.Traits(), a.LayoutSpec())
	}
}

// TestResizeExtentCountAtCompileTime type-checks calls of Resize and
// Realloc: the extents must be an array of the view's rank, and only
// View1 ... View8 are taken, so the other calls do not compile.
func TestResizeExtentCountAtCompileTime(t *testing.T) {
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	if _, err := imp.Import("github.com/gokkos/kokkos"); err != nil {
		t.Skipf("the package's source cannot be imported here: %v", err)
	}
	for _, c := range []struct {
		call string
		ok   bool
	}{
		{"kokkos.Resize(&v2, [2]int{3, 4})", true},
		{"kokkos.Realloc(&v2, [2]int{3, 4}, kokkos.WithoutInitializing)", true},
		{"kokkos.Resize(&v8, [8]int{1, 2, 3, 4, 5, 6, 7, 8})", true},
		{"kokkos.Resize(&v2, [3]int{3, 4, 5})", false},
		{"kokkos.Realloc(&v2, [1]int{3})", false},
		{"kokkos.Resize(&v8, [2]int{1, 2})", false},
		{"kokkos.Resize(&v2, []int{3, 4})", false},
		{"kokkos.Resize(&v0, [1]int{3})", false},
		{"kokkos.Resize(&o2, [2]int{3, 4})", false},
	} {
		src := `package p

import "github.com/gokkos/kokkos"

var (
	v0 kokkos.View0[float64]
	v2 kokkos.View2[float64]
	v8 kokkos.View8[int]
	o2 kokkos.OffsetView2[float64]
)

var _ = ` + c.call + "\n"
		f, err := parser.ParseFile(fset, "p.go", src, 0)
		if err != nil {
			t.Fatal(err)
		}
		conf := types.Config{Importer: imp}
		_, err = conf.Check("p", fset, []*ast.File{f}, nil)
		if (err == nil) != c.ok {
			t.Errorf("%s: type-check error %v, want compiling %v", c.call, err, c.ok)
		} else if err != nil && !strings.Contains(err.Error(), "does not satisfy") && !strings.Contains(err.Error(), "cannot use") && !strings.Contains(err.Error(), "infer") {
			t.Errorf("%s: unexpected error %v", c.call, err)
		}
	}
}
