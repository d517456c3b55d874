package kokkos

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestAccessNeedsRankIndices gives every View rank and an OffsetView fewer
// indices than their rank: Access must panic naming the label, the indices
// and the extents, as Kokkos's access has no overload with fewer than
// rank indices, while rank indices, with or without trailing zeros, read
// the element that At reads, on random data.
func TestAccessNeedsRankIndices(t *testing.T) {
	for rank := 1; rank <= MaxRank; rank++ {
		ext := make([]int, rank)
		for r := range ext {
			ext[r] = 2 + rand.IntN(2)
		}
		v := newViewN(t, "acc", ext)
		d := v.viewDesc()
		for k := range d.data {
			d.data[k] = rand.Float64()
		}
		idx := make([]int, rank)
		for r := range idx {
			idx[r] = rand.IntN(ext[r])
		}
		want := atN(v, idx)
		if got := accessN(v, idx); got != want {
			t.Fatalf("rank %d: Access%v = %v, At = %v", rank, idx, got, want)
		}
		if rank < MaxRank {
			if got := accessN(v, append(append([]int(nil), idx...), 0)); got != want {
				t.Fatalf("rank %d: Access%v with a trailing 0 = %v, want %v", rank, idx, got, want)
			}
		}
		short := idx[:rank-1]
		mustPanic(t, func() { accessN(v, short) }, fmt.Sprintf("Access%s of rank-%d view %q with extents %s", fmtInts(short), rank, "acc", fmtInts(ext)))
	}
	v0 := Must(NewView0[float64]("zero"))
	v0.Set(1.5)
	if v0.Access() != 1.5 || v0.Access(0, 0) != 1.5 {
		t.Fatal("rank-0 Access does not read the element")
	}

	o := Must(NewOffsetView2[float64]("off", IndexRange{-1, 1}, IndexRange{2, 4}))
	o.Set(0, 3, 2.5)
	if o.Access(0, 3) != 2.5 {
		t.Fatal("OffsetView2.Access(0, 3) does not read the element")
	}
	mustPanic(t, func() { o.Access(0) }, `rank-2 view "off"`, "give between 2 and 8 indices")
}
