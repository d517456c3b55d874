package cuda

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSplit checks on random ranges that the parts are consecutive, cover
// [begin, end) and differ in size by at most one, the larger first.
func TestSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for range 2000 {
		begin := rng.IntN(2000) - 1000
		end := begin + rng.IntN(300)
		parts := 1 + rng.IntN(12)
		next := begin
		prev := -1
		for k := range parts {
			lo, hi := Split(begin, end, parts, k)
			if lo != next || hi < lo {
				t.Fatalf("Split(%d, %d, %d, %d) = [%d, %d), want it to start at %d", begin, end, parts, k, lo, hi, next)
			}
			n := end - begin
			want := n / parts
			if k < n%parts {
				want++
			}
			if hi-lo != want {
				t.Fatalf("Split(%d, %d, %d, %d) has %d indices, want %d", begin, end, parts, k, hi-lo, want)
			}
			if prev >= 0 && (hi-lo > prev || prev-(hi-lo) > 1) {
				t.Fatalf("Split(%d, %d, %d, %d): size %d after %d", begin, end, parts, k, hi-lo, prev)
			}
			prev = hi - lo
			next = hi
		}
		if next != end {
			t.Fatalf("Split(%d, %d, %d, ·) ends at %d, want %d", begin, end, parts, next, end)
		}
	}
}

func TestSplitPanics(t *testing.T) {
	for _, c := range []struct{ begin, end, parts, k int }{
		{0, 10, 0, 0}, {0, 10, 3, 3}, {0, 10, 3, -1}, {5, 4, 2, 0},
	} {
		func() {
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if !strings.Contains(msg, "cuda.Split(") || !strings.Contains(msg, "want parts >= 1") {
					t.Errorf("Split(%d, %d, %d, %d) panicked with %v", c.begin, c.end, c.parts, c.k, r)
				}
			}()
			Split(c.begin, c.end, c.parts, c.k)
		}()
	}
}
