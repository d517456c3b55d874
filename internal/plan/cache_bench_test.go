package plan

import "testing"

// BenchmarkFillThenColumns fills a 4096×4096 float64 matrix (128 MiB),
// then every other column of it, as the side-by-side harness does, with
// the fill streamed (the fixed 32 MiB threshold) and with the threshold
// taken from the caches. On a machine whose caches hold the matrix the
// second fill finds it there only in the second case; where they do not
// (caches of 170 MiB and less) both cases stream and read the same.
func BenchmarkFillThenColumns(b *testing.B) {
	const m = 4096
	d := make([]float64, m*m)
	for _, c := range []struct {
		name string
		at   func() int
	}{
		{"streamed", func() int { return minStreamFillBytes }},
		{"cached", streamFillBytes},
	} {
		b.Run(c.name, func(b *testing.B) {
			defer func(f func() int) { streamFillBytes = f }(streamFillBytes)
			streamFillBytes = c.at
			b.SetBytes(8 * m * m * 3 / 2) // elements written: all, then half
			for b.Loop() {
				Fill(concurrent, d, []int{1}, []int{m * m}, 3.0)
				Fill(concurrent, d, []int{m, 2}, []int{m, m / 2}, 1.5)
			}
		})
	}
}
