package differences

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	k "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/backend/backendtest"
)

// panics runs f and returns the text of its panic, or "" if it returned.
func panics(f func()) (s string) {
	defer func() {
		if r := recover(); r != nil {
			s = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func randomView2(t *testing.T, label string, n0, n1 int, opts ...k.Option) k.View2[float64] {
	t.Helper()
	v, err := k.NewView2[float64](label, n0, n1, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n0 {
		for j := range n1 {
			v.Set(i, j, rand.Float64())
		}
	}
	return v
}

// Kokkos counts the copies of a View (copy constructor, destructor); gokkos
// counts explicit holders: b := a and subviews leave UseCount at 1, Retain
// and Release move it. (View seed: "reference counted", use_count();
// DynRankView alike.)
func TestCopiesAreNotHolders(t *testing.T) {
	a := randomView2(t, "A", 4, 3)
	b := a
	s := a.Subview1(2, k.All)
	if a.UseCount() != 1 || b.UseCount() != 1 || s.UseCount() != 1 {
		t.Fatalf("UseCount after a copy and a subview: %d %d %d, want 1 (copies do not count)", a.UseCount(), b.UseCount(), s.UseCount())
	}
	b.Retain()
	if a.UseCount() != 2 {
		t.Fatalf("UseCount after Retain: %d, want 2", a.UseCount())
	}
	if err := b.Release(); err != nil {
		t.Fatal(err)
	}
	if a.UseCount() != 1 || !a.IsAllocated() {
		t.Fatalf("after Retain and Release: UseCount %d allocated %v", a.UseCount(), a.IsAllocated())
	}
	d := k.DynRankFrom(&a)
	if d.UseCount() != 1 {
		t.Fatalf("DynRankView copy: UseCount %d, want 1", d.UseCount())
	}
	if err := a.Release(); err != nil {
		t.Fatal(err)
	}
	if a.IsAllocated() || b.IsAllocated() {
		t.Fatal("a copy of a released view reports allocated")
	}
	if err := b.Release(); err == nil {
		t.Fatal("a second final Release through a copy succeeded")
	}
}

// Template parameters come in a fixed order in Kokkos; gokkos takes options
// in any order, and two different layouts or spaces are an error.
func TestOptionsAnyOrderConflictsAreErrors(t *testing.T) {
	a, err := k.NewView2[float64]("A", 3, 4, k.WithTraits(k.Restrict), k.LayoutLeft)
	if err != nil || a.Layout() != k.LayoutLeft || a.Traits() != k.Restrict {
		t.Fatalf("options in another order: %v %v %v", err, a.Layout(), a.Traits())
	}
	if _, err := k.NewView2[float64]("A", 3, 4, k.LayoutLeft, k.LayoutLeft); err != nil {
		t.Fatalf("a repeated option: %v", err)
	}
	_, err = k.NewView2[float64]("A", 3, 4, k.LayoutLeft, k.LayoutRight)
	if !errors.Is(err, k.ErrLayout) || !strings.Contains(err.Error(), "LayoutLeft") || !strings.Contains(err.Error(), "LayoutRight") {
		t.Fatalf("two layouts: %v", err)
	}
	_, err = k.NewView2[float64]("A", 3, 4, k.InSpace(k.HostSpace), k.InSpace(backendtest.FakeDevice(true)))
	if !errors.Is(err, k.ErrOption) {
		t.Fatalf("two spaces: %v", err)
	}
}

// const is a run-time flag: ReadOnly gives the same Go type, writes panic
// with the label, DeepCopy into it is ErrReadOnly, ReadOnlyData is the
// read-only hand-off of data(), and no conversion makes it writable.
func TestConstIsARunTimeFlag(t *testing.T) {
	a := randomView2(t, "A", 3, 4)
	var r k.View2[float64] = a.ReadOnly() // Kokkos: View<const double**>; View<double**> = it does not compile
	if msg := panics(func() { r.Set(1, 2, 5) }); !strings.Contains(msg, `"A"`) || !strings.Contains(msg, "read-only") {
		t.Fatalf("Set on a read-only view: %q", msg)
	}
	for name, f := range map[string]func(){
		"Ptr":  func() { r.Ptr(0, 0) },
		"Data": func() { r.Data() },
		"Row":  func() { r.Row(0) },
	} {
		if panics(f) == "" {
			t.Errorf("%s of a read-only view did not panic", name)
		}
	}
	if err := k.DeepCopy(&r, &a); !errors.Is(err, k.ErrReadOnly) {
		t.Fatalf("DeepCopy into a read-only view: %v", err)
	}
	data := k.ReadOnlyData(&r)
	if len(data) != 12 || data[1*4+2] != a.At(1, 2) {
		t.Fatalf("ReadOnlyData: %d elements", len(data))
	}
	// Every conversion keeps the flag: no call gives a writable view back.
	l, err := r.AsLayout(k.LayoutStride)
	if err != nil || !l.IsReadOnly() {
		t.Fatalf("AsLayout of a read-only view: %v read-only %v", err, l.IsReadOnly())
	}
	d := k.DynRankFrom(&r)
	if !d.IsReadOnly() {
		t.Fatal("DynRankFrom of a read-only view is writable")
	}
	v2, err := d.View2()
	if err != nil || !v2.IsReadOnly() {
		t.Fatalf("View2 of a read-only DynRankView: %v %v", err, v2.IsReadOnly())
	}
	if row := r.Subview1(0, k.All); !row.IsReadOnly() {
		t.Fatal("a subview of a read-only view is writable")
	}
}

// Go assignment works between identical types only; Kokkos's compatible
// assignments (layout, traits, rank-erased) are explicit conversions whose
// error names the rule they break. is_assignable is the error.
func TestAssignmentIsAConversion(t *testing.T) {
	a := randomView2(t, "A", 3, 4)
	s, err := a.AsLayout(k.LayoutStride) // View<double**, LayoutStride> s = a;
	if err != nil || s.At(2, 3) != a.At(2, 3) || s.Layout() != k.LayoutStride {
		t.Fatalf("AsLayout(LayoutStride): %v", err)
	}
	_, err = a.AsLayout(k.LayoutLeft) // View<double**, LayoutLeft> l = a; does not compile / aborts
	if !errors.Is(err, k.ErrLayout) {
		t.Fatalf("LayoutRight to LayoutLeft at rank 2: %v", err)
	}
	at, err := a.AsTraits(k.Atomic)
	if err != nil || at.Ref(1, 1).Load() != a.At(1, 1) {
		t.Fatalf("AsTraits(Atomic): %v", err)
	}
	// A rank-1 view converts between LayoutLeft and LayoutRight, as in Kokkos.
	v1, _ := k.NewView1[int]("v1", 5)
	if _, err := v1.AsLayout(k.LayoutLeft); err != nil {
		t.Fatalf("rank-1 LayoutRight to LayoutLeft: %v", err)
	}
}

// The memory space is a run-time value: a view of device memory fits a
// View2 variable (Kokkos: a HostSpace View from a CudaSpace one does not
// compile), and its host access panics with what to do.
func TestSpaceIsARunTimeValue(t *testing.T) {
	dev := backendtest.FakeDevice(false)
	var d k.View2[float64]
	d, err := k.NewView2[float64]("D", 3, 4, k.InSpace(dev))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Release()
	msg := panics(func() { d.At(1, 1) })
	if !strings.Contains(msg, `"D"`) || !strings.Contains(msg, "CreateMirrorView") {
		t.Fatalf("host access of device memory: %q", msg)
	}
	if panics(func() { d.Data() }) == "" {
		t.Fatal("Data of a device view did not panic")
	}
	// data() of a device view: the backend's description has the address.
	if k.Describe(&d).Addr == 0 {
		t.Fatal("Describe of a device view has no address")
	}
	h, err := k.CreateMirrorView(d)
	if err != nil || h.Space() != k.HostSpace {
		t.Fatalf("CreateMirrorView of a device view: %v %v", err, h.Space())
	}
	dd := k.DynRankFrom(&d)
	if panics(func() { dd.At2(0, 0) }) == "" {
		t.Fatal("host access of a device DynRankView did not panic")
	}
}

// Kokkos's member types have Go counterparts that are types or methods:
// value_type is the type parameter, HostMirror the same Go type,
// size_type int, dimension the extents, data_type the view type itself.
func TestMemberTypesAreTypeParameters(t *testing.T) {
	a := randomView2(t, "A", 3, 4)
	if got := valueType(&a); got != reflect.TypeFor[float64]() {
		t.Fatalf("value type %v", got)
	}
	m, err := k.CreateMirror(a) // typename V::HostMirror m = create_mirror(a)
	if err != nil {
		t.Fatal(err)
	}
	var _ k.View2[float64] = m // the same Go type: HostMirror is View2[T]
	if m.Space() != k.HostSpace || m.Traits() != 0 {
		t.Fatalf("mirror: %v %v", m.Space(), m.Traits())
	}
	var n int = a.Extent(1) // size_type: int
	if n != 4 || !reflect.DeepEqual(a.LayoutSpec().Extents, []int{3, 4}) {
		t.Fatalf("extents %d %v", n, a.LayoutSpec().Extents)
	}
	// rank_dynamic: every extent of a view is a run-time one; an array
	// element type holds the fixed part (View<double*[3]>).
	f, _ := k.NewView1[[3]float64]("F", 5)
	if f.Rank() != 1 || reflect.TypeFor[[3]float64]().Len() != 3 {
		t.Fatal("array element")
	}
}

func valueType[T any](k.View[T]) reflect.Type { return reflect.TypeFor[T]() }

// Layout is a closed set: LayoutRight, LayoutLeft and LayoutStride, which
// stands in for other strided mappings.
func TestLayoutIsAClosedSet(t *testing.T) {
	for _, l := range []k.Layout{k.LayoutRight, k.LayoutLeft, k.LayoutStride} {
		if l.String() == "" {
			t.Fatal("layout without a name")
		}
	}
	// A tiled or custom mapping is written as strides: a column-major 4x6
	// in blocks of rows, as LayoutStride.
	v, err := k.NewView2[float64]("S", 4, 6, k.WithStrides(6, 1))
	if err != nil || v.Layout() != k.LayoutStride || v.Stride(0) != 6 {
		t.Fatalf("WithStrides: %v", err)
	}
}

// AllowPadding follows Kokkos's rule and adds one cache line to rows of a
// whole multiple of 4 KiB.
func TestPaddingOfPageRows(t *testing.T) {
	for _, c := range []struct{ n, stride int }{{5, 5}, {8, 8}, {9, 16}, {13, 16}, {512, 520}, {4096, 4104}} {
		v, err := k.NewView2[float64]("P", 3, c.n, k.AllowPadding)
		if err != nil {
			t.Fatal(err)
		}
		if v.Stride(0) != c.stride {
			t.Errorf("padded float64 rows of %d: stride %d, want %d", c.n, v.Stride(0), c.stride)
		}
	}
}
