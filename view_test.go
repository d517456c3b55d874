package kokkos

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/gokkos/kokkos/backend"
	"github.com/gokkos/kokkos/internal/testutil"
)

// newViewN makes a rank-len(ext) float64 view through the rank-typed
// constructor (newViewR).
func newViewN(t testing.TB, label string, ext []int, opts ...Option) View[float64] {
	t.Helper()
	v, err := newViewR[float64](label, ext, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// atN and setN go through the rank-typed At and Set.
func atN(v View[float64], i []int) float64 {
	switch v := v.(type) {
	case View0[float64]:
		return v.At()
	case View1[float64]:
		return v.At(i[0])
	case View2[float64]:
		return v.At(i[0], i[1])
	case View3[float64]:
		return v.At(i[0], i[1], i[2])
	case View4[float64]:
		return v.At(i[0], i[1], i[2], i[3])
	case View5[float64]:
		return v.At(i[0], i[1], i[2], i[3], i[4])
	case View6[float64]:
		return v.At(i[0], i[1], i[2], i[3], i[4], i[5])
	case View7[float64]:
		return v.At(i[0], i[1], i[2], i[3], i[4], i[5], i[6])
	case View8[float64]:
		return v.At(i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7])
	}
	panic("unknown view")
}

// accessN returns v.Access(idx...) for any view kind of rank 0 to 8.
func accessN(v View[float64], idx []int) float64 {
	switch v := v.(type) {
	case View0[float64]:
		return v.Access(idx...)
	case View1[float64]:
		return v.Access(idx...)
	case View2[float64]:
		return v.Access(idx...)
	case View3[float64]:
		return v.Access(idx...)
	case View4[float64]:
		return v.Access(idx...)
	case View5[float64]:
		return v.Access(idx...)
	case View6[float64]:
		return v.Access(idx...)
	case View7[float64]:
		return v.Access(idx...)
	case View8[float64]:
		return v.Access(idx...)
	}
	panic("unknown view")
}

func setN(v View[float64], i []int, x float64) {
	switch v := v.(type) {
	case View0[float64]:
		v.Set(x)
	case View1[float64]:
		v.Set(i[0], x)
	case View2[float64]:
		v.Set(i[0], i[1], x)
	case View3[float64]:
		v.Set(i[0], i[1], i[2], x)
	case View4[float64]:
		v.Set(i[0], i[1], i[2], i[3], x)
	case View5[float64]:
		v.Set(i[0], i[1], i[2], i[3], i[4], x)
	case View6[float64]:
		v.Set(i[0], i[1], i[2], i[3], i[4], i[5], x)
	case View7[float64]:
		v.Set(i[0], i[1], i[2], i[3], i[4], i[5], i[6], x)
	case View8[float64]:
		v.Set(i[0], i[1], i[2], i[3], i[4], i[5], i[6], i[7], x)
	default:
		panic("unknown view")
	}
}

func randExtents(rng *rand.Rand, rank, lo, hi int) []int {
	ext := make([]int, rank)
	for i := range ext {
		ext[i] = lo + rng.IntN(hi-lo+1)
	}
	return ext
}

func TestLayoutStridesEveryRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for rank := 0; rank <= MaxRank; rank++ {
		ext := randExtents(rng, rank, 1, 4)
		for _, l := range []Layout{LayoutRight, LayoutLeft} {
			v := newViewN(t, "s", ext, l)
			d := v.viewDesc()
			want := 1
			for k := range rank {
				r := k
				if l == LayoutRight {
					r = rank - 1 - k
				}
				if d.str[r] != want {
					t.Fatalf("rank %d %v extents %v: stride %d = %d, want %d", rank, l, ext, r, d.str[r], want)
				}
				want *= ext[r]
			}
			if d.span() != want || d.size() != want {
				t.Fatalf("rank %d %v: span %d size %d, want %d", rank, l, d.span(), d.size(), want)
			}
			if d.layout != l || d.label() != "s" {
				t.Fatalf("layout %v label %q", d.layout, d.label())
			}
		}
	}
}

func TestPadding(t *testing.T) {
	r, err := NewView2[float64]("R", 5, 13, AllowPadding)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stride(0) != 16 || r.Stride(1) != 1 || r.Span() != 4*16+13 || r.Size() != 65 || r.SpanIsContiguous() {
		t.Fatalf("padded LayoutRight: strides %v span %d size %d", r.Strides(), r.Span(), r.Size())
	}
	l, _ := NewView3[float32]("L", 17, 4, 2, LayoutLeft, AllowPadding)
	if got := l.Strides(); fmt.Sprint(got) != "[1 32 128 256]" || l.Span() != 241 {
		t.Fatalf("padded LayoutLeft float32 strides+span = %v", got)
	}
	// element size that does not divide 64: no padding
	type rgb [3]uint8
	c, _ := NewView2[rgb]("C", 3, 5, AllowPadding)
	if c.Stride(0) != 5 {
		t.Fatalf("rgb stride %d, want 5", c.Stride(0))
	}
	// a padded view still indexes correctly
	rng := rand.New(rand.NewPCG(3, 4))
	ref := map[[2]int]float64{}
	for i := range 5 {
		for j := range 13 {
			x := rng.Float64()
			r.Set(i, j, x)
			ref[[2]int{i, j}] = x
		}
	}
	for k, x := range ref {
		if r.At(k[0], k[1]) != x {
			t.Fatalf("padded At%v = %v, want %v", k, r.At(k[0], k[1]), x)
		}
	}
	// a padded view's spec keeps its leading dimension, as Kokkos's layout
	// object keeps its stride
	if RequiredAllocationSizeFor[float64](r.LayoutSpec()) != 8*(4*16+13) {
		t.Fatalf("RequiredAllocationSizeFor(padded) = %d", RequiredAllocationSizeFor[float64](r.LayoutSpec()))
	}
}

func TestAccessEveryRankAndLayout(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for rank := 0; rank <= MaxRank; rank++ {
		ext := randExtents(rng, rank, 1, 3)
		// a permuted, gapped LayoutStride
		perm := rng.Perm(rank)
		str := make([]int, rank)
		s := 1
		for _, r := range perm {
			str[r] = s
			s *= ext[r] + rng.IntN(2)
		}
		for _, opt := range []Option{LayoutRight, LayoutLeft, WithStrides(str...)} {
			v := newViewN(t, fmt.Sprint("r", rank), ext, opt)
			d := v.viewDesc()
			ref := map[string]float64{}
			testutil.ForEachIndex(ext, func(idx []int) {
				x := rng.NormFloat64()
				setN(v, idx, x)
				ref[fmt.Sprint(idx)] = x
			})
			testutil.ForEachIndex(ext, func(idx []int) {
				want := ref[fmt.Sprint(idx)]
				off := 0
				for r, i := range idx {
					off += i * d.str[r]
				}
				if got := atN(v, idx); got != want || d.data[off] != want {
					t.Fatalf("rank %d %v: At%v = %v, data[%d] = %v, want %v", rank, d.layout, idx, got, off, d.data[off], want)
				}
				// Access with trailing zeros
				acc := append(append([]int(nil), idx...), make([]int, MaxRank-rank)...)
				if got := accessN(v, acc); got != want {
					t.Fatalf("Access%v = %v, want %v", acc, got, want)
				}
			})
			if len(ref) != d.size() {
				t.Fatalf("rank %d: visited %d elements, size %d", rank, len(ref), d.size())
			}
		}
	}
}

func expectPanic(t *testing.T, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Fatalf("no panic, want %q", want)
		}
		msg := fmt.Sprint(r)
		if err, ok := r.(error); ok {
			msg = err.Error()
		}
		if !strings.Contains(msg, want) {
			t.Fatalf("panic %q, want it to contain %q", msg, want)
		}
	}()
	f()
}

func TestAccessPanics(t *testing.T) {
	v, _ := NewView2[float64]("A", 3, 4)
	expectPanic(t, `kokkos: index (3, 0) out of bounds for view "A" with extents (3, 4)`, func() { v.At(3, 0) })
	expectPanic(t, `index (0, -1) out of bounds for view "A" with extents (3, 4)`, func() { v.Set(0, -1, 1) })
	expectPanic(t, `index (1, 4) out of bounds`, func() { v.Ptr(1, 4) })
	expectPanic(t, `index (5, 0) out of bounds for view "A" with extents (3, 4)`, func() { v.Access(5, 0) })
	expectPanic(t, `index 2 past the rank must be 0`, func() { v.Access(1, 1, 1) })
	expectPanic(t, `Access(0, 0, 0, 0, 0, 0, 0, 0, 0) of rank-2 view "A" with extents (3, 4): give between 2 and 8 indices`, func() { v.Access(0, 0, 0, 0, 0, 0, 0, 0, 0) })
	// Kokkos's access takes at least rank indices: fewer are a programmer
	// error, not an implicit 0.
	expectPanic(t, `Access(1) of rank-2 view "A" with extents (3, 4): give between 2 and 8 indices`, func() { v.Access(1) })
	expectPanic(t, `Access() of rank-2 view "A" with extents (3, 4)`, func() { v.Access() })
	v.Set(1, 0, 2.5)
	if v.Access(1, 0) != 2.5 || v.Access(1, 0, 0, 0) != 2.5 {
		t.Fatal("Access with rank indices, or trailing zeros, does not read the element")
	}
	expectPanic(t, `Stride(8) of a rank-2 view`, func() { v.Stride(8) })
	expectPanic(t, `Extent(8) of a rank-2 view`, func() { v.Extent(8) })
	if v.Extent(2) != 1 || v.Extent(7) != 1 {
		t.Fatal("extents past the rank must be 1")
	}
	var z View1[int]
	expectPanic(t, `the view is not allocated`, func() { z.At(0) })
	var z0 View0[int]
	expectPanic(t, `access to an unallocated view`, func() { z0.At() })
	if z.IsAllocated() || z.Label() != "" || z.Size() != 0 || z.Span() != 0 || z0.Size() != 0 {
		t.Fatal("zero view must be empty and unallocated")
	}
	expectPanic(t, `Row(1) of view "A" with extents (3, 4): dimension 1 has stride 3`, func() {
		l, _ := NewView2[float64]("A", 3, 4, LayoutLeft)
		l.Row(1)
	})
}

func TestReadOnly(t *testing.T) {
	v, _ := NewView2[int]("W", 2, 3)
	v.Set(1, 2, 42)
	r := v.ReadOnly()
	if !r.IsReadOnly() || v.IsReadOnly() || r.At(1, 2) != 42 {
		t.Fatal("ReadOnly must share data and mark only the new view")
	}
	expectPanic(t, `write to read-only view "W" at index (1, 2)`, func() { r.Set(1, 2, 0) })
	expectPanic(t, `write to read-only view "W" at index (0, 0)`, func() { r.Ptr(0, 0) })
	expectPanic(t, `Data of read-only view "W" would allow writes`, func() { r.Data() })
	expectPanic(t, `Row of read-only view "W"`, func() { r.Row(0) })
	s := r.Subview1(1, All)
	expectPanic(t, `write to read-only view "W"`, func() { s.Set(0, 1) })
	a, err := r.AsLayout(LayoutStride)
	if err != nil || !a.IsReadOnly() {
		t.Fatal("conversions must keep read-only")
	}
	if v.At(1, 2) != 42 {
		t.Fatal("value changed")
	}
}

func TestConversions(t *testing.T) {
	r2, _ := NewView2[float64]("R", 3, 4)
	if _, err := r2.AsLayout(LayoutLeft); err == nil || !strings.Contains(err.Error(),
		`view "R" cannot become LayoutLeft: a LayoutRight view of rank 2 converts only to LayoutStride`) {
		t.Fatalf("Right→Left rank 2: %v", err)
	}
	s, err := r2.AsLayout(LayoutStride)
	if err != nil || s.Layout() != LayoutStride || !s.Equal(s) {
		t.Fatalf("Right→Stride: %v", err)
	}
	back, err := s.AsLayout(LayoutRight)
	if err != nil || !back.Equal(r2) {
		t.Fatalf("Stride→Right with Right strides: %v", err)
	}
	if _, err := s.AsLayout(LayoutLeft); err == nil || !strings.Contains(err.Error(),
		`LayoutStride view "R" cannot become LayoutLeft: its strides (4, 1) for extents (3, 4) are not those of LayoutLeft`) {
		t.Fatalf("Stride→Left: %v", err)
	}
	r1, _ := NewView1[float64]("V", 5)
	l1, err := r1.AsLayout(LayoutLeft)
	if err != nil || l1.Layout() != LayoutLeft {
		t.Fatalf("rank-1 Right→Left: %v", err)
	}
	st, _ := NewView1[float64]("S", 5, WithStrides(2))
	if _, err := st.AsLayout(LayoutRight); err == nil {
		t.Fatal("rank-1 stride 2 must not become LayoutRight")
	}
	// a column subview of a LayoutLeft view is LayoutLeft-compatible
	l2, _ := NewView2[float64]("L", 3, 4, LayoutLeft, AllowPadding)
	col := l2.Subview2(All, Pair(1, 3))
	if col.Layout() != LayoutLeft {
		t.Fatalf("column range of LayoutLeft: %v", col.Layout())
	}
	cs, _ := col.AsLayout(LayoutStride)
	if _, err := cs.AsLayout(LayoutLeft); err != nil {
		t.Fatalf("padded Left strides must convert back: %v", err)
	}
	// equality
	if r2.Equal(back.ReadOnly()) != true {
		t.Fatal("read-only view of the same data is equal")
	}
	other, _ := NewView2[float64]("R", 3, 4)
	if r2.Equal(other) {
		t.Fatal("different allocations must differ")
	}
	if part := r2.Subview2(Pair(0, 2), All); part.Equal(r2) {
		t.Fatal("different extents must differ")
	}
}

func TestNewFromSpecAndWrap(t *testing.T) {
	a, _ := NewView3[int]("A", 2, 3, 4, LayoutLeft)
	b, err := NewView3From[int]("B", a.LayoutSpec())
	if err != nil || b.Layout() != LayoutLeft || fmt.Sprint(b.Strides()) != fmt.Sprint(a.Strides()) || b.Label() != "B" {
		t.Fatalf("NewView3From: %v %v", err, b.Strides())
	}
	if _, err := NewView2From[int]("C", a.LayoutSpec()); err == nil || !strings.Contains(err.Error(), `layout spec of rank 3 (extents (2, 3, 4)) given to a rank-2 constructor`) {
		t.Fatalf("rank mismatch: %v", err)
	}
	st, _ := NewView2[int]("S", 3, 2, WithStrides(1, 4))
	c, err := NewView2From[int]("C", st.LayoutSpec())
	if err != nil || c.Stride(1) != 4 || c.Span() != 7 {
		t.Fatalf("stride spec: %v %v", err, c.Strides())
	}

	data := make([]float64, 12)
	w, err := WrapView2(data, 3, 4, WithLabel("wrapped"))
	if err != nil {
		t.Fatal(err)
	}
	w.Set(2, 3, 7)
	if data[11] != 7 || w.UseCount() != 0 || w.Traits()&Unmanaged == 0 || w.Label() != "wrapped" {
		t.Fatal("WrapView2 must share the caller's slice and be unmanaged")
	}
	if w.Release() != nil || !w.IsAllocated() {
		t.Fatal("Release of an unmanaged view is a no-op")
	}
	if _, err := WrapView2(data, 4, 4); err == nil || !strings.Contains(err.Error(), "the slice holds 12 elements, the view needs 16") {
		t.Fatalf("short slice: %v", err)
	}
	if got := RequiredAllocationSize[float64](3, 4); got != 96 {
		t.Fatalf("RequiredAllocationSize = %d", got)
	}
	z, err := WrapView1[int](nil, 0)
	if err != nil || z.Size() != 0 {
		t.Fatalf("empty wrap: %v", err)
	}
}

func TestConstructorErrors(t *testing.T) {
	cases := []struct {
		f    func() error
		want string
	}{
		{func() error { _, err := NewView2[float64]("N", -1, 3); return err }, `view "N" with extents (-1, 3): extent -1 of dimension 0 is negative`},
		{func() error { _, err := NewView3[float64]("O", 1<<40, 1<<40, 1<<40); return err }, `overflow`},
		{func() error { _, err := NewView2[float64]("S", 3, 3, WithStrides(1)); return err }, `LayoutStride needs 2 strides, got 1`},
		{func() error { _, err := NewView2[float64]("S", 3, 3, WithStrides(1, 2)); return err }, `strides (1, 2) overlap for extents (3, 3)`},
		{func() error { _, err := NewView2[float64]("S", 3, 3, WithStrides(-1, 3)); return err }, `stride -1 of dimension 0 is negative`},
		{func() error { _, err := NewView1[struct{}]("T", 3, WithTraits(Atomic)); return err }, `element type struct {} has no bytes to update`},
		{func() error { _, err := NewView1[int]("U", 3, WithTraits(Unmanaged)); return err }, `the Unmanaged trait needs caller memory`},
		{func() error { _, err := NewView1[*int]("P", 3, InSpace(countingSpace{})); return err }, `element type *int holds Go pointers and cannot live in FakeDevice`},
	}
	for _, c := range cases {
		err := c.f()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// countingSpace is a BlockSpace the host cannot access, backed by Go memory,
// that counts frees.
type countingSpace struct{ frees *int }

func (countingSpace) Name() string         { return "FakeDevice" }
func (countingSpace) HostAccessible() bool { return false }
func (s countingSpace) Allocate(label string, n int, zero bool) (backend.Block, error) {
	if n > 1<<30 {
		return backend.Block{}, fmt.Errorf("out of memory for %q", label)
	}
	buf := make([]byte, n+1)
	return backend.Block{Addr: uintptr(unsafe.Pointer(&buf[0])), Free: func() error {
		buf = nil
		if s.frees != nil {
			*s.frees++
		}
		return nil
	}}, nil
}

func TestDeviceViewAndRelease(t *testing.T) {
	frees := 0
	d, err := NewView2[float64]("D", 4, 5, InSpace(checked(t, countingSpace{&frees})))
	if err != nil {
		t.Fatal(err)
	}
	if d.Space().Name() != "FakeDevice" || d.Allocation().Addr() == 0 || d.UseCount() != 1 {
		t.Fatal("device view metadata")
	}
	msg := `view "D" lives in FakeDevice, which the host cannot access (index (1, 2)): make a host mirror with CreateMirrorView and DeepCopy into it`
	expectPanic(t, msg, func() { d.At(1, 2) })
	expectPanic(t, `lives in FakeDevice`, func() { d.Set(1, 2, 3) })
	expectPanic(t, `Data of view "D": it lives in FakeDevice`, func() { d.Data() })
	sub := d.Subview1(1, Pair(1, 4))
	expectPanic(t, `lives in FakeDevice`, func() { sub.At(0) })
	if sub.Allocation() != d.Allocation() || sub.Label() != "D" {
		t.Fatal("subview must share the allocation")
	}
	d.Retain()
	if d.UseCount() != 2 {
		t.Fatalf("UseCount after Retain = %d", d.UseCount())
	}
	if err := sub.Release(); err != nil || frees != 0 || !d.IsAllocated() {
		t.Fatal("first release must not free")
	}
	if err := d.Release(); err != nil || frees != 1 || d.IsAllocated() || d.UseCount() != 0 {
		t.Fatalf("last release must free once: frees=%d", frees)
	}
	if err := d.Release(); err == nil || !strings.Contains(err.Error(), `allocation "D" released more times than it was held`) {
		t.Fatalf("over-release: %v", err)
	}
	expectPanic(t, `Retain of allocation "D" after its final Release`, func() { d.Retain() })
	if frees != 1 {
		t.Fatal("freed twice")
	}
	if _, err := NewView1[float64]("big", 1<<28, InSpace(countingSpace{&frees})); err == nil ||
		!strings.Contains(err.Error(), `allocating 2147483648 bytes for view "big" in FakeDevice: out of memory for "big"`) {
		t.Fatalf("allocation failure: %v", err)
	}
}

func TestHostRetainRelease(t *testing.T) {
	v, _ := NewView1[int]("H", 3)
	w := v // a Go copy does not count
	if w.UseCount() != 1 {
		t.Fatal("copy must not count")
	}
	w.Retain()
	if v.UseCount() != 2 || v.Release() != nil || v.UseCount() != 1 {
		t.Fatal("Retain/Release on host view")
	}
	if v.Release() != nil || v.IsAllocated() {
		t.Fatal("final release")
	}
}

func TestAtomicTrait(t *testing.T) {
	v, err := NewView1[float64]("acc", 2, WithTraits(Atomic|Restrict))
	if err != nil {
		t.Fatal(err)
	}
	if v.Traits() != Atomic|Restrict || v.Traits().String() != "Atomic|Restrict" {
		t.Fatalf("traits %v", v.Traits())
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				v.Ref(i % 2).Store(float64(g))
			}
		}()
	}
	wg.Wait()
	if x := v.Ref(0).Load(); x < 0 || x > 7 {
		t.Fatalf("torn value %v", x)
	}
	i32, _ := NewView2[int32]("i", 2, 2, WithTraits(Atomic))
	i32.Ref(1, 1).Store(-5)
	if i32.Ref(1, 1).Load() != -5 {
		t.Fatal("4-byte atomic store")
	}
}

func TestZeroExtentViews(t *testing.T) {
	v, err := NewView3[float64]("Z", 4, 0, 3)
	if err != nil {
		t.Fatal(err)
	}
	if v.Size() != 0 || v.Span() != 0 || !v.SpanIsContiguous() || len(v.Data()) != 0 {
		t.Fatal("zero-extent view must be empty")
	}
	expectPanic(t, `index (0, 0, 0) out of bounds for view "Z" with extents (4, 0, 3)`, func() { v.At(0, 0, 0) })
	s := v.Subview2(1, All, Pair(1, 1))
	if s.Size() != 0 || s.Extent(1) != 0 {
		t.Fatal("subview of empty view")
	}
	w, _ := NewView2[float64]("W", 4, 4)
	e := w.Subview2(Pair(4, 4), Pair(2, 2))
	if e.Size() != 0 || e.Span() != 0 {
		t.Fatal("zero-width subview")
	}
	e1 := w.Subview1(Pair(4, 4), 3)
	if e1.Extent(0) != 0 {
		t.Fatal("zero-width range at the end")
	}
	c, _ := NewView2[float64]("E", 0, 5, LayoutLeft)
	r, _ := NewView2[float64]("E", 5, 0)
	if len(c.Col(3)) != 0 || len(r.Row(4)) != 0 {
		t.Fatal("lines of empty views must be empty")
	}
	expectPanic(t, `Col(5) out of bounds for view "E" with extents (0, 5)`, func() { c.Col(5) })
	r0, _ := NewView0[float64]("s")
	r0.Set(2.5)
	if r0.At() != 2.5 || r0.Size() != 1 || r0.Span() != 1 || r0.Rank() != 0 {
		t.Fatal("rank-0 view")
	}
	*r0.Ptr() += 1
	if r0.Access(0, 0) != 3.5 {
		t.Fatal("rank-0 Ptr/Access")
	}
}

func TestLargeView64Bit(t *testing.T) {
	testutil.SkipUnlessLong(t, "allocates 4 GiB")
	if raceEnabled {
		t.Skip("allocates 4 GiB; skipped in -race runs")
	}
	const n0, n1 = 1<<16 + 1, 1 << 16 // more than 2^32 elements
	v, err := NewView2[uint8]("big", n0, n1)
	if err != nil {
		t.Fatal(err)
	}
	if v.Size() != n0*n1 || v.Size() <= 1<<32 {
		t.Fatalf("size %d", v.Size())
	}
	v.Set(n0-1, n1-1, 7)
	v.Set(n0-1, 5, 9)
	d := v.Data()
	if d[len(d)-1] != 7 || d[(n0-1)*n1+5] != 9 || v.At(n0-1, 5) != 9 {
		t.Fatal("indexing past 2^32 elements")
	}
	s := v.Subview1(n0-1, All)
	if s.At(n1-1) != 7 {
		t.Fatal("subview past 2^32 elements")
	}
}
