package kokkos

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gokkos/kokkos/backend"
)

// TestPolicyShape checks the index space a backend is handed for random
// policies against their own accessors, and the rank 0 of a policy no
// backend can run.
func TestPolicyShape(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	for range 200 {
		b, e, c := rng.IntN(100)-50, rng.IntN(100), rng.IntN(8)
		s := Range(b, e).WithChunk(c).Shape()
		if s.Rank != 1 || s.Lower[0] != b || s.Upper[0] != e || s.Chunk != c {
			t.Fatalf("Range(%d, %d).WithChunk(%d).Shape() = %+v", b, e, c, s)
		}
		r := 2 + rng.IntN(5)
		lo, hi, tile := make([]int, r), make([]int, r), make([]int, r)
		for d := range r {
			lo[d], hi[d], tile[d] = rng.IntN(10), 10+rng.IntN(10), rng.IntN(4)
		}
		it := []Iterate{IterateDefault, IterateLeft, IterateRight}[rng.IntN(3)]
		p := MDRange(lo, hi).Order(IterateRight, it)
		if rng.IntN(2) == 0 {
			p = p.Tile(tile...)
		} else {
			tile = make([]int, r)
		}
		s = p.Shape()
		want := map[Iterate]backend.Order{IterateDefault: backend.OrderDefault, IterateLeft: backend.OrderLeft, IterateRight: backend.OrderRight}[it]
		if s.Rank != r || !slices.Equal(s.Lower[:r], lo) || !slices.Equal(s.Upper[:r], hi) || !slices.Equal(s.Tile[:r], tile) || s.Inner != want {
			t.Fatalf("%v.Shape() = %+v", p, s)
		}
	}
	if s := MDRange([]int{0, 0}, []int{1, 1, 1}).Shape(); s.Rank != 0 {
		t.Errorf("bounds of different lengths: rank %d, want 0", s.Rank)
	}
	if s := MDRange(make([]int, 7), make([]int, 7)).Shape(); s.Rank != 0 {
		t.Errorf("rank 7: rank %d, want 0", s.Rank)
	}
}
