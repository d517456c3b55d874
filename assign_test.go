//go:build longtest

package kokkos

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/internal/testutil"
)

// accessView is what the tests read a view of any rank through.
type accessView[T any] interface {
	View[T]
	Access(idx ...int) T
}

// assignTarget is a pointer to a View0..View8: a destination of AssignView
// that the tests can read.
type assignTarget[E any] interface {
	viewTarget
	accessView[E]
}

// newViewRank allocates the View0..View8 of T of extents ext.
func newViewRank[T any](label string, ext []int, opts ...Option) (accessView[T], error) {
	e := func(r int) int { return ext[r] }
	var (
		v   accessView[T]
		err error
	)
	switch len(ext) {
	case 0:
		var w View0[T]
		w, err = NewView0[T](label, opts...)
		v = &w
	case 1:
		var w View1[T]
		w, err = NewView1[T](label, e(0), opts...)
		v = &w
	case 2:
		var w View2[T]
		w, err = NewView2[T](label, e(0), e(1), opts...)
		v = &w
	case 3:
		var w View3[T]
		w, err = NewView3[T](label, e(0), e(1), e(2), opts...)
		v = &w
	case 4:
		var w View4[T]
		w, err = NewView4[T](label, e(0), e(1), e(2), e(3), opts...)
		v = &w
	case 5:
		var w View5[T]
		w, err = NewView5[T](label, e(0), e(1), e(2), e(3), e(4), opts...)
		v = &w
	case 6:
		var w View6[T]
		w, err = NewView6[T](label, e(0), e(1), e(2), e(3), e(4), e(5), opts...)
		v = &w
	case 7:
		var w View7[T]
		w, err = NewView7[T](label, e(0), e(1), e(2), e(3), e(4), e(5), e(6), opts...)
		v = &w
	case 8:
		var w View8[T]
		w, err = NewView8[T](label, e(0), e(1), e(2), e(3), e(4), e(5), e(6), e(7), opts...)
		v = &w
	}
	return v, err
}

// zeroTarget returns a pointer to the zero View{rank}[E].
func zeroTarget[E any](rank int) assignTarget[E] {
	switch rank {
	case 0:
		return &View0[E]{}
	case 1:
		return &View1[E]{}
	case 2:
		return &View2[E]{}
	case 3:
		return &View3[E]{}
	case 4:
		return &View4[E]{}
	case 5:
		return &View5[E]{}
	case 6:
		return &View6[E]{}
	case 7:
		return &View7[E]{}
	}
	return &View8[E]{}
}

// lengthsOf returns the array lengths that make E from float64, outermost
// first, walking the type as the test's own reference.
func lengthsOf[E any]() []int {
	var lens []int
	for t := reflect.TypeFor[E](); t.Kind() == reflect.Array; t = t.Elem() {
		lens = append(lens, t.Len())
	}
	return lens
}

// arrayAt returns a[j0][j1]... of the nested array value a.
func arrayAt(a reflect.Value, j []int) float64 {
	for _, i := range j {
		a = a.Index(i)
	}
	return a.Float()
}

// fillFloats fills the span of v, a host view of float64 or of arrays of
// float64, with random numbers.
func fillFloats[T any](rng *rand.Rand, v View[T]) {
	d := ReadOnlyData(v)
	if len(d) == 0 {
		return
	}
	n := len(d) * sizeOf[T]() / 8
	for i, f := 0, unsafe.Slice((*float64)(unsafe.Pointer(&d[0])), n); i < n; i++ {
		f[i] = rng.Float64()
	}
}

// randomSource allocates a random host view of T of extents ext: LayoutRight,
// LayoutLeft, padded, or LayoutStride with the trailing tail extents
// contiguous and the others gapped multiples of block, or a subview of a
// larger view.
func randomSource[T any](t *testing.T, rng *rand.Rand, ext []int, tail, block int) accessView[T] {
	t.Helper()
	var opts []Option
	switch rng.IntN(5) {
	case 1:
		opts = append(opts, LayoutLeft)
	case 2:
		opts = append(opts, AllowPadding)
	case 3:
		lead := len(ext) - tail
		str := make([]int, len(ext))
		inner := 1
		for r := len(ext) - 1; r >= lead; r-- {
			str[r] = inner
			inner *= ext[r]
		}
		for r, s := range testutil.GappedStrides(rng, ext[:lead]) {
			str[r] = s * block
		}
		opts = append(opts, WithStrides(str...))
	case 4:
		// A subview: every leading extent of a larger parent, re-based.
		big := append([]int(nil), ext...)
		args := make([]any, len(ext))
		for r := range ext {
			args[r] = All
			if r < len(ext)-tail {
				b := rng.IntN(2)
				big[r] = ext[r] + b + rng.IntN(2)
				args[r] = Pair(b, b+ext[r])
			}
		}
		if len(ext) > MaxDynRank {
			break
		}
		p := Must(NewDynRankView[T]("parent", big))
		s := p.Subview(args...)
		return &s
	}
	v, err := newViewRank[T]("src", ext, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// checkFold assigns src, of float64 and extents ext, to a View of E (E
// folds the last extents) and checks the result against src element by
// element, and a write through the result read through src; it returns
// whether the assignment succeeded. An assignment that fails must fail for
// the reason that the strides give.
func checkFold[E any](t *testing.T, rng *rand.Rand, src accessView[float64]) bool {
	t.Helper()
	lens := lengthsOf[E]()
	ss := ShapeOf(src)
	lead := ss.Rank - len(lens)
	dst := zeroTarget[E](lead)
	err := AssignView(dst, src)
	// The reference: each folded block must start at a multiple of its
	// size from the allocation's start, and be contiguous.
	block := 1
	for _, n := range lens {
		block *= n
	}
	ok := true
	testutil.ForEachIndex(ss.Extents[:lead], func(i []int) {
		base := ss.Offset + offsetOf(ss.Strides, i)
		ok = ok && base%block == 0
		k := 0
		testutil.ForEachIndex(lens, func(j []int) {
			ok = ok && offsetOf(ss.Strides, append(append([]int(nil), i...), j...)) == base-ss.Offset+k
			k++
		})
	})
	if err != nil {
		if ok && ss.Size > 0 {
			t.Fatalf("fold of %v (strides %v, offset %d) to %v: %v", ss.Extents, ss.Strides, ss.Offset, reflect.TypeFor[E](), err)
		}
		if !errors.Is(err, ErrLayout) {
			t.Fatalf("fold error %v does not wrap ErrLayout", err)
		}
		return false
	}
	if !ok {
		t.Fatalf("fold of %v (strides %v, offset %d) to %v succeeded; its blocks are not arrays", ss.Extents, ss.Strides, ss.Offset, reflect.TypeFor[E]())
	}
	ds := ShapeOf[E](dst)
	if ds.Label != ss.Label || ds.Allocation != ss.Allocation || ss.Size > 0 && ds.Offset*block != ss.Offset {
		t.Fatalf("fold result %+v of %+v", ds, ss)
	}
	testutil.ForEachIndex(ss.Extents[:lead], func(i []int) {
		e := reflect.ValueOf(dst.Access(i...))
		testutil.ForEachIndex(lens, func(j []int) {
			if got, want := arrayAt(e, j), src.Access(append(append([]int(nil), i...), j...)...); got != want {
				t.Fatalf("dst%v%v = %v, src = %v", i, j, got, want)
			}
		})
	})
	if ss.Size > 0 {
		i := make([]int, lead)
		for r := range i {
			i[r] = rng.IntN(ss.Extents[r])
		}
		x := reflect.New(reflect.TypeFor[E]()).Elem()
		fx := unsafe.Slice((*float64)(x.Addr().UnsafePointer()), block)
		for k := range fx {
			fx[k] = -rng.Float64()
		}
		ReadOnlyData[E](dst)[offsetOf(ds.Strides, i)] = x.Interface().(E)
		k := 0
		testutil.ForEachIndex(lens, func(j []int) {
			if got := src.Access(append(append([]int(nil), i...), j...)...); got != fx[k] {
				t.Fatalf("write through dst%v%v: src reads %v, want %v", i, j, got, fx[k])
			}
			k++
		})
	}
	return true
}

// checkUnfold assigns src, a view of E, to a view of float64 of E's
// lengths as its trailing extents, and checks it as checkFold does.
func checkUnfold[E any](t *testing.T, rng *rand.Rand, src accessView[E]) {
	t.Helper()
	lens := lengthsOf[E]()
	ss := ShapeOf(src)
	dst := zeroTarget[float64](ss.Rank + len(lens))
	if err := AssignView(dst, src); err != nil {
		t.Fatalf("unfold of %v (strides %v) of %v: %v", ss.Extents, ss.Strides, reflect.TypeFor[E](), err)
	}
	ds := ShapeOf[float64](dst)
	if want := append(append([]int(nil), ss.Extents...), lens...); !slices.Equal(ds.Extents, want) {
		t.Fatalf("unfold extents %v, want %v", ds.Extents, want)
	}
	testutil.ForEachIndex(ss.Extents, func(i []int) {
		e := reflect.ValueOf(src.Access(i...))
		testutil.ForEachIndex(lens, func(j []int) {
			if got, want := dst.Access(append(append([]int(nil), i...), j...)...), arrayAt(e, j); got != want {
				t.Fatalf("dst%v%v = %v, src = %v", i, j, got, want)
			}
		})
	})
	if ds.Size > 0 {
		idx := make([]int, ds.Rank)
		for r := range idx {
			idx[r] = rng.IntN(ds.Extents[r])
		}
		x := -rng.Float64()
		ReadOnlyData[float64](dst)[offsetOf(ds.Strides, idx)] = x
		if got := arrayAt(reflect.ValueOf(src.Access(idx[:ss.Rank]...)), idx[ss.Rank:]); got != x {
			t.Fatalf("write through dst%v: src reads %v, want %v", idx, got, x)
		}
	}
	// And back: the unfolded view folds into src's elements again.
	back := zeroTarget[E](ss.Rank)
	if err := AssignView(back, dst); err != nil {
		t.Fatalf("fold back: %v", err)
	}
	bs := ShapeOf[E](back)
	if !slices.Equal(bs.Extents, ss.Extents) || bs.Offset != ss.Offset || (ss.Size > 1 && !slices.Equal(bs.Strides, ss.Strides)) {
		t.Fatalf("fold back gives %+v, want %+v", bs, ss)
	}
}

func randomExtents(rng *rand.Rand, n int) []int {
	ext := make([]int, n)
	for r := range ext {
		ext[r] = 1 + rng.IntN(3)
		if rng.IntN(40) == 0 {
			ext[r] = 0
		}
	}
	return ext
}

// foldAll runs checkFold and checkUnfold for element type E on views of
// every rank from 1 to 8 that E allows.
func foldAll[E any](t *testing.T, rng *rand.Rand) {
	lens := lengthsOf[E]()
	block := 1
	for _, n := range lens {
		block *= n
	}
	for rank := 0; rank <= MaxRank; rank++ {
		if rank >= len(lens) {
			folded := 0
			for range 16 {
				ext := append(randomExtents(rng, rank-len(lens)), lens...)
				src := randomSource[float64](t, rng, ext, len(lens), block)
				fillFloats(rng, src)
				if checkFold[E](t, rng, src) {
					folded++
				}
			}
			if folded == 0 {
				t.Errorf("%v: no rank-%d view folded", reflect.TypeFor[E](), rank)
			}
		}
		if rank+len(lens) <= MaxRank {
			for range 8 {
				src := randomSource[E](t, rng, randomExtents(rng, rank), 0, 1)
				fillFloats(rng, src)
				checkUnfold[E](t, rng, src)
			}
		}
	}
}

// TestAssignViewFoldRandom converts random views of every rank, layout
// and stride pattern, and subviews, to views of arrays of one to three
// levels and back, each element against the source's at its logical
// indices: src(i..., j, k) == dst(i...)[j][k].
func TestAssignViewFoldRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	foldAll[[3]float64](t, rng)
	foldAll[[1]float64](t, rng)
	foldAll[[2][3]float64](t, rng)
	foldAll[[3][1][2]float64](t, rng)
	foldAll[[2][2][2]float64](t, rng)
}

// TestAssignViewPartialFold folds and unfolds between two array element
// types: View2[[2]float64] and View1[[3][2]float64].
func TestAssignViewPartialFold(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	src := Must(NewView2[[2]float64]("pairs", 4, 3))
	fillFloats(rng, &src)
	var dst View1[[3][2]float64]
	if err := AssignView(&dst, &src); err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		for j := range 3 {
			if dst.At(i)[j] != src.At(i, j) {
				t.Fatalf("dst(%d)[%d] = %v, src = %v", i, j, dst.At(i)[j], src.At(i, j))
			}
		}
	}
	var back View2[[2]float64]
	if err := AssignView(&back, dst); err != nil || !back.Equal(src) {
		t.Fatalf("back: %v, equal %v", err, back.Equal(src))
	}
	// A named array type is the array it names.
	type vec3 [3]float64
	var named View1[vec3]
	if err := AssignView(&named, Must(NewView2[float64]("v", 5, 3))); err != nil || named.Extent(0) != 5 {
		t.Fatalf("named array: %v, extent %d", err, named.Extent(0))
	}
}

// TestAssignViewSeedExamples ports the assignment examples of the seed
// (/work/shared/seeds/kokkos-view.txt, "Assignment Examples", a2, a3, a8,
// a10, a11), with View<int*[10]> spelled View1[[10]int].
func TestAssignViewSeedExamples(t *testing.T) {
	const n, m = 4, 10
	// a2: View<int**> a2 = View<int*[10]>("A2", N) is always fine.
	a2src := Must(NewView1[[10]int]("A2", n))
	for i := range n {
		a2src.Set(i, [10]int{i, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	}
	var a2 View2[int]
	if err := AssignView(&a2, a2src); err != nil {
		t.Fatal(err)
	}
	if a2.Extent(0) != n || a2.Extent(1) != 10 || a2.At(3, 0) != 3 || a2.At(2, 9) != 9 || a2.Label() != "A2" || a2.Layout() != LayoutRight {
		t.Fatalf("a2: extents %d %d, layout %v", a2.Extent(0), a2.Extent(1), a2.Layout())
	}
	// a3: View<int*[10]> a3 = View<int**>("A3", N, M), fine if M == 10.
	a3src := Must(NewView2[int]("A3", n, m))
	a3src.Set(2, 7, 27)
	var a3 View1[[10]int]
	if err := AssignView(&a3, a3src); err != nil {
		t.Fatal(err)
	}
	if a3.Extent(0) != n || a3.At(2)[7] != 27 || a3.Allocation() != a3src.Allocation() {
		t.Fatalf("a3: extent %d, a3(2)[7] = %d", a3.Extent(0), a3.At(2)[7])
	}
	// ... and a run-time failure otherwise.
	var a3bad View1[[10]int]
	err := AssignView(&a3bad, Must(NewView2[int]("A3", n, 8)))
	if !errors.Is(err, ErrShape) || a3bad.Allocation() != nil {
		t.Fatalf("a3 with M = 8: %v", err)
	}
	for _, want := range []string{`"A3"`, "(4, 8)", "View1[[10]int]", "extent 1 is 8", "10"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("a3 with M = 8: %q lacks %q", err, want)
		}
	}
	// a8: View<int[4][10]> a8 = a3, fine if N == 4 ...
	var a8 View0[[4][10]int]
	if err := AssignView(&a8, a3); err != nil {
		t.Fatal(err)
	}
	if a8.At()[2][7] != 27 {
		t.Fatalf("a8()[2][7] = %d", a8.At()[2][7])
	}
	// ... and a run-time failure otherwise.
	var a8bad View0[[4][10]int]
	if err := AssignView(&a8bad, Must(NewView1[[10]int]("A3", 5))); !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "extent 0 is 5") {
		t.Fatalf("a8 with N = 5: %v", err)
	}
	// a10, a11: View<int**, LayoutStride> a10 = a8; View<int**> a11 = a10.
	a10, err := a2.AsLayout(LayoutStride)
	if err != nil {
		t.Fatal(err)
	}
	var a11 View1[[10]int]
	if err := AssignView(&a11, a10); err != nil || a11.Layout() != LayoutRight || a11.At(3)[0] != 3 {
		t.Fatalf("a11: %v, layout %v", err, a11.Layout())
	}
}

// TestAssignViewIsAssignable ports the static-extent cases of
// core/unit_test/TestViewIsAssignable.hpp (view_is_assignable), with
// LayoutRight: View<int[10]> = View<int*>(10), View<int[5]> =
// View<int*>(10) (fails), View<int*[10]> = View<int**>(10, 10),
// View<int*[5]> = View<int**>(10, 10) (fails), View<int**> =
// View<int*[10]>(10), View<int*[10]> = View<int*[10]>(10). Kokkos's
// LayoutLeft View<int*[10]> keeps its static extent strided; a gokkos array
// element is contiguous, so the LayoutLeft rank-2 cases fail here, with an
// error saying to copy.
func TestAssignViewIsAssignable(t *testing.T) {
	int1 := Must(NewView1[int]("SRC", 10))
	int2 := Must(NewView2[int]("SRC", 10, 10))
	arr1 := Must(NewView1[[10]int]("SRC", 10))
	check := func(name string, err error, ok bool) {
		t.Helper()
		if (err == nil) != ok || err != nil && !errors.Is(err, ErrShape) {
			t.Errorf("%s: %v, want success %v", name, err, ok)
		}
	}
	var d10 View0[[10]int]
	check("int[10] = int*(10)", AssignView(&d10, int1), true)
	var d5 View0[[5]int]
	check("int[5] = int*(10)", AssignView(&d5, int1), false)
	var d1x10 View1[[10]int]
	check("int*[10] = int**(10,10)", AssignView(&d1x10, int2), true)
	var d1x5 View1[[5]int]
	check("int*[5] = int**(10,10)", AssignView(&d1x5, int2), false)
	var d2 View2[int]
	check("int** = int*[10](10)", AssignView(&d2, arr1), true)
	check("int*[10] = int*[10](10)", AssignView(&d1x10, arr1), true)
	if !d1x10.Equal(arr1) {
		t.Error("int*[10] = int*[10]: not the same view")
	}

	left1 := Must(NewView1[int]("SRC", 10, LayoutLeft))
	var dl View0[[10]int]
	if err := AssignView(&dl, left1); err != nil || dl.Layout() != LayoutLeft {
		t.Errorf("LayoutLeft int[10] = int*(10): %v, layout %v", err, dl.Layout())
	}
	left2 := Must(NewView2[int]("SRC", 10, 10, LayoutLeft))
	err := AssignView(&d1x10, left2)
	if !errors.Is(err, ErrLayout) {
		t.Fatalf("LayoutLeft int*[10] = int**(10,10): %v", err)
	}
	for _, want := range []string{"LayoutLeft", "not an array element's", "DeepCopy", "stride 10"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
}

// TestAssignViewErrors checks the refusals: their sentinels and texts, and
// that the destination is unchanged.
func TestAssignViewErrors(t *testing.T) {
	src := Must(NewView2[float64]("S", 6, 4))
	keep := Must(NewView1[[4]float64]("kept", 2))
	cases := []struct {
		name string
		do   func(dst *View1[[4]float64]) error
		kind error
		want []string
	}{
		{"length", func(d *View1[[4]float64]) error { return AssignView(d, Must(NewView2[float64]("S", 6, 3))) },
			ErrShape, []string{`"S"`, "(6, 3)", "View1[[4]float64]", "extent 1 is 3", "length of the array it folds into is 4"}},
		{"rank", func(d *View1[[4]float64]) error { return AssignView(d, Must(NewView3[float64]("S", 2, 6, 4))) },
			ErrShape, []string{"ranks do not match", "needs rank 2"}},
		{"rank-short", func(d *View1[[4]float64]) error { return AssignView(d, Must(NewView0[float64]("S"))) },
			ErrShape, []string{"ranks do not match", "more than the view has"}},
		{"type", func(d *View1[[4]float64]) error { return AssignView(d, Must(NewView2[float32]("S", 6, 4))) },
			ErrElementType, []string{"float32", "[4]float64", "an array of it"}},
		{"left", func(d *View1[[4]float64]) error { return AssignView(d, Must(NewView2[float64]("S", 6, 4, LayoutLeft))) },
			ErrLayout, []string{"LayoutLeft", "extent 1 has stride 6", "not an array element's", "DeepCopy"}},
		{"strided", func(d *View1[[4]float64]) error {
			return AssignView(d, Must(NewView2[float64]("S", 6, 4, WithStrides(8, 2))))
		}, ErrLayout, []string{"(8, 2)", "extent 1 has stride 2, an array's would be 1", "DeepCopy"}},
		{"lead-stride", func(d *View1[[4]float64]) error {
			return AssignView(d, Must(NewView2[float64]("S", 6, 4, WithStrides(6, 1))))
		}, ErrLayout, []string{"extent 0 has stride 6, not a multiple of the 4 elements"}},
		{"offset", func(d *View1[[4]float64]) error {
			return AssignView(d, src.Subview2(Pair(1, 3), All))
		}, nil, nil},
		{"offset-inside", func(d *View1[[4]float64]) error {
			flat := Must(NewView1[float64]("F", 24))
			var one View0[[4]float64]
			if err := AssignView(&one, flat.Subview1(Pair(4, 8))); err != nil {
				return err
			}
			return AssignView(&one, flat.Subview1(Pair(2, 6)))
		}, ErrLayout, []string{`"F"`, "lies 2 elements into its allocation", "inside a [4]float64"}},
	}
	for _, c := range cases {
		dst := keep
		err := c.do(&dst)
		if c.kind == nil {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if !errors.Is(err, c.kind) {
			t.Errorf("%s: %v does not wrap %v", c.name, err, c.kind)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.name, err, w)
			}
		}
		if !dst.Equal(keep) {
			t.Errorf("%s: the destination changed", c.name)
		}
	}
	// An array of length 0 folds nothing.
	var z View1[[0]float64]
	if err := AssignView(&z, Must(NewView2[float64]("S", 3, 0))); !errors.Is(err, ErrElementType) {
		t.Errorf("[0]float64: %v", err)
	}
	// The Atomic trait goes with the elements: [2]float32 (8 bytes, a
	// machine atomic) and [3]float64 (24 bytes, the lock table) both take
	// it, and their Refs update whole arrays.
	at := Must(NewView2[float32]("A", 4, 2, WithTraits(Atomic)))
	var a2 View1[[2]float32]
	if err := AssignView(&a2, at); err != nil || a2.Traits()&Atomic == 0 {
		t.Errorf("atomic [2]float32: %v", err)
	}
	at3 := Must(NewView2[float64]("A", 4, 3, WithTraits(Atomic)))
	var a3 View1[[3]float64]
	if err := AssignView(&a3, at3); err != nil || a3.Traits()&Atomic == 0 {
		t.Errorf("atomic [3]float64: %v", err)
	} else if a3.Ref(1).Store([3]float64{1, 2, 3}); at3.Ref(1, 2).Load() != 3 {
		t.Errorf("a Store through the folded Atomic view is not seen: %v", at3.Ref(1, 2).Load())
	}
}

// TestAssignViewKeeps checks what the result keeps of its source: the
// allocation without a new holder, the label, space, traits and read-only
// flag, and the layout of a plain assignment; and the zero view.
func TestAssignViewKeeps(t *testing.T) {
	src := Must(NewView3[int32]("K", 2, 3, 4))
	count := src.UseCount()
	ro := src.ReadOnly()
	var dst View2[[4]int32]
	if err := AssignView(&dst, ro); err != nil {
		t.Fatal(err)
	}
	if !dst.IsReadOnly() || dst.Label() != "K" || dst.Allocation() != src.Allocation() || src.UseCount() != count || dst.Space() != HostSpace {
		t.Fatalf("kept: read-only %v, label %q, use count %d", dst.IsReadOnly(), dst.Label(), src.UseCount())
	}
	mustPanic(t, func() { dst.Set(0, 0, [4]int32{}) }, "read-only", `"K"`)

	// A plain assignment keeps the layout, LayoutLeft included.
	left := Must(NewView2[int32]("L", 3, 5, LayoutLeft))
	var same View2[int32]
	if err := AssignView(&same, &left); err != nil || !same.Equal(left) || same.Layout() != LayoutLeft {
		t.Fatalf("plain: %v", err)
	}
	// Unmanaged views stay unmanaged; an OffsetView gives its elements
	// from 0.
	buf := make([]int32, 12)
	buf[7] = 77
	w := Must(WrapView2(buf, 3, 4, WithLabel("W")))
	var wa View1[[4]int32]
	if err := AssignView(&wa, w); err != nil || wa.Traits()&Unmanaged == 0 || wa.UseCount() != 0 || wa.At(1)[3] != 77 {
		t.Fatalf("unmanaged: %v", err)
	}
	o := Must(OffsetView2Of(w, [2]int{-1, 5}))
	var oa View1[[4]int32]
	if err := AssignView(&oa, &o); err != nil || oa.At(1)[3] != 77 {
		t.Fatalf("offset view: %v", err)
	}
	// A LayoutStride view of LayoutRight's strides becomes LayoutRight; a
	// leading stride of whole arrays with a gap gives LayoutStride.
	gap := Must(NewView2[int32]("G", 3, 4, WithStrides(8, 1)))
	var ga View1[[4]int32]
	if err := AssignView(&ga, gap); err != nil || ga.Layout() != LayoutStride || ga.Stride(0) != 2 {
		t.Fatalf("gapped: %v, layout %v", err, ga.Layout())
	}
	// The zero view assigns the zero view.
	var zero View3[int32]
	zdst := dst
	if err := AssignView(&zdst, zero); err != nil || zdst.Allocation() != nil || zdst.Extent(0) != 0 {
		t.Fatalf("zero view: %v", err)
	}
}

// TestAssignViewDevice converts views in a space the host cannot access,
// without touching their elements: a View2 folded into a View1 of arrays
// and copied back, and a View1 of arrays unfolded.
func TestAssignViewDevice(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	dev := newFakeSpace(false)
	host := Must(NewView2[float64]("h", 5, 3))
	fillFloats(rng, &host)
	d := Must(NewView2[float64]("d", 5, 3, InSpace(dev)))
	defer d.Release()
	if err := DeepCopy[float64](d, host); err != nil {
		t.Fatal(err)
	}
	var da View1[[3]float64]
	if err := AssignView(&da, d); err != nil {
		t.Fatal(err)
	}
	if da.Space() != dev || !da.IsAllocated() || Describe[[3]float64](da).Addr != Describe[float64](d).Addr {
		t.Fatalf("device fold: space %v, allocated %v", da.Space(), da.IsAllocated())
	}
	mustPanic(t, func() { da.At(0) }, "cannot access")
	back := Must(NewView1[[3]float64]("back", 5))
	if err := DeepCopy[[3]float64](back, da); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		for j := range 3 {
			if back.At(i)[j] != host.At(i, j) {
				t.Fatalf("back(%d)[%d] = %v, want %v", i, j, back.At(i)[j], host.At(i, j))
			}
		}
	}
	// A subview of device rows, unfolded again, copied to the host.
	sub := da.Subview1(Pair(1, 4))
	var du View2[float64]
	if err := AssignView(&du, sub); err != nil {
		t.Fatal(err)
	}
	h2 := Must(NewView2[float64]("h2", 3, 3))
	if err := DeepCopy[float64](h2, du); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for j := range 3 {
			if h2.At(i, j) != host.At(i+1, j) {
				t.Fatalf("h2(%d, %d) = %v, want %v", i, j, h2.At(i, j), host.At(i+1, j))
			}
		}
	}
}

// FuzzAssignView folds a rank-3 LayoutStride view of float64 with fuzzed
// extents, strides and offset into a View1[[2][3]float64], against the
// semantic rule of checkFold: success exactly where every folded block is
// a contiguous whole array.
func FuzzAssignView(f *testing.F) {
	f.Add(uint8(4), uint8(2), uint8(3), uint8(5), uint8(2), uint8(0), uint8(0))  // LayoutRight
	f.Add(uint8(4), uint8(2), uint8(3), uint8(11), uint8(2), uint8(0), uint8(1)) // gapped rows, a subview
	f.Add(uint8(4), uint8(2), uint8(3), uint8(0), uint8(3), uint8(7), uint8(0))  // LayoutLeft
	f.Add(uint8(3), uint8(2), uint8(3), uint8(6), uint8(2), uint8(0), uint8(0))  // rows 7 apart
	f.Add(uint8(1), uint8(2), uint8(3), uint8(6), uint8(2), uint8(0), uint8(2))  // one row
	f.Add(uint8(4), uint8(3), uint8(3), uint8(8), uint8(2), uint8(0), uint8(0))  // a wrong extent
	f.Fuzz(func(t *testing.T, e0, e1, e2, s0, s1, s2, off uint8) {
		ext := []int{int(e0 % 5), int(e1 % 4), int(e2 % 4)}
		str := []int{int(s0%32) + 1, int(s1%16) + 1, int(s2%8) + 1}
		span, err := spanOf(ext, str)
		if err != nil {
			t.Skip()
		}
		buf := make([]float64, span)
		for i := range buf {
			buf[i] = float64(i)
		}
		v, err := WrapDynRankView(buf, ext, WithStrides(str...))
		if err != nil {
			t.Skip()
		}
		// A subview whose origin is b rows into its parent.
		if b := int(off % 3); b > 0 {
			p, err := WrapDynRankView(make([]float64, span+b*str[0]), []int{ext[0] + b, ext[1], ext[2]}, WithStrides(str...))
			if err != nil {
				t.Skip()
			}
			v = p.Subview(Pair(b, ext[0]+b), All, All)
			fillFloats(rand.New(rand.NewPCG(3, 4)), &v)
		}
		if ext[1] != 2 || ext[2] != 3 {
			var d View1[[2][3]float64]
			if err := AssignView(&d, &v); !errors.Is(err, ErrShape) {
				t.Fatalf("extents %v: %v", ext, err)
			}
			return
		}
		checkFold[[2][3]float64](t, rand.New(rand.NewPCG(1, 2)), &v)
	})
}
