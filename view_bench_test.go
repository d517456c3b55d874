package kokkos

import "testing"

// The access benchmarks sum a 4096×4096 view (and a 256×256×256 one) with At
// in loops matching the layout, next to the same loop over a plain slice.
// Compare each Benchmark*View* with its Benchmark*Slice* twin.

const benchN = 4096

var sinkF float64

func benchView2(b *testing.B, l Layout) View2[float64] {
	b.Helper()
	v, err := NewView2[float64]("bench", benchN, benchN, l)
	if err != nil {
		b.Fatal(err)
	}
	for i, d := 0, v.Data(); i < len(d); i++ {
		d[i] = float64(i%13) * 0.5
	}
	return v
}

func BenchmarkSum2Slice(b *testing.B) {
	v := benchView2(b, LayoutRight)
	d := v.Data()
	n0, n1 := benchN, benchN
	for b.Loop() {
		s := 0.0
		for i := 0; i < n0; i++ {
			for j := 0; j < n1; j++ {
				s += d[i*n1+j]
			}
		}
		sinkF = s
	}
}

func BenchmarkSum2ViewRight(b *testing.B) {
	v := benchView2(b, LayoutRight)
	for b.Loop() {
		s := 0.0
		for i := 0; i < v.Extent(0); i++ {
			for j := 0; j < v.Extent(1); j++ {
				s += v.At(i, j)
			}
		}
		sinkF = s
	}
}

func BenchmarkSum2ViewLeft(b *testing.B) {
	v := benchView2(b, LayoutLeft)
	for b.Loop() {
		s := 0.0
		for j := 0; j < v.Extent(1); j++ {
			for i := 0; i < v.Extent(0); i++ {
				s += v.At(i, j)
			}
		}
		sinkF = s
	}
}

func BenchmarkSum2ViewRow(b *testing.B) {
	v := benchView2(b, LayoutRight)
	for b.Loop() {
		s := 0.0
		for i := 0; i < v.Extent(0); i++ {
			for _, x := range v.Row(i) {
				s += x
			}
		}
		sinkF = s
	}
}

func BenchmarkSum2SliceRange(b *testing.B) {
	v := benchView2(b, LayoutRight)
	d := v.Data()
	for b.Loop() {
		s := 0.0
		for i := 0; i < benchN; i++ {
			for _, x := range d[i*benchN : (i+1)*benchN] {
				s += x
			}
		}
		sinkF = s
	}
}

const bench3 = 256

func benchView3(b *testing.B, l Layout) View3[float64] {
	b.Helper()
	v, err := NewView3[float64]("bench3", bench3, bench3, bench3, l)
	if err != nil {
		b.Fatal(err)
	}
	for i, d := 0, v.Data(); i < len(d); i++ {
		d[i] = float64(i%13) * 0.5
	}
	return v
}

func BenchmarkSum3Slice(b *testing.B) {
	v := benchView3(b, LayoutRight)
	d := v.Data()
	n := bench3
	for b.Loop() {
		s := 0.0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				for k := 0; k < n; k++ {
					s += d[(i*n+j)*n+k]
				}
			}
		}
		sinkF = s
	}
}

func BenchmarkSum3ViewRight(b *testing.B) {
	v := benchView3(b, LayoutRight)
	for b.Loop() {
		s := 0.0
		for i := 0; i < v.Extent(0); i++ {
			for j := 0; j < v.Extent(1); j++ {
				for k := 0; k < v.Extent(2); k++ {
					s += v.At(i, j, k)
				}
			}
		}
		sinkF = s
	}
}

func BenchmarkSum3ViewLeft(b *testing.B) {
	v := benchView3(b, LayoutLeft)
	for b.Loop() {
		s := 0.0
		for k := 0; k < v.Extent(2); k++ {
			for j := 0; j < v.Extent(1); j++ {
				for i := 0; i < v.Extent(0); i++ {
					s += v.At(i, j, k)
				}
			}
		}
		sinkF = s
	}
}

// BenchmarkSubview creates a subview into a local variable and reads its
// extent, as code that goes on to use the subview does.
func BenchmarkSubview(b *testing.B) {
	v := benchView2(b, LayoutRight)
	n := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		w := v.Subview1(i&1023, Pair(1, 100))
		n += w.Extent(0)
	}
	sinkF = float64(n)
}
