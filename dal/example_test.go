package dal_test

import (
	"fmt"

	"github.com/gokkos/kokkos/dal"
)

func printProperty(description string, property any) {
	fmt.Printf("%s: %v\n", description, property)
}

// The usage example of oneDAL's array, ported: the C++ copy constructor
// becomes Share, and each handle is released at the end of the scope.
func Example() {
	const dataCount = 4
	data := []float32{1, 2, 3, 4}

	// Creating an array from immutable user-defined memory.
	arrData := dal.Wrap(data)
	defer arrData.Release()

	// Creating an array from internally allocated memory filled by ones.
	arrOnes, err := dal.Full(dataCount, float32(1))
	if err != nil {
		panic(err)
	}
	defer arrOnes.Release()

	printProperty("Is arr_data mutable", arrData.HasMutableData()) // false
	printProperty("Is arr_ones mutable", arrOnes.HasMutableData()) // true

	// Creating new array from arrData without data copy: they share
	// ownership information.
	arrMData := arrData.Share()
	defer arrMData.Release()
	printProperty("arr_mdata elements count", arrMData.Count())      // equal to dataCount
	printProperty("Is arr_mdata mutable", arrMData.HasMutableData()) // false

	// Copying data inside arrMData to new mutable memory block.
	// arrData still refers to the original data.
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
	for i := range dataCount {
		mdata[i] += cones[i]
	}

	fmt.Println("the wrapped data is unchanged:", data)

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
	// the wrapped data is unchanged: [1 2 3 4]
	// arr_mdata values: 2, 3, 4, 5,
}
