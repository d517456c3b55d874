package cuda

import "testing"

// TestCopyKernelsCompile compiles every copy and fill program (each word
// size, 32- and 64-bit index arithmetic) with NVRTC, without a device.
func TestCopyKernelsCompile(t *testing.T) {
	requireNVRTC(t)
	t.Setenv(EnvCache, "off")
	for _, fill := range []bool{false, true} {
		for _, w := range copyWords {
			for _, wide := range []bool{false, true} {
				label := kernLabel(fill, w, wide)
				if _, err := compileSource(kernSource(fill, w, wide), label, 90, false, 0); err != nil {
					t.Errorf("%s: %v", label, err)
				}
			}
		}
	}
}

// TestReduceShape checks the reduction of copies to words: dropped unit
// extents, the destination's order, merged contiguous dimensions, and the
// inner dimension of multi-word elements.
func TestReduceShape(t *testing.T) {
	type tc struct {
		w, es, rank int
		ext, ds, ss [8]int
		want        kshape
	}
	for i, c := range []tc{
		// LayoutRight to LayoutRight, contiguous: one run.
		{8, 8, 2, [8]int{3, 4}, [8]int{4, 1}, [8]int{4, 1}, kshape{rank: 1, ext: [9]int{12}, ds: [9]int{1}, ss: [9]int{1}}},
		// LayoutLeft from LayoutRight: transposed dimensions.
		{8, 8, 2, [8]int{3, 4}, [8]int{1, 3}, [8]int{4, 1}, kshape{rank: 2, ext: [9]int{3, 4}, ds: [9]int{1, 3}, ss: [9]int{4, 1}}},
		// Unit extent dropped, 16-byte elements as two 8-byte words.
		{8, 16, 3, [8]int{1, 5, 2}, [8]int{10, 2, 1}, [8]int{10, 1, 5}, kshape{rank: 3, ext: [9]int{2, 2, 5}, ds: [9]int{1, 2, 4}, ss: [9]int{1, 10, 2}}},
		// Rank 0: one word.
		{4, 4, 0, [8]int{}, [8]int{}, [8]int{}, kshape{rank: 1, ext: [9]int{1}, ds: [9]int{1}, ss: [9]int{1}}},
	} {
		got := reduce(c.w, c.es, c.rank, &c.ext, &c.ds, &c.ss)
		if got != c.want {
			t.Errorf("case %d: got %+v, want %+v", i, got, c.want)
		}
	}
}
