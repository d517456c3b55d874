package dal_test

import (
	"slices"
	"testing"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
)

// The usage example of oneDAL's array document, with its holder counts:
// oneDAL's count is "the number of array objects sharing the same data",
// so the copy constructor makes the wrapped block's count 2, and
// need_mutable_data on the copy drops it back to 1 at once, the copy's new
// block counting 1. The deleter of the wrapped block runs once, at the
// release of its last holder. The data are random, not the example's.
func TestOneDALUsageExampleCounts(t *testing.T) {
	const dataCount = 4
	data := randFloat32(dataCount)
	orig := slices.Clone(data)
	var d deleter

	arrData := dal.WrapWithDeleter(data, d.fn())
	arrOnes, err := dal.Full(dataCount, float32(1.0))
	must(t, err)
	if arrData.HasMutableData() || !arrOnes.HasMutableData() || arrData.UseCount() != 1 {
		t.Fatalf("arr_data mutable %v, arr_ones mutable %v, arr_data uses %d", arrData.HasMutableData(), arrOnes.HasMutableData(), arrData.UseCount())
	}

	// dal::array<float> arr_mdata = arr_data;
	arrMData := arrData.Share()
	if arrMData.Count() != dataCount || arrMData.HasMutableData() || arrData.UseCount() != 2 || arrMData.UseCount() != 2 {
		t.Fatalf("after the copy: count %d, mutable %v, uses %d and %d; want %d, false, 2 and 2",
			arrMData.Count(), arrMData.HasMutableData(), arrData.UseCount(), arrMData.UseCount(), dataCount)
	}

	// arr_mdata.need_mutable_data(queue);
	must(t, arrMData.NeedMutableData())
	if arrData.HasMutableData() || !arrMData.HasMutableData() {
		t.Fatalf("after need_mutable_data: arr_data mutable %v, arr_mdata mutable %v", arrData.HasMutableData(), arrMData.HasMutableData())
	}
	if arrData.UseCount() != 1 || arrMData.UseCount() != 1 || arrData.Allocation() == arrMData.Allocation() {
		t.Fatalf("after need_mutable_data: uses %d (arr_data) and %d (arr_mdata), want 1 and 1 on two blocks", arrData.UseCount(), arrMData.UseCount())
	}
	if !same(arrData.Data(), data) {
		t.Fatal("arr_data no longer refers to the original data pointer")
	}

	mdata, err := arrMData.MutableData()
	must(t, err)
	cones := arrOnes.Data()
	kokkos.ParallelFor("array_addition", kokkos.Range(0, dataCount), func(idx int) {
		mdata[idx] += cones[idx]
	})
	for i := range dataCount {
		if arrMData.At(i) != orig[i]+1 || arrData.At(i) != orig[i] || data[i] != orig[i] {
			t.Fatalf("element %d: arr_mdata %v (want %v), arr_data %v (want %v)", i, arrMData.At(i), orig[i]+1, arrData.At(i), orig[i])
		}
	}

	// The end of the scope: the destructors.
	must(t, arrMData.Release())
	d.want(t, 0, "while arr_data holds the wrapped block")
	must(t, arrData.Release())
	d.want(t, 1, "after the last holder of the wrapped block")
	must(t, arrOnes.Release())
}
