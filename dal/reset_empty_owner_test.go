package dal_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gokkos/kokkos/dal"
)

// TestResetAliasEmptyOwner: oneDAL's reset(array<U>(), data, count) aliases
// the empty ref's shared_ptr, which owns nothing, so the array refers to
// data without owning it (oneDAL's array_impl::reset(const array_impl<Y>&
// ref, const T* data, count): data_owned_ = cshared(ref.get_cshared(),
// data); the seed's ownership requirement 6: an array creates the ownership
// structure for a block not associated with one). ResetAlias with an empty
// owner makes the handle what Wrap (WrapMutable) makes: the elements are
// data's, writes through a mutable one reach data, and no release frees or
// changes data; the handle's old hold ends.
func TestResetAliasEmptyOwner(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 5))
	for _, mutable := range []bool{false, true} {
		for _, owner := range []dal.Owner{dal.Array[int32]{}, emptiedOwner(t)} {
			data := make([]float64, 1+rng.IntN(20))
			for i := range data {
				data[i] = rng.NormFloat64()
			}
			orig := slices.Clone(data)
			var d deleter
			a := dal.WrapWithDeleter(randFloat64(3), d.fn())
			if mutable {
				must(t, a.ResetAliasMutable(owner, data))
			} else {
				must(t, a.ResetAlias(owner, data))
			}
			d.want(t, 1, "after ResetAlias ended the old hold")
			if a.Count() != len(data) || a.HasMutableData() != mutable || a.UseCount() != 1 || a.Allocation() == nil {
				t.Fatalf("mutable %v: count %d, mutable %v, uses %d", mutable, a.Count(), a.HasMutableData(), a.UseCount())
			}
			if &a.Data()[0] != &data[0] {
				t.Fatal("ResetAlias with an empty owner copied the data")
			}
			for i := range data {
				if a.At(i) != data[i] {
					t.Fatalf("element %d: %v, want %v", i, a.At(i), data[i])
				}
			}
			if mutable {
				m, err := a.MutableData()
				must(t, err)
				k := rng.IntN(len(data))
				m[k] += 1
				orig[k] += 1
				if data[k] != orig[k] {
					t.Fatal("a write through the mutable handle did not reach data")
				}
			}
			// Sharers count; the last release frees nothing.
			s := a.Share()
			if a.UseCount() != 2 {
				t.Fatalf("UseCount after Share %d, want 2", a.UseCount())
			}
			must(t, a.Release())
			must(t, s.Release())
			if !slices.Equal(data, orig) {
				t.Fatal("releasing the handle changed data")
			}
		}
	}
}

// emptiedOwner returns an array that held a block and was Reset: empty.
func emptiedOwner(t *testing.T) dal.Owner {
	t.Helper()
	o := dal.WrapMutable([]uint8{1, 2, 3})
	o.Reset()
	if o.Count() != 0 || o.Allocation() != nil {
		t.Fatalf("Reset array: count %d, allocation %v", o.Count(), o.Allocation())
	}
	return o
}
