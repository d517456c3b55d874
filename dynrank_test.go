package kokkos

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// mustPanic runs f and checks that it panics with a message containing
// each of want.
func mustPanic(t *testing.T, f func(), want ...string) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic; want %q", want)
		}
		var msg string
		switch r := r.(type) {
		case error:
			msg = r.Error()
		case string:
			msg = r
		default:
			t.Fatalf("panic value %T %v", r, r)
		}
		for _, w := range want {
			if !strings.Contains(msg, w) {
				t.Fatalf("panic %q does not contain %q", msg, w)
			}
		}
	}()
	f()
}

func mustErr(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("error %q does not contain %q", err, w)
		}
	}
}

// randNonZero returns a value in [1, 2).
func randNonZero(rng *rand.Rand) float64 { return 1 + rng.Float64() }

func TestDynRankRankFromExtents(t *testing.T) {
	for rank := 0; rank <= MaxDynRank; rank++ {
		ext := make([]int, rank)
		for r := range ext {
			ext[r] = r + 2
		}
		d, err := NewDynRankView[float64]("A", ext)
		if err != nil {
			t.Fatal(err)
		}
		if d.Rank() != rank {
			t.Fatalf("rank %d, want %d", d.Rank(), rank)
		}
		size := 1
		for r := 0; r < MaxRank; r++ {
			want := 1
			if r < rank {
				want = r + 2
				size *= want
			}
			if d.Extent(r) != want {
				t.Fatalf("rank %d: Extent(%d) = %d, want %d", rank, r, d.Extent(r), want)
			}
		}
		if d.Size() != size || d.Span() != size || !d.SpanIsContiguous() {
			t.Fatalf("rank %d: Size %d Span %d, want %d", rank, d.Size(), d.Span(), size)
		}
		if d.Label() != "A" || d.Layout() != LayoutRight || d.Space() != HostSpace || d.UseCount() != 1 {
			t.Fatalf("rank %d: label %q layout %v space %v count %d", rank, d.Label(), d.Layout(), d.Space(), d.UseCount())
		}
	}
	_, err := NewDynRankView[float64]("big", make([]int, 8))
	mustErr(t, err, `DynRankView "big"`, "rank 8 exceeds 7", "View8")
	_, err = NewDynRankView[float64]("neg", []int{3, -1})
	mustErr(t, err, `"neg"`, "negative")
	var z DynRankView[float64]
	if z.Rank() != 0 || z.Size() != 0 || z.IsAllocated() {
		t.Fatal("zero DynRankView is not empty")
	}
	mustPanic(t, func() { z.At0() }, "unallocated")
	mustPanic(t, func() { d, _ := NewDynRankView[float64]("A", []int{2}); d.Extent(8) }, "Extent(8)")
	mustPanic(t, func() { d, _ := NewDynRankView[float64]("A", []int{2}); d.Stride(8) }, "Stride(8)", "rank-1")
}

// TestDynRankAccessMatchesView fills rank-typed views of each layout with
// random non-zero values and reads them through DynRankView's fixed-arity,
// variadic and Access forms.
func TestDynRankAccessMatchesView(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, l := range []Layout{LayoutRight, LayoutLeft} {
		v, err := NewView3[float64]("v3", 3, 4, 5, l)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			for j := range 4 {
				for k := range 5 {
					v.Set(i, j, k, randNonZero(rng))
				}
			}
		}
		d := DynRankFrom[float64](v)
		if d.Rank() != 3 || d.Layout() != l || d.UseCount() != v.UseCount() || d.Allocation() != v.Allocation() {
			t.Fatalf("DynRankFrom: rank %d layout %v", d.Rank(), d.Layout())
		}
		for i := range 3 {
			for j := range 4 {
				for k := range 5 {
					want := v.At(i, j, k)
					if d.At3(i, j, k) != want || d.At(i, j, k) != want || d.Access(i, j, k) != want || d.Access(i, j, k, 0, 0) != want || *d.Ptr3(i, j, k) != want {
						t.Fatalf("%v (%d, %d, %d): got %v, want %v", l, i, j, k, d.At3(i, j, k), want)
					}
				}
			}
		}
		x := randNonZero(rng)
		d.Set3(2, 3, 4, x)
		if v.At(2, 3, 4) != x {
			t.Fatal("Set3 does not write the shared memory")
		}
		d.Set(x+1, 1, 1, 1)
		*d.Ptr(0, 0, 0) = x + 2
		if v.At(1, 1, 1) != x+1 || v.At(0, 0, 0) != x+2 {
			t.Fatal("Set or Ptr does not write the shared memory")
		}
		for r := range 3 {
			if d.Stride(r) != v.Stride(r) {
				t.Fatalf("Stride(%d) = %d, want %d", r, d.Stride(r), v.Stride(r))
			}
		}
	}
	// every fixed-arity accessor against the naive row-major offset
	for rank := 0; rank <= MaxDynRank; rank++ {
		ext := make([]int, rank)
		for r := range ext {
			ext[r] = 2
		}
		d, err := NewDynRankView[float64]("A", ext)
		if err != nil {
			t.Fatal(err)
		}
		data := d.Data()
		for i := range data {
			data[i] = randNonZero(rng)
		}
		idx := make([]int, rank)
		for r := range idx {
			idx[r] = 1
		}
		want := data[len(data)-1]
		got := [...]func() float64{
			func() float64 { return d.At0() },
			func() float64 { return d.At1(1) },
			func() float64 { return d.At2(1, 1) },
			func() float64 { return d.At3(1, 1, 1) },
			func() float64 { return d.At4(1, 1, 1, 1) },
			func() float64 { return d.At5(1, 1, 1, 1, 1) },
			func() float64 { return d.At6(1, 1, 1, 1, 1, 1) },
			func() float64 { return d.At7(1, 1, 1, 1, 1, 1, 1) },
		}[rank]()
		if got != want || d.At(idx...) != want {
			t.Fatalf("rank %d: At%d = %v, want %v", rank, rank, got, want)
		}
	}
}

func TestDynRankAccessPanics(t *testing.T) {
	d, err := NewDynRankView[float64]("A", []int{3, 4})
	if err != nil {
		t.Fatal(err)
	}
	mustPanic(t, func() { d.At2(3, 0) }, `index (3, 0) out of bounds for view "A" with extents (3, 4)`)
	mustPanic(t, func() { d.At2(0, -1) }, "index (0, -1)")
	mustPanic(t, func() { d.At3(0, 0, 1) }, `index (0, 0, 1) out of bounds for rank-2 DynRankView "A" with extents (3, 4)`, "past the rank must be 0")
	mustPanic(t, func() { d.At1(0) }, `At1 of rank-2 DynRankView "A"`, "at least 2 indices")
	mustPanic(t, func() { d.Set1(0, 1) }, `Set or Ptr1 of rank-2 DynRankView "A"`)
	mustPanic(t, func() { d.At(1) }, `At of rank-2 DynRankView "A" with 1 indices`, "give between 2 and 7")
	mustPanic(t, func() { d.At(1, 9) }, `index (1, 9) out of bounds for view "A" with extents (3, 4)`)
	mustPanic(t, func() { d.Access(1, 1, 1) }, "index (1, 1, 1) out of bounds", "past the rank must be 0")
	mustPanic(t, func() { d.Access(3) }, "index (3, 0) out of bounds")
	mustPanic(t, func() { d.Access(0, 0, 0, 0, 0, 0, 0, 0) }, "with 8 indices", "at most 7")
	r := d.ReadOnly()
	if !r.IsReadOnly() || r.At2(1, 1) != 0 {
		t.Fatal("ReadOnly")
	}
	mustPanic(t, func() { r.Set2(1, 1, 2) }, `write to read-only view "A" at index (1, 1)`)
	mustPanic(t, func() { r.Set(2, 1, 1) }, `write to read-only view "A"`)
	mustPanic(t, func() { r.Ptr2(1, 1) }, "read-only")
	mustPanic(t, func() { r.Data() }, "read-only")
	v2, err := r.View2()
	if err != nil {
		t.Fatal(err)
	}
	if !v2.IsReadOnly() {
		t.Fatal("a read-only DynRankView converted to a writable View2")
	}
}

func TestDynRankConversions(t *testing.T) {
	d, err := NewDynRankView[int]("C", []int{2, 3, 4}, LayoutLeft, WithTraits(Restrict))
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.View2()
	mustErr(t, err, `View2 of DynRankView "C": the view has rank 3, View2 needs rank 2`)
	v3, err := d.View3()
	if err != nil {
		t.Fatal(err)
	}
	if v3.Layout() != LayoutLeft || v3.Label() != "C" || v3.Traits() != Restrict || v3.Allocation() != d.Allocation() {
		t.Fatalf("View3: layout %v label %q traits %v", v3.Layout(), v3.Label(), v3.Traits())
	}
	v3.Set(1, 2, 3, 7)
	if d.At3(1, 2, 3) != 7 {
		t.Fatal("View3 does not share memory")
	}
	back := DynRankFrom[int](v3)
	if !back.Equal(d) || back.Traits() != Restrict {
		t.Fatal("DynRankFrom(View3()) differs from the original")
	}
	backp := DynRankFrom[int](&v3)
	if !backp.Equal(d) {
		t.Fatal("DynRankFrom(&View3) differs")
	}
	// layout rules
	_, err = d.AsLayout(LayoutRight)
	mustErr(t, err, `view "C" cannot become LayoutRight`)
	s, err := d.AsLayout(LayoutStride)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AsLayout(LayoutLeft); err != nil {
		t.Fatal(err)
	}
	mustErr(t, func() error { _, err := s.AsLayout(LayoutRight); return err }(), "LayoutStride view", "not those of LayoutRight")
	one, _ := NewDynRankView[int]("one", []int{5}, LayoutLeft)
	if _, err := one.AsLayout(LayoutRight); err != nil {
		t.Fatal("rank-1 LayoutLeft to LayoutRight:", err)
	}
	// every rank round-trips
	for rank := 0; rank <= MaxDynRank; rank++ {
		d, _ := NewDynRankView[int]("r", make([]int, rank))
		errs := []error{}
		for _, f := range []func() error{
			func() error { _, err := d.View0(); return err }, func() error { _, err := d.View1(); return err },
			func() error { _, err := d.View2(); return err }, func() error { _, err := d.View3(); return err },
			func() error { _, err := d.View4(); return err }, func() error { _, err := d.View5(); return err },
			func() error { _, err := d.View6(); return err }, func() error { _, err := d.View7(); return err },
		} {
			errs = append(errs, f())
		}
		for r, err := range errs {
			if (err == nil) != (r == rank) {
				t.Fatalf("rank %d: View%d error %v", rank, r, err)
			}
		}
	}
}

func TestDynRankWrap(t *testing.T) {
	data := []float64{1, 2, 3, 4, 5, 6, 7}
	d, err := WrapDynRankView(data, []int{2, 3}, WithLabel("w"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Label() != "w" || d.UseCount() != 0 || d.Traits()&Unmanaged == 0 || d.At2(1, 2) != 6 {
		t.Fatalf("wrap: label %q count %d at %v", d.Label(), d.UseCount(), d.At2(1, 2))
	}
	_, err = WrapDynRankView(data, []int{4, 2})
	mustErr(t, err, "the slice holds 7 elements, the view needs 8")
	s, err := WrapDynRankView(data, []int{2, 2}, WithStrides(1, 3))
	if err != nil {
		t.Fatal(err)
	}
	if s.Layout() != LayoutStride || s.At2(1, 1) != 5 {
		t.Fatalf("strided wrap: %v %v", s.Layout(), s.At2(1, 1))
	}
}

func TestDynRankSubview(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	d, err := NewDynRankView[float64]("S", []int{4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	data := d.Data()
	for i := range data {
		data[i] = randNonZero(rng)
	}
	s := d.Subview(2, All, Pair(1, 4))
	if s.Rank() != 2 || s.Extent(0) != 5 || s.Extent(1) != 3 || s.Extent(2) != 1 || s.Layout() != LayoutStride || s.Label() != "S" {
		t.Fatalf("subview rank %d extents %v layout %v", s.Rank(), s.Extents(), s.Layout())
	}
	for j := range 5 {
		for k := range 3 {
			if s.At2(j, k) != d.At3(2, j, k+1) {
				t.Fatalf("(%d, %d) differs", j, k)
			}
		}
	}
	// the same subview through the rank-typed view
	v3, _ := d.View3()
	w := v3.Subview2(2, All, Pair(1, 4))
	ws := DynRankFrom[float64](&w)
	if ws.Stride(0) != s.Stride(0) || ws.Stride(1) != s.Stride(1) || ws.Allocation() != s.Allocation() {
		t.Fatal("strides differ from View3.Subview2")
	}
	s0 := d.Subview(1, 2, 3)
	if s0.Rank() != 0 || s0.At0() != d.At3(1, 2, 3) {
		t.Fatal("rank-0 subview")
	}
	if m := d.Subview(1, 2); m.Rank() != 0 || m.At0() != d.At3(1, 2, 0) {
		t.Fatal("missing trailing Subview arguments are not 0")
	}
	mustPanic(t, func() { d.Subview(1, 2, 3, 1) }, `Subview of rank-3 DynRankView "S"`, "argument 3", "must be 0, All or Pair(0, 1)")
	mustPanic(t, func() { d.Subview(4, All, All) }, `index 4 of dimension 0 is out of bounds`)
	mustPanic(t, func() { d.Subview(0, Pair(2, 9), All) }, "range [2, 9) of dimension 1")
}

func TestDynRankRealloc(t *testing.T) {
	d, err := NewDynRankView[float64]("R", []int{3, 4, 5}, LayoutLeft)
	if err != nil {
		t.Fatal(err)
	}
	old := d
	d.Set3(1, 1, 1, 2.5)
	if err := d.Realloc([]int{5, 10}); err != nil {
		t.Fatal(err)
	}
	if d.Rank() != 2 || d.Extent(0) != 5 || d.Extent(1) != 10 || d.Layout() != LayoutLeft || d.Label() != "R" || d.At2(1, 1) != 0 {
		t.Fatalf("Realloc: rank %d extents %v layout %v", d.Rank(), d.Extents(), d.Layout())
	}
	if old.At3(1, 1, 1) != 2.5 {
		t.Fatal("Realloc changed the old view's elements")
	}
	mustErr(t, d.Realloc(make([]int, 9)), "rank 9 exceeds 7")
	if d.Rank() != 2 {
		t.Fatal("failed Realloc changed the view")
	}
}

func TestDynRankLayoutSpecAndStrides(t *testing.T) {
	d, _ := NewDynRankView[float32]("P", []int{3, 17}, AllowPadding)
	if d.Stride(0) != 32 || d.Span() != 2*32+17 || d.SpanIsContiguous() {
		t.Fatalf("padded strides %v span %d", d.Strides(), d.Span())
	}
	e, err := NewDynRankViewFrom[float32]("Q", d.LayoutSpec())
	if err != nil {
		t.Fatal(err)
	}
	if e.Rank() != 2 || e.Extent(1) != 17 || e.Stride(0) != 32 {
		t.Fatal("NewDynRankViewFrom")
	}
	if got := d.Strides(); len(got) != 3 || got[2] != 3*32 {
		t.Fatalf("Strides %v", got)
	}
}
