package differences

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	k "github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
)

// oneDAL: "If an array owns immutable data, mutable_data is nullptr", and
// get_data() returns const T*. Go has no const slice: Data() of an
// immutable array is a []T the caller must not write; MutableData refuses,
// and a view of the array is read-only.
func TestDalImmutableDataIsAPlainSlice(t *testing.T) {
	src := []float64{rand.Float64(), rand.Float64(), rand.Float64()}
	a := dal.Wrap(src)
	if _, err := a.MutableData(); !errors.Is(err, dal.ErrNoMutableData) {
		t.Fatalf("MutableData of an immutable array: %v", err)
	}
	if d := a.Data(); &d[0] != &src[0] {
		t.Fatal("Data does not alias the wrapped slice")
	}
	v, err := a.View()
	if err != nil {
		t.Fatal(err)
	}
	if !v.IsReadOnly() {
		t.Fatal("the view of an immutable array is writable")
	}
	if panics(func() { v.Set(0, 1) }) == "" {
		t.Fatal("a write through the view of an immutable array did not panic")
	}
}

// oneDAL counts array objects; Go copies run no code, so a copy b := a
// borrows a's hold and is not counted, Share takes a hold of its own, and
// the release is explicit (no destructor): the deleter runs at the last
// Release, never when a variable goes out of scope.
func TestDalHoldsAreExplicit(t *testing.T) {
	calls := 0
	data := []int{1, 2, 3, 4}
	a := dal.WrapMutableWithDeleter(data, func() { calls++ })
	b := a // oneDAL's copy constructor counts it; here it borrows a's hold
	if a.UseCount() != 1 {
		t.Fatalf("UseCount after b := a: %d, want 1", a.UseCount())
	}
	c := a.Share() // the counted copy
	if a.UseCount() != 2 || b.UseCount() != 2 {
		t.Fatalf("UseCount after Share: %d", a.UseCount())
	}
	if err := c.Release(); err != nil || calls != 0 {
		t.Fatalf("release of the share: %v, deleter calls %d", err, calls)
	}
	if err := a.Release(); err != nil || calls != 1 {
		t.Fatalf("last release: %v, deleter calls %d", err, calls)
	}
	if !b.Released() || b.Count() != 0 {
		t.Fatal("a borrowed copy outlives its hold")
	}
	if err := b.Release(); !errors.Is(err, dal.ErrReleasedTwice) {
		t.Fatalf("release through the borrowed copy after the hold's: %v", err)
	}
}

// The seed's example written with Share, the counted copy, prints the
// seed's values and counts; written with b := a, need_mutable_data through
// the borrowed copy moves the one hold, so arr_data is released (oneDAL:
// arr_data still refers to the original data).
func TestDalSeedExampleCopies(t *testing.T) {
	data := []float32{1, 2, 3, 4}
	arrData := dal.Wrap(data)
	arrOnes, _ := dal.Full(4, float32(1))
	arrMData := arrData.Share()
	if err := arrMData.NeedMutableData(); err != nil {
		t.Fatal(err)
	}
	if arrData.HasMutableData() || !arrMData.HasMutableData() || arrData.UseCount() != 1 {
		t.Fatalf("after need_mutable_data: %v %v %d", arrData.HasMutableData(), arrMData.HasMutableData(), arrData.UseCount())
	}
	m, _ := arrMData.MutableData()
	for i, x := range arrOnes.Data() {
		m[i] += x
	}
	if !slices.Equal(m, []float32{2, 3, 4, 5}) || !slices.Equal(arrData.Data(), []float32{1, 2, 3, 4}) {
		t.Fatalf("values %v, original %v", m, arrData.Data())
	}

	naive := dal.Wrap(data)
	borrowed := naive
	if err := borrowed.NeedMutableData(); err != nil {
		t.Fatal(err)
	}
	if !naive.Released() {
		t.Fatal("the original of a borrowed copy that moved the hold is still live")
	}
	if panics(func() { naive.Data() }) == "" {
		t.Fatal("Data of the released original did not panic")
	}
	for _, a := range []*dal.Array[float32]{&arrData, &arrOnes, &arrMData, &borrowed} {
		if err := a.Release(); err != nil {
			t.Fatal(err)
		}
	}
}

// DynRankView's layout and space are run-time options, as View's.
func TestDynRankLayoutIsAnOption(t *testing.T) {
	d, err := k.NewDynRankView[float64]("D", []int{3, 4, 5}, k.LayoutLeft)
	if err != nil || d.Layout() != k.LayoutLeft || d.Stride(0) != 1 || d.Stride(2) != 12 {
		t.Fatalf("LayoutLeft DynRankView: %v", err)
	}
	if _, err := d.AsLayout(k.LayoutRight); !errors.Is(err, k.ErrLayout) {
		t.Fatalf("LayoutLeft to LayoutRight at rank 3: %v", err)
	}
}
