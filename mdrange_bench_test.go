package kokkos

import "testing"

// The MDRange benchmarks time the host loops of the MDRange patterns with a
// body as cheap as a body gets (a store or a load of one element), so that
// what they measure is the loop and the call of the body. Compare them with
// BenchmarkMDSlice2, the plain Go loop over the same elements.

const benchMD = 1024

func benchMDView2(b *testing.B) View2[float64] {
	b.Helper()
	v, err := NewView2[float64]("benchmd", benchMD, benchMD)
	if err != nil {
		b.Fatal(err)
	}
	for i, d := 0, v.Data(); i < len(d); i++ {
		d[i] = float64(i%13) * 0.5
	}
	return v
}

func BenchmarkMDSlice2(b *testing.B) {
	v := benchMDView2(b)
	d := v.Data()
	for b.Loop() {
		for i := range benchMD {
			row := d[i*benchMD : i*benchMD+benchMD]
			for j := range row {
				row[j] = float64(i + j)
			}
		}
	}
}

func BenchmarkMDFor2(b *testing.B) {
	v := benchMDView2(b)
	p := MDRange([]int{0, 0}, []int{benchMD, benchMD})
	for b.Loop() {
		ParallelForMD("bench", p, func(i, j int) { v.Set(i, j, float64(i+j)) })
	}
}

func BenchmarkMDFor3(b *testing.B) {
	v, err := NewView3[float64]("benchmd3", 128, 128, 64)
	if err != nil {
		b.Fatal(err)
	}
	p := MDRange([]int{0, 0, 0}, []int{128, 128, 64})
	for b.Loop() {
		ParallelForMD("bench", p, func(i, j, k int) { v.Set(i, j, k, float64(i+j+k)) })
	}
}

func BenchmarkMDFor2Left(b *testing.B) {
	v := benchMDView2(b)
	p := MDRange([]int{0, 0}, []int{benchMD, benchMD}).Order(IterateRight, IterateLeft)
	for b.Loop() {
		ParallelForMD("bench", p, func(i, j int) { v.Set(j, i, float64(i+j)) })
	}
}

func BenchmarkMDReduce2(b *testing.B) {
	v := benchMDView2(b)
	p := MDRange([]int{0, 0}, []int{benchMD, benchMD})
	for b.Loop() {
		sinkF = ParallelReduceMD("bench", p, Sum[float64](), func(i, j int, acc *float64) { *acc += v.At(i, j) })
	}
}

func BenchmarkMDTiles2(b *testing.B) {
	v := benchMDView2(b)
	p := MDRange([]int{0, 0}, []int{benchMD, benchMD})
	for b.Loop() {
		ParallelForTiles("bench", p, func(lo, hi [2]int) {
			for i := lo[0]; i < hi[0]; i++ {
				row, ij := v.Line(i)[lo[1]:hi[1]], i+lo[1]
				for j := range row {
					row[j] = float64(ij + j)
				}
			}
		})
	}
}

func BenchmarkMDReduceTiles2(b *testing.B) {
	v := benchMDView2(b)
	p := MDRange([]int{0, 0}, []int{benchMD, benchMD})
	for b.Loop() {
		sinkF = ParallelReduceTiles("bench", p, Sum[float64](), func(lo, hi [2]int, acc *float64) {
			s := *acc
			for i := lo[0]; i < hi[0]; i++ {
				for _, x := range v.Line(i)[lo[1]:hi[1]] {
					s += x
				}
			}
			*acc = s
		})
	}
}
