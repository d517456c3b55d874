package arrow

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/gokkos/kokkos"
)

const benchN = 1 << 20

// BenchmarkToView1 measures sharing an Arrow column of 2^20 float64 with a
// view and releasing the view: constant time, whatever the length.
func BenchmarkToView1(b *testing.B) {
	arr := newArray(memory.NewGoAllocator(), make([]float64, benchN), nil)
	defer arr.Release()
	for b.Loop() {
		v, err := ToView1[float64](arr)
		if err != nil {
			b.Fatal(err)
		}
		_ = v.Release()
	}
}

// BenchmarkFromView1 measures sharing a view of 2^20 float64 with Arrow
// and releasing the Arrow array.
func BenchmarkFromView1(b *testing.B) {
	v := kokkos.Must(kokkos.NewView1[float64]("v", benchN))
	defer v.Release()
	for b.Loop() {
		arr, err := FromView1(v)
		if err != nil {
			b.Fatal(err)
		}
		arr.Release()
	}
}

// BenchmarkCopyBaseline is what sharing saves: copying the column into a
// new view.
func BenchmarkCopyBaseline(b *testing.B) {
	arr := newArray(memory.NewGoAllocator(), make([]float64, benchN), nil).(*array.Float64)
	defer arr.Release()
	b.SetBytes(8 * benchN)
	for b.Loop() {
		v := kokkos.Must(kokkos.NewView1[float64]("copy", benchN, kokkos.WithoutInitializing))
		copy(v.Data(), arr.Values())
		_ = v.Release()
	}
}
