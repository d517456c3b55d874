package dal_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
)

func TestZeroArrayIsEmptyAndImmutable(t *testing.T) {
	var a dal.Array[float64]
	if a.Count() != 0 || a.Size() != 0 || a.Data() != nil || a.HasMutableData() || a.UseCount() != 0 {
		t.Fatalf("zero array: count %d size %d data %v mutable %v uses %d", a.Count(), a.Size(), a.Data(), a.HasMutableData(), a.UseCount())
	}
	if a.Space() != kokkos.HostSpace || a.Addr() != 0 || a.Allocation() != nil {
		t.Fatal("zero array: want HostSpace, address 0, no allocation")
	}
	_, err := a.MutableData()
	if !errors.Is(err, dal.ErrNoMutableData) {
		t.Fatalf("MutableData: %v", err)
	}
	wantErr(t, err, dal.ErrNoMutableData)
	wantPanic(t, dal.ErrRange, func() { a.At(0) })
	must(t, a.NeedMutableData())
	if a.HasMutableData() {
		t.Fatal("NeedMutableData of the empty array made it mutable")
	}
	s, err := a.Slice(0, 0)
	must(t, err)
	if s.Count() != 0 {
		t.Fatal("Slice(0, 0) of the empty array is not empty")
	}
	if b := a.Share(); b.Count() != 0 {
		t.Fatal("Share of the empty array is not empty")
	}
	must(t, a.Release())
	wantErr(t, a.Release(), dal.ErrReleasedTwice)
}

func TestEmptyZerosFull(t *testing.T) {
	v := randFloat64(1)[0]
	e, err := dal.Empty[float64](5)
	must(t, err)
	z, err := dal.Zeros[int32](7)
	must(t, err)
	f, err := dal.Full(9, v)
	must(t, err)
	if e.Count() != 5 || e.Size() != 40 || !e.HasMutableData() {
		t.Errorf("Empty(5): count %d, size %d, mutable %v", e.Count(), e.Size(), e.HasMutableData())
	}
	if z.Count() != 7 || z.Size() != 28 || !z.HasMutableData() {
		t.Errorf("Zeros(7): count %d, size %d, mutable %v", z.Count(), z.Size(), z.HasMutableData())
	}
	if f.Count() != 9 || f.Size() != 72 || !f.HasMutableData() {
		t.Errorf("Full(9): count %d, size %d, mutable %v", f.Count(), f.Size(), f.HasMutableData())
	}
	if slices.ContainsFunc(z.Data(), func(x int32) bool { return x != 0 }) {
		t.Errorf("Zeros: %v", z.Data())
	}
	for i := range f.Count() {
		if f.At(i) != v {
			t.Fatalf("Full: element %d is %v, want %v", i, f.At(i), v)
		}
	}
	md, err := f.MutableData()
	must(t, err)
	if !same(md, f.Data()) {
		t.Fatal("MutableData and Data of a mutable array differ")
	}
	if e.UseCount() != 1 || e.Space() != kokkos.HostSpace || e.Allocation().Label() != dal.DefaultLabel {
		t.Fatalf("Empty: uses %d, space %v, label %q", e.UseCount(), e.Space().Name(), e.Allocation().Label())
	}
	l, err := dal.Zeros[int8](3, dal.WithLabel("weights"))
	must(t, err)
	if l.Allocation().Label() != "weights" {
		t.Fatalf("label %q", l.Allocation().Label())
	}

	_, err = dal.Empty[float32](-1)
	wantErr(t, err, dal.ErrCount)
	_, err = dal.Full(-2, v)
	wantErr(t, err, dal.ErrCount)
	_, err = dal.Zeros[[1 << 20]byte](1 << 50)
	wantErr(t, err, dal.ErrCount)
	for _, a := range []*dal.Array[float64]{&e, &f} {
		must(t, a.Release())
	}
}

func TestAtPanicsNamingIndexAndCount(t *testing.T) {
	data := randFloat32(4)
	a := dal.Wrap(data)
	for i := range 4 {
		if a.At(i) != data[i] {
			t.Fatalf("At(%d) = %v, want %v", i, a.At(i), data[i])
		}
	}
	wantPanic(t, dal.ErrRange, func() { a.At(7) })
	wantPanic(t, dal.ErrRange, func() { a.At(-1) })
	wantPanic(t, dal.ErrRange, func() { a.At(4) })
	if err, _ := recovered(func() { a.At(9) }).(error); err == nil || err.Error() == "" {
		t.Fatal("the panic value of At is not an error with a message")
	}
}

func TestWrapIsZeroCopyAndNeverFrees(t *testing.T) {
	data := randFloat64(16)
	orig := slices.Clone(data)
	a := dal.Wrap(data)
	if !same(a.Data(), data) || a.Count() != 16 || a.Size() != 128 {
		t.Fatal("Wrap copied or changed the count")
	}
	if a.HasMutableData() {
		t.Fatal("Wrap is mutable")
	}
	_, err := a.MutableData()
	wantErr(t, err, dal.ErrNoMutableData)
	b := a.Share()
	must(t, a.Release())
	must(t, b.Release())
	if a.UseCount() != 0 || !a.Released() {
		t.Fatal("released handle still counts")
	}
	if !slices.Equal(data, orig) {
		t.Fatal("releasing a wrapped array changed the caller's data")
	}

	m := dal.WrapMutable(data)
	md, err := m.MutableData()
	must(t, err)
	md[3] = -md[3]
	if data[3] != -orig[3] {
		t.Fatal("a write through WrapMutable did not reach the caller's slice")
	}
	must(t, m.Release())

	var nilData []float32
	n := dal.Wrap(nilData)
	if n.Count() != 0 || n.Data() == nil || len(n.Data()) != 0 {
		t.Fatal("Wrap(nil) is not an empty array with a non-nil empty slice")
	}
	must(t, n.Release())
}

func TestReleasedHandleIsUnusable(t *testing.T) {
	a, err := dal.Full(4, randFloat32(1)[0])
	must(t, err)
	b := a // a copy: it borrows a's hold
	must(t, b.Release())
	if !a.Released() || a.Count() != 0 || a.Size() != 0 || a.HasMutableData() || a.UseCount() != 0 {
		t.Fatal("a released handle still reports data")
	}
	wantErr(t, a.Release(), dal.ErrReleasedTwice)
	wantPanic(t, dal.ErrReleased, func() { a.Data() })
	wantPanic(t, dal.ErrReleased, func() { a.At(0) })
	wantPanic(t, dal.ErrReleased, func() { a.Share() })
	wantPanic(t, dal.ErrReleased, func() { a.DiscardMutableData() })
	_, err = a.MutableData()
	if !errors.Is(err, dal.ErrReleased) {
		t.Fatalf("MutableData: %v", err)
	}
	wantErr(t, err, dal.ErrReleased)
	_, err = a.Slice(0, 1)
	wantErr(t, err, dal.ErrReleased)
	_, err = dal.Cast[int32](a)
	wantErr(t, err, dal.ErrReleased)
	wantErr(t, a.NeedMutableData(), dal.ErrReleased)
	_, err = a.View()
	wantErr(t, err, dal.ErrReleased)
	var c dal.Array[float32]
	wantErr(t, c.ResetAlias(a, nil), dal.ErrReleased)

	// A Reset form gives the released variable a new block and hold; the
	// copy keeps the released one.
	must(t, a.ResetCount(3))
	if a.Released() || !b.Released() || a.Count() != 3 || !a.HasMutableData() || a.UseCount() != 1 {
		t.Fatal("ResetCount did not revive the released variable, or revived its copy")
	}
	must(t, a.Release())
	wantErr(t, b.Release(), dal.ErrReleasedTwice)
}

// Data of an immutable array is the wrapped memory itself, not a copy (Go
// has no read-only slice, so dal documents the contract rather than
// enforcing it). Nothing in dal writes through an immutable handle: every
// path to a writable slice or view of it fails, and NeedMutableData and
// Clone copy.
func TestImmutableMemoryIsNeverWrittenByTheLibrary(t *testing.T) {
	data := randFloat64(32)
	orig := slices.Clone(data)
	a := dal.Wrap(data)
	if !same(a.Data(), data) {
		t.Fatal("Data of an immutable array copied")
	}

	_, err := a.MutableData()
	wantErr(t, err, dal.ErrNoMutableData)
	sl, err := a.Slice(3, 19)
	must(t, err)
	_, err = sl.MutableData()
	wantErr(t, err, dal.ErrNoMutableData)
	c, err := dal.Cast[uint64](sl)
	must(t, err)
	_, err = c.MutableData()
	wantErr(t, err, dal.ErrNoMutableData)
	var alias dal.Array[float64]
	must(t, alias.ResetAlias(a, a.Data()[5:9]))
	_, err = alias.MutableData()
	wantErr(t, err, dal.ErrNoMutableData)
	v, err := sl.View()
	must(t, err)
	if !v.IsReadOnly() || !panics(func() { v.Set(0, 1) }) {
		t.Fatal("the view of an immutable array is writable")
	}
	must(t, v.Release())

	// The copies made to write are private.
	cp := sl.Share()
	must(t, cp.NeedMutableData())
	cl, err := a.Clone()
	must(t, err)
	for _, h := range []dal.Array[float64]{cp, cl} {
		md, err := h.MutableData()
		must(t, err)
		for i, x := range randFloat64(len(md)) {
			md[i] = x + 2
		}
	}
	if !slices.Equal(data, orig) || !slices.Equal(a.Data(), orig) || !slices.Equal(sl.Data(), orig[3:19]) {
		t.Fatal("dal wrote the memory of an immutable array")
	}
	for _, h := range []*dal.Array[float64]{&a, &sl, &alias, &cl, &cp} {
		must(t, h.Release())
	}
	must(t, c.Release())
}
