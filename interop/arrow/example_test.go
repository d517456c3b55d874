package arrow_test

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
	karrow "github.com/gokkos/kokkos/interop/arrow"
)

// An Arrow column becomes a view without a copy; the view keeps the
// Arrow memory alive after the array's Release, until its own.
func Example() {
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	b.AppendValues([]float64{1.5, 2.5, 3.5, 4.5}, nil)
	col := b.NewFloat64Array()
	b.Release()

	v, err := karrow.ToView1[float64](col)
	if err != nil {
		fmt.Println(err)
		return
	}
	col.Release() // the view still holds the values
	sum := kokkos.ParallelReduce("sum", kokkos.Range(0, v.Extent(0)), kokkos.Sum[float64](),
		func(i int, acc *float64) { *acc += v.At(i) })
	fmt.Println(v.Label(), v.Extent(0), v.IsReadOnly(), sum)
	_ = v.Release() // the last holder: Arrow's memory is released now
	// Output: arrow 4 true 12
}

// A view becomes an Arrow array of its elements; writes through the view
// show in the array.
func ExampleFromView1() {
	v := kokkos.Must(kokkos.NewView1[int32]("counts", 5))
	for i := range 5 {
		v.Set(i, int32(i*i))
	}
	arr, err := karrow.FromView1(v)
	if err != nil {
		fmt.Println(err)
		return
	}
	v.Set(0, 42)
	fmt.Println(arr, arr.DataType(), v.UseCount())
	arr.Release()
	fmt.Println(v.UseCount())
	_ = v.Release()
	// Output:
	// [42 1 4 9 16] int32 2
	// 1
}

// A dal.Array and an Arrow array share one block: each side releases its
// own holders, and the deleter runs after the last.
func ExampleFromArray() {
	a := dal.WrapWithDeleter([]uint8{7, 8, 9}, func() { fmt.Println("deleted") })
	arr, err := karrow.FromArray(a)
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = a.Release()
	fmt.Println(arr)
	arr.Release()
	// Output:
	// [7 8 9]
	// deleted
}

// Nulls are refused unless the caller asks for a copy with them filled.
func ExampleFillNulls() {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.AppendValues([]int64{1, 2, 0, 4}, []bool{true, true, false, true})
	col := b.NewInt64Array()
	b.Release()
	defer col.Release()

	_, err := karrow.ToView1[int64](col)
	fmt.Println(errors.Is(err, karrow.ErrNulls))
	fmt.Println(err)
	v, err := karrow.ToView1[int64](col, karrow.FillNulls[int64](-1))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Data())
	_ = v.Release()
	// Output:
	// true
	// arrow: ToView1[int64] of an Arrow array with 1 nulls among 4 values: pass FillNulls(x) for a copy with x in the null slots
	// [1 2 -1 4]
}

// A column-major view is a column-major tensor, and back a LayoutLeft view.
func ExampleTensorFromView2() {
	v := kokkos.Must(kokkos.NewView2[float32]("m", 2, 3, kokkos.LayoutLeft))
	for i := range 2 {
		for j := range 3 {
			v.Set(i, j, float32(10*i+j))
		}
	}
	t, err := karrow.TensorFromView2(v)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t.Shape(), t.Strides(), t.IsColMajor())
	w, err := karrow.TensorToView2[float32](t)
	if err != nil {
		fmt.Println(err)
		return
	}
	t.Release()
	fmt.Println(w.Layout(), w.At(1, 2))
	_ = w.Release()
	_ = v.Release()
	// Output:
	// [2 3] [4 8] true
	// LayoutLeft 12
}

// Each list of a fixed-size-list array is a row of a LayoutRight view.
func ExampleFixedSizeListToView2() {
	b := array.NewFixedSizeListBuilder(memory.DefaultAllocator, 3, arrow.PrimitiveTypes.Float64)
	values := b.ValueBuilder().(*array.Float64Builder)
	for i := range 2 {
		b.Append(true)
		values.AppendValues([]float64{float64(i), float64(i) + 0.5, float64(i) + 0.25}, nil)
	}
	list := b.NewArray().(*array.FixedSizeList)
	b.Release()

	v, err := karrow.FixedSizeListToView2[float64](list)
	if err != nil {
		fmt.Println(err)
		return
	}
	list.Release()
	fmt.Println(v.Extent(0), v.Extent(1), v.Layout(), v.At(1, 1))
	_ = v.Release()
	// Output: 2 3 LayoutRight 1.5
}
