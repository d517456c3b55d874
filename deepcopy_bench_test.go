package kokkos

import "testing"

// The copy benchmarks compare DeepCopy and Fill with plain Go on the same
// bytes in the same run; compare the MB/s of each Benchmark*DeepCopy* or
// Benchmark*Fill* with its baseline twin:
//
//	CopyContiguous:  DeepCopy of 128 MiB vs the built-in copy
//	Transpose:       LayoutLeft ← LayoutRight 4096×4096 float64 vs copy of
//	                 the same bytes (and a naive double loop)
//	FillStrided:     Fill of every other column of 4096×4096 vs a loop over
//	                 a contiguous slice of the same number of elements

const copyN = 4096 // 4096×4096 float64 = 128 MiB

func benchSlices(b *testing.B, n int) (d, s []float64) {
	b.Helper()
	d, s = make([]float64, n), make([]float64, n)
	for i := range s {
		s[i] = float64(i%17) + 1
	}
	copy(d, s) // touch the pages
	b.SetBytes(int64(n * 8))
	return d, s
}

func BenchmarkCopyContiguousBuiltin(b *testing.B) {
	d, s := benchSlices(b, copyN*copyN)
	for b.Loop() {
		copy(d, s)
	}
}

func BenchmarkCopyContiguousDeepCopy(b *testing.B) {
	d, s := benchSlices(b, copyN*copyN)
	dv, _ := WrapView1(d, len(d))
	sv, _ := WrapView1(s, len(s))
	for b.Loop() {
		if err := DeepCopy[float64](dv, sv); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTransposeNaive(b *testing.B) {
	d, s := benchSlices(b, copyN*copyN)
	for b.Loop() {
		for i := range copyN {
			for j := range copyN {
				d[i+j*copyN] = s[i*copyN+j]
			}
		}
	}
}

func BenchmarkTransposeDeepCopy(b *testing.B) {
	d, s := benchSlices(b, copyN*copyN)
	dv, _ := WrapView2(d, copyN, copyN, LayoutLeft)
	sv, _ := WrapView2(s, copyN, copyN, LayoutRight)
	for b.Loop() {
		if err := DeepCopy[float64](dv, sv); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFillContiguousLoop(b *testing.B) {
	d, _ := benchSlices(b, copyN*copyN/2)
	x := 1.5
	for b.Loop() {
		for i := range d {
			d[i] = x
		}
	}
}

func BenchmarkFillStrided(b *testing.B) {
	d, _ := benchSlices(b, copyN*copyN)
	b.SetBytes(copyN * copyN / 2 * 8)
	v, _ := WrapView2(d, copyN, copyN/2, WithStrides(copyN, 2))
	for b.Loop() {
		if err := Fill(View[float64](v), 1.5); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFillContiguousSpanLoop fills the whole 4096×4096 span that
// FillStrided writes every other element of: the same cache lines, twice
// the elements. A strided fill must read and write back every line it
// touches, so on a machine whose memory bandwidth one core saturates it is
// bounded by this baseline, not by FillContiguousLoop.
func BenchmarkFillContiguousSpanLoop(b *testing.B) {
	d, _ := benchSlices(b, copyN*copyN)
	b.SetBytes(copyN * copyN / 2 * 8)
	x := 1.5
	for b.Loop() {
		for i := range d {
			d[i] = x
		}
	}
}
