package kokkos

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
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

// TestScanWorkers checks the slice scans and ParallelScan against a serial
// reference of the same block association, bit for bit, for several
// worker counts and lengths around the block and chunk sizes.
func TestScanWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	lengths := []int{0, 1, 31, reduceBlock + 1, 1000003}
	if testing.Short() {
		lengths = lengths[:4]
	}
	for _, workers := range []int{1, 2, 3, 7, 16} {
		s := NewThreads(workers)
		for _, n := range lengths {
			x := randFloats(r, n)
			xi := make([]int32, n)
			for i := range xi {
				xi[i] = int32(r.Uint32())
			}
			begin := min(3, n)
			// Reference: each block in order from the sum of the blocks
			// before it, the block sums joined in order.
			wantIn, wantEx := make([]float64, n), make([]float64, n)
			var pre float64
			for lo := begin; lo < n; lo += reduceBlock {
				var bs float64
				for i := lo; i < min(lo+reduceBlock, n); i++ {
					bs += x[i]
				}
				acc := pre
				for i := lo; i < min(lo+reduceBlock, n); i++ {
					wantEx[i] = acc
					acc += x[i]
					wantIn[i] = acc
				}
				pre += bs
			}
			wantInI, wantExI := make([]int32, n), make([]int32, n)
			var si int32
			for i := begin; i < n; i++ {
				wantExI[i] = si
				si += xi[i]
				wantInI[i] = si
			}
			p := Range(begin, n).On(s)
			in, ex := make([]float64, n), make([]float64, n)
			if got := InclusiveScan("in", p, in, x); math.Float64bits(got) != math.Float64bits(pre) {
				t.Fatalf("workers %d n %d: inclusive total %v, want %v", workers, n, got, pre)
			}
			if got := ExclusiveScan("ex", p, ex, x); math.Float64bits(got) != math.Float64bits(pre) {
				t.Fatalf("workers %d n %d: exclusive total %v, want %v", workers, n, got, pre)
			}
			body := make([]float64, n)
			got := ParallelScan("body", p, Sum[float64](), func(i int, acc *float64, final bool) {
				*acc += x[i]
				if final {
					body[i] = *acc
				}
			})
			if math.Float64bits(got) != math.Float64bits(pre) {
				t.Fatalf("workers %d n %d: ParallelScan total %v, want %v", workers, n, got, pre)
			}
			for i := range n {
				if math.Float64bits(in[i]) != math.Float64bits(wantIn[i]) || math.Float64bits(ex[i]) != math.Float64bits(wantEx[i]) || math.Float64bits(body[i]) != math.Float64bits(wantIn[i]) {
					t.Fatalf("workers %d n %d: [%d] = %v %v %v, want %v %v", workers, n, i, in[i], ex[i], body[i], wantIn[i], wantEx[i])
				}
			}
			ini, exi := make([]int32, n), make([]int32, n)
			InclusiveScan("ini", p, ini, xi)
			ExclusiveScan("exi", p, exi, xi)
			// In place.
			inplace := append([]int32(nil), xi...)
			if got := InclusiveScan("inplace", p, inplace, inplace); got != si {
				t.Fatalf("workers %d n %d: in-place total %d, want %d", workers, n, got, si)
			}
			for i := range n {
				if ini[i] != wantInI[i] || exi[i] != wantExI[i] || i >= begin && inplace[i] != wantInI[i] {
					t.Fatalf("workers %d n %d: int32 [%d] = %d %d %d, want %d %d", workers, n, i, ini[i], exi[i], inplace[i], wantInI[i], wantExI[i])
				}
			}
		}
		s.Close()
	}
}

// TestScanPanicReleases checks that a panic in one chunk of a scan does
// not leave the other goroutines waiting for it.
func TestScanPanicReleases(t *testing.T) {
	s := NewThreads(3)
	defer s.Close()
	n := 64 * reduceBlock
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	ParallelScan("boom", Range(0, n).On(s), Sum[int](), func(i int, acc *int, final bool) {
		if i == 5*reduceBlock+7 {
			panic("boom")
		}
		*acc += i
	})
}

func BenchmarkInclusiveScanInt32(b *testing.B) {
	n := 1 << 24
	x, y := make([]int32, n), make([]int32, n)
	for i := range x {
		x[i] = int32(i % 7)
	}
	b.SetBytes(int64(8 * n))
	for b.Loop() {
		InclusiveScan("bench", Range(0, n), y, x)
	}
}

func BenchmarkParallelScanInt32(b *testing.B) {
	n := 1 << 24
	x, y := make([]int32, n), make([]int32, n)
	for i := range x {
		x[i] = int32(i % 7)
	}
	b.SetBytes(int64(8 * n))
	for b.Loop() {
		ParallelScan("bench", Range(0, n), Sum[int32](), func(i int, acc *int32, final bool) {
			*acc += x[i]
			if final {
				y[i] = *acc
			}
		})
	}
}

// TestScanChunksMatchesScan checks that ParallelScanChunks gives the bits of
// ParallelScan on every space, each chunk a run of increasing indices with
// one final.
func TestScanChunksMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{0, 1, 1000, 20011} {
		x := randFloats(r, n)
		for _, s := range testSpaces(t) {
			want := make([]float64, n)
			wantTotal := ParallelScan("scan", Range(0, n).On(s), Sum[float64](), func(i int, acc *float64, final bool) {
				*acc += x[i]
				if final {
					want[i] = *acc
				}
			})
			got := make([]float64, n)
			gotTotal := ParallelScanChunks("scan", Range(0, n).On(s), Sum[float64](), func(lo, hi int, acc *float64, final bool) {
				if lo >= hi || lo < 0 || hi > n {
					t.Errorf("chunk [%d, %d) of %d", lo, hi, n)
					return
				}
				for i := lo; i < hi; i++ {
					*acc += x[i]
					if final {
						got[i] = *acc
					}
				}
			})
			if math.Float64bits(gotTotal) != math.Float64bits(wantTotal) {
				t.Fatalf("%s n %d: total %v, want %v", spaceName(s), n, gotTotal, wantTotal)
			}
			for i := range got {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("%s n %d: out[%d] = %v, want %v", spaceName(s), n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestScanVector: the vector kernels and the four-lane loop after them
// against a one-at-a-time scan, for every integer type, lengths around the
// vector widths, unaligned starts, wrapping sums and in place.
func TestScanVector(t *testing.T) {
	testScanVector[int8](t)
	testScanVector[uint16](t)
	testScanVector[int32](t)
	testScanVector[uint32](t)
	testScanVector[int64](t)
	testScanVector[uint64](t)
}

func testScanVector[T Integer](t *testing.T) {
	r := rand.New(rand.NewPCG(7, uint64(sizeOf[T]())))
	for _, n := range []int{0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 64, 1000} {
		for _, off := range []int{0, 1, 3} {
			for _, inclusive := range []bool{true, false} {
				src := make([]T, n+off)
				for i := range src {
					src[i] = T(r.Uint64())
				}
				acc0 := T(r.Uint64())
				want := make([]T, n)
				a := acc0
				for i, v := range src[off:] {
					if inclusive {
						a += v
						want[i] = a
					} else {
						want[i] = a
						a += v
					}
				}
				for k := range 4 {
					inPlace, stream := k&1 != 0, k&2 != 0
					s := append([]T(nil), src...)[off:]
					d := make([]T, n)
					if inPlace {
						d = s
					}
					acc, i := scanVector(d, s, acc0, inclusive, stream, nil)
					acc, j := scanExact(d[i:], s[i:], acc, inclusive)
					for k := i + j; k < n; k++ {
						if inclusive {
							acc += s[k]
							d[k] = acc
						} else {
							v := s[k]
							d[k] = acc
							acc += v
						}
					}
					if acc != a {
						t.Fatalf("%T n %d off %d inclusive %v in place %v stream %v: sum %v, want %v", acc, n, off, inclusive, inPlace, stream, acc, a)
					}
					for k := range want {
						if d[k] != want[k] {
							t.Fatalf("%T n %d off %d inclusive %v in place %v stream %v: [%d] = %v, want %v", acc, n, off, inclusive, inPlace, stream, k, d[k], want[k])
						}
					}
				}
			}
		}
	}
}

// TestScanPipelined drives the pipelined chunks (each goroutine taking its
// next chunk, prefetched and reduced, before it scans the current one)
// with many chunks per goroutine, on random data, for every worker count,
// against a loop over the indices: int32 through the vector kernels
// (streamed from 32 MiB, and from 16-byte-aligned and unaligned starts),
// int64 through the scalar lanes, and float64 through ParallelScanChunks
// against the same block association.
func TestScanPipelined(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	lengths := []int{64*reduceBlock + 5, 300*reduceBlock + 77}
	if !testing.Short() {
		lengths = append(lengths, 9<<20+13) // 36 MiB of int32: streamed
	}
	for _, workers := range []int{1, 2, 3, 7, 16} {
		s := NewThreads(workers)
		for _, n := range lengths {
			xi := make([]int32, n)
			for i := range xi {
				xi[i] = int32(r.Uint32())
			}
			for _, begin := range []int{0, 4, 3} {
				p := Range(begin, n).On(s)
				in, ex := make([]int32, n), make([]int32, n)
				ti := InclusiveScan("in", p, in, xi)
				te := ExclusiveScan("ex", p, ex, xi)
				var acc int32
				for i := begin; i < n; i++ {
					if ex[i] != acc {
						t.Fatalf("workers %d n %d begin %d: exclusive [%d] = %d, want %d", workers, n, begin, i, ex[i], acc)
					}
					acc += xi[i]
					if in[i] != acc {
						t.Fatalf("workers %d n %d begin %d: inclusive [%d] = %d, want %d", workers, n, begin, i, in[i], acc)
					}
				}
				if ti != acc || te != acc {
					t.Fatalf("workers %d n %d begin %d: totals %d %d, want %d", workers, n, begin, ti, te, acc)
				}
			}
			if n > 1<<20 {
				continue
			}
			xl := make([]int64, n)
			for i := range xl {
				xl[i] = int64(r.Uint64())
			}
			outl := make([]int64, n)
			var accl int64
			if got := InclusiveScan("inl", Range(0, n).On(s), outl, xl); got != sumInt64(xl) {
				t.Fatalf("workers %d n %d: int64 total %d", workers, n, got)
			}
			for i := range n {
				accl += xl[i]
				if outl[i] != accl {
					t.Fatalf("workers %d n %d: int64 [%d] = %d, want %d", workers, n, i, outl[i], accl)
				}
			}
			x := randFloats(r, n)
			want := make([]float64, n)
			var pre float64
			for lo := 0; lo < n; lo += reduceBlock {
				a := pre
				for i := lo; i < min(lo+reduceBlock, n); i++ {
					a += x[i]
					want[i] = a
				}
				var bs float64
				for i := lo; i < min(lo+reduceBlock, n); i++ {
					bs += x[i]
				}
				pre += bs
			}
			got := make([]float64, n)
			total := ParallelScanChunks("chunks", Range(0, n).On(s), Sum[float64](), func(lo, hi int, acc *float64, final bool) {
				for i := lo; i < hi; i++ {
					*acc += x[i]
					if final {
						got[i] = *acc
					}
				}
			})
			if math.Float64bits(total) != math.Float64bits(pre) {
				t.Fatalf("workers %d n %d: float64 total %v, want %v", workers, n, total, pre)
			}
			for i := range n {
				if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
					t.Fatalf("workers %d n %d: float64 [%d] = %v, want %v", workers, n, i, got[i], want[i])
				}
			}
		}
		s.Close()
	}
}

func sumInt64(x []int64) int64 {
	var s int64
	for _, v := range x {
		s += v
	}
	return s
}

// TestScanPanicLookAhead checks that a panic in the reduce pass of a chunk
// that a goroutine took ahead of the one it scans reaches the caller as a
// *PanicError, for every worker count, without leaving the others waiting.
func TestScanPanicLookAhead(t *testing.T) {
	n := 256 * reduceBlock
	for _, workers := range []int{1, 2, 3, 7, 16} {
		s := NewThreads(workers)
		// ParallelScan's chunks have 8 blocks; the first ones the
		// goroutines take are reduced up front, the later ones ahead.
		bad := (n / 8 * 7) + 11
		done := make(chan any, 1)
		go func() {
			done <- catchPanic(func() {
				ParallelScan("ahead", Range(0, n).On(s), Sum[int](), func(i int, acc *int, final bool) {
					if i == bad && !final {
						panic("look-ahead")
					}
					*acc += i
				})
			})
		}()
		select {
		case r := <-done:
			if pe, ok := r.(*PanicError); !ok || pe.Label != "ahead" || pe.Value != "look-ahead" {
				t.Fatalf("workers %d: panic %v, want a *PanicError from the body", workers, r)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("workers %d: a panic in a look-ahead chunk hung the scan", workers)
		}
		s.Close()
	}
}
