//go:build goexperiment.simd && amd64

package kernel

import (
	"simd/archsimd"
	"testing"
)

// histogramVector benchmarks the compare-and-count histogram with the
// bins as two vectors of eight: for each value, both compare with it and
// subtract the masks (-1 where equal) from the counts.
func histogramVector(b *testing.B, x []int32) {
	b.Run("compare-vector", func(b *testing.B) {
		lo := archsimd.LoadInt32x8(&[8]int32{0, 1, 2, 3, 4, 5, 6, 7})
		hi := archsimd.LoadInt32x8(&[8]int32{8, 9, 10, 11, 12, 13, 14, 15})
		for b.Loop() {
			sinkI32 = histVector(x, lo, hi)[3]
		}
	})
}

//go:noinline
func histVector(x []int32, lo, hi archsimd.Int32x8) [16]int32 {
	var c0, c1 archsimd.Int32x8
	for _, v := range x {
		w := archsimd.BroadcastInt32x8(v)
		c0 = c0.Sub(w.Equal(lo).ToInt32x8())
		c1 = c1.Sub(w.Equal(hi).ToInt32x8())
	}
	var count [16]int32
	c0.StoreSlice(count[:8])
	c1.StoreSlice(count[8:])
	return count
}
