package mpi

import (
	"testing"

	"github.com/gokkos/kokkos"
)

// compact must hold exactly when the elements, walked in message order,
// lie at offsets 0, 1, 2, ... from the view's origin: the naive check.
func FuzzCompact(f *testing.F) {
	f.Add(uint8(2), uint8(0), uint32(0x0302), uint64(0x0000000000030001))
	f.Add(uint8(3), uint8(1), uint32(0x020304), uint64(0x0000000c00040001))
	f.Add(uint8(2), uint8(2), uint32(0x0505), uint64(0x0000000100000005))
	f.Fuzz(func(t *testing.T, rank, layout uint8, exts uint32, strides uint64) {
		d := kokkos.Description{Rank: 1 + int(rank%4)}
		d.Layout = []kokkos.Layout{kokkos.LayoutRight, kokkos.LayoutLeft, kokkos.LayoutStride}[layout%3]
		n := 1
		for r := range d.Rank {
			d.Extents[r] = int(exts>>(8*r)) % 6
			d.Strides[r] = int(strides>>(16*r)) % 64
			n *= d.Extents[r]
		}
		if n == 0 {
			return
		}
		ext := d.Extents[:d.Rank]
		order := messageLayout(&d)
		want, k := true, 0
		visit := func(idx []int) {
			off := 0
			for r, i := range idx {
				off += i * d.Strides[r]
			}
			if off != k {
				want = false
			}
			k++
		}
		walk(ext, order == kokkos.LayoutLeft, visit)
		if got := compact(&d); got != want {
			t.Fatalf("compact(rank %d, %v, extents %v, strides %v) = %v, the walk in %v order says %v",
				d.Rank, d.Layout, ext, d.Strides[:d.Rank], got, order, want)
		}
	})
}
