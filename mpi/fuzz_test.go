package mpi

import (
	"testing"

	"github.com/gokkos/kokkos/backend"
)

// contiguous must hold exactly when the offsets of the view's elements
// are 0, 1, ..., n-1 in some order (kokkos's span_is_contiguous for a
// mapping that gives every element its own offset): the naive check.
func FuzzContiguous(f *testing.F) {
	f.Add(uint8(2), uint32(0x0302), uint64(0x0000000000030001))
	f.Add(uint8(3), uint32(0x020304), uint64(0x0000000c00040001))
	f.Add(uint8(2), uint32(0x0505), uint64(0x0000000100000005))
	f.Add(uint8(2), uint32(0x0202), uint64(0x0000000300000000))
	f.Add(uint8(3), uint32(0x030204), uint64(0x0000000100040008))
	f.Fuzz(func(t *testing.T, rank uint8, exts uint32, strides uint64) {
		d := backend.View{Rank: 1 + int(rank%4)}
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
		seen := make([]bool, n)
		want := true
		walk(ext, false, func(idx []int) {
			off := 0
			for r, i := range idx {
				off += i * d.Strides[r]
			}
			if off >= n || seen[off] {
				want = false
				return
			}
			seen[off] = true
		})
		if got := contiguous(&d); got != want {
			t.Fatalf("contiguous(extents %v, strides %v) = %v, the offsets say %v", ext, d.Strides[:d.Rank], got, want)
		}
	})
}
