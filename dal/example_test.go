package dal_test

import (
	"fmt"

	"github.com/gokkos/kokkos"
	"github.com/gokkos/kokkos/dal"
)

func printProperty(description string, property any) {
	fmt.Printf("%s: %v\n", description, property)
}

// The usage example of oneDAL's array, ported line for line. The SYCL queue
// becomes the default execution space, and queue.submit(parallel_for).wait()
// becomes kokkos.ParallelFor, which returns when the kernel is done. The
// copy constructor dal::array<float> arr_mdata = arr_data becomes
// arrMData := arrData.Share(), a handle with a hold of its own, so that
// NeedMutableData through it moves only its own hold and leaves arrData on
// the original memory; the destructors at the end of the scope become the
// deferred Releases.
func Example() {
	const dataCount = 4
	data := []float32{1.0, 2.0, 3.0, 4.0}

	// Creating an array from immutable user-defined memory
	arrData := dal.Wrap(data)
	defer arrData.Release()

	// Creating an array from internally allocated memory filled by ones
	arrOnes, err := dal.Full(dataCount, float32(1.0))
	if err != nil {
		panic(err)
	}
	defer arrOnes.Release()

	printProperty("Is arr_data mutable", arrData.HasMutableData()) // false
	printProperty("Is arr_ones mutable", arrOnes.HasMutableData()) // true

	// Creating new array from arr_data without data copy - they share ownership information.
	arrMData := arrData.Share()
	defer arrMData.Release()
	printProperty("arr_mdata elements count", arrMData.Count())      // equal to data_count
	printProperty("Is arr_mdata mutable", arrMData.HasMutableData()) // false

	/// Copying data inside arr_mdata to new mutable memory block.
	/// arr_data still refers to the original data pointer.
	if err := arrMData.NeedMutableData(); err != nil {
		panic(err)
	}
	printProperty("Is arr_data mutable", arrData.HasMutableData())   // false
	printProperty("Is arr_mdata mutable", arrMData.HasMutableData()) // true

	mdata, err := arrMData.MutableData()
	if err != nil {
		panic(err)
	}
	cones := arrOnes.Data()
	kokkos.ParallelFor("array_addition", kokkos.Range(0, dataCount), func(idx int) {
		mdata[idx] += cones[idx]
	})

	fmt.Print("arr_mdata values: ")
	for i := range arrMData.Count() {
		fmt.Print(arrMData.At(i), ", ")
	}
	fmt.Println()

	// Output:
	// Is arr_data mutable: false
	// Is arr_ones mutable: true
	// arr_mdata elements count: 4
	// Is arr_mdata mutable: false
	// Is arr_data mutable: false
	// Is arr_mdata mutable: true
	// arr_mdata values: 2, 3, 4, 5,
}

// The holder counts of the example, which are oneDAL's "number of array
// objects sharing the same data": Share counts arr_mdata on the wrapped
// block, and NeedMutableData moves arr_mdata's hold to its new block, so
// the wrapped block's count drops back to one at once.
func Example_share() {
	data := []float32{1, 2, 3, 4}
	arrData := dal.Wrap(data)
	defer arrData.Release()

	arrMData := arrData.Share()
	defer arrMData.Release()
	fmt.Println("holders of the wrapped block:", arrData.UseCount())

	if err := arrMData.NeedMutableData(); err != nil {
		panic(err)
	}
	fmt.Println("after need_mutable_data:", arrData.UseCount(), arrMData.UseCount())
	mdata, err := arrMData.MutableData()
	if err != nil {
		panic(err)
	}
	for i := range mdata {
		mdata[i] *= 10
	}
	fmt.Println("arr_data mutable:", arrData.HasMutableData(), "values:", arrData.Data())
	fmt.Println("arr_mdata mutable:", arrMData.HasMutableData(), "values:", arrMData.Data())
	fmt.Println("the wrapped data is unchanged:", data)

	// Output:
	// holders of the wrapped block: 2
	// after need_mutable_data: 1 1
	// arr_data mutable: false values: [1 2 3 4]
	// arr_mdata mutable: true values: [10 20 30 40]
	// the wrapped data is unchanged: [1 2 3 4]
}

// Copy assignment b = a, which releases b's old block: a plain Go
// assignment b = a.Share() would leave b's old holder counted, so the
// deleter would not run.
func ExampleArray_Assign() {
	a := dal.Wrap([]int{1, 2, 3})
	defer a.Release()
	b := dal.WrapWithDeleter([]int{9, 9}, func() { fmt.Println("b's old block deleted") })
	defer b.Release()

	if err := b.Assign(a); err != nil { // C++: b = a;
		panic(err)
	}
	fmt.Println("b:", b.Data(), "holders:", a.UseCount())

	// Output:
	// b's old block deleted
	// b: [1 2 3] holders: 2
}

// Move assignment b = std::move(a): a is left empty and b takes its hold.
func ExampleArray_Move() {
	a := dal.Wrap([]int{1, 2, 3})
	var b dal.Array[int]
	if err := b.Move(&a); err != nil {
		panic(err)
	}
	defer b.Release()
	fmt.Println("a:", a.Count(), "elements; b:", b.Data(), "holders:", b.UseCount())

	// Output:
	// a: 0 elements; b: [1 2 3] holders: 1
}
