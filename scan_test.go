package kokkos

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestScans(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, s := range testSpaces(t) {
		for _, n := range []int{0, 1, 5, reduceBlock, 3*reduceBlock + 11, 50000} {
			src := make([]int64, n)
			for i := range src {
				src[i] = r.Int64N(1000) - 300
			}
			begin := min(2, n)
			wantIn, wantEx := make([]int64, n), make([]int64, n)
			var sum int64
			for i := begin; i < n; i++ {
				wantEx[i] = sum
				sum += src[i]
				wantIn[i] = sum
			}
			for _, chunk := range []int{0, 1, 3 * reduceBlock} {
				p := Range(begin, n).WithChunk(chunk).On(s)
				in, ex := make([]int64, n), make([]int64, n)
				ti := InclusiveScan("in", p, in, src)
				te := ExclusiveScan("ex", p, ex, src)
				if ti != sum || te != sum {
					t.Fatalf("%s n=%d: totals %d %d, want %d", spaceName(s), n, ti, te, sum)
				}
				for i := range n {
					if in[i] != wantIn[i] || ex[i] != wantEx[i] {
						t.Fatalf("%s n=%d chunk=%d: [%d] = %d, %d; want %d, %d", spaceName(s), n, chunk, i, in[i], ex[i], wantIn[i], wantEx[i])
					}
				}
			}
		}
	}
}

func TestScanFloatReproducible(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const n = 20000
	x := randFloats(r, n)
	var ref []float64
	var refTotal float64
	for k, s := range testSpaces(t) {
		for _, chunk := range []int{0, 1, 5000} {
			out := make([]float64, n)
			total := ParallelScan("fscan", Range(0, n).WithChunk(chunk).On(s), Sum[float64](), func(i int, acc *float64, final bool) {
				*acc += x[i]
				if final {
					out[i] = *acc
				}
			})
			if k == 0 && chunk == 0 {
				ref, refTotal = out, total
				var serial float64
				for i := range x {
					serial += x[i]
					if math.Abs(serial-out[i]) > 1e-9 {
						t.Fatalf("out[%d] = %v, serial %v", i, out[i], serial)
					}
				}
				continue
			}
			if math.Float64bits(total) != math.Float64bits(refTotal) {
				t.Fatalf("%s chunk %d: total %v, want %v", spaceName(s), chunk, total, refTotal)
			}
			for i := range out {
				if math.Float64bits(out[i]) != math.Float64bits(ref[i]) {
					t.Fatalf("%s chunk %d: out[%d] = %v, want %v", spaceName(s), chunk, i, out[i], ref[i])
				}
			}
		}
	}
}

func TestScanErrors(t *testing.T) {
	r := catchPanic(func() { InclusiveScan("short", Range(0, 10), make([]int, 10), make([]int, 9)) })
	want := `kokkos: InclusiveScan "short": RangePolicy(0, 10) out of range for len(dst) = 10, len(src) = 9`
	if r != want {
		t.Errorf("panic %q, want %q", r, want)
	}
	pe, ok := catchPanic(func() {
		ParallelScan("sp", Range(0, 9000), Sum[int](), func(i int, acc *int, final bool) {
			if final && i == 8000 {
				panic("scan")
			}
		})
	}).(*PanicError)
	if !ok || pe.Label != "sp" {
		t.Errorf("scan panic: %v", pe)
	}
}
